/* rt-unwind.h: what the exit-hook tests (rt-unwind.c, rt-unwind-cxx.cc,
 * rt-unwind-avx.c) share: handlers attached to every function
 * (pfe_attach_all, as pfe-trace does) that count, per function watched,
 * its entries, its returns (an exit call with the return value) and the
 * frames left without returning (an exit call with retregs NULL).
 * Debug: each program prints what it counted when a check fails.
 */
#ifndef RT_UNWIND_H
#define RT_UNWIND_H

#include "pfe.h"
#include "rt-test.h"

#include <pthread.h>
#include <stdint.h>
/* Not stdlib.h, which libstdc++ wraps (runtime.exp builds the C++ of
 * i386 without its headers). */
#include <unistd.h>

/* A traced function of a test: called, never analysed (the compiler must
 * not take it for one that touches no memory: its handlers do; GCC 7,
 * which has no noipa, gets -fno-ipa-pure-const -fno-ipa-reference from
 * runtime.exp). */
#if __GNUC__ >= 8
#define TRACED __attribute__((noipa))
#else
#define TRACED NOINLINE
#endif

struct watch {
	const char *name;
	void *fn;
	unsigned entries, returns, left;
	uintptr_t retval;		/* the last return's */
};

#define MAX_WATCH 16
static struct watch watched[MAX_WATCH];
static unsigned nwatched;
/* Called in each handler of a watched function: what a test checks there
 * (NULL: nothing).  Volatile: the compiler sees no use of them in the
 * traced functions called between their stores. */
static void (*volatile in_entry)(struct pfe_call *c, struct watch *w);
static void (*volatile in_exit)(struct pfe_call *c, struct watch *w);

static struct watch *watch_of(const struct pfe_call *c)
{
	for (unsigned i = 0; i < nwatched; i++)
		if (watched[i].fn == c->fn)
			return &watched[i];
	return NULL;
}

static void count_entry(struct pfe_call *c)
{
	struct watch *w = watch_of(c);
	void (*hook)(struct pfe_call *, struct watch *) = in_entry;

	if (w) {
		w->entries++;
		if (hook)
			hook(c, w);
	}
}

static void count_exit(struct pfe_call *c)
{
	struct watch *w = watch_of(c);
	void (*hook)(struct pfe_call *, struct watch *);

	if (!w)
		return;
	if (c->retregs) {
		w->returns++;
		w->retval = pfe_retval(c);
	} else {
		w->left++;
	}
	hook = in_exit;
	if (hook)
		hook(c, w);
}

static struct watch *watch(const char *name, void *fn)
{
	watched[nwatched] = (struct watch){ name, fn, 0, 0, 0, 0 };
	return &watched[nwatched++];
}

/* Every function traced with both handlers. */
static void trace_all(void)
{
	size_t n = 0;

	if (pfe_attach_all(count_entry, count_exit, NULL, &n) != 0 || n == 0 || pfe_enable_all() != 0) {
		printf("FAIL: attach and enable all (%zu functions)\n", n);
		fflush(stdout);
		_exit(1);
	}
}

/* A cancellation case's thread I: it runs RUN, which sets cancel_started
 * and waits at a cancellation point; cancelled, it must end canceled. */
static volatile int cancel_started;
static inline void cancel_one(void *(*run)(void *), int i)
{
	pthread_t t;
	void *value = NULL;

	cancel_started = 0;
	CHECK(pthread_create(&t, NULL, run, NULL) == 0, "pthread_create");
	while (!cancel_started)
		usleep(1000);
	CHECK(pthread_cancel(t) == 0, "pthread_cancel");
	CHECK(pthread_join(t, &value) == 0 && value == PTHREAD_CANCELED, "thread %d gave %p", i, value);
}

/* W's counts are ENTRIES, RETURNS and LEFT. */
#define CHECK_COUNTS(w, e, r, l) \
	CHECK((w)->entries == (e) && (w)->returns == (r) && (w)->left == (l), \
	      "%s: %u entries, %u returns, %u left; want %u, %u, %u", (w)->name, (w)->entries, \
	      (w)->returns, (w)->left, (unsigned)(e), (unsigned)(r), (unsigned)(l))

#endif
