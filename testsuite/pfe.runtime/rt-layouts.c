/* rt-layouts.c: libpfe patches and runs one layout (runtime.exp builds it
 * with each layout's plugin arguments or native option, linked with
 * libpfe.so built for the target).  It checks, printing "FAIL: ..." for
 * each failure and exiting 1 if any:
 *   - the target functions are found by name, patchable, with the
 *     dispatch expected (PFE_WANT_SLOT: through the ops slot, else lookup)
 *     (PFE_WANT_SLOT_AFTER_HASH: the slot before the kCFI hash, 4 past
 *     its end)
 *     and, when given, PFE_WANT_PRE / PFE_WANT_POST NOP bytes, and
 *     exit sleds in use (PFE_WANT_SLEDS: built with exits) or none;
 *   - disabled, calls reach no handler; enabled, each call exactly one,
 *     with the function's address, its return address (in main) and its
 *     arguments (in registers and on the stack: rt_many's ten); a handler
 *     changing an argument changes the result, and cannot change a stack
 *     one (PFE_EINVAL);
 *   - a handler calling an instrumented function does not recurse;
 *   - an exit handler sees the return value and the entry's cookie, and
 *     the function still returns where it should, its floating-point
 *     return value intact;
 *   - pfe_attach_many gives many functions one attachment (or none when
 *     one is bad), each call naming its function;
 *   - disabled again and detached, nothing is counted; results stay right;
 *   - a batch's writes: while another thread lives, the protocol for
 *     threads (x86: the int3 protocol, three barriers, each site three
 *     times); in a process of one thread, one phase (one barrier, each
 *     site once), where /proc says how many threads there are.
 * Debugging: PFE_DEBUG=list ./rt-layouts.exe prints every entry's layout.
 */
#include <pfe.h>
#include "rt-test.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long hits[5];
static void *seen_fn, *seen_ret;
static struct pfe_func *seen_func, *seen_func_field;
static uintptr_t seen_arg0, seen_arg1, seen_arg3, seen_arg8, seen_arg9;
static int set_stack_arg;

NOINLINE long rt_add(long a, long b) { return a + b; }
NOINLINE long rt_mul(long a, long b) { return a * b; }
NOINLINE double rt_mix(long a, double x, long b, double y) { return (double)a * x + (double)b * y; }
NOINLINE long rt_inner(long a) { return a + 1000; }
/* Ten arguments: the last ones on the stack on every target.  Each
 * weighted by its place, so that a wrong one shows. */
NOINLINE long rt_many(long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9)
{
	return a0 + 2 * a1 + 3 * a2 + 4 * a3 + 5 * a4 + 6 * a5 + 7 * a6 + 8 * a7 + 9 * a8 + 10 * a9;
}

static long (*volatile p_add)(long, long) = rt_add;
static long (*volatile p_mul)(long, long) = rt_mul;
static double (*volatile p_mix)(long, double, long, double) = rt_mix;
static long (*volatile p_inner)(long) = rt_inner;
static long (*volatile p_many)(long, long, long, long, long, long, long, long, long, long) = rt_many;

static void on_entry(struct pfe_call *c)
{
	unsigned long idx = (unsigned long)(uintptr_t)c->data;

	hits[idx]++;
	seen_fn = c->fn;
	seen_ret = c->ret;
	seen_func = pfe_call_func(c);
	seen_func_field = c->func;
	seen_arg0 = pfe_arg(c, 0);
	seen_arg1 = pfe_arg(c, 1);
	seen_arg3 = pfe_arg(c, 3);
	/* An instrumented call from a handler: the guard skips it. */
	if (idx == 3)
		CHECK(p_inner(1) == 1001, "rt_inner from a handler");
	if (idx == 1 && seen_arg0 == 7)
		pfe_set_arg(c, 0, 8);
	if (idx == 4) {
		seen_arg8 = pfe_arg(c, 8);
		seen_arg9 = pfe_arg(c, 9);
		set_stack_arg = pfe_set_arg(c, 9, 0);
		pfe_set_arg(c, 5, 50);	/* a register but on i386 */
	}
	c->cookie = 1234 + idx;
}

static uintptr_t exit_retval;
static uint64_t exit_cookie;
static unsigned long exits;

static void on_exit_call(struct pfe_call *c)
{
	exits++;
	exit_retval = pfe_retval(c);
	exit_cookie = c->cookie;
}

/* pfe_attach_many's one attachment: each call names its function by fn. */
static int shared_tag;
static void *shared_fns[4];
static unsigned shared_calls, shared_bad_data;

static void on_shared(struct pfe_call *c)
{
	shared_bad_data += c->data != &shared_tag;
	if (shared_calls < 4)
		shared_fns[shared_calls] = c->fn;
	shared_calls++;
}

