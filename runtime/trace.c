/* trace.c: libpfe-trace.so, the LD_PRELOAD library of pfe-trace
 * (scripts/pfe-trace): at load it attaches an entry and an exit handler to
 * every patchable function of the program and its shared objects and
 * enables them all; at exit it prints, per function called, the number of
 * calls and the total time spent in it (wall clock, callees included),
 * most time first, to stderr or to the file PFE_TRACE_OUTPUT names.
 *
 * A call still running at exit (main, when the program calls exit) is
 * counted but adds no time.  Objects loaded later with dlopen are not
 * traced (pfe_rescan is the program's to call).
 * Debugging: PFE_DEBUG=list shows what libpfe found; "pfe-trace: N
 * functions" on stderr at load says how many are traced.
 */
#define _GNU_SOURCE
#include "pfe.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct counter {
	struct pfe_func *func;
	_Atomic uint64_t calls, ns;
};

static struct counter *counters;
static size_t ncounters;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_entry(struct pfe_call *c)
{
	struct counter *k = c->data;

	atomic_fetch_add_explicit(&k->calls, 1, memory_order_relaxed);
	c->cookie = now_ns();
}

static void on_exit_call(struct pfe_call *c)
{
	struct counter *k = c->data;

	atomic_fetch_add_explicit(&k->ns, now_ns() - c->cookie, memory_order_relaxed);
}

static int by_time(const void *a, const void *b)
{
	uint64_t x = atomic_load(&((const struct counter *)a)->ns);
	uint64_t y = atomic_load(&((const struct counter *)b)->ns);

	return x < y ? 1 : x > y ? -1 : 0;
}

__attribute__((destructor)) static void trace_report(void)
{
	const char *path = getenv("PFE_TRACE_OUTPUT");
	FILE *out = path ? fopen(path, "w") : stderr;

	if (!counters)
		return;
	pfe_disable_all();
	if (!out) {
		fprintf(stderr, "pfe-trace: trace_report: cannot write %s\n", path);
		out = stderr;
	}
	qsort(counters, ncounters, sizeof *counters, by_time);
	fprintf(out, "pfe-trace: %12s %14s  %s\n", "calls", "total ms", "function");
	for (size_t i = 0; i < ncounters; i++) {
		const char *name = pfe_func_name(counters[i].func);

		if (!atomic_load(&counters[i].calls))
			continue;
		fprintf(out, "pfe-trace: %12llu %14.3f  %s\n", (unsigned long long)atomic_load(&counters[i].calls),
			(double)atomic_load(&counters[i].ns) / 1e6, name ? name : "?");
	}
	if (out != stderr)
		fclose(out);
}

__attribute__((constructor)) static void trace_start(void)
{
	int err = pfe_init();
	size_t n = pfe_count(), i = 0;

	if (err)
		fprintf(stderr, "pfe-trace: trace_start: %s (tracing what was found)\n", pfe_strerror(err));
	counters = calloc(n ? n : 1, sizeof *counters);
	if (!counters) {
		fprintf(stderr, "pfe-trace: trace_start: out of memory\n");
		return;
	}
	for (struct pfe_func *f = pfe_next(NULL); f && i < n; f = pfe_next(f)) {
		counters[i].func = f;
		if (pfe_attach(f, on_entry, on_exit_call, &counters[i]) == 0)
			i++;
	}
	ncounters = i;
	err = pfe_enable_all();
	if (err)
		fprintf(stderr, "pfe-trace: trace_start: enabling: %s\n", pfe_strerror(err));
	if (getenv("PFE_DEBUG"))
		fprintf(stderr, "pfe-trace: %zu functions\n", ncounters);
}
