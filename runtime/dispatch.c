/* dispatch.c: what the trampolines (tramp-<target>.S) call: find the
 * handler (what the function's ops slot holds, or looked up from the
 * patched call's return address), and call it unless this thread is
 * already in one (the recursion guard: a handler may call instrumented
 * functions).  Through the slot nothing of the function's own is read
 * but the slot, next to its code (arm64's CALL_OPS): the handler gets the
 * function's address, and pfe_call_func looks the function up if asked.
 *
 * Exit hooks: a function with exit sleds (the plugin's exits) keeps its
 * return address: its entry pushes its exit on a per-thread stack, a
 * sled before each return and sibling call takes it (pfe__exit_sled).
 * Any other function's return address is replaced by
 * pfe__tramp_return and kept, with the function's CFA (the stack pointer
 * before its call), on a per-thread stack.  The CFA says which entries
 * belong to frames left without returning (longjmp, an exception caught
 * further out): every frame inner to a live one has a lower CFA, so when
 * a frame is entered, the entries just below its CFA (on the same stack)
 * are dropped, their exit handlers called with no return value; when one
 * returns, the entries after its own.  A tail call shares its caller's
 * CFA (its return address is pfe__tramp_return: it returns into its
 * caller's exit).  For an unwinder (unwind.c) the real
 * return addresses are put back into the frames before it walks them
 * (pfe__exits_restore) and the diversion into the frames that survive
 * once it has landed (pfe__exits_redivert).  A thread's exit stack
 * holds the exits of the stack it runs on: when it switches to another
 * (swapcontext, setcontext: a coroutine), they are parked (below).
 * No locks: it reads what api.c publishes with release stores, in a
 * read section (internal.h) that pfe_synchronize waits for; a retired
 * attachment's handlers are not called.
 *
 * Debugging: pfe_get_stats counts calls from unknown sites and the calls
 * the guard skipped; a breakpoint on pfe__dispatch sees every call; `p
 * exits[0]@pfe__nexits` in gdb shows this thread's pending exits.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "tramp-layout.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The trampolines save and restore the registers where tramp-layout.h
 * says; the structures the handlers read must have them there. */
#define SAVED_AT(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), \
		       #type "." #field " is not where tramp-<target>.S saves it (tramp-layout.h)")
