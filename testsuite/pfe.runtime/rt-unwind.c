/* rt-unwind.c: exit handlers on every function (as pfe-trace) while C
 * leaves traced frames without returning, and what a handler may do
 * (runtime.exp), one case per argument:
 *   longjmp      out of two traced frames, 100 times: no crash, the calls
 *                and returns after it are hooked exactly, the frames left
 *                get their exit call (retregs NULL) once noticed
 *   siglongjmp   the same from a signal handler (itself traced)
 *   cancel       a thread cancelled in a traced function, at a
 *                cancellation point: its pthread_cleanup_push handler
 *                runs, the frames left get their exit call (retregs
 *                NULL), the thread ends canceled, the process goes on
 *   sigaltstack  a traced signal handler on an alternate stack above the
 *                thread's: every frame's exit exact, on both stacks; raised
 *                in an entry handler, skipped as recursion there
 *   tail         a traced function tail-calls another (-O2: a sibcall):
 *                both exits, callee first, both see the value, and each
 *                handler sees where the call returns to (the caller's)
 *   backtrace    backtrace() in an entry and in an exit handler reaches
 *                main (the trampolines' unwind information)
 *   long-double  a long double returned through an exit handler that uses
 *                the x87 (and MMX's emms on x86) itself
 *   coroutines   a traced frame saves its place with getcontext and runs
 *                a coroutine that resumes it with setcontext from an
 *                untraced frame (the thread's first switch: no exit is
 *                pending when the frame returns, one stack parked); two
 *                coroutines (makecontext, swapcontext) on adjacent
 *                stacks switch to each other from traced frames 100
 *                times each: every return gets its exit, no frame of the
 *                stack switched away from is taken for left; the first to
 *                end resumes its uc_link (a switch glibc makes itself);
 *                then the first case again, resumed from a traced frame
 *   sleds        (built with the plugin's exits) a function's exits run
 *                from its exit sleds: libpfe says it uses them, and while
 *                the function runs its return address is its own, where
 *                its entry handler says it returns (a diverted one would
 *                be libpfe's pfe__tramp_return); its exit sees its value
 *   switcher     the two coroutines switched by libc's own swapcontext
 *                (found in libc: libpfe does not see it, as a coroutine
 *                library's own assembler), each switch announced by
 *                pfe_stack_switch (then a sibling call: its frame parked
 *                before its exit sled runs): the same counts, no search among
 *                the parked stacks but at uc_link
 *   migrate      a coroutine switched away from in a traced frame on one
 *                thread, resumed on another once the first ended
 *   many         500 coroutines parked at once, each resumed 5 times in a
 *                scrambled order, yielding from 3 traced frames deep
 *   entry-only   while a coroutine is parked, a function attached with an
 *                entry handler alone is called 1000 times where a frame
 *                parked before was (its CFA): its returns (its exit
 *                sleds, with the plugin's exits) search no parked stack;
 *                the coroutine's exits still exact
 *   midbatch     (x86_64, with the plugin's exits; PFE_DEBUG=stall=500) a
 *                call in flight returns through its exit sled while a
 *                batch disabling its function has an int3 there: libpfe
 *                makes the sled's call (its exit runs then, with the
 *                value), as the kernel's text_poke_bp emulates a call,
 *                instead of stepping over it (the exit later, as a frame
 *                left's, without the value)
 *   deep         a recursion 3000 calls deep (Lua's C stack at its limit
 *                is 1900 traced frames) gets every exit, with its value;
 *                one deeper than PFE_EXIT_DEPTH returns its value, the
 *                calls beyond the stack of exits counted as exit_skips,
 *                the others' exits exact, also when it longjmps out from
 *                its bottom (those exits then without a value)
 *   handler-left an entry handler interrupted by a signal whose handler
 *                siglongjmps out of it (a stack overflow recovered, as
 *                libsigsegv and gnulib's c-stack do): the thread's later
 *                calls still get their handlers (the recursion guard was
 *                left set: every one skipped), a frame entered before
 *                gets its exit (sled too), pfe_synchronize right after
 *                the jump returns 0 (it waited 20 s for the thread itself
 *                and gave up); the signal handler, run inside the
 *                handler, is skipped as recursion
 * Prints "ok" when every check holds.  Debug: run it with the case name.
 */
#define _GNU_SOURCE
#include "rt-unwind.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static sigjmp_buf jb;
static volatile int via_signal;

TRACED int plain(int x)
{
	return x * 2;
}

TRACED void on_usr1(int sig)
{
	(void)sig;
	siglongjmp(jb, 1);
}

