/* bench-runtime.c: the program scripts/bench-runtime.sh builds eight ways
 * (gcc plain, gcc with pfe and libpfe, with exits too, clang plain, clang
 * -fxray-instrument with both sleds, and with the function-entry bundle
 * alone; gcc with pfe and the function-entry bundle again with
 * -DBENCH_PAD) to measure the run-time library against LLVM XRay doing
 * the same work:
 *
 *   bench-runtime calls off|entry|both   ns per call of one small function
 *                                        called over and over (all in the
 *                                        caches)
 *   bench-runtime count off|entry|both   100000 calls of it, untimed: what
 *                                        callgrind counts the instructions
 *                                        of (exact, where the clock is not)
 *   bench-runtime pair entry|both        calls, in two threads at once
 *                                        (the machine's two cores): the
 *                                        slower one's ns per call (what
 *                                        state the handlers' machinery
 *                                        shares between threads costs)
 *   bench-runtime spread off|entry|both  ns per call when the calls go to
 *                                        100000 functions in a shuffled
 *                                        order (what a tracer of a large
 *                                        program meets)
 *   bench-runtime patch entry|both       ms to patch and to unpatch every
 *                                        function, twice (the first time
 *                                        takes page faults the second
 *                                        does not)
 *   bench-runtime patch2 entry|both      the same with a second thread
 *                                        alive (idle): libpfe's protocol
 *                                        for threads, not the one for a
 *                                        process of one thread
 *   bench-runtime trace                  SPREAD_PASSES passes over the
 *                                        100000 in that order, "sum S":
 *                                        scripts/bench-trace.sh's workload
 *                                        (under a tracer)
 *
 * off: no handler (the disabled cost: pfe's NOP, XRay's sleds, or nothing
 * in a plain build); entry: a handler on entry only (pfe: an entry
 * handler; XRay: built with -fxray-instrumentation-bundle=function-entry,
 * so it has no exit sleds); both: the same handler on entry and on exit
 * (pfe: entry and exit handlers; XRay: both sleds).  The handler's work is
 * the same on both sides: one increment of a per-thread counter.  After
 * measuring, the counter must equal the calls made times the events per
 * call (a few more for the program's own functions XRay patches too):
 * a build paired with the wrong mode, or a handler that never ran, fails
 * instead of giving a figure.
 *
 * Built with -DBENCH_PFE (links libpfe), -DBENCH_XRAY (C++, Clang's XRay
 * runtime) or neither (plain: "off" only), and linked with the ten
 * -DBENCH_PART=K objects.  Prints "KEY value" lines; exit 1 with a message
 * when a handler cannot be enabled, patching fails or the count is wrong.
 * Debugging: PFE_DEBUG=list with a pfe build shows each entry's layout;
 * "perf record ./pfe spread both" shows where a call's time goes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(BENCH_PFE)
#include <pfe.h>
#elif defined(BENCH_XRAY)
#include <xray/xray_interface.h>
#endif

#define NOINLINE __attribute__((noinline))

/* -DBENCH_PART=K (1 to 10): this file is only 10000 functions,
 * bench_fK0000 to bench_fK9999; ten of them make the 100000-function
 * program (one unit of 100000 would take gas minutes: each function's
 * record is a section of its own).  The main unit has their table.
 * X10000(G, K) is G(n) for those 10000 n. */
