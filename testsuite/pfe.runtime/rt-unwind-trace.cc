/* rt-unwind-trace.cc: a C++ program that knows nothing of libpfe, for
 * pfe-trace (runtime.exp): an exception thrown two frames below its catch,
 * 100 times, while every function has an exit handler.  Before libpfe
 * unwound through its exit hooks, std::terminate killed it.  Prints "ok". */
#include <stdio.h>

static int caught, dtors;

/* What is thrown: no library type (i386 has no 32-bit libstdc++ headers
 * here, runtime.exp). */
struct failure {
	int code = 1;
};

struct guard {
	~guard() { dtors++; }
};

__attribute__((noinline)) void thrower(int x)
{
	guard g;

	if (x)
		throw failure();
}

__attribute__((noinline)) int middle(int x)
{
	guard g;

	thrower(x);
	return 1;
}

__attribute__((noinline)) int catcher(int x)
{
	try {
		return middle(x);
	} catch (const failure &) {
		caught++;
		return 2;
	}
}

int main()
{
	int sum = 0;

	for (int i = 0; i < 100; i++)
		sum += catcher(i % 2);
	if (sum != 150 || caught != 50 || dtors != 200) {
		printf("FAIL: sum %d, caught %d, destructors %d\n", sum, caught, dtors);
		return 1;
	}
	printf("ok\n");
	return 0;
}