/* Leaves by longjmp, or by siglongjmp out of a signal handler. */
TRACED void lj_inner(int x)
{
	if (x && via_signal)
		raise(SIGUSR1);
	else if (x)
		longjmp(jb, 1);
}

TRACED int lj_outer(int x)
{
	lj_inner(x);
	return x + 1;
}

/* 100 jumps out of lj_outer and lj_inner (and on_usr1), each followed
 * by calls that return. */
static void check_jumps(int signal_handler)
{
	struct watch *wo = watch("lj_outer", (void *)lj_outer), *wi = watch("lj_inner", (void *)lj_inner);
	struct watch *wh = watch("on_usr1", (void *)on_usr1), *wp = watch("plain", (void *)plain);
	volatile int jumps = 0, sum = 0;

	via_signal = signal_handler;
	signal(SIGUSR1, on_usr1);
	trace_all();
	for (int i = 0; i < 100; i++) {
		if (!sigsetjmp(jb, 1))
			lj_outer(1);
		else
			jumps++;
		sum += plain(i) + lj_outer(0);
	}
	CHECK(jumps == 100 && sum == 9900 + 100, "%d jumps, sum %d", jumps, sum);
	CHECK_COUNTS(wo, 200, 100, 100);
	CHECK_COUNTS(wi, 200, 100, 100);
	CHECK_COUNTS(wh, signal_handler ? 100 : 0, 0, signal_handler ? 100 : 0);
	CHECK_COUNTS(wp, 100, 100, 0);
	CHECK(wp->retval == 198, "plain's last return value %lu", (unsigned long)wp->retval);
}

static void check_longjmp(void)
{
	check_jumps(0);
}

static void check_siglongjmp(void)
{
	check_jumps(1);
}

static volatile int cleanups;

static void cleanup(void *arg)
{
	(void)arg;
	cleanups++;
}

TRACED int cancel_wait(int x)
{
	cancel_started = 1;
	for (;;)
		pause();
	return x;
}

TRACED int cancel_outer(int x)
{
	int r;

	pthread_cleanup_push(cleanup, NULL);
	r = cancel_wait(x) + 1;
	pthread_cleanup_pop(0);
	return r;
}

static void *cancel_thread(void *arg)
{
	(void)arg;
	cancel_outer(1);
	return NULL;
}

static void check_cancel(void)
{
	struct watch *wp = watch("plain", (void *)plain), *ww = watch("cancel_wait", (void *)cancel_wait);
	struct watch *wo = watch("cancel_outer", (void *)cancel_outer);
	int sum = 0;

	trace_all();
	for (int i = 0; i < 10; i++) {
		cancel_one(cancel_thread, i);
		sum += plain(i);
	}
	CHECK(cleanups == 10 && sum == 90, "%d cleanup handlers run, sum %d", cleanups, sum);
	CHECK_COUNTS(wp, 10, 10, 0);
	CHECK_COUNTS(ww, 10, 0, 10);
	CHECK_COUNTS(wo, 10, 0, 10);
}

TRACED int tail_callee(int x)
{
	return x * 3 + 1;
}

TRACED int tail_caller(int x)
{
	return tail_callee(x + 1);
}

static volatile unsigned tail_order, ntail_rets;
static void *volatile tail_rets[4];

static void tail_entry(struct pfe_call *c, struct watch *w)
{
	(void)w;
	tail_rets[ntail_rets++ % 4] = c->ret;
}

static void tail_exit(struct pfe_call *c, struct watch *w)
{
	tail_order = tail_order * 10 + (unsigned)(w - watched) + 1;
	tail_rets[ntail_rets++ % 4] = c->ret;
}

static void check_tail(void)
{
	struct watch *wr = watch("tail_caller", (void *)tail_caller), *we = watch("tail_callee", (void *)tail_callee);
	int sum = 0;

	trace_all();
	in_entry = tail_entry;
	in_exit = tail_exit;
	for (int i = 0; i < 100; i++) {
		tail_order = 0;
		ntail_rets = 0;
		sum += tail_caller(i);
		CHECK(tail_order == 21, "exits in the order %u, want 21 (callee, caller)", tail_order);
		CHECK(ntail_rets == 4 && tail_rets[1] == tail_rets[0] && tail_rets[2] == tail_rets[0] &&
		      tail_rets[3] == tail_rets[0], "where they return, as their handlers see it: %p %p %p %p",
		      tail_rets[0], tail_rets[1], tail_rets[2], tail_rets[3]);
	}
	in_entry = in_exit = NULL;
	CHECK(sum == 3 * 5050 + 100, "sum %d", sum);
	CHECK_COUNTS(wr, 100, 100, 0);
	CHECK_COUNTS(we, 100, 100, 0);
	CHECK(wr->retval == 301 && we->retval == 301, "return values %lu, %lu, want 301", (unsigned long)wr->retval,
	      (unsigned long)we->retval);
}