#define SAVED_SIZE(type, size) \
	_Static_assert(sizeof(struct type) == (size), \
		       "struct " #type " is not as long as tramp-<target>.S saves (tramp-layout.h)")
#if defined(__x86_64__)
SAVED_AT(pfe_regs, rdi, PFE_REGS_RDI);
SAVED_AT(pfe_regs, rsi, PFE_REGS_RSI);
SAVED_AT(pfe_regs, rdx, PFE_REGS_RDX);
SAVED_AT(pfe_regs, rcx, PFE_REGS_RCX);
SAVED_AT(pfe_regs, r8, PFE_REGS_R8);
SAVED_AT(pfe_regs, r9, PFE_REGS_R9);
SAVED_AT(pfe_regs, rax, PFE_REGS_RAX);
SAVED_AT(pfe_regs, r10, PFE_REGS_R10);
SAVED_AT(pfe_regs, sp, PFE_REGS_SP);
SAVED_AT(pfe_regs, xmm, PFE_REGS_XMM);
SAVED_SIZE(pfe_regs, PFE_REGS_SIZE);
SAVED_AT(pfe_retregs, rax, PFE_RETREGS_RAX);
SAVED_AT(pfe_retregs, rdx, PFE_RETREGS_RDX);
SAVED_AT(pfe_retregs, xmm, PFE_RETREGS_XMM);
SAVED_SIZE(pfe_retregs, PFE_RETREGS_SIZE);
#elif defined(__i386__)
SAVED_AT(pfe_regs, eax, PFE_REGS_EAX);
SAVED_AT(pfe_regs, edx, PFE_REGS_EDX);
SAVED_AT(pfe_regs, ecx, PFE_REGS_ECX);
SAVED_AT(pfe_regs, sp, PFE_REGS_SP);
SAVED_AT(pfe_regs, fpu, PFE_REGS_FPU);
SAVED_SIZE(pfe_regs, PFE_REGS_SIZE);
SAVED_AT(pfe_retregs, eax, PFE_RETREGS_EAX);
SAVED_AT(pfe_retregs, edx, PFE_RETREGS_EDX);
SAVED_AT(pfe_retregs, fpu, PFE_RETREGS_FPU);
SAVED_SIZE(pfe_retregs, PFE_RETREGS_SIZE);
#elif defined(__aarch64__)
SAVED_AT(pfe_regs, x, PFE_REGS_X);
SAVED_AT(pfe_regs, x18, PFE_REGS_X18);
SAVED_AT(pfe_regs, lr, PFE_REGS_LR);
SAVED_AT(pfe_regs, sp, PFE_REGS_SP);
SAVED_AT(pfe_regs, v, PFE_REGS_V);
SAVED_SIZE(pfe_regs, PFE_REGS_SIZE);
SAVED_AT(pfe_retregs, x, PFE_RETREGS_X);
SAVED_AT(pfe_retregs, v, PFE_RETREGS_V);
SAVED_SIZE(pfe_retregs, PFE_RETREGS_SIZE);
#elif defined(__riscv)
SAVED_AT(pfe_regs, a, PFE_REGS_A);
SAVED_AT(pfe_regs, t2, PFE_REGS_T2);
SAVED_AT(pfe_regs, ra, PFE_REGS_RA);
SAVED_AT(pfe_regs, sp, PFE_REGS_SP);
SAVED_AT(pfe_regs, fa, PFE_REGS_FA);
SAVED_SIZE(pfe_regs, PFE_REGS_SIZE);
SAVED_AT(pfe_retregs, a, PFE_RETREGS_A);
SAVED_AT(pfe_retregs, fa, PFE_RETREGS_FA);
SAVED_SIZE(pfe_retregs, PFE_RETREGS_SIZE);
#endif

/* Initial-exec: no __tls_get_addr call on the dispatch path.  libpfe is
 * linked or preloaded, so its TLS is in the static TLS block; dlopen'ed,
 * or opened as an rtld-audit module (audit.c), it comes from glibc's
 * surplus, a few hundred bytes: libpfe's TLS is these 12, the rest of a
 * thread's state is mapped apart (struct pfe_thread). */
#define IE __attribute__((tls_model("initial-exec")))
/* What an exit sled's path calls, inlined: GCC kept call_exit apart,
 * and calls cost 1.8 ns of a 19.3 ns entry+exit (make bench's one
 * function, by hand); the search for a frame that is not the last
 * pending is out of line (find_sled_frame): inline, its loops and saved
 * registers cost the common case about 1 ns of 26. */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* The exit hooks of this thread, innermost last: PFE_EXIT_DEPTH. */
#define MAX_SAVED 2
struct pending_exit {
	uintptr_t ret;			/* where the function returns to */
	uintptr_t cfa;			/* the stack pointer before its call */
	uintptr_t fn;
	struct pfe_func *func;		/* NULL: dispatched through the slot */
	struct pfe_attachment *att;
	uint64_t cookie;
	/* Its function has exit sleds: its return address is its own
	 * (RET, the real one), its exit is taken at a sled (pfe__exit_sled). */
	bool sled;
	/* While an unwinder walks the stack: where the real return address
	 * was put back (pfe__exits_restore). */
	bool restored;
	unsigned char nsaved;
	uintptr_t *saved[MAX_SAVED];
};

/* Exits parked while their stack is switched away from: the ucontext
 * the stack was saved in (NULL: known by their CFAs alone), and a copy. */
struct parked {
	const void *ctx;
	unsigned n;
	struct pending_exit copy[];
};

/* A thread's own part of libpfe, taken from a pool (pool.c) at its first
 * handler call: its read section (below) and its exit stack.  pfe__drain
 * reads every block's section without a lock; when its thread ends (a
 * thread key's destructor) a block is free for the next. */
struct pfe_thread {
	struct pfe_pooled pooled;		/* first: the pool's */
	_Atomic uintptr_t section;		/* 0, or where it began | 1 + its
						 * epoch's parity (below) */
	struct pending_exit exits[PFE_EXIT_DEPTH];
};
static struct pfe_pooled *_Atomic threads;
#define for_each_thread(t) \
	for (struct pfe_thread *t = (struct pfe_thread *)atomic_load_explicit(&threads, memory_order_acquire); t; \
	     t = (struct pfe_thread *)t->pooled.next)
static pthread_key_t self_key;
static bool self_key_made;
static _Thread_local IE struct pfe_thread *self;
/* Not static: the exit sleds' trampoline reads it first, then
 * pfe__parked (no exit pending on this thread and no stack parked:
 * nothing to do). */
HIDDEN _Thread_local IE unsigned pfe__nexits;
/* The stacks switched away from, by every thread (a coroutine may be
 * resumed on another), indexed (below) under parked_lock; pfe__parked
 * counts them. */
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;
HIDDEN _Atomic unsigned pfe__parked;
/* This thread's exit stack: self is set whenever pfe__nexits is not 0. */
#define exits (self->exits)

static void leave_frames_from(unsigned i);

/* The thread ends: the frames it still has exits pending for were left
 * (a cancellation's forced unwind through exit sleds' frames, which
 * nothing diverted), their exits taken now.  Those of the stacks it
 * parked stay parked: another thread may resume them. */
static void thread_ends(void *block)
{
	struct pfe_thread *t = block;

	if (t == self)
		leave_frames_from(0);
	self = NULL;
	pfe__nexits = 0;
	pfe__pool_give_back(&t->pooled);
}

/* fork (pfe__fork_prepare and the rest): the child's parked stacks as
 * they were (its one thread may resume them), their lock free. */
void pfe__parked_lock(void)
{
	pthread_mutex_lock(&parked_lock);
}

void pfe__parked_unlock(void)
{
	pthread_mutex_unlock(&parked_lock);
}

void pfe__threads_init(void)
{
	self_key_made = pthread_key_create(&self_key, thread_ends) == 0;
}

/* A block for this thread: a free one, else a new one (kept for good
 * when there is no thread key to free it); false if there is no memory. */
static __attribute__((noinline)) bool take_block(void)
{
	struct pfe_thread *t = (struct pfe_thread *)pfe__pool_take(&threads, sizeof *t, NULL);

	if (!t)
		return false;
	self = t;
	if (self_key_made)
		pthread_setspecific(self_key, t);
	return true;
}

/* Whether this thread has its block (taken at its first handler: inline,
 * it is a test on every call); false if there is no memory: the thread
 * calls no handler. */
static ALWAYS_INLINE bool thread_ready(void)
{
	return self || take_block();
}

void pfe__threads_forked(void)
{
	for_each_thread(t) {
		if (t == self)
			continue;
		atomic_store(&t->section, 0);
		pfe__pool_give_back(&t->pooled);
	}
}

/* Read sections: every handler call (the dispatch, each exit call),
 * and the recursion guard: a thread in one calls no handler from a
 * dispatch (a handler may call instrumented functions; so may a signal
 * handler that interrupts one).  pfe_synchronize flips the epoch and
 * waits until no thread is in a section of the old one (pfe__drain,
 * twice: one may have read the epoch before a flip and marked itself
 * after).  A reader checks what it calls (retired) after marking itself.
 * One word a thread, its own: while it is in a section, where on the
 * stack the section began (section_mark) | 1 + the epoch's parity, else
 * 0.  No read-modify-write: a signal handler's section
 * begins and ends while the one it interrupted is not yet marked, or
 * finds it marked (then a section nested, as an exit taken in one, keeps
 * that mark: it ends inside the section marked); the barrier that orders
 * the mark before that check is pfe__drain's membarrier, which every
 * thread executes: a reader that saw an attachment not retired yet is
 * marked where pfe__drain looks.  One word where there were a count per
 * epoch and a thread-local guard: make bench's entry+exit on one function
 * 0.9 ns faster, entry only 1.3 (runtime/README.md). */
static _Atomic unsigned epoch;

#define SECTION_EPOCH ((uintptr_t)3)

/* Where a section begins, for section_left: the CFA of the call whose
 * handler runs in it, or a frame of libpfe's.  Every handler and every
 * call a handler makes runs below it on the stack. */
#define section_mark(here) ((uintptr_t)(here) & ~SECTION_EPOCH)

/* Whether a section begun at MARK was left: HERE, the CFA of a call now
 * (or a frame of libpfe's), is at or above it, on the same stack.  A
 * signal handler that interrupted a handler and siglongjmp'ed out (a
 * stack overflow recovered, as libsigsegv and gnulib's c-stack do) leaves
 * its section marked: every later handler of the thread would be skipped
 * as recursion, and pfe_synchronize would wait for it until it gave up.
 * Not on a sigaltstack: HERE there says nothing of the stack interrupted.
 * Out of line: only a thread found in a section gets here. */
static __attribute__((noinline)) bool section_left(uintptr_t mark, uintptr_t here)
{
	stack_t ss;

	return section_mark(here) >= mark && !(sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK));
}

