/* rt-trace-dlopen.c: a program that knows nothing of libpfe opens a
 * shared object (argv[1], rt-dso.so) after start, calls its dso_twice 7
 * times and closes it; under pfe-trace the report (at exit, after the
 * dlclose) counts those 7 calls.  With argv[2] "threaded" a thread is
 * started first (the object is opened by a threaded program).
 * runtime.exp reads the report.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void *idle(void *arg)
{
	for (;;)
		pause();
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *h = NULL;
	long (*twice)(long) = NULL;
	long sum = 0;

	if (argc > 2 && strcmp(argv[2], "threaded") == 0 && pthread_create(&t, NULL, idle, NULL) != 0) {
		printf("FAIL: pthread_create\n");
		return 1;
	}
	if (argc > 1 && (h = dlopen(argv[1], RTLD_NOW)))
		twice = (long (*)(long))dlsym(h, "dso_twice");

	if (!twice) {
		printf("FAIL: dlopen: %s\n", dlerror());
		return 1;
	}
	for (int i = 0; i < 7; i++)
		sum += twice(i);
	dlclose(h);
	printf("%s: %ld\n", sum == 42 ? "ok" : "FAILED", sum);
	return sum != 42;
}