/* pfe_attach_many: refused whole when one function is bad (rt_add keeps
 * its exit handler), then one attachment for FS (enabled), which names
 * each call's function. */
static void check_attach_many(struct pfe_func **fs)
{
	struct pfe_func *bad[2] = { fs[0], NULL };
	unsigned long exits_before = exits;

	CHECK(pfe_attach_many(bad, 2, on_shared, NULL, &shared_tag) == PFE_EINVAL, "attach_many with a NULL");
	CHECK(p_add(1, 2) == 3 && exits == exits_before + 1 && shared_calls == 0,
	      "attach_many with a NULL changed rt_add's handlers: %lu exits, %u shared calls", exits - exits_before,
	      shared_calls);
	CHECK(pfe_attach_many(fs, 3, on_shared, NULL, &shared_tag) == 0, "attach_many");
	CHECK(p_add(1, 2) == 3 && p_mul(2, 3) == 6 && p_mix(1, 1.0, 1, 1.0) == 2.0, "results under attach_many");
	CHECK(shared_calls == 3 && !shared_bad_data && shared_fns[0] == (void *)rt_add &&
	      shared_fns[1] == (void *)rt_mul && shared_fns[2] == (void *)rt_mix && exits == exits_before + 1,
	      "attach_many: %u calls (%u with other data), fns %p %p %p, want rt_add %p rt_mul %p rt_mix %p",
	      shared_calls, shared_bad_data, shared_fns[0], shared_fns[1], shared_fns[2], (void *)rt_add,
	      (void *)rt_mul, (void *)rt_mix);
}

/* A second thread, blocked in a read of FD until its other end closes. */
static void *bystander(void *fd)
{
	char c;

	return (void *)(intptr_t)read((int)(intptr_t)fd, &c, 1);
}

/* The stats' difference from BEFORE: one batch, BARRIERS barriers, SITES
 * sites written. */
static void check_batch(const char *what, const struct pfe_stats *before, unsigned long barriers,
			unsigned long sites)
{
	struct pfe_stats st;

	pfe_get_stats(&st);
	CHECK(st.batches - before->batches == 1 && st.barriers - before->barriers == barriers &&
	      st.sites_written - before->sites_written == sites,
	      "%s: %llu batches, %llu barriers, %llu sites written; want 1, %lu, %lu", what,
	      (unsigned long long)(st.batches - before->batches),
	      (unsigned long long)(st.barriers - before->barriers),
	      (unsigned long long)(st.sites_written - before->sites_written), barriers, sites);
}

static struct pfe_func *check_found(const char *name)
{
	struct pfe_func *f = pfe_find(name);
	struct pfe_info info;

	CHECK(f != NULL, "%s not found (%zu functions)", name, pfe_count());
	if (!f)
		return NULL;
	pfe_func_info(f, &info);
	printf("%s: pre %u pad %u post %u fentry %d slot %d dispatch %d%s%s\n", name, info.pre_bytes,
	       info.pad_bytes, info.post_bytes, info.fentry, info.ops_slot, info.dispatch,
	       info.why ? ": " : "", info.why ? info.why : "");
#ifdef PFE_WANT_SLOT_AFTER_HASH
	/* slot, hash, entry: the entry 4 past the 8-aligned slot's end. */
	CHECK((uintptr_t)info.addr % 8 == 4, "%s at %p: no 8-aligned slot before its hash", name, info.addr);
#endif
#ifdef PFE_WANT_SLOT
	CHECK(info.dispatch == PFE_DISPATCH_SLOT, "%s: dispatch %d, want the ops slot", name, info.dispatch);
#else
	CHECK(info.dispatch == PFE_DISPATCH_LOOKUP, "%s: dispatch %d, want lookup", name, info.dispatch);
#endif
#ifdef PFE_WANT_PRE
	CHECK(info.pre_bytes == PFE_WANT_PRE, "%s: %u NOP bytes before, want %u", name, info.pre_bytes, PFE_WANT_PRE);
#endif
#ifdef PFE_WANT_POST
	CHECK(info.post_bytes == PFE_WANT_POST, "%s: %u NOP bytes after, want %u", name, info.post_bytes, PFE_WANT_POST);
#endif
#ifdef PFE_WANT_PAD
	CHECK(info.pad_bytes > 0, "%s: no landing pad seen", name);
#endif
	CHECK(info.name && strcmp(info.name, name) == 0, "%s: named %s", name, info.name ? info.name : "(null)");
	return f;
}