/* What this thread's section word is at HERE (section_left): 0 when it is
 * in none, a section left closed now. */
static ALWAYS_INLINE uintptr_t section_at(uintptr_t here)
{
	uintptr_t was = atomic_load_explicit(&self->section, memory_order_relaxed);

	if (was && section_left(section_mark(was), here)) {
		atomic_store_explicit(&self->section, 0, memory_order_relaxed);
		was = 0;
	}
	return was;
}

/* Whether this thread is in a section at HERE: running a handler. */
static ALWAYS_INLINE bool in_handler(uintptr_t here)
{
	return self && section_at(here);
}

/* This thread (its block taken) enters a section at HERE: it is in none. */
static ALWAYS_INLINE void section_enter(uintptr_t here)
{
	uintptr_t e = atomic_load_explicit(&epoch, memory_order_acquire) & 1;

	atomic_store_explicit(&self->section, section_mark(here) | (1 + e), memory_order_relaxed);
	atomic_signal_fence(memory_order_seq_cst);
}

static ALWAYS_INLINE void section_leave(void)
{
	atomic_store_explicit(&self->section, 0, memory_order_release);
}

/* A section at HERE, in one or not: what the thread was in, for
 * section_unnest. */
static uintptr_t section_nest(uintptr_t here)
{
	uintptr_t was = section_at(here);

	if (!was)
		section_enter(here);
	return was;
}

