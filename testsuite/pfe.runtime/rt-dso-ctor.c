/* rt-dso-ctor.c: a shared object whose constructor starts a thread that
 * calls its function ctor_work in a loop until ctor_stop (rt-dlopen-ctor.c
 * opens it): its code runs before dlopen returns, so before any rescan. */
#include <pthread.h>

static _Atomic int stop;
static _Atomic unsigned long calls;
static pthread_t worker;

__attribute__((noinline)) long ctor_work(long x)
{
	calls++;
	return 2 * x;
}

static void *loop(void *arg)
{
	long (*volatile work)(long) = ctor_work;

	while (!stop)
		if (work(21) != 42)
			return (void *)1;
	return arg;
}

unsigned long ctor_calls(void)
{
	return calls;
}

/* Stop the thread: nonzero when it saw a wrong result. */
int ctor_stop(void)
{
	void *ret;

	stop = 1;
	pthread_join(worker, &ret);
	return ret != 0;
}

__attribute__((constructor)) static void start(void)
{
	pthread_create(&worker, 0, loop, 0);
}