/* A signal handler on an alternate stack far above the frames it
 * interrupts: its frames are not taken for theirs (nor theirs for left
 * ones).  The thread's stack and the alternate one are parts of one
 * mapping, so that the order of their addresses is known. */
#define ALT_MAP (16u << 20)
#define ALT_SIZE (256u << 10)

/* An entry handler of the function watched by RAISE_WATCH raises
 * SIGUSR2 (in_entry). */
static struct watch *raise_watch;

static void raise_in_entry(struct pfe_call *c, struct watch *w)
{
	(void)c;
	if (w == raise_watch)
		raise(SIGUSR2);
}

TRACED void on_usr2(int sig)
{
	(void)sig;
	plain(1);
}

TRACED void alt_inner(int x)
{
	if (x)
		raise(SIGUSR2);
}

TRACED int alt_outer(int x)
{
	alt_inner(x);
	return x + 1;
}

static void *alt_thread(void *map)
{
	stack_t ss = { .ss_sp = (char *)map + ALT_MAP - ALT_SIZE, .ss_size = ALT_SIZE };
	struct sigaction sa = { .sa_handler = on_usr2, .sa_flags = SA_ONSTACK };

	int r;

	if (sigaltstack(&ss, NULL) || sigaction(SIGUSR2, &sa, NULL))
		return NULL;
	r = alt_outer(1);
	/* Raised in alt_inner's entry handler: on_usr2, above it on the
	 * alternate stack, runs inside that handler (skipped as recursion,
	 * not taken for a handler left: its stack is another). */
	in_entry = raise_in_entry;
	r += alt_outer(0);
	in_entry = NULL;
	return (void *)(intptr_t)r;
}

static void check_sigaltstack(void)
{
	struct watch *wo = watch("alt_outer", (void *)alt_outer), *wi = watch("alt_inner", (void *)alt_inner);
	struct watch *wh = watch("on_usr2", (void *)on_usr2), *wp = watch("plain", (void *)plain);
	void *map = mmap(NULL, ALT_MAP, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_attr_t attr;
	pthread_t t;
	void *value = NULL;

	CHECK(map != MAP_FAILED, "mmap");
	raise_watch = wi;
	trace_all();
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, map, ALT_MAP / 2);
	CHECK(pthread_create(&t, &attr, alt_thread, map) == 0, "pthread_create");
	CHECK(pthread_join(t, &value) == 0 && value == (void *)3, "the thread gave %p, want 3", value);
	CHECK_COUNTS(wo, 2, 2, 0);
	CHECK_COUNTS(wi, 2, 2, 0);
	CHECK_COUNTS(wh, 1, 1, 0);
	CHECK_COUNTS(wp, 1, 1, 0);
}

static volatile int bt_entry_main, bt_exit_main;

/* 1 if the stack, from here, reaches main; else print it. */
static int reaches_main(void)
{
	void *pcs[64];
	int n = backtrace(pcs, 64);

	for (int i = 0; i < n; i++) {
		Dl_info info;

		if (dladdr(pcs[i], &info) && info.dli_sname && !strcmp(info.dli_sname, "main"))
			return 1;
	}
	backtrace_symbols_fd(pcs, n, 1);
	return 0;
}

static void bt_in_entry(struct pfe_call *c, struct watch *w)
{
	(void)c, (void)w;
	bt_entry_main += reaches_main();
}

static void bt_in_exit(struct pfe_call *c, struct watch *w)
{
	(void)c, (void)w;
	bt_exit_main += reaches_main();
}

TRACED int bt_leaf(int x)
{
	return x + 7;
}

static void check_backtrace(void)
{
	struct watch *w = watch("bt_leaf", (void *)bt_leaf);
	int r;

	CHECK(reaches_main(), "backtrace() from main does not reach main (link with -rdynamic)");
	trace_all();
	in_entry = bt_in_entry;
	in_exit = bt_in_exit;
	r = bt_leaf(1);
	in_entry = in_exit = NULL;
	CHECK(r == 8, "bt_leaf(1) = %d", r);
	CHECK_COUNTS(w, 1, 1, 0);
	CHECK(bt_entry_main == 1, "a backtrace in the entry handler does not reach main");
	CHECK(bt_exit_main == 1, "a backtrace in the exit handler does not reach main");
}

TRACED long double ld_triple(long double x)
{
	return x * 3;
}

static volatile long double ld_seen;