static void section_unnest(uintptr_t was)
{
	if (!was)
		section_leave();
}

void pfe__section_close_left(uintptr_t here)
{
	(void)in_handler(here);
}

static bool reading(unsigned e)
{
	for_each_thread(t)
		if ((atomic_load_explicit(&t->section, memory_order_acquire) & SECTION_EPOCH) == 1 + e)
			return true;
	return false;
}

int pfe__drain(unsigned timeout_ms)
{
	unsigned old = atomic_fetch_add(&epoch, 1) & 1;
	struct timespec pause = { 0, 100000 };
	int err = pfe__membarrier();

	for (unsigned waited = 0; !err && reading(old); waited++) {
		if (waited / 10 >= timeout_ms)
			return PFE_EBUSY;
		nanosleep(&pause, NULL);
	}
	return err;
}

struct pfe_key_slot *pfe__lookup_key(uintptr_t key)
{
	size_t n = atomic_load_explicit(&pfe__nobjects, memory_order_acquire);

	for (size_t i = 0; i < n; i++) {
		const struct pfe_object *o = pfe__objects[i];

		if (key > o->lo && key <= o->hi && !atomic_load_explicit(&o->dead, memory_order_relaxed))
			return pfe__key_slot(o, key);
	}
	return NULL;
}

/* The first entry of the frame of exits[I]: a tail call's entry returns
 * into its caller's (the one before it, at the same CFA). */
static unsigned frame_first(unsigned i)
{
	while (i > 0 && exits[i].ret == (uintptr_t)pfe__tramp_return)
		i--;
	return i;
}

/* Where frame I returns to once all its exits are taken. */
static uintptr_t real_return(unsigned i)
{
	return exits[frame_first(i)].ret;
}

/* The exit handler of exits[I] (popped already: it stays in place while
 * the handler runs, which pushes nothing); none for a retired attachment. */
static ALWAYS_INLINE void call_exit(unsigned i, struct pfe_retregs *r)
{
	const struct pending_exit *e = &exits[i];
	struct pfe_call call = { e->func, (void *)e->fn, (void *)real_return(i), NULL, r, e->att->data, e->cookie };

	if (!atomic_load(&e->att->retired))
		e->att->exit(&call);
}

/* The last frames whose CFA is below CFA were left without returning:
 * call their exit handlers without a return value, in a read section
 * (the recursion guard).  Not one SAME_STACK or more below: that one is
 * on another stack (a signal handler's sigaltstack above the frames it
 * interrupted), or left by a longjmp that far, noticed when a frame
 * further out returns (pfe__exit). */
#define SAME_STACK ((uintptr_t)1 << 20)
static void drop_left_frames(uintptr_t cfa)
{
	uintptr_t was;

	if (!pfe__nexits)
		return;
	was = section_nest((uintptr_t)__builtin_frame_address(0));
	while (pfe__nexits && exits[pfe__nexits - 1].cfa < cfa && cfa - exits[pfe__nexits - 1].cfa < SAME_STACK)
		call_exit(--pfe__nexits, NULL);
	section_unnest(was);
}

/* A call of the function whose patched call returns to KEY, whose slot
 * holds WORD (pfe__att_word; 0: the lookup trampoline, or a slot not
 * written yet), GAP bytes before its entry (pfe__slot_gap); NESTED: in a
 * handler already (the recursion guard). */
