/* bench-runtime.c: the program scripts/bench-runtime.sh builds several
 * ways (plain, pfe with libpfe, Clang's -fxray-instrument) to measure the
 * run-time library against LLVM XRay on the same source:
 *
 *   bench-runtime calls off|on     ns per call of a small function, the
 *                                  handler off (the NOP forms / XRay sleds)
 *                                  or on (an empty handler)
 *   bench-runtime patch            ms to patch and to unpatch every
 *                                  function (linked with the ten
 *                                  -DBENCH_PART=K objects: 100000),
 *                                  twice (the first takes page
 *                                  faults the second does not)
 *   bench-runtime spread off|on    ns per call when the calls go to the
 *                                  100000 functions in a shuffled order,
 *                                  every handler off or on (an empty one),
 *                                  as a tracer of a large program sees them
 *
 * Built with -DBENCH_PFE (links libpfe) or -DBENCH_XRAY (Clang's XRay
 * runtime), or neither (no instrumentation: only "calls off").  Prints
 * "RESULT value"; exit 1 with a message if patching fails.
 * Debugging: PFE_DEBUG=list with a pfe build shows each entry's layout.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(BENCH_PFE)
#include <pfe.h>
#elif defined(BENCH_XRAY)
#include <xray/xray_interface.h>
#endif

#define NOINLINE __attribute__((noinline))

/* -DBENCH_PART=K (1 to 10): this file is only 10000 functions,
 * bench_fK0000 to bench_fK9999; ten of them make the 100000-function
 * program (one unit of 100000 would take gas minutes: each function's
 * record is a section of its own).  The main unit built with -DBENCH_MANY
 * has their table.  X10000(G, K) is G(n) for those 10000 n. */