static void ld_in_exit(struct pfe_call *c, struct watch *w)
{
	volatile long double a = 1.25L;

	(void)c, (void)w;
	ld_seen = a * a + 1;
#if defined(__x86_64__) || defined(__i386__)
	/* The x87 stack is empty at a call (the ABI): MMX code may mark it so. */
	__asm__ volatile("emms");
#endif
}

static void check_long_double(void)
{
	struct watch *w = watch("ld_triple", (void *)ld_triple);
	long double r;

	trace_all();
	in_exit = ld_in_exit;
	r = ld_triple(1.5L);
	in_exit = NULL;
	CHECK(r == 4.5L, "ld_triple(1.5) = %Lg through an exit handler using the x87", r);
	CHECK(ld_seen == 1.25L * 1.25L + 1, "the handler's own long double: %Lg", ld_seen);
	CHECK_COUNTS(w, 1, 1, 0);
}

static void *volatile sled_ra, *volatile sled_entry_ret;

TRACED int sled_fn(int x)
{
	sled_ra = __builtin_return_address(0);
	return x + 2;
}

static void sled_entry(struct pfe_call *c, struct watch *w)
{
	(void)w;
	sled_entry_ret = c->ret;
}

static void check_sleds(void)
{
	struct watch *w = watch("sled_fn", (void *)sled_fn);
	struct pfe_info info;
	int sum = 0;

	trace_all();
	CHECK(pfe_func_info(pfe_find_addr((void *)sled_fn), &info) == 0 && info.exit_sleds == 1,
	      "sled_fn: %u exit sleds in use, want 1", info.exit_sleds);
	in_entry = sled_entry;
	for (int i = 0; i < 100; i++) {
		sled_ra = sled_entry_ret = NULL;
		sum += sled_fn(i);
		CHECK(sled_ra && sled_ra == sled_entry_ret, "sled_fn returns to %p, its entry handler says %p",
		      sled_ra, sled_entry_ret);
	}
	in_entry = NULL;
	CHECK(sum == 4950 + 200, "sum %d", sum);
	CHECK_COUNTS(w, 100, 100, 0);
	CHECK(w->retval == 101, "sled_fn's last return value %lu, want 101", (unsigned long)w->retval);
}

/* Two coroutines on adjacent stacks (the address of one says nothing of
 * the other's), ending back in co_start.  Switched by libpfe's
 * swapcontext, or (co_unseen) by libc's own, which libpfe does not see
 * (as a coroutine library's assembler), each switch announced by
 * pfe_stack_switch. */
#define CO_SWITCHES 100
static ucontext_t co_back, co_ctx[2];
static char co_stacks[2][64 << 10];
static int co_sums[2];
static int (*co_unseen)(ucontext_t *, const ucontext_t *);

/* Not inlined: the switch is its sibling call, which leaves its frame
 * (its exit sled runs) after pfe_stack_switch parked it, before the
 * switch (a coroutine library's switch function, compiled so). */
TRACED void co_swap(ucontext_t *from, ucontext_t *to)
{
	if (!co_unseen) {
		swapcontext(from, to);
		return;
	}
	pfe_stack_switch(from, to);
	co_unseen(from, to);
}

/* Coroutine ME's switch to the other, from a traced frame. */
TRACED int co_switch(int me)
{
	co_swap(&co_ctx[me], &co_ctx[!me]);
	return 1;
}

TRACED int co_body(int me)
{
	int sum = 0;

	for (int i = 0; i < CO_SWITCHES; i++) {
		sum += co_switch(me);
		sum += plain(i);
	}
	return sum;
}

static void co_run(int me)
{
	co_sums[me] = co_body(me);
}

/* Runs coroutine 0 from a traced frame (its exit parked meanwhile); it
 * ends back here through its uc_link. */
TRACED int co_start(void)
{
	co_swap(&co_back, &co_ctx[0]);
	return 7;
}

/* A traced frame saves its place with getcontext and runs a coroutine,
 * which resumes it with setcontext from a traced frame of its own (a
 * scheduler's pattern): no swapcontext saved the context switched to. */
static ucontext_t gc_saved, gc_from, gc_co;
static char gc_stack[64 << 10];
static volatile int gc_back;

TRACED void gc_leave(void)
{
	gc_back = 1;
	setcontext(&gc_saved);
}

/* The same from a frame nothing traces: gc_enter's exit sled then runs
 * with no exit pending on the thread, only parked ones. */
__attribute__((no_instrument_function)) static void gc_leave_untraced(void)
{
	gc_back = 1;
	setcontext(&gc_saved);
}

TRACED int gc_enter(void)
{
	gc_back = 0;
	getcontext(&gc_saved);
	if (!gc_back)
		swapcontext(&gc_from, &gc_co);
	return 5;
}