static void call_entry(uintptr_t word, uintptr_t key, unsigned gap, struct pfe_regs *regs, bool nested)
{
	struct pfe_func *f = NULL;
	struct pfe_attachment *a;
	struct pfe_call call;
	uintptr_t fn;
	bool tail, sled;

	if (word) {
		fn = pfe__slot_entry(key, gap);
	} else {
		/* The lookup trampoline, or a slot not written yet. */
		struct pfe_key_slot *s = pfe__lookup_key(key);

		if (!s) {
			PFE_COUNT(unknown_calls, 1);
			return;
		}
		word = atomic_load_explicit(&s->att, memory_order_acquire);
		if (!word)
			return;
		f = s->func;
		fn = s->addr;
	}
	sled = word & PFE_SLOT_SLEDS;
	a = (struct pfe_attachment *)(word & ~PFE_SLOT_SLEDS);
	if (atomic_load(&a->retired))
		return;
	if (nested) {
		PFE_COUNT(recursion_skips, 1);
		return;
	}
	/* A tail call returns into its caller's exit, at the same CFA: that
	 * one stays, and says where the call returns; any other at this CFA
	 * or below was left. */
	tail = *PFE_RETURN_SLOT(regs) == (uintptr_t)pfe__tramp_return;
	if (pfe__nexits)
		drop_left_frames(PFE_ENTRY_CFA(regs) + !tail);
	call.func = f;
	call.fn = (void *)fn;
	call.ret = (void *)(tail && pfe__nexits ? real_return(pfe__nexits - 1) : *PFE_RETURN_SLOT(regs));
	call.regs = regs;
	call.retregs = NULL;
	call.data = a->data;
	call.cookie = 0;
	if (a->entry)
		a->entry(&call);
	if (a->exit && pfe__nexits == PFE_EXIT_DEPTH) {
		PFE_COUNT(exit_skips, 1);
	} else if (a->exit) {
		exits[pfe__nexits++] = (struct pending_exit){ *PFE_RETURN_SLOT(regs), PFE_ENTRY_CFA(regs), fn, f, a,
							      call.cookie, sled, false, 0, { NULL } };
		if (!sled)
			*PFE_RETURN_SLOT(regs) = (uintptr_t)pfe__tramp_return;
	}
}

/* call_entry in a read section (pfe_synchronize); a thread without its
 * block calls no handler. */
static void dispatch(uintptr_t word, uintptr_t key, unsigned gap, struct pfe_regs *regs)
{
	uintptr_t was;

	if (!thread_ready()) {
		PFE_COUNT(recursion_skips, 1);
		return;
	}
	was = section_nest(PFE_ENTRY_CFA(regs));
	call_entry(word, key, gap, regs, was != 0);
	section_unnest(was);
}

void pfe__dispatch(struct pfe_attachment *a, uintptr_t key, struct pfe_regs *regs)
{
	dispatch((uintptr_t)a, key, 0, regs);
}

#if PFE_SLOT_AFTER_HASH
void pfe__dispatch_after_hash(struct pfe_attachment *a, uintptr_t key, struct pfe_regs *regs)
{
	dispatch((uintptr_t)a, key, pfe_layout_slot_hash_gap(pfe__arch), regs);
}
#endif

/* ---- stacks switched (pfe_stack_switch: unwind.c's swapcontext and
 * setcontext, and a coroutine library's own switch that calls it) ----
 * When a thread switches from one stack to another (a coroutine), the
 * exits of the one it leaves are parked, with the ucontext it is saved
 * in, and the other's made the thread's exit stack: its own parked ones,
 * or none (a new context).  A return or exit sled that matches no
 * pending exit (the switch was not seen: glibc's own setcontext of a
 * uc_link at the end of a makecontext function, a context getcontext
 * saved, or one copied) takes the parked exits it belongs to, by its CFA,
 * parking the others; the sleds' trampolines look no further only when
 * no exit is pending and no stack parked (pfe__parked), a sled with no
 * exit of its own none when no parked frame may have its CFA (the
 * filter, below).  The parked
 * stacks are the process's: a coroutine may be resumed on another thread
 * (an M:N scheduler), even once the thread that parked it ended. */

/* The parked stacks' index: each by its context (when it has one) and
 * by the CFA of each of its frames, so that a switch, a return or an
 * exit sled finds its stack in one lookup however many are parked (an
 * M:N scheduler parks thousands).  A key maps to the stack parked under
 * it last (an older one was abandoned).  Open addressing, linear
 * probing, at most half full, under parked_lock. */
struct index {
	struct index_slot {
		uintptr_t key;
		struct parked *p;
	} *slots;
	size_t mask, used;
};
static struct index by_ctx, by_cfa;

/* A filter of the parked frames' CFAs: how many of them hash to each
 * counter (changed under parked_lock, read without it).  An exit sled
 * whose CFA's counter is 0 has no parked exit, and takes no lock: the
 * sleds of a function attached without an exit handler run on every
 * return while any stack is parked in the process.  A thread that
 * resumes a stack parked by another sees its counts: the park came
 * before the switch that the resuming thread synchronised with. */
#define CFA_FILTER 4096
static _Atomic unsigned cfa_filter[CFA_FILTER];

static size_t key_hash(uintptr_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ h >> 29);
}

static size_t index_home(const struct index *x, uintptr_t key)
{
	return key_hash(key) & x->mask;
}

/* CFA's counter in the filter. */
static _Atomic unsigned *filter_of(uintptr_t cfa)
{
	return &cfa_filter[key_hash(cfa) & (CFA_FILTER - 1)];
}

/* The parked frames P's CFAs counted in the filter (D 1) or no longer
 * (D -1), where there are exit sleds to read it; the lock held. */
