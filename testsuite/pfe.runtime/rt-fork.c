/* rt-fork.c: fork while another thread is in a long libpfe batch
 * (PFE_DEBUG=stall=MS: each phase sleeps) gives a child whose libpfe
 * is consistent and not locked: it enables another function and runs
 * its handler, within an alarm's time.  Exit 1 on a failure (the child
 * killed by SIGALRM when its lock was left held).
 */
#define _GNU_SOURCE
#include <pfe.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt-test.h"

static _Atomic unsigned long hits;

NOINLINE long fork_a(long x)
{
	return x + 1;
}

NOINLINE long fork_b(long x)
{
	return x + 2;
}

static void on_entry(struct pfe_call *c)
{
	(void)c;
	hits++;
}

static void *enable_slowly(void *f)
{
	pfe_enable(f);
	return NULL;
}

/* The child: fork_b enabled and run, within the alarm. */
static int child(struct pfe_func *b)
{
	alarm(10);
	unsetenv("PFE_DEBUG");
	hits = 0;
	if (pfe_enable(b) != 0 || fork_b(1) != 3 || hits != 1)
		return 1;
	return 0;
}

int main(void)
{
	struct pfe_func *a = pfe_find("fork_a"), *b = pfe_find("fork_b");
	struct timespec pause = { 0, 100 * 1000000L };
	pthread_t t;
	int status = -1;
	pid_t pid;

	if (!a || !b || pfe_attach(a, on_entry, NULL, NULL) || pfe_attach(b, on_entry, NULL, NULL)) {
		printf("FAIL: fork_a, fork_b not found or attached\n");
		return 1;
	}
	setenv("PFE_DEBUG", "stall=300", 1);
	pthread_create(&t, NULL, enable_slowly, a);
	nanosleep(&pause, NULL);
	pid = fork();
	if (pid == 0)
		_exit(child(b));
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork or waitpid failed");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child could not enable a function (status 0x%x: a signal is the alarm)", status);
	pthread_join(t, NULL);
	unsetenv("PFE_DEBUG");
	CHECK(fork_a(1) == 2 && hits == 1, "fork_a in the parent: %lu calls handled, not 1", hits);
	printf("%s: the child enabled a function\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
