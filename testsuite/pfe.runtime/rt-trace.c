/* rt-trace.c: a program for pfe-trace (runtime.exp): trace_a is called 10
 * times, trace_b 20, trace_nap twice, sleeping 20 ms each time, and
 * trace_rec 6 times, a recursion 6 deep (calls through a pointer: no
 * loop made of it) whose innermost call naps once; it knows nothing of
 * libpfe.  Debugging: PFE_DEBUG=list pfe-trace ./rt-trace.exe. */
#include <time.h>

__attribute__((noinline)) int trace_a(int x) { return x + 1; }
__attribute__((noinline)) int trace_b(int x) { return x * 2; }

__attribute__((noinline)) void trace_nap(void)
{
	struct timespec ts = { 0, 20 * 1000000L };

	nanosleep(&ts, 0);
}

int trace_rec(int depth);
static int (*volatile rec_call)(int) = trace_rec;

__attribute__((noinline)) int trace_rec(int depth)
{
	if (depth == 0) {
		trace_nap();
		return 0;
	}
	return rec_call(depth - 1) + 1;
}

int main(void)
{
	int s = 0;

	for (int i = 0; i < 10; i++)
		s += trace_a(i);
	for (int i = 0; i < 20; i++)
		s += trace_b(i);
	trace_nap();
	trace_nap();
	s += trace_rec(5);
	return s == 55 + 380 + 5 ? 0 : 1;
}
