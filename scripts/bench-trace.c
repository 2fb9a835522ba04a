/* bench-trace.c: the many-small-calls workload of scripts/bench-trace.sh,
 * which runs it untraced and under pfe-trace record, uftrace record and
 * LLVM XRay's basic mode to compare what recording every call costs.
 *
 *   bench-trace [N]   fib(N) recursively (default 22), then N rounds of
 *                     20000 calls of step(), each calling leaf() twice:
 *                     about 1.3 million calls of a few ns each
 *
 * Prints "sum S", a checksum, the same traced or not (the script checks).
 * The calls made are counted by the tracers, not here: GCC and Clang both
 * turn one of fib's two recursive calls into a loop, so the source's count
 * is not the calls the entries see.  Knows nothing of the tracers: built
 * plain, with pfe or with -fxray-instrument, as the script says.
 * Debugging: pfe-trace record ./pfe-calls 3 && pfe-trace replay shows
 * every call; "perf record pfe-trace record ./pfe-calls" where a call's
 * time goes.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define LOOP 20000

NOINLINE long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE long leaf(long x)
{
	return x * 3 + 1;
}

NOINLINE long step(long x)
{
	return leaf(x) ^ leaf(x + 1);
}

NOINLINE long round_(int r)
{
	long s = 0;

	for (long i = 0; i < LOOP; i++)
		s += step(i + r);
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 22;
	long s = fib(n);

	for (int r = 0; r < n; r++)
		s += round_(r);
	printf("sum %ld\n", s);
	return 0;
}
