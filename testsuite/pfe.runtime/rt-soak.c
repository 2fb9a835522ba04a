/* rt-soak.c: 8 threads call 1000 instrumented functions while another
 * thread enables and disables them (all at once, and random halves) for
 * SECONDS (argv[1], default 1).  It checks: every result right; in every
 * window where all are enabled (opened after pfe_enable_all returned,
 * closed before the next disable starts) each call reaches the handler
 * exactly once, and returns through its exit handler once too with
 * argv[2] "exits" (built with the plugin's exits: through the sleds).
 * Prints the counts; exit 1 on any failure.
 * Debugging: PFE_DEBUG=stall=1 widens the intermediate states; runtime.exp
 * runs it under PFE_DEBUG=chunk=7 too (every batch in many chunks).
 */
#include <pfe.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt-many.h"

#define NFUNCS 1000
#define NTHREADS 8

#define F(n) __attribute__((noinline, noclone)) long soak_f##n(long x) { return x * 3 + n; }
RT_THOUSAND(F)
#define P(n) soak_f##n,
static long (*const table[NFUNCS])(long) = {
	RT_THOUSAND(P)
};
/* soak_f<n> returns x * 3 + n; n from the table's index. */
static long number_of(int i)
{
	return (i / 100 + 1) * 100 + i % 100;
}

enum { CLOSED, OPEN };
static _Atomic int phase = CLOSED, stop;
static _Atomic int inside;
static bool exits;
static _Atomic unsigned long wrong, inexact, window_calls, all_calls, handled;
static _Thread_local unsigned long my_hits, my_exits;

static void on_entry(struct pfe_call *c)
{
	(void)c;
	my_hits++;
	atomic_fetch_add_explicit(&handled, 1, memory_order_relaxed);
}

/* Returns only: a call made before a window whose exit was disabled
 * while it ran gets its exit later, as a frame left (retregs NULL), maybe in
 * a call of the window. */
static void on_exit_call(struct pfe_call *c)
{
	my_exits += c->retregs != NULL;
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	unsigned long calls = 0, in_window = 0;

	while (!atomic_load(&stop)) {
		int i = (int)(rand_r(&seed) % NFUNCS);
		long x = rand_r(&seed) % 1000;
		unsigned long before, exits_before;

		/* In a window: counted in INSIDE before the phase is read
		 * again, so that the toggler, after closing it, waits for
		 * the calls made in it (and only for those). */
		bool open = atomic_load(&phase) == OPEN;
		if (open) {
			atomic_fetch_add(&inside, 1);
			if (atomic_load(&phase) != OPEN) {
				atomic_fetch_sub(&inside, 1);
				open = false;
			}
		}
		before = my_hits, exits_before = my_exits;
		if (table[i](x) != x * 3 + number_of(i))
			atomic_fetch_add(&wrong, 1);
		if (open) {
			in_window++;
			if (my_hits - before != 1 || (exits && my_exits - exits_before != 1))
				atomic_fetch_add(&inexact, 1);
			atomic_fetch_sub(&inside, 1);
		}
		calls++;
	}
	atomic_fetch_add(&window_calls, in_window);
	atomic_fetch_add(&all_calls, calls);
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0, end;
	struct pfe_func *fs[NFUNCS];
	pthread_t t[NTHREADS];
	unsigned long toggles = 0, windows = 0, errors = 0;
	unsigned seed = 1;
	struct pfe_stats st;

	exits = argc > 2 && strcmp(argv[2], "exits") == 0;
	for (int i = 0; i < NFUNCS; i++) {
		fs[i] = pfe_find_addr((void *)table[i]);
		if (!fs[i] || pfe_attach(fs[i], on_entry, exits ? on_exit_call : NULL, NULL) != 0) {
			printf("FAIL: soak_f%ld not found or not patchable\n", number_of(i));
			return 1;
		}
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1));
	end = now() + seconds;
	while (now() < end && !errors) {
		/* Random halves, enabled and disabled while the threads run. */
		struct pfe_func *half[NFUNCS];
		size_t n = 0;

		for (int i = 0; i < NFUNCS; i++)
			if (rand_r(&seed) & 1)
				half[n++] = fs[i];
		errors += pfe_enable_many(half, n) != 0;
		errors += pfe_disable_many(half, n / 2) != 0;
		/* All enabled: a window where every call is counted. */
		errors += pfe_enable_all() != 0;
		atomic_store(&phase, OPEN);
		pause_ms(2);
		atomic_store(&phase, CLOSED);
		while (atomic_load(&inside))
			;
		errors += pfe_disable_all() != 0;
		toggles += 4;
		windows++;
	}
	atomic_store(&stop, 1);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	pfe_get_stats(&st);
	printf("%lu calls, %lu in %lu all-enabled windows, %lu handled, %lu batches, %llu barriers, "
	       "%llu int3 hits, %lu wrong results, %lu inexact, %lu errors\n",
	       (unsigned long)all_calls, (unsigned long)window_calls, windows, (unsigned long)handled,
	       toggles, (unsigned long long)st.barriers, (unsigned long long)st.trap_hits,
	       (unsigned long)wrong, (unsigned long)inexact, errors);
	if (wrong || inexact || errors || !window_calls) {
		printf("FAIL\n");
		return 1;
	}
	printf("ok\n");
	return 0;
}
