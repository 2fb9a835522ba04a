/* rt-trace-dlopen.c: a program that knows nothing of libpfe opens a
 * shared object (argv[1], rt-dso.so) after start, calls its dso_twice 7
 * times and closes it; under pfe-trace the report (at exit, after the
 * dlclose) counts those 7 calls.  With argv[2] "threaded" a thread is
 * started first (the object is opened by a threaded program); with
 * "cloned", all that is done in a child made by clone() without
 * CLONE_VM (a fork that runs no atfork handler), which the program waits
 * for.  runtime.exp and trace.exp read the report.
 */
#define _GNU_SOURCE	/* clone */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *idle(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/* Open PATH, call its dso_twice 7 times, close it: 0 if all went well.
 * Inlined, as the next: the reports count main's and dso_twice's calls
 * only (and cloned_main's). */
static inline __attribute__((always_inline)) int open_and_call(const char *path)
{
	void *h = NULL;
	long (*twice)(long) = NULL;
	long sum = 0;

	if (path && (h = dlopen(path, RTLD_NOW)))
		twice = (long (*)(long))dlsym(h, "dso_twice");

	if (!twice) {
		printf("FAIL: dlopen: %s\n", dlerror());
		return 1;
	}
	for (int i = 0; i < 7; i++)
		sum += twice(i);
	dlclose(h);
	printf("%s: %ld\n", sum == 42 ? "ok" : "FAILED", sum);
	fflush(stdout);
	return sum != 42;
}

static int cloned_main(void *path)
{
	return open_and_call(path);
}

/* open_and_call(PATH) in a clone()'s child (its own stack: dlopen's
 * needs are the loader's), waited for: its status. */
static inline __attribute__((always_inline)) int in_clone_child(char *path)
{
	enum { STACK = 256 * 1024 };
	char *stack = malloc(STACK);
	int status = 0;
	pid_t pid = stack ? clone(cloned_main, stack + STACK, SIGCHLD, path) : -1;
	bool waited = pid > 0 && waitpid(pid, &status, 0) == pid;

	free(stack);
	if (!waited || !WIFEXITED(status)) {
		printf("FAIL: clone's child (status %#x)\n", (unsigned)status);
		return 1;
	}
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 2 && strcmp(argv[2], "threaded") == 0 && pthread_create(&t, NULL, idle, NULL) != 0) {
		printf("FAIL: pthread_create\n");
		return 1;
	}
	if (argc > 2 && strcmp(argv[2], "cloned") == 0)
		return in_clone_child(argv[1]);
	return open_and_call(argc > 1 ? argv[1] : NULL);
}
