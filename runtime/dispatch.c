/* dispatch.c: what the trampolines (tramp-<target>.S) call: find the
 * handler (what the function's ops slot holds, or looked up from the
 * patched call's return address), and call it unless this thread is
 * already in one (the recursion guard: a handler may call instrumented
 * functions).  Through the slot nothing of the function's own is read
 * but the slot, next to its code (arm64's CALL_OPS): the handler gets the
 * function's address, and pfe_call_func looks the function up if asked.
 * With an exit handler, the function's return address is replaced by
 * pfe__tramp_return and kept on a per-thread stack; pfe__exit pops it.
 * No locks: it reads what api.c publishes with release stores, in a
 * read section (internal.h) that pfe_synchronize waits for; a retired
 * attachment's handlers are not called.
 *
 * Debugging: pfe_get_stats counts calls from unknown sites and the calls
 * the guard skipped; a breakpoint on pfe__dispatch sees every call.
 */
#include "internal.h"

/* Initial-exec: no __tls_get_addr call on the dispatch path.  libpfe is
 * linked or preloaded, so it is in the static TLS block; dlopen'ed, its 4
 * bytes come from glibc's surplus.  The exit stack (8 KB) is not: it
 * would not fit there. */
static _Thread_local __attribute__((tls_model("initial-exec"))) unsigned in_handler;

/* The exit hooks of this thread: where each diverted function really
 * returns to, innermost last. */
#define EXIT_DEPTH 256
struct pending_exit {
	uintptr_t ret;
	uintptr_t fn;
	struct pfe_func *func;		/* NULL: dispatched through the slot */
	struct pfe_attachment *att;
	uint64_t cookie;
};
static _Thread_local struct pending_exit exits[EXIT_DEPTH];
static _Thread_local unsigned nexits;

/* A binary search of the object's keys: they are one array apart from
 * the functions, so a search in a large object reads a few cache lines,
 * not a function's struct at every step. */
static struct pfe_func *lookup_in(const struct pfe_object *o, uintptr_t key)
{
	size_t i = pfe__lower_bound(o->keys, o->nkeys, sizeof *o->keys, 0, key);

	return i < o->nkeys && o->keys[i] == key ? o->by_key[i] : NULL;
}

struct pfe_func *pfe__lookup_key(uintptr_t key)
{
	size_t n = atomic_load_explicit(&pfe__nobjects, memory_order_acquire);

	for (size_t i = 0; i < n; i++) {
		const struct pfe_object *o = pfe__objects[i];

		if (key > o->lo && key <= o->hi && !atomic_load_explicit(&o->dead, memory_order_relaxed))
			return lookup_in(o, key);
	}
	return NULL;
}

static void dispatch(struct pfe_attachment *a, uintptr_t key, struct pfe_regs *regs)
{
	struct pfe_func *f = NULL;
	struct pfe_call call;
	uintptr_t fn;

	if (a) {
		fn = pfe__slot_entry(key);
	} else {
		/* The lookup trampoline, or a slot not written yet. */
		if (!(f = pfe__lookup_key(key))) {
			PFE_COUNT(unknown_calls, 1);
			return;
		}
		a = atomic_load_explicit(&f->att, memory_order_acquire);
		if (!a)
			return;
		fn = f->addr;
	}
	if (atomic_load(&a->retired))
		return;
	if (in_handler) {
		PFE_COUNT(recursion_skips, 1);
		return;
	}
	in_handler = 1;
	call.func = f;
	call.fn = (void *)fn;
	call.ret = (void *)*PFE_RETURN_SLOT(regs);
	call.regs = regs;
	call.retregs = NULL;
	call.data = a->data;
	call.cookie = 0;
	if (a->entry)
		a->entry(&call);
	if (a->exit && nexits == EXIT_DEPTH) {
		PFE_COUNT(exit_skips, 1);
	} else if (a->exit) {
		exits[nexits++] = (struct pending_exit){ *PFE_RETURN_SLOT(regs), fn, f, a, call.cookie };
		*PFE_RETURN_SLOT(regs) = (uintptr_t)pfe__tramp_return;
	}
	in_handler = 0;
}

/* In a read section (pfe_synchronize). */
void pfe__dispatch(struct pfe_attachment *a, uintptr_t key, struct pfe_regs *regs)
{
	unsigned epoch = pfe__read_begin();

	dispatch(a, key, regs);
	pfe__read_end(epoch);
}

/* A retired attachment's exit handler is not called. */
uintptr_t pfe__exit(struct pfe_retregs *r)
{
	struct pending_exit *e = &exits[--nexits];
	struct pfe_call call = { e->func, (void *)e->fn, (void *)e->ret, NULL, r, e->att->data, e->cookie };
	unsigned epoch = pfe__read_begin();

	in_handler = 1;
	if (!atomic_load(&e->att->retired))
		e->att->exit(&call);
	in_handler = 0;
	pfe__read_end(epoch);
	return e->ret;
}