static void filter_frames(const struct parked *p, int d)
{
	for (unsigned i = 0; PFE_EXIT_SLEDS && i < p->n; i++)
		atomic_fetch_add_explicit(filter_of(p->copy[i].cfa), (unsigned)d, memory_order_relaxed);
}

/* KEY's slot in X, or the free one where it would go. */
static struct index_slot *index_slot(const struct index *x, uintptr_t key)
{
	size_t i = index_home(x, key);

	while (x->slots[i].p && x->slots[i].key != key)
		i = (i + 1) & x->mask;
	return &x->slots[i];
}

static struct parked *index_find(const struct index *x, uintptr_t key)
{
	return x->slots ? index_slot(x, key)->p : NULL;
}

/* KEY mapped to P in X (which has room). */
static void index_put(struct index *x, uintptr_t key, struct parked *p)
{
	struct index_slot *s = index_slot(x, key);

	x->used += !s->p;
	*s = (struct index_slot){ key, p };
}

/* Room in X for N more keys; false without memory. */
static bool index_room(struct index *x, size_t n)
{
	struct index old = *x;
	size_t size = old.slots ? old.mask + 1 : 64;

	while (2 * (old.used + n) > size)
		size *= 2;
	if (old.slots && size == old.mask + 1)
		return true;
	if (!(x->slots = calloc(size, sizeof *x->slots))) {
		*x = old;
		return false;
	}
	x->mask = size - 1;
	x->used = 0;
	for (size_t i = 0; old.slots && i <= old.mask; i++)
		if (old.slots[i].p)
			index_put(x, old.slots[i].key, old.slots[i].p);
	free(old.slots);
	return true;
}

/* KEY taken out of X if it maps to P; the keys after it moved back so
 * that every key stays reachable from its home. */
static void index_drop(struct index *x, uintptr_t key, struct parked *p)
{
	struct index_slot *s = index_slot(x, key);
	size_t i = (size_t)(s - x->slots), j = i;

	if (s->p != p)
		return;
	while (x->slots[j = (j + 1) & x->mask].p) {
		size_t home = index_home(x, x->slots[j].key);
		bool stays = i < j ? home > i && home <= j : home > i || home <= j;

		if (!stays) {
			x->slots[i] = x->slots[j];
			i = j;
		}
	}
	x->slots[i] = (struct index_slot){ 0, NULL };
	x->used--;
}

/* This thread's exits (if any) parked under CTX.  Without memory they are
 * left (their exits called): a diverted one that returns later aborts. */
static void park(const void *ctx)
{
	struct parked *p;
	bool room;

	if (!pfe__nexits)
		return;
	p = malloc(sizeof *p + pfe__nexits * sizeof *p->copy);
	pfe__parked_lock();
	room = p && index_room(&by_ctx, 1) && index_room(&by_cfa, pfe__nexits);
	if (room) {
		p->ctx = ctx;
		p->n = pfe__nexits;
		memcpy(p->copy, exits, p->n * sizeof *p->copy);
		pfe__nexits = 0;
		if (ctx)
			index_put(&by_ctx, (uintptr_t)ctx, p);
		for (unsigned i = 0; i < p->n; i++)
			index_put(&by_cfa, p->copy[i].cfa, p);
		filter_frames(p, 1);
		pfe__parked++;
	}
	pfe__parked_unlock();
	if (!room) {
		free(p);
		leave_frames_from(0);
	}
}

/* P taken out of the index (the lock held). */
static void unpark(struct parked *p)
{
	if (p->ctx)
		index_drop(&by_ctx, (uintptr_t)p->ctx, p);
	for (unsigned i = 0; i < p->n; i++)
		index_drop(&by_cfa, p->copy[i].cfa, p);
	filter_frames(p, -1);
	pfe__parked--;
}

/* P, taken from the parked ones, made this thread's exit stack. */
static void make_active(struct parked *p)
{
	memcpy(exits, p->copy, p->n * sizeof *p->copy);
	pfe__nexits = p->n;
	free(p);
}

/* Whether pending exit E is of the frame whose exit is taken at CFA: at
 * its exit sled (SLED), or when it returns, with stack pointer CFA (up to
 * PFE_CALLEE_POP above its own: i386 callees pop a hidden struct
 * pointer), having diverted its return. */
static bool exit_at(const struct pending_exit *e, uintptr_t cfa, bool sled)
{
	return sled ? e->sled && e->cfa == cfa : !e->sled && cfa - e->cfa <= PFE_CALLEE_POP;
}

/* The last parked exit taken at CFA (exit_at: its frame's CFA is CFA, or
 * up to PFE_CALLEE_POP below for a return), its stack in *P; NULL if
 * there is none (the lock held). */
