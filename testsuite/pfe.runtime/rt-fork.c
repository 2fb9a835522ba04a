/* rt-fork.c: fork while another thread is in a long libpfe batch
 * (PFE_DEBUG=stall=MS: each phase sleeps) and a third is inside a
 * handler gives a child whose libpfe is consistent and not locked: it
 * enables another function and runs its handler, and pfe_synchronize
 * does not wait for the handler that no thread of the child runs, within
 * an alarm's time.  Exit 1 on a failure (the child killed by SIGALRM
 * when its lock was left held, or its synchronize waited).
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

NOINLINE long fork_c(long x)
{
	return x + 3;
}

static void on_entry(struct pfe_call *c)
{
	(void)c;
	hits++;
}

/* fork_c's handler: it holds its thread until released. */
static _Atomic int holding, released;

static void hold(struct pfe_call *c)
{
	(void)c;
	holding = 1;
	while (!released)
		;
}

static void *call_held(void *arg)
{
	return (void *)fork_c((long)arg);
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
	return pfe_synchronize() != 0;
}

int main(void)
{
	struct pfe_func *a = pfe_find("fork_a"), *b = pfe_find("fork_b"), *c = pfe_find("fork_c");
	struct timespec pause = { 0, 100 * 1000000L };
	pthread_t t, held;
	int status = -1;
	pid_t pid;

	if (!a || !b || !c || pfe_attach(a, on_entry, NULL, NULL) || pfe_attach(b, on_entry, NULL, NULL) ||
	    pfe_attach(c, hold, NULL, NULL) || pfe_enable(c)) {
		printf("FAIL: fork_a, fork_b, fork_c not found or attached\n");
		return 1;
	}
	pthread_create(&held, NULL, call_held, NULL);
	while (!holding)
		;
	setenv("PFE_DEBUG", "stall=300", 1);
	pthread_create(&t, NULL, enable_slowly, a);
	nanosleep(&pause, NULL);
	pid = fork();
	if (pid == 0)
		_exit(child(b));
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork or waitpid failed");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child could not enable a function or synchronize (status 0x%x: a signal is the alarm)", status);
	released = 1;
	pthread_join(held, NULL);
	pthread_join(t, NULL);
	unsetenv("PFE_DEBUG");
	CHECK(fork_a(1) == 2 && hits == 1, "fork_a in the parent: %lu calls handled, not 1", hits);
	printf("%s: the child enabled a function\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
