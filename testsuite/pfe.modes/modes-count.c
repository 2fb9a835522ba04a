/* modes-count.c: the fentry handlers for real programs (csmith, the sqlite3
 * driver) built with fentry=pfe_test_fentry or pfe_test_fentry_ops and the
 * trampolines of fentry-<target>.S: they count the calls and, at exit,
 * print the count to stderr.  With -DPFE_WANT_HITS (the instrumented
 * build) a count of zero, or an ops slot that does not hold pfe_test_ops,
 * makes the program exit 3: the program's own output and status must be
 * the uninstrumented build's, which modes.exp compares.
 *
 * Debug: break in fentry_hit; "x/4i ret - 8". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../pfe.run/entry-bytes.h"

static unsigned long hits, bad_slots;

void fentry_hit(uintptr_t ret);
PFE_NOTRACE void fentry_hit(uintptr_t ret)
{
	(void)ret;
	hits++;
}

/* What each function's ops slot holds with ops-slot=pfe_test_ops. */
void pfe_test_ops(void);
PFE_NOTRACE void pfe_test_ops(void)
{
	hits++;
}

/* The ops slot is the 8 bytes before the entry; the call returns to RET,
 * which is within the function's first 64 bytes, but where the entry is
 * this handler does not know: fentry-run.c checks that, this one only
 * that a slot aligned below RET holds pfe_test_ops. */
void ops_dispatch(uintptr_t ret);
PFE_NOTRACE void ops_dispatch(uintptr_t ret)
{
	for (uintptr_t entry = ret & ~(uintptr_t)7; entry + 64 > ret; entry -= 8) {
		void (*handler)(void);
		memcpy(&handler, (const void *)(entry - 8), sizeof(handler));
		if (handler == pfe_test_ops) {
			handler();
			return;
		}
	}
	bad_slots++;
}

PFE_NOTRACE __attribute__((destructor)) static void report_hits(void)
{
	fprintf(stderr, "fentry hits %lu, bad ops slots %lu\n", hits, bad_slots);
#ifdef PFE_WANT_HITS
	if (!hits || bad_slots)
		_exit(3);
#endif
}