static struct pending_exit *parked_exit_at(uintptr_t cfa, bool sled, struct parked **p)
{
	for (uintptr_t d = 0; d <= (sled ? 0 : PFE_CALLEE_POP); d++) {
		*p = index_find(&by_cfa, cfa - d);
		for (unsigned i = *p ? (*p)->n : 0; i-- > 0;)
			if (exit_at(&(*p)->copy[i], cfa, sled))
				return &(*p)->copy[i];
	}
	return NULL;
}

/* The parked exits of context CTX (NULL: those holding the exit taken at
 * CFA, parked_exit_at), taken out of the index; NULL if none. */
static struct parked *take_parked(const void *ctx, uintptr_t cfa, bool sled)
{
	struct parked *p = NULL;

	if (!ctx)
		PFE_COUNT(parked_searches, 1);
	pfe__parked_lock();
	if (ctx)
		p = index_find(&by_ctx, (uintptr_t)ctx);
	else if (!parked_exit_at(cfa, sled, &p))
		p = NULL;
	if (p)
		unpark(p);
	pfe__parked_unlock();
	return p;
}

/* The parked exits P (if any) made this thread's (it takes its block if
 * it has none; without memory they are dropped: a diverted one that
 * returns later aborts), its own parked (under no context: found by
 * their CFAs). */
static void resume(struct parked *p)
{
	if (!p)
		return;
	if (!thread_ready()) {
		free(p);
		return;
	}
	park(NULL);
	make_active(p);
}

void pfe_stack_switch(const void *from, const void *to)
{
	if (from)
		park(from);
	/* FROM NULL (setcontext): when TO is a parked stack's, the one left
	 * may still be resumed from a context getcontext saved there: parked,
	 * known by its CFAs; else TO is taken for a context of this stack. */
	if (to && atomic_load(&pfe__parked))
		resume(take_parked(to, 0, false));
}

/* The frame returning with stack pointer SP: the last pending exit taken
 * there (exit_at), as its index + 1, or 0.  Those after it were left
 * (longjmp), or are a tail call's whose sled did not run (it was being
 * enabled).  Of a tail call and its caller (one CFA), the callee, the
 * last, returns first. */
static unsigned returning_frame(uintptr_t sp)
{
	unsigned i = pfe__nexits;

	while (i && !exit_at(&exits[i - 1], sp, false))
		i--;
	return i;
}

void pfe__exit(struct pfe_retregs *r, uintptr_t sp, uintptr_t *ra_slot)
{
	unsigned i = returning_frame(sp);
	uintptr_t was;

	if (!i && atomic_load(&pfe__parked)) {
		resume(take_parked(NULL, sp, false));
		i = returning_frame(sp);
	}
	if (!i) {
		fprintf(stderr, "libpfe: pfe__exit: a return to sp %#lx with no exit pending (its return address is lost:"
			" a stack switched by a coroutine library's own code without pfe_stack_switch is not"
			" followed: runtime/README.md)\n", (unsigned long)sp);
		abort();
	}
	was = section_nest(sp);
	while (pfe__nexits > i)
		call_exit(--pfe__nexits, NULL);
	*ra_slot = exits[--pfe__nexits].ret;
	call_exit(pfe__nexits, r);
	section_unnest(was);
}

/* The frames of exits[I] and after were left: their exit handlers,
 * innermost first (retregs NULL), in a read section (pfe_synchronize,
 * the recursion guard). */
static void leave_frames_from(unsigned i)
{
	uintptr_t was;

	if (pfe__nexits <= i)
		return;
	was = section_nest((uintptr_t)__builtin_frame_address(0));
	while (pfe__nexits > i)
		call_exit(--pfe__nexits, NULL);
	section_unnest(was);
}

#if PFE_EXIT_SLEDS
/* Whether a frame parked may have CFA (no lock): a stack is parked and
 * the filter counts a frame at CFA's counter. */
static bool maybe_parked_at(uintptr_t cfa)
{
	return atomic_load(&pfe__parked) && atomic_load_explicit(filter_of(cfa), memory_order_relaxed) != 0;
}

/* The pending exit of the frame whose CFA is CFA, an exit sled's (its
 * entry was in sled mode), as its index + 1; 0 if there is none (entered
 * before its sleds were enabled, its entry skipped, nothing attached with
 * an exit handler).  Those after it belong to frames left (longjmp). */
static ALWAYS_INLINE unsigned pending_sled_frame(uintptr_t cfa)
{
	unsigned i = pfe__nexits;

	while (i && exits[i - 1].cfa < cfa)
		i--;
	return i && exit_at(&exits[i - 1], cfa, true) ? i : 0;
}

/* pending_sled_frame, or in the exits parked for a stack switched to
 * unseen (made this thread's), its frames left before it taken: whether
 * the last pending exit is now CFA's.  Out of line: the common case (the
 * last is CFA's) does not search. */