/* A coroutine on gc_stack that runs LEAVE. */
static void gc_coroutine(void (*leave)(void))
{
	getcontext(&gc_co);
	gc_co.uc_stack = (stack_t){ .ss_sp = gc_stack, .ss_size = sizeof gc_stack };
	makecontext(&gc_co, leave, 0);
}

/* Coroutine 0 switches 100 times, each resuming 1, which switches back;
 * 0 ends first, 1 stays in its last switch (parked for good); each
 * switch resumes the exits parked under the context it names.  Its
 * watches are made after trace_all. */
static void run_coroutines(void)
{
	struct watch *ws = watch("co_switch", (void *)co_switch), *wb = watch("co_body", (void *)co_body);
	struct watch *wp = watch("plain", (void *)plain), *wt = watch("co_start", (void *)co_start);
	struct watch *wc = watch("co_swap", (void *)co_swap);
	struct pfe_stats before, after;

	for (int k = 0; k < 2; k++) {
		getcontext(&co_ctx[k]);
		co_ctx[k].uc_stack = (stack_t){ .ss_sp = co_stacks[k], .ss_size = sizeof co_stacks[k] };
		co_ctx[k].uc_link = &co_back;
		makecontext(&co_ctx[k], (void (*)(void))co_run, 1, k);
	}
	pfe_get_stats(&before);
	CHECK(co_start() == 7, "co_start's value");
	pfe_get_stats(&after);
	/* Each switch names the stack it resumes: only co_start's return,
	 * resumed by glibc's own setcontext of uc_link, searches. */
	CHECK(after.parked_searches - before.parked_searches == 1, "%llu searches among parked stacks, want 1",
	      (unsigned long long)(after.parked_searches - before.parked_searches));
	CHECK(co_sums[0] == CO_SWITCHES + CO_SWITCHES * (CO_SWITCHES - 1), "coroutine 0's sum %d", co_sums[0]);
	CHECK_COUNTS(ws, 2 * CO_SWITCHES, 2 * CO_SWITCHES - 1, 0);
	CHECK_COUNTS(wb, 2, 1, 0);
	CHECK_COUNTS(wp, 2 * CO_SWITCHES - 1, 2 * CO_SWITCHES - 1, 0);
	CHECK_COUNTS(wt, 1, 1, 0);
	CHECK_COUNTS(wc, 2 * CO_SWITCHES + 1, 2 * CO_SWITCHES, 0);
}

static void check_coroutines(void)
{
	struct watch *we = watch("gc_enter", (void *)gc_enter), *wl = watch("gc_leave", (void *)gc_leave);

	trace_all();
	/* First, with nothing parked yet: this switch is the thread's first. */
	gc_coroutine(gc_leave_untraced);
	CHECK(gc_enter() == 5, "gc_enter's value, resumed from an untraced frame");
	CHECK_COUNTS(we, 1, 1, 0);
	run_coroutines();
	gc_coroutine(gc_leave);
	CHECK(gc_enter() == 5, "gc_enter's value");
	CHECK_COUNTS(we, 2, 2, 0);
	CHECK_COUNTS(wl, 1, 0, 0);
}

/* A coroutine started on one thread, switched away from in a traced
 * frame, and resumed on another after the first ended (an M:N
 * scheduler's pattern); it ends back on the second (uc_link). */
static ucontext_t mg_co, mg_first, mg_second;
static char mg_stack[64 << 10];
static volatile int mg_sum;

TRACED int mg_yield(void)
{
	swapcontext(&mg_co, &mg_first);
	return 3;
}

TRACED void mg_body(void)
{
	mg_sum = mg_yield();
}

static void *mg_start(void *arg)
{
	swapcontext(&mg_first, &mg_co);
	return arg;
}

/* Untraced: the second thread has called no handler when it resumes the
 * coroutine (libpfe takes its block then). */
__attribute__((no_instrument_function)) static void *mg_resume(void *arg)
{
	swapcontext(&mg_second, &mg_co);
	return arg;
}

static void check_migrate(void)
{
	struct watch *wy = watch("mg_yield", (void *)mg_yield), *wb = watch("mg_body", (void *)mg_body);
	struct pfe_stats before, after;
	pthread_t t;

	getcontext(&mg_co);
	mg_co.uc_stack = (stack_t){ .ss_sp = mg_stack, .ss_size = sizeof mg_stack };
	mg_co.uc_link = &mg_second;
	makecontext(&mg_co, mg_body, 0);
	trace_all();
	CHECK(pthread_create(&t, NULL, mg_start, NULL) == 0 && pthread_join(t, NULL) == 0, "the first thread");
	CHECK_COUNTS(wy, 1, 0, 0);
	pfe_get_stats(&before);
	CHECK(pthread_create(&t, NULL, mg_resume, NULL) == 0 && pthread_join(t, NULL) == 0, "the second thread");
	pfe_get_stats(&after);
	/* Resumed by name (swapcontext's TO): no return searched for it. */
	CHECK(after.parked_searches == before.parked_searches, "%llu searches among parked stacks, want 0",
	      (unsigned long long)(after.parked_searches - before.parked_searches));
	CHECK(mg_sum == 3, "mg_body got %d", mg_sum);
	CHECK_COUNTS(wy, 1, 1, 0);
	CHECK_COUNTS(wb, 1, 1, 0);
}