static void run_calls(long rounds, int enabled)
{
	for (long i = 0; i < rounds; i++) {
		CHECK(p_add(i, 2) == i + 2, "rt_add(%ld, 2)", i);
		CHECK(p_mul(3, i) == 3 * i, "rt_mul(3, %ld)", i);
		CHECK(p_mix(2, 1.5, 3, 0.5) == 4.5, "rt_mix");
		if (enabled && i == rounds - 1) {
			CHECK(seen_fn == (void *)rt_mix, "the handler's fn is not rt_mix");
#if defined(__i386__)
			/* cdecl: argument I is stack word I; x, a double,
			 * takes words 1 and 2. */
			uintptr_t b = seen_arg3;
#else
			uintptr_t b = seen_arg1;
#endif
			CHECK(seen_arg0 == 2 && b == 3, "rt_mix's integer arguments %lu %lu",
			      (unsigned long)seen_arg0, (unsigned long)b);
		}
	}
}

int main(void)
{
	struct pfe_func *fs[3] = { check_found("rt_add"), check_found("rt_mul"), check_found("rt_mix") };
	struct pfe_func *inner = check_found("rt_inner");
	struct pfe_func *many = check_found("rt_many");
	struct pfe_stats st;
	long rounds = 1000;

	if (!fs[0] || !fs[1] || !fs[2] || !inner || !many)
		return 1;
	for (int i = 0; i < 3; i++)
		CHECK(pfe_attach(fs[i], on_entry, NULL, (void *)(uintptr_t)i) == 0, "attach %d", i);
	CHECK(pfe_attach(inner, on_entry, NULL, (void *)(uintptr_t)3) == 0, "attach rt_inner");
	run_calls(rounds, 0);
	CHECK(hits[0] + hits[1] + hits[2] == 0, "handlers called while disabled");
	/* One batch while another thread lives, its barriers: three on x86
	 * (the int3 protocol), one elsewhere, however many sites (each
	 * function's entry and exit sleds); with ops slots, written the
	 * first time, their 3 stores too, in the first phase on x86, in one
	 * of their own (one more barrier) elsewhere. */
	struct pfe_stats before;
	unsigned long sites = 0;
	pthread_t other;
	int pipe_fds[2];
	for (int i = 0; i < 3; i++) {
		struct pfe_info info;

		CHECK(pfe_func_info(fs[i], &info) == 0, "pfe_func_info");
		sites += 1 + info.exit_sleds;
#ifdef PFE_WANT_SLEDS
		CHECK(info.exit_sleds > 0, "%s: no exit sleds in use", info.name);
#else
		CHECK(info.exit_sleds == 0, "%s: %u exit sleds in use, want none", info.name, info.exit_sleds);
#endif
	}
	CHECK(pipe(pipe_fds) == 0 && pthread_create(&other, NULL, bystander, (void *)(intptr_t)pipe_fds[0]) == 0,
	      "start a second thread");
	pfe_get_stats(&before);
	CHECK(pfe_enable_many(fs, 3) == 0, "enable");
	close(pipe_fds[1]);
	pthread_join(other, NULL);
	close(pipe_fds[0]);
#if defined(__x86_64__) || defined(__i386__)
	unsigned long want_barriers = 3, want_sites = 3 * sites;
#else
	unsigned long want_barriers = 1, want_sites = sites;
#endif
#ifdef PFE_WANT_SLOT
	want_sites += 3;
#if !defined(__x86_64__) && !defined(__i386__)
	want_barriers++;
#endif
#endif
	check_batch("enabling 3 functions with 2 threads", &before, want_barriers, want_sites);
	run_calls(rounds, 1);
	CHECK(hits[0] == (unsigned long)rounds && hits[1] == (unsigned long)rounds &&
	      hits[2] == (unsigned long)rounds, "enabled: %lu %lu %lu handler calls, want %ld each",
	      hits[0], hits[1], hits[2], rounds);
	/* The return address is in main's caller-side code: after the call. */
	p_add(1, 1);
	CHECK(seen_ret != NULL && seen_fn == (void *)rt_add, "rt_add's handler saw fn %p ret %p", seen_fn, seen_ret);
	/* Through the slot the call names no function: pfe_call_func finds it. */
	CHECK(seen_func == fs[0], "rt_add's handler: pfe_call_func gave %p, not rt_add's", (void *)seen_func);
#ifdef PFE_WANT_SLOT
	CHECK(seen_func_field == NULL, "rt_add's handler: call->func set through the slot");
#else
	CHECK(seen_func_field == fs[0], "rt_add's handler: call->func %p, not rt_add's", (void *)seen_func_field);
#endif
	/* A handler may change an argument. */
#if defined(__i386__)
	/* cdecl: argument 0 is on the stack, which a handler cannot change. */
	long want_mul = 35;
#else
	long want_mul = 40;
#endif
	CHECK(p_mul(7, 5) == want_mul, "rt_mul(7, 5) with arg 0 changed to 8 if a register: %ld", p_mul(7, 5));
	/* Stack arguments: read, not written; a register one written. */
	CHECK(pfe_attach(many, on_entry, NULL, (void *)(uintptr_t)4) == 0 && pfe_enable(many) == 0, "enable rt_many");
	long sum = p_many(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
	CHECK(hits[4] == 1 && seen_arg0 == 0 && seen_arg1 == 1 && seen_arg8 == 8 && seen_arg9 == 9,
	      "rt_many: %lu handler calls, arguments 0, 1, 8, 9 seen as %lu %lu %lu %lu", hits[4],
	      (unsigned long)seen_arg0, (unsigned long)seen_arg1, (unsigned long)seen_arg8, (unsigned long)seen_arg9);
	CHECK(set_stack_arg == PFE_EINVAL, "pfe_set_arg of a stack argument: %s", pfe_strerror(set_stack_arg));
#if defined(__i386__)
	long want_sum = 330;	/* argument 5 is on the stack too */
#else
	long want_sum = 330 - 6 * 5 + 6 * 50;
#endif
	CHECK(sum == want_sum, "rt_many with argument 5 changed to 50 if a register: %ld", sum);
	/* Enabled alone (one phase): its slot written with its call. */
#ifdef PFE_WANT_SLOT
	CHECK(seen_func_field == NULL, "rt_many's handler: call->func set: its slot not written");
#else
	CHECK(seen_func_field == many, "rt_many's handler: call->func %p, not rt_many's", (void *)seen_func_field);
#endif
	CHECK(pfe_detach(many) == 0, "detach rt_many");
	/* Recursion: rt_inner's handler is entered from rt_inner only when
	 * no handler runs; from rt_mix's... rt_inner called in a handler. */
	CHECK(pfe_enable(inner) == 0, "enable rt_inner");
	CHECK(p_inner(5) == 1005, "rt_inner(5)");
	pfe_get_stats(&st);
	CHECK(hits[3] == 1 && st.recursion_skips >= 1, "rt_inner: %lu handler calls, %llu skipped", hits[3],
	      (unsigned long long)st.recursion_skips);
	/* Exit handlers. */
	CHECK(pfe_attach(fs[0], on_entry, on_exit_call, (void *)0) == 0, "attach an exit handler");
	for (long i = 0; i < 100; i++)
		CHECK(p_add(20, i) == 20 + i, "rt_add with an exit handler");
	CHECK(exits == 100 && exit_retval == 20 + 99 && exit_cookie == 1234,
	      "exit handler: %lu calls, last saw %lu and cookie %llu", exits, (unsigned long)exit_retval,
	      (unsigned long long)exit_cookie);
	/* A floating-point return value (xmm0, v0, fa0; i386 st(0)) survives
	 * the exit handler. */
	CHECK(pfe_attach(fs[2], on_entry, on_exit_call, (void *)2) == 0, "attach an exit handler to rt_mix");
	for (long i = 0; i < 100; i++)
		CHECK(p_mix(2, 1.5, i, 0.5) == 3.0 + 0.5 * (double)i, "rt_mix(2, 1.5, %ld, 0.5) with an exit handler", i);
	CHECK(exits == 200, "exit handler: %lu calls, want 200", exits);
	check_attach_many(fs);
	/* Alone: one phase, each site written once. */
	pfe_get_stats(&before);
	CHECK(pfe_disable_many(fs, 3) == 0, "disable");
	if (rt_threads_in_stat() == 1)
		check_batch("disabling 3 functions alone", &before, 1, sites);
	else
		printf("alone: not checked (/proc/self/stat counts %ld threads)\n", rt_threads_in_stat());
	CHECK(pfe_detach(inner) == 0, "detach rt_inner");
	memset(hits, 0, sizeof hits);
	run_calls(rounds, 0);
	CHECK(hits[0] + hits[1] + hits[2] + hits[3] + hits[4] == 0, "handlers called after disable");
	CHECK(pfe_detach_all() == 0, "detach all");
	CHECK(pfe_enable(fs[0]) == PFE_ENOHANDLER, "enable without a handler: %s", pfe_strerror(pfe_enable(fs[0])));
	pfe_get_stats(&st);
	CHECK(st.unknown_calls == 0, "%llu calls from unknown sites", (unsigned long long)st.unknown_calls);
	printf("%s: %llu functions, %llu patchable, %llu batches, %llu barriers\n", failures ? "FAILED" : "ok",
	       (unsigned long long)st.functions, (unsigned long long)st.patchable,
	       (unsigned long long)st.batches, (unsigned long long)st.barriers);
	return failures ? 1 : 0;
}