#define X10(G, n) G(n##0) G(n##1) G(n##2) G(n##3) G(n##4) G(n##5) G(n##6) G(n##7) G(n##8) G(n##9)
#define X100(G, n) X10(G, n##0) X10(G, n##1) X10(G, n##2) X10(G, n##3) X10(G, n##4) \
	X10(G, n##5) X10(G, n##6) X10(G, n##7) X10(G, n##8) X10(G, n##9)
#define X1000(G, n) X100(G, n##0) X100(G, n##1) X100(G, n##2) X100(G, n##3) X100(G, n##4) \
	X100(G, n##5) X100(G, n##6) X100(G, n##7) X100(G, n##8) X100(G, n##9)
#define X10000(G, n) X1000(G, n##0) X1000(G, n##1) X1000(G, n##2) X1000(G, n##3) X1000(G, n##4) \
	X1000(G, n##5) X1000(G, n##6) X1000(G, n##7) X1000(G, n##8) X1000(G, n##9)
#define X_ALL(G) X10000(G, 1) X10000(G, 2) X10000(G, 3) X10000(G, 4) X10000(G, 5) \
	X10000(G, 6) X10000(G, 7) X10000(G, 8) X10000(G, 9) X10000(G, 10)
/* -DBENCH_PAD=N: each function N bytes of NOPs longer, run through on a
 * call: a program whose functions are as far apart as a real one's (the
 * patch rows; the bench's own are 32 bytes apart, 128 on a page). */
#ifdef BENCH_PAD
#define STRING(x) #x
#define PAD(n) __asm__ volatile(".skip " STRING(n) ", 0x90")
#else
#define PAD(n) (void)0
#endif
#define DEFINE(n) NOINLINE int bench_f##n(int x) { PAD(BENCH_PAD); return x + n; }
#define DECLARE(n) int bench_f##n(int);
#define ADDRESS(n) bench_f##n,
#define NMANY 100000

#ifdef BENCH_PART
#define PART(k) X10000(DEFINE, k)
PART(BENCH_PART)
#else
X_ALL(DECLARE)
static int (*const many[NMANY])(int) = { X_ALL(ADDRESS) };

/* Rounds of each measurement in one run (the script takes the best of
 * its runs, which take turns with the other side's); calls per round of
 * the one-function loop; passes over the 100000 per round. */
#define ROUNDS 3
#define LEAF_CALLS 5000000
/* "count": the calls callgrind counts the instructions of (bench-runtime.sh). */
#define COUNTED_CALLS 100000
#define SPREAD_PASSES 5
/* Calls of the program's own instrumented functions (now, the loops)
 * that XRay's __xray_patch and pfe_attach_all hook besides the measured
 * ones: the most the counter may exceed the measured calls by. */
#define OWN_EVENTS 1000

NOINLINE int bench_leaf(int x)
{
	return x * 3 + 1;
}

static int (*volatile leaf)(int) = bench_leaf;

/* The handler's work, the same on both sides: one increment of a
 * per-thread counter (what a per-thread event buffer's cursor costs). */
static __thread unsigned long events;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Handlers per call of MODE: 0 (off), 1 (entry), 2 (both); -1 unknown. */
static int events_per_call(const char *mode)
{
	if (strcmp(mode, "off") == 0)
		return 0;
	if (strcmp(mode, "entry") == 0)
		return 1;
	if (strcmp(mode, "both") == 0)
		return 2;
	return -1;
}

#if defined(BENCH_PFE)
/* Not instrumented itself (pfe_attach_all would hook it: a recursion
 * skip on every call). */
__attribute__((no_instrument_function)) static void count_event(struct pfe_call *c)
{
	(void)c;
	events++;
}

/* PER handlers (1 or 2) on bench_leaf, or on every function if ALL. */
static int handlers_on(int per, int all)
{
	pfe_exit_handler exit_handler = per == 2 ? count_event : NULL;
	struct pfe_func *f;

	if (all)
		return pfe_attach_all(count_event, exit_handler, NULL, NULL) != 0 || pfe_enable_all() != 0;
	f = pfe_find_addr((void *)bench_leaf);
	return !f || pfe_attach(f, count_event, exit_handler, NULL) != 0 || pfe_enable(f) != 0;
}

static int patch_on(void)
{
	return pfe_enable_all() != 0;
}

static int patch_off(void)
{
	return pfe_disable_all() != 0;
}

/* Attach without enabling; how many functions. */
static size_t patch_prepare(int per)
{
	size_t n;

	return pfe_attach_all(count_event, per == 2 ? count_event : NULL, NULL, &n) == 0 ? n : 0;
}
#elif defined(BENCH_XRAY)
/* Not instrumented itself: XRay has no recursion guard.  Called for
 * every sled the build has: entry only with the function-entry bundle. */
__attribute__((xray_never_instrument)) static void count_event(int32_t id, XRayEntryType type)
{
	(void)id, (void)type;
	events++;
}

/* XRay patches every function, on entry or on both by how it was built:
 * PER and ALL are the script's pairing, checked by the count. */
static int handlers_on(int per, int all)
{
	(void)per, (void)all;
	__xray_set_handler(count_event);
	return __xray_patch() != XRayPatchingStatus::SUCCESS;
}

static int patch_on(void)
{
	return __xray_patch() != XRayPatchingStatus::SUCCESS;
}

static int patch_off(void)
{
	return __xray_unpatch() != XRayPatchingStatus::SUCCESS;
}

static size_t patch_prepare(int per)
{
	(void)per;
	__xray_set_handler(count_event);
	return __xray_max_function_id();
}
#else
static int handlers_on(int per, int all)
{
	(void)per, (void)all;
	return 1;
}

static int patch_on(void)
{
	return 1;
}

static int patch_off(void)
{
	return 1;
}

static size_t patch_prepare(int per)
{
	(void)per;
	return 0;
}
#endif

/* Called before each round of per_call when set: "pair"'s start line. */
static void (*round_start)(void);

/* The fastest of ROUNDS rounds of LEAF_CALLS calls, in ns per call;
 * *CALLS gets the calls made. */
static double per_call(unsigned long *calls)
{
	double best = 1e9;

	for (int round = 0; round < ROUNDS; round++) {
		double t;
		int s = 0;

		if (round_start)
			round_start();
		t = now();
		for (int i = 0; i < LEAF_CALLS; i++)
			s += leaf(i);
		t = now() - t;
		if (s == 42)
			puts("");
		if (t / LEAF_CALLS * 1e9 < best)
			best = t / LEAF_CALLS * 1e9;
	}
	*calls = (unsigned long)ROUNDS * LEAF_CALLS;
	return best;
}

/* "count": COUNTED_CALLS calls, untimed, all inside this function, whose
 * instructions alone bench-runtime.sh has callgrind count
 * (--toggle-collect): a call's instructions, exact where the clock is
 * not.  Its ns per call is not a figure (0). */
static NOINLINE double counted_calls(unsigned long *calls)
{
	int s = 0;

	for (int i = 0; i < COUNTED_CALLS; i++)
		s += leaf(i);
	if (s == 42)
		puts("");
	*calls = COUNTED_CALLS;
	return 0;
}

/* "pair": per_call in this thread and another, each round started by
 * both at once; the slower one's figure, and the calls and handler
 * events of both. */
struct half {
	double ns;
	unsigned long calls, events;
};
static pthread_barrier_t pair_line;

static void pair_start(void)
{
	pthread_barrier_wait(&pair_line);
}

static void *run_half(void *arg)
{
	struct half *h = (struct half *)arg;

	h->ns = per_call(&h->calls);
	h->events = events;
	return NULL;
}

static double per_call_pair(unsigned long *calls)
{
	struct half h[2];
	pthread_t other;

	pthread_barrier_init(&pair_line, NULL, 2);
	round_start = pair_start;
	if (pthread_create(&other, NULL, run_half, &h[1]) != 0) {
		*calls = 0;
		return 0;
	}
	run_half(&h[0]);
	pthread_join(other, NULL);
	events += h[1].events;
	*calls = h[0].calls + h[1].calls;
	return h[0].ns > h[1].ns ? h[0].ns : h[1].ns;
}

/* The 100000 functions' indices in a shuffled order, the same every run. */
static const unsigned *shuffled(void)
{
	static unsigned order[NMANY];
	unsigned seed = 12345;

	for (unsigned i = 0; i < NMANY; i++)
		order[i] = i;
	for (unsigned i = NMANY - 1; i > 0; i--) {
		unsigned j, t;

		seed = seed * 1103515245u + 12345u;
		j = (seed >> 8) % (i + 1);
		t = order[i], order[i] = order[j], order[j] = t;
	}
	return order;
}

/* SPREAD_PASSES passes over the 100000 functions in ORDER: the sum of
 * their results. */
static unsigned spread_passes(const unsigned *order)
{
	unsigned s = 0;

	for (int pass = 0; pass < SPREAD_PASSES; pass++)
		for (unsigned i = 0; i < NMANY; i++)
			s += (unsigned)many[order[i]]((int)i);
	return s;
}

/* Ns per call of the 100000 functions called in a shuffled order, the
 * fastest of ROUNDS rounds of SPREAD_PASSES passes. */
static double per_call_spread(unsigned long *calls)
{
	const unsigned *order = shuffled();
	double best = 1e9;

	for (int round = 0; round < ROUNDS; round++) {
		double t = now();
		unsigned s = spread_passes(order);

		t = now() - t;
		if (s == 42)
			puts("");
		if (t / (SPREAD_PASSES * (double)NMANY) * 1e9 < best)
			best = t / (SPREAD_PASSES * (double)NMANY) * 1e9;
	}
	*calls = (unsigned long)ROUNDS * SPREAD_PASSES * NMANY;
	return best;
}

/* "trace": what a tracer records (the 100000 and the loops that call
 * them), and a sum that says the calls were made. */
static int trace_passes(void)
{
	printf("sum %u\n", spread_passes(shuffled()));
	return 0;
}

/* Twice: the first patch takes page faults the second does not (the
 * code pages' first writes, the library's fresh buffers). */
static int patch_times(int per)
{
	size_t n = patch_prepare(per);

	if (!n)
		return 1;
	printf("functions %zu\n", n);
	for (int round = 0; round < 2; round++) {
		double t0 = now(), t1, t2;

		if (patch_on() != 0)
			return 1;
		t1 = now();
		if (patch_off() != 0)
			return 1;
		t2 = now();
		printf("%spatch_ms %.3f\n%sunpatch_ms %.3f\n", round ? "re" : "", (t1 - t0) * 1e3,
		       round ? "re" : "", (t2 - t1) * 1e3);
	}
	return 0;
}

/* "calls MODE" and "spread MODE": the handlers of MODE on bench_leaf (or
 * on every function if ALL), then PER measures; the counter checked. */
static int measure(const char *mode, int all, double (*per)(unsigned long *))
{
	int per_mode = events_per_call(mode);
	unsigned long calls, want;
	double ns;

	if (per_mode > 0 && handlers_on(per_mode, all) != 0) {
		fprintf(stderr, "bench-runtime: measure: cannot enable the %s handlers\n", mode);
		return 1;
	}
	ns = per(&calls);
	want = calls * (unsigned long)per_mode;
	if (events < want || events > want + (per_mode ? OWN_EVENTS : 0)) {
		fprintf(stderr, "bench-runtime: measure: %s: %lu handler calls for %lu calls (wrong build for the mode?)\n",
			mode, events, calls);
		return 1;
	}
	printf("ns_per_call %.3f\n", ns);
	return 0;
}

/* A thread that waits for ever: the process is no longer one thread. */
static void *idle(void *arg)
{
	for (;;)
		pause();
	return arg;
}

int main(int argc, char **argv)
{
	int per_mode = argc == 3 ? events_per_call(argv[2]) : -1;

	if (per_mode >= 0 && strcmp(argv[1], "calls") == 0)
		return measure(argv[2], 0, per_call);
	if (per_mode >= 0 && strcmp(argv[1], "count") == 0) {
		if (measure(argv[2], 0, counted_calls) != 0)
			return 1;
		printf("counted_calls %d\n", COUNTED_CALLS);
		return 0;
	}
	if (per_mode >= 0 && strcmp(argv[1], "spread") == 0)
		return measure(argv[2], 1, per_call_spread);
	if (per_mode > 0 && strcmp(argv[1], "pair") == 0)
		return measure(argv[2], 0, per_call_pair);
	if (argc == 2 && strcmp(argv[1], "trace") == 0)
		return trace_passes();
	if (per_mode > 0 && (strcmp(argv[1], "patch") == 0 || strcmp(argv[1], "patch2") == 0)) {
		pthread_t other;

		if (argv[1][5] && pthread_create(&other, NULL, idle, NULL) != 0) {
			fprintf(stderr, "bench-runtime: patch2: no second thread\n");
			return 1;
		}
		if (patch_times(per_mode) != 0) {
			fprintf(stderr, "bench-runtime: patch_times: patching failed\n");
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "usage: bench-runtime calls|spread|count off|entry|both, bench-runtime pair|patch|patch2 entry|both, "
		"bench-runtime trace\n");
	return 2;
}
#endif /* BENCH_PART */