/* Many coroutines parked at once, resumed in a scrambled order (the
 * parked stacks' index grows, and keys are taken out of the middle of
 * its probe runs): each yields MANY_YIELDS times from three traced frames
 * deep, then ends back in the scheduler (uc_link). */
#define MANY_COS 500
#define MANY_YIELDS 4
#define MANY_STACK (64 << 10)
static ucontext_t many_sched, many_ctx[MANY_COS];
static int many_sums[MANY_COS];

TRACED int many_yield(int k)
{
	swapcontext(&many_ctx[k], &many_sched);
	return 1;
}

TRACED int many_mid(int k)
{
	return many_yield(k);
}

TRACED int many_top(int k)
{
	int sum = 0;

	for (int i = 0; i < MANY_YIELDS; i++)
		sum += many_mid(k);
	return sum;
}

static void many_run(int k)
{
	many_sums[k] = many_top(k);
}

static void check_many(void)
{
	struct watch *wy = watch("many_yield", (void *)many_yield), *wm = watch("many_mid", (void *)many_mid);
	struct watch *wt = watch("many_top", (void *)many_top);
	char *stacks = mmap(NULL, (size_t)MANY_COS * MANY_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int live[MANY_COS], turns[MANY_COS] = { 0 }, n = MANY_COS;
	unsigned rng = 1;

	CHECK(stacks != MAP_FAILED, "mmap");
	if (stacks == MAP_FAILED)
		return;
	for (int k = 0; k < MANY_COS; k++) {
		getcontext(&many_ctx[k]);
		many_ctx[k].uc_stack = (stack_t){ .ss_sp = stacks + (size_t)k * MANY_STACK, .ss_size = MANY_STACK };
		many_ctx[k].uc_link = &many_sched;
		makecontext(&many_ctx[k], (void (*)(void))many_run, 1, k);
		live[k] = k;
	}
	trace_all();
	while (n) {
		int i, k;

		rng = rng * 1103515245u + 12345u;
		i = (int)((rng >> 8) % (unsigned)n);
		k = live[i];
		swapcontext(&many_sched, &many_ctx[k]);
		if (++turns[k] == MANY_YIELDS + 1)
			live[i] = live[--n];
	}
	for (int k = 0; k < MANY_COS; k++)
		CHECK(many_sums[k] == MANY_YIELDS, "coroutine %d's sum %d", k, many_sums[k]);
	CHECK_COUNTS(wy, MANY_COS * MANY_YIELDS, MANY_COS * MANY_YIELDS, 0);
	CHECK_COUNTS(wm, MANY_COS * MANY_YIELDS, MANY_COS * MANY_YIELDS, 0);
	CHECK_COUNTS(wt, MANY_COS, MANY_COS, 0);
}

/* A coroutine parked in a traced frame while the main thread calls a
 * function attached with an entry handler alone, from where eo_enter was
 * called (the same CFA: eo_enter's frame was parked, then resumed). */
static ucontext_t eo_co, eo_main;
static char eo_stack[64 << 10];

TRACED int eo_enter(void)
{
	swapcontext(&eo_main, &eo_co);
	return 1;
}

TRACED int eo_yield(void)
{
	swapcontext(&eo_co, &eo_main);
	return 9;
}

TRACED void eo_body(void)
{
	CHECK(eo_yield() == 9, "eo_yield's value");
}

/* One round of the case, the coroutine's stack SHIFT bytes into
 * eo_stack: the searches among parked stacks of plain's 1000 returns. */
static unsigned long long entry_only_round(size_t shift)
{
	struct pfe_stats before, after;
	int sum = 0;

	getcontext(&eo_co);
	eo_co.uc_stack = (stack_t){ .ss_sp = eo_stack + shift, .ss_size = sizeof eo_stack - shift };
	eo_co.uc_link = &eo_main;
	makecontext(&eo_co, eo_body, 0);
	CHECK(eo_enter() == 1, "eo_enter's value");
	pfe_get_stats(&before);
	for (int i = 0; i < 1000; i++)
		sum += plain(i);
	pfe_get_stats(&after);
	CHECK(sum == 999 * 1000, "plain's sum %d", sum);
	CHECK(eo_enter() == 1, "eo_enter's value, the coroutine ended");
	return after.parked_searches - before.parked_searches;
}

/* The CFA filter is approximate by design: plain's CFA may share a
 * counter with a parked frame of the coroutine (2 of 4096, its stack
 * where ASLR put it: about one run in 2000), and then each return
 * searches.  A second round with the coroutine's stack moved cannot
 * collide again but by the same chance; eo_enter's frame, wrongly left
 * counted, would be searched in both. */
static void check_entry_only(void)
{
	struct watch *wy = watch("eo_yield", (void *)eo_yield), *wp = watch("plain", (void *)plain);
	struct watch *we = watch("eo_enter", (void *)eo_enter);
	struct pfe_func *f = pfe_find_addr((void *)plain);
	unsigned long long searches = 0;
	unsigned rounds = 0;

	trace_all();
	CHECK(f && pfe_attach(f, count_entry, NULL, NULL) == 0, "plain attached with an entry handler alone");
	do
		searches = entry_only_round(rounds * 4112);
	while (searches && ++rounds < 2);
	rounds += !searches;
	CHECK(searches == 0, "%llu searches among parked stacks in each of 2 rounds, want 0", searches);
	CHECK_COUNTS(wp, 1000 * rounds, 0, 0);
	CHECK_COUNTS(wy, rounds, rounds, 0);
	CHECK_COUNTS(we, 2 * rounds, 2 * rounds, 0);
}

/* The coroutines switched by libc's own swapcontext (dlsym in libc: not
 * libpfe's), announced by pfe_stack_switch. */
static void check_switcher(void)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);

	co_unseen = libc ? (int (*)(ucontext_t *, const ucontext_t *))dlsym(libc, "swapcontext") : NULL;
	CHECK(co_unseen && co_unseen != swapcontext, "libc's own swapcontext: %p (libpfe's %p)", (void *)co_unseen,
	      (void *)swapcontext);
	if (!co_unseen)
		return;
	trace_all();
	run_coroutines();
}

