/* rt-abi.c: libpfe's trampolines pass on what the ABI gives a function
 * besides its arguments (runtime.exp builds it with each patchable layout,
 * linked with libpfe.so).  Patched, with an entry handler that changes
 * nothing:
 *   - a variadic function taking doubles sums them right: on x86_64 %al
 *     holds how many vector registers the call used, and the callee saves
 *     them for va_arg only when it is not 0;
 *   - a function returning a struct in memory fills its caller's struct:
 *     on aarch64 x8 holds where (the indirect result register; x86_64
 *     passes it in %rdi, riscv64 in a0, i386 on the stack).
 * The handler ends by calling a function that returns such a struct (x8
 * points into the handler's frame) and then one that returns 0 (%rax is
 * 0): pfe__dispatch writes neither after an entry handler returns, so a
 * trampoline that does not restore %rax or x8 hands the function those,
 * and this program fails (a register left as the caller set it by chance
 * would hide the bug).
 * On x86_64 the handler also sets xmm0-7 to all ones: rt_scale's double
 * must still arrive.  With the plugin's vector-args (-DPFE_WANT_VECTOR_ARGS)
 * pfe_info says what the ops slot's trampolines save of the vector
 * registers: nothing for rt_big (an integer argument), their xmm for
 * rt_scale (a double), all of them for rt_vsum (variadic).
 * Prints "FAIL: ..." for each failure and "ok" last; exit 1 on a failure.
 * Debugging: PFE_DEBUG=list ./rt-abi.exe; break on rt_vsum and look at
 * $rax (x86_64) or on rt_big and $x8 (aarch64).
 */
#include <pfe.h>
#include "rt-test.h"

#include <stdarg.h>
#include <stdio.h>

static unsigned long hits;
static volatile long sink;

/* Larger than two registers on every target: returned in memory. */
struct big {
	long v[8];
};

/* The sum of N doubles. */
NOINLINE double rt_vsum(int n, ...)
{
	va_list ap;
	double s = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, double);
	va_end(ap);
	return s;
}

/* v[i] = A + i. */
NOINLINE struct big rt_big(long a)
{
	struct big b;

	for (int i = 0; i < 8; i++)
		b.v[i] = a + i;
	return b;
}

NOINLINE long rt_zero(void) { return 0; }

NOINLINE double rt_scale(double x, int k) { return x * k; }

static double (*volatile p_vsum)(int, ...) = rt_vsum;
static double (*volatile p_scale)(double, int) = rt_scale;
static struct big (*volatile p_big)(long) = rt_big;
static long (*volatile p_zero)(void) = rt_zero;

/* Counts the call; leaves x8 and %rax as a trampoline that forgot them
 * would pass them on (see the top). */
static void on_entry(struct pfe_call *c)
{
	(void)c;
	hits++;
	sink = p_big(-100).v[7];
	(void)p_zero();
#if defined(__x86_64__)
	__asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n\tpcmpeqd %%xmm1, %%xmm1\n\tpcmpeqd %%xmm2, %%xmm2\n\t"
			 "pcmpeqd %%xmm3, %%xmm3\n\tpcmpeqd %%xmm4, %%xmm4\n\tpcmpeqd %%xmm5, %%xmm5\n\t"
			 "pcmpeqd %%xmm6, %%xmm6\n\tpcmpeqd %%xmm7, %%xmm7"
			 ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7");
#endif
}

static struct pfe_func *attach(const char *name)
{
	struct pfe_func *f = pfe_find(name);

	CHECK(f != NULL, "%s not found (%zu functions)", name, pfe_count());
	if (f)
		CHECK(pfe_attach(f, on_entry, NULL, NULL) == 0 && pfe_enable(f) == 0, "%s: attach, enable", name);
	return f;
}

/* pfe_info's vector_bytes_saved of F: WANT with vector-args when F goes
 * through the ops slot, else -1 (all). */
static void check_vector_saves(const struct pfe_func *f, int want)
{
	struct pfe_info info;

	CHECK(pfe_func_info(f, &info) == 0, "pfe_func_info");
#ifndef PFE_WANT_VECTOR_ARGS
	want = -1;
#endif
	if (info.dispatch != PFE_DISPATCH_SLOT)
		want = -1;
	CHECK(info.vector_bytes_saved == want, "%s: vector_bytes_saved %d, want %d", info.name,
	      info.vector_bytes_saved, want);
}

/* ROUNDS calls of each function; WANT_HITS handler calls expected. */
static void run_calls(int rounds, unsigned long want_hits, const char *state)
{
	hits = 0;
	for (int i = 0; i < rounds; i++) {
		double s = p_vsum(4, 1.5, 2.25, (double)i, 4.125);
		CHECK(s == 7.875 + i, "%s: rt_vsum(4, 1.5, 2.25, %d, 4.125) = %g", state, i, s);
		struct big b = { { 0 } };
		b = p_big(i);
		for (int k = 0; k < 8; k++)
			CHECK(b.v[k] == i + k, "%s: rt_big(%d).v[%d] = %ld", state, i, k, b.v[k]);
		s = p_scale(1.25, i);
		CHECK(s == 1.25 * i, "%s: rt_scale(1.25, %d) = %g", state, i, s);
	}
	CHECK(hits == want_hits, "%s: %lu handler calls, want %lu", state, hits, want_hits);
}

int main(void)
{
	int rounds = 100;

	run_calls(rounds, 0, "not patched");
	struct pfe_func *vsum = attach("rt_vsum"), *big = attach("rt_big"), *scale = attach("rt_scale");
	if (!vsum || !big || !scale)
		return 1;
	check_vector_saves(vsum, -1);
	check_vector_saves(big, 0);
	check_vector_saves(scale, 16);
	run_calls(rounds, 3ul * (unsigned long)rounds, "patched");
	CHECK(pfe_detach_all() == 0, "detach all");
	run_calls(rounds, 0, "detached");
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