#define X10(G, n) G(n##0) G(n##1) G(n##2) G(n##3) G(n##4) G(n##5) G(n##6) G(n##7) G(n##8) G(n##9)
#define X100(G, n) X10(G, n##0) X10(G, n##1) X10(G, n##2) X10(G, n##3) X10(G, n##4) \
	X10(G, n##5) X10(G, n##6) X10(G, n##7) X10(G, n##8) X10(G, n##9)
#define X1000(G, n) X100(G, n##0) X100(G, n##1) X100(G, n##2) X100(G, n##3) X100(G, n##4) \
	X100(G, n##5) X100(G, n##6) X100(G, n##7) X100(G, n##8) X100(G, n##9)
#define X10000(G, n) X1000(G, n##0) X1000(G, n##1) X1000(G, n##2) X1000(G, n##3) X1000(G, n##4) \
	X1000(G, n##5) X1000(G, n##6) X1000(G, n##7) X1000(G, n##8) X1000(G, n##9)
#define X_ALL(G) X10000(G, 1) X10000(G, 2) X10000(G, 3) X10000(G, 4) X10000(G, 5) \
	X10000(G, 6) X10000(G, 7) X10000(G, 8) X10000(G, 9) X10000(G, 10)
#define DEFINE(n) NOINLINE int bench_f##n(int x) { return x + n; }
#define DECLARE(n) int bench_f##n(int);
#define ADDRESS(n) bench_f##n,
#define NMANY 100000

#ifdef BENCH_PART
#define PART(k) X10000(DEFINE, k)
PART(BENCH_PART)
#else
NOINLINE int bench_leaf(int x)
{
	return x * 3 + 1;
}


static int (*volatile leaf)(int) = bench_leaf;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#if defined(BENCH_PFE)
static void empty(struct pfe_call *c)
{
	(void)c;
}

static int handler_on(void)
{
	struct pfe_func *f = pfe_find_addr((void *)bench_leaf);

	if (!f || pfe_attach(f, empty, NULL, NULL) != 0 || pfe_enable(f) != 0)
		return 1;
	return 0;
}
#elif defined(BENCH_XRAY)
/* Not instrumented itself: XRay has no recursion guard. */
__attribute__((xray_never_instrument)) static void empty(int32_t id, XRayEntryType type)
{
	(void)id, (void)type;
}

static int handler_on(void)
{
	__xray_set_handler(empty);
	return __xray_patch() == XRayPatchingStatus::SUCCESS ? 0 : 1;
}
#else
static int handler_on(void)
{
	return 1;
}
#endif

/* The fastest of 7 rounds of 5M calls, in ns per call. */
static double per_call(void)
{
	double best = 1e9;

	for (int round = 0; round < 7; round++) {
		double t = now();
		int s = 0;

		for (int i = 0; i < 5000000; i++)
			s += leaf(i);
		t = now() - t;
		if (s == 42)
			puts("");
		if (t / 5e6 * 1e9 < best)
			best = t / 5e6 * 1e9;
	}
	return best;
}

#ifdef BENCH_MANY
X_ALL(DECLARE)
static int (*const many[NMANY])(int) = { X_ALL(ADDRESS) };

/* Ns per call of the 100000 functions called in a shuffled order (the
 * same every run), the fastest of 7 rounds of 5 passes. */
static double per_call_spread(void)
{
	static unsigned order[NMANY];
	unsigned seed = 12345;
	double best = 1e9;

	for (unsigned i = 0; i < NMANY; i++)
		order[i] = i;
	for (unsigned i = NMANY - 1; i > 0; i--) {
		unsigned j, t;

		seed = seed * 1103515245u + 12345u;
		j = (seed >> 8) % (i + 1);
		t = order[i], order[i] = order[j], order[j] = t;
	}
	for (int round = 0; round < 7; round++) {
		double t = now();
		int s = 0;

		for (int pass = 0; pass < 5; pass++)
			for (unsigned i = 0; i < NMANY; i++)
				s += many[order[i]](i);
		t = now() - t;
		if (s == 42)
			puts("");
		if (t / (5.0 * NMANY) * 1e9 < best)
			best = t / (5.0 * NMANY) * 1e9;
	}
	return best;
}

/* Every function patched, with the empty handler. */
static int all_on(void)
{
#if defined(BENCH_PFE)
	size_t n;

	if (pfe_attach_all(empty, NULL, NULL, &n) != 0)
		return 1;
	return pfe_enable_all() != 0;
#elif defined(BENCH_XRAY)
	__xray_set_handler(empty);
	return __xray_patch() != XRayPatchingStatus::SUCCESS;
#else
	return 1;
#endif
}
#endif

/* Enable and disable every function; 0, or 1 if one failed. */
#if defined(BENCH_PFE)
static size_t patch_prepare(void)
{
	size_t n;

	return pfe_attach_all(empty, NULL, NULL, &n) == 0 ? n : 0;
}

static int patch_on(void)
{
	return pfe_enable_all() != 0;
}

static int patch_off(void)
{
	return pfe_disable_all() != 0;
}
#elif defined(BENCH_XRAY)
static size_t patch_prepare(void)
{
	__xray_set_handler(empty);
	return __xray_max_function_id();
}

static int patch_on(void)
{
	return __xray_patch() != XRayPatchingStatus::SUCCESS;
}

static int patch_off(void)
{
	return __xray_unpatch() != XRayPatchingStatus::SUCCESS;
}
#else
static size_t patch_prepare(void)
{
	return 0;
}

static int patch_on(void)
{
	return 1;
}

static int patch_off(void)
{
	return 1;
}
#endif

/* Twice: the first patch takes page faults the second does not (the
 * code pages' first writes, the library's fresh buffers). */
static int patch_times(void)
{
	size_t n = patch_prepare();

	for (int round = 0; round < 2; round++) {
		double t0 = now(), t1, t2;

		if (!n || patch_on() != 0)
			return 1;
		t1 = now();
		if (patch_off() != 0)
			return 1;
		t2 = now();
		if (round == 0)
			printf("functions %zu\n", n);
		printf("%spatch_ms %.3f\n%sunpatch_ms %.3f\n", round ? "re" : "", (t1 - t0) * 1e3,
		       round ? "re" : "", (t2 - t1) * 1e3);
	}
	return 0;
}

/* "calls MODE" and "spread MODE": ON enables the handler(s) on WHAT when
 * MODE is "on"; PER measures. */
static int measure(const char *mode, int (*on)(void), const char *what, double (*per)(void))
{
	if (strcmp(mode, "on") == 0 && on() != 0) {
		fprintf(stderr, "bench-runtime: main: cannot enable a handler on %s\n", what);
		return 1;
	}
	printf("ns_per_call %.3f\n", per());
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "calls") == 0)
		return measure(argv[2], handler_on, "bench_leaf", per_call);
#ifdef BENCH_MANY
	if (argc == 3 && strcmp(argv[1], "spread") == 0)
		return measure(argv[2], all_on, "every function", per_call_spread);
#endif
	if (argc == 2 && strcmp(argv[1], "patch") == 0) {
		if (patch_times() != 0) {
			fprintf(stderr, "bench-runtime: patch_times: patching failed\n");
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "usage: bench-runtime calls off|on, bench-runtime patch, bench-runtime spread off|on\n");
	return 2;
}
#endif /* BENCH_PART */