/* midbatch: mb_fn, entered while enabled, waits in mb_thread until
 * mb_release (0.1 s later) lets it return, while main disables it in a
 * batch stalled 0.5 s after each phase (PFE_DEBUG=stall=500): its exit
 * sled then holds an int3. */
static volatile int mb_inside, mb_go;

TRACED int mb_fn(int x)
{
	mb_inside = 1;
	while (!mb_go)
		usleep(1000);
	return x + 7;
}

static void *mb_thread(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)mb_fn(35);
}

static void *mb_release(void *arg)
{
	(void)arg;
	usleep(100000);
	mb_go = 1;
	return NULL;
}

static void check_midbatch(void)
{
	struct watch *w = watch("mb_fn", (void *)mb_fn);
	struct pfe_stats st;
	pthread_t t, r;
	void *value = NULL;

	trace_all();
	CHECK(pthread_create(&t, NULL, mb_thread, NULL) == 0, "pthread_create");
	while (!mb_inside)
		usleep(1000);
	CHECK(pthread_create(&r, NULL, mb_release, NULL) == 0, "pthread_create");
	CHECK(pfe_disable(pfe_find_addr((void *)mb_fn)) == 0, "pfe_disable(mb_fn)");
	CHECK(pthread_join(t, &value) == 0 && (intptr_t)value == 42, "mb_fn gave %ld, want 42", (long)(intptr_t)value);
	pthread_join(r, NULL);
	pfe_get_stats(&st);
	CHECK(st.trap_hits >= 1, "%llu int3 hits: mb_fn returned outside the batch", (unsigned long long)st.trap_hits);
	CHECK_COUNTS(w, 1, 1, 0);
	CHECK(w->retval == 42, "mb_fn's exit saw %lu, want 42", (unsigned long)w->retval);
}

/* The sum of 1..N, recursing N deep; JUMP: longjmp from the bottom.  The
 * volatile read after the call keeps GCC from making a loop of it. */
TRACED unsigned long down(unsigned n, int jump)
{
	volatile unsigned keep = n;

	if (!n) {
		if (jump)
			siglongjmp(jb, 1);
		return 0;
	}
	return down(n - 1, jump) + keep;
}

/* down(N, JUMP) with the exits pending around it: how many calls got an
 * exit (a return, or a frame left), checked against the skips counted. */
