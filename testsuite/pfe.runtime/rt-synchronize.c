/* rt-synchronize.c: pfe_detach then pfe_synchronize, and the handler's
 * data may be poisoned: 4 threads keep calling the function (which runs
 * for a while, so that exits are pending on their stacks) and no entry or
 * exit handler ever sees poisoned data.  20 rounds, each with fresh data.
 * Exit 1 on a failure.
 */
#include <pfe.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rt-test.h"

#define THREADS 4
#define ROUNDS 20
#define GOOD 0x600dUL
#define POISON 0xdeadUL

struct data {
	_Atomic unsigned long magic;
};

static _Atomic int stop;
static _Atomic unsigned long handled, poisoned;

static void spin(unsigned n)
{
	for (volatile unsigned i = 0; i < n; i++)
		;
}

NOINLINE long sync_work(long x)
{
	spin(500);
	return x + 1;
}

/* Reads the data for a while: a detach meets it running. */
static void on_entry(struct pfe_call *c)
{
	struct data *d = c->data;

	for (int i = 0; i < 20; i++) {
		poisoned += d->magic != GOOD;
		spin(20);
	}
	handled++;
}

static void on_exit_call(struct pfe_call *c)
{
	struct data *d = c->data;

	poisoned += d->magic != GOOD;
}

static void *caller(void *arg)
{
	while (!stop)
		if (sync_work(1) != 2)
			return (void *)1;
	return arg;
}

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

int main(void)
{
	struct pfe_func *f = pfe_find("sync_work");
	pthread_t t[THREADS];
	void *ret;
	int err;

	if (!f) {
		printf("FAIL: sync_work not found\n");
		return 1;
	}
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, caller, NULL);
	for (int r = 0; r < ROUNDS; r++) {
		struct data *d = malloc(sizeof *d);

		d->magic = GOOD;
		CHECK(pfe_attach(f, on_entry, on_exit_call, d) == 0 && pfe_enable(f) == 0, "attach, enable");
		pause_ms(5);
		CHECK(pfe_detach(f) == 0, "detach");
		err = pfe_synchronize();
		CHECK(err == 0, "pfe_synchronize: %s", pfe_strerror(err));
		d->magic = POISON;	/* as free would; never freed: a bug would read it */
	}
	pause_ms(5);
	stop = 1;
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], &ret);
		CHECK(ret == NULL, "a caller saw a wrong result");
	}
	CHECK(handled > 0, "no handler call");
	CHECK(poisoned == 0, "%lu handler reads of poisoned data after detach and pfe_synchronize", poisoned);
	printf("%s: %lu calls handled\n", failures ? "FAILED" : "ok", handled);
	return failures != 0;
}