static __attribute__((noinline)) bool find_sled_frame(uintptr_t cfa)
{
	unsigned i = pending_sled_frame(cfa);

	if (!i && maybe_parked_at(cfa)) {
		resume(take_parked(NULL, cfa, true));
		i = pending_sled_frame(cfa);
	}
	if (!i)
		return false;
	leave_frames_from(i);
	return true;
}

/* Not in a handler, the frame's exit is the last one pending, or found
 * (find_sled_frame): take it with the return value R. */
void pfe__exit_sled(struct pfe_retregs *r, uintptr_t cfa)
{
	unsigned n = pfe__nexits;

	if (in_handler(cfa))
		return;
	if (!(n && exit_at(&exits[n - 1], cfa, true)) && !find_sled_frame(cfa))
		return;
	section_enter(cfa);	/* pfe_synchronize */
	call_exit(--pfe__nexits, r);
	section_leave();
}

/* A sibling call of a frame whose exit is parked (the last of those
 * pending at CFA's sled) made a diverted return's where it is, not
 * resumed: the call may be the switch itself, its stack parked by
 * pfe_stack_switch just before; whether there is one. */
static bool parked_tail_call(uintptr_t cfa)
{
	struct pending_exit *e;
	struct parked *p;

	pfe__parked_lock();
	e = parked_exit_at(cfa, true, &p);
	if (e)
		e->sled = false;
	pfe__parked_unlock();
	return e != NULL;
}

/* A sibling call: the exit is taken where the callee returns (after its
 * own, with the return value, as for a diverted tail call): the return
 * address is diverted now, the exit no longer the sled's. */
void pfe__exit_tail(struct pfe_regs *regs)
{
	uintptr_t cfa = PFE_ENTRY_CFA(regs);
	bool nested = in_handler(cfa);
	unsigned i = nested ? 0 : pending_sled_frame(cfa);

	if (!i && (nested || !maybe_parked_at(cfa) || !parked_tail_call(cfa)))
		return;
	if (i) {
		leave_frames_from(i);
		exits[i - 1].sled = false;
	}
	*PFE_RETURN_SLOT(regs) = (uintptr_t)pfe__tramp_return;
}
#endif

/* Frames left (longjmp) were dropped before the entry handler runs
 * (call_entry), and the call entered has pushed nothing yet: every
 * pending exit is of a frame still live around it. */
bool pfe__exit_pending_for(const void *fn)
{
	for (unsigned i = pfe__nexits; i-- > 0;)
		if (exits[i].fn == (uintptr_t)fn)
			return true;
	return false;
}

uintptr_t pfe__exit_unwound(uintptr_t cfa)
{
	unsigned i = pfe__nexits;
	uintptr_t ret;

	/* The entries after the frame's were pushed after it: frames it
	 * called, left by the same unwind. */
	while (i && exits[i - 1].cfa < cfa)
		i--;
	if (!i || exits[i - 1].cfa != cfa) {
		fprintf(stderr, "libpfe: an unwinder left a frame at sp %#lx with no exit pending\n",
			(unsigned long)cfa);
		abort();
	}
	i = frame_first(i - 1);
	ret = exits[i].ret;
	leave_frames_from(i);
	return ret;
}

/* Put the real return address back wherever the frame of exits[I] keeps
 * pfe__tramp_return: between LO and its CFA (PFE_RA_SEARCH_LO). */
static void restore_frame(unsigned i, uintptr_t lo)
{
	struct pending_exit *e = &exits[i];
	uintptr_t ret = real_return(i);

	e->restored = true;
	e->nsaved = 0;
	for (uintptr_t *p = (uintptr_t *)e->cfa; p-- > (uintptr_t *)lo;) {
		if (*p != (uintptr_t)pfe__tramp_return)
			continue;
		*p = ret;
		if (e->nsaved < MAX_SAVED)
			e->saved[e->nsaved++] = p;
	}
}

void pfe__exits_restore(uintptr_t sp)
{
	uintptr_t inner = sp;

	drop_left_frames(sp);
	for (unsigned i = pfe__nexits; i-- > 0;) {
		if (!exits[i].restored && !exits[i].sled)
			restore_frame(i, PFE_RA_SEARCH_LO(exits[i].cfa, inner));
		inner = exits[i].cfa;
	}
}

void pfe__exits_redivert(uintptr_t cfa)
{
	drop_left_frames(cfa);
	for (unsigned i = 0; i < pfe__nexits; i++) {
		struct pending_exit *e = &exits[i];
		uintptr_t ret = real_return(i);

		for (unsigned k = 0; k < e->nsaved; k++)
			if (*e->saved[k] == ret)
				*e->saved[k] = (uintptr_t)pfe__tramp_return;
		e->restored = false;
		e->nsaved = 0;
	}
}

void pfe__exits_leave_all(void)
{
	leave_frames_from(0);
}
