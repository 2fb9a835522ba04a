/* bench-runtime.c: the program scripts/bench-runtime.sh builds several
 * ways (plain, pfe with libpfe, Clang's -fxray-instrument) to measure the
 * run-time library against LLVM XRay on the same source:
 *
 *   bench-runtime calls off|on     ns per call of a small function, the
 *                                  handler off (the NOP forms / XRay sleds)
 *                                  or on (an empty handler)
 *   bench-runtime patch            ms to patch and to unpatch every
 *                                  function (linked with the ten
 *                                  -DBENCH_PART=K objects: 100000)
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
 * record is a section of its own). */
#ifdef BENCH_PART
#define F(n) NOINLINE int bench_f##n(int x) { return x + n; }
#define F10(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7) F(n##8) F(n##9)
#define F100(n) F10(n##0) F10(n##1) F10(n##2) F10(n##3) F10(n##4) F10(n##5) F10(n##6) F10(n##7) F10(n##8) F10(n##9)
#define F1000(n) F100(n##0) F100(n##1) F100(n##2) F100(n##3) F100(n##4) F100(n##5) F100(n##6) F100(n##7) F100(n##8) F100(n##9)
#define F10000(n) F1000(n##0) F1000(n##1) F1000(n##2) F1000(n##3) F1000(n##4) F1000(n##5) F1000(n##6) F1000(n##7) F1000(n##8) F1000(n##9)
#define PART(k) F10000(k)
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

static int patch_times(void)
{
	double t0, t1, t2;
#if defined(BENCH_PFE)
	size_t n;

	if (pfe_attach_all(empty, NULL, NULL, &n) != 0)
		return 1;
	t0 = now();
	if (pfe_enable_all() != 0)
		return 1;
	t1 = now();
	if (pfe_disable_all() != 0)
		return 1;
	t2 = now();
#elif defined(BENCH_XRAY)
	size_t n = __xray_max_function_id();

	__xray_set_handler(empty);
	t0 = now();
	if (__xray_patch() != XRayPatchingStatus::SUCCESS)
		return 1;
	t1 = now();
	if (__xray_unpatch() != XRayPatchingStatus::SUCCESS)
		return 1;
	t2 = now();
#else
	size_t n = 0;

	t0 = t1 = t2 = 0;
	return 1;
#endif
	printf("functions %zu\npatch_ms %.3f\nunpatch_ms %.3f\n", n, (t1 - t0) * 1e3, (t2 - t1) * 1e3);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "calls") == 0) {
		if (strcmp(argv[2], "on") == 0 && handler_on() != 0) {
			fprintf(stderr, "bench-runtime: main: cannot enable a handler on bench_leaf\n");
			return 1;
		}
		printf("ns_per_call %.3f\n", per_call());
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "patch") == 0) {
		if (patch_times() != 0) {
			fprintf(stderr, "bench-runtime: patch_times: patching failed\n");
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "usage: bench-runtime calls off|on, bench-runtime patch\n");
	return 2;
}
#endif /* BENCH_PART */
