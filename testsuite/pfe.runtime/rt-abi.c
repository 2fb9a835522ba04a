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

static double (*volatile p_vsum)(int, ...) = rt_vsum;
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
}

static struct pfe_func *attach(const char *name)
{
	struct pfe_func *f = pfe_find(name);

	CHECK(f != NULL, "%s not found (%zu functions)", name, pfe_count());
	if (f)
		CHECK(pfe_attach(f, on_entry, NULL, NULL) == 0 && pfe_enable(f) == 0, "%s: attach, enable", name);
	return f;
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
	}
	CHECK(hits == want_hits, "%s: %lu handler calls, want %lu", state, hits, want_hits);
}

int main(void)
{
	int rounds = 100;

	run_calls(rounds, 0, "not patched");
	struct pfe_func *vsum = attach("rt_vsum"), *big = attach("rt_big");
	if (!vsum || !big)
		return 1;
	run_calls(rounds, 2ul * (unsigned long)rounds, "patched");
	CHECK(pfe_detach_all() == 0, "detach all");
	run_calls(rounds, 0, "detached");
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
