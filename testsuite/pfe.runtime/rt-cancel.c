/* rt-cancel.c: a thread cancelled (deferred) inside a libpfe call that
 * reaches a cancellation point with libpfe's lock held (pfe_rescan
 * opening a new object's file: open is one) leaves the lock free: the
 * main thread can still rescan (the object is found) and enable one of
 * its own functions (within an alarm's time: the object's may not be
 * patchable, found while the thread ran).
 * argv[1] is rt-dso.so.  Exit 1 on a failure; SIGALRM when the lock was
 * left held.
 */
#include <pfe.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "rt-test.h"

static unsigned long hits;

NOINLINE long cancel_work(long x)
{
	return 2 * x;
}

static void on_entry(struct pfe_call *c)
{
	(void)c;
	hits++;
}

/* Cancelled at its first cancellation point: inside pfe_rescan. */
static void *rescan_cancelled(void *path)
{
	if (!dlopen(path, RTLD_NOW))
		return NULL;
	pthread_cancel(pthread_self());
	pfe_rescan();
	pthread_testcancel();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *ret = NULL;
	struct pfe_func *f;

	if (argc < 2 || pthread_create(&t, NULL, rescan_cancelled, argv[1]) || pthread_join(t, &ret)) {
		printf("FAIL: setting up\n");
		return 1;
	}
	CHECK(ret == PTHREAD_CANCELED, "the thread was not cancelled");
	alarm(20);
	pfe_rescan();
	CHECK(pfe_find("dso_twice"), "dso_twice not found");
	f = pfe_find("cancel_work");
	CHECK(f && pfe_attach(f, on_entry, NULL, NULL) == 0 && pfe_enable(f) == 0, "cancel_work not found or enabled");
	CHECK(cancel_work(21) == 42 && hits == 1, "cancel_work: %lu calls handled, not 1", hits);
	printf("%s: %lu calls handled\n", failures ? "FAILED" : "ok", hits);
	return failures != 0;
}