static unsigned deep_round(struct watch *w, unsigned n, int jump)
{
	unsigned entries = w->entries, done = w->returns + w->left;
	struct pfe_stats before, after;
	volatile unsigned long sum = 0;
	uint64_t skips;

	pfe_get_stats(&before);
	if (!sigsetjmp(jb, 1))
		sum = down(n, jump);
	(void)plain(1); /* a traced call further out: the frames left are noticed */
	pfe_get_stats(&after);
	done = w->returns + w->left - done;
	skips = after.exit_skips - before.exit_skips;
	CHECK(w->entries - entries == n + 1, "down(%u): %u entries", n, w->entries - entries);
	CHECK(done + skips == n + 1, "down(%u): %u exits and %llu skipped of %u calls", n, done,
	      (unsigned long long)skips, n + 1);
	CHECK(jump || sum == (unsigned long)n * (n + 1) / 2, "down(%u) gave %lu", n, sum);
	CHECK(jump || w->retval == sum, "down(%u)'s last exit saw %lu", n, (unsigned long)w->retval);
	return done;
}

static sigjmp_buf left_jb;

static void left_jump(int sig)
{
	(void)sig;
	siglongjmp(left_jb, 1);
}

TRACED int victim(int x)
{
	return x + 1;
}

/* Entered before the jump out of victim's entry handler, returns after. */
TRACED int holder(int x)
{
	if (!sigsetjmp(left_jb, 1))
		victim(x);
	return x + 1;
}

static void check_handler_left(void)
{
	struct watch *wh = watch("holder", (void *)holder), *wp = watch("plain", (void *)plain);
	struct watch *wl = watch("left_jump", (void *)left_jump);
	volatile int jumps = 0, sum = 0, err = -1;

	raise_watch = watch("victim", (void *)victim);
	signal(SIGUSR2, left_jump);
	trace_all();
	in_entry = raise_in_entry;
	sum += holder(1);
	if (!sigsetjmp(left_jb, 1))
		victim(1);
	else
		jumps++;
	err = pfe_synchronize();
	if (!sigsetjmp(left_jb, 1))
		victim(1);
	else
		jumps++;
	in_entry = NULL;
	for (int i = 0; i < 10; i++)
		sum += plain(i);
	CHECK(jumps == 2 && sum == 2 + 90, "%d jumps, sum %d", jumps, sum);
	CHECK(err == 0, "pfe_synchronize after a handler left by siglongjmp: %s", pfe_strerror(err));
	CHECK_COUNTS(raise_watch, 3, 0, 0);
	CHECK_COUNTS(wh, 1, 1, 0);
	CHECK_COUNTS(wp, 10, 10, 0);
	CHECK_COUNTS(wl, 0, 0, 0);
}

static void check_deep(void)
{
	struct watch *w = watch("down", (void *)down);
	unsigned n = PFE_EXIT_DEPTH + 100, returned;

	trace_all();
	CHECK(deep_round(w, 3000, 0) == 3001, "down(3000): not every exit taken");
	CHECK_COUNTS(w, 3001, 3001, 0);
	/* The exits pending outside (main's, check_deep's) leave fewer than
	 * PFE_EXIT_DEPTH to down, the same number each round. */
	returned = deep_round(w, n, 0);
	CHECK(returned < PFE_EXIT_DEPTH && returned + 16 > PFE_EXIT_DEPTH, "down(%u): %u exits", n, returned);
	CHECK(deep_round(w, n, 1) == returned, "down(%u) left by longjmp: not the %u exits of its return", n, returned);
	CHECK_COUNTS(w, 3001 + 2 * (n + 1), 3001 + returned, returned);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*check)(void);
	} cases[] = {
		{ "longjmp", check_longjmp }, { "siglongjmp", check_siglongjmp }, { "cancel", check_cancel },
		{ "sigaltstack", check_sigaltstack }, { "tail", check_tail }, { "backtrace", check_backtrace },
		{ "long-double", check_long_double }, { "coroutines", check_coroutines }, { "sleds", check_sleds },
		{ "switcher", check_switcher }, { "migrate", check_migrate },
		{ "many", check_many }, { "entry-only", check_entry_only }, { "midbatch", check_midbatch },
		{ "deep", check_deep }, { "handler-left", check_handler_left },
	};
	const char *what = argc > 1 ? argv[1] : "";
	unsigned i;

	for (i = 0; i < sizeof cases / sizeof cases[0] && strcmp(cases[i].name, what); i++)
		;
	if (i == sizeof cases / sizeof cases[0]) {
		/* The usage line is the table's: it cannot leave a case out. */
		printf("usage: rt-unwind ");
		for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
			printf("%s%s", i ? "|" : "", cases[i].name);
		printf("\n");
		return 2;
	}
	cases[i].check();
	if (failures)
		return 1;
	printf("ok %s\n", what);
	return 0;
}
