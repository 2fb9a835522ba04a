/* rt-test.h: what the runtime's test programs (rt-layouts.c, rt-abi.c)
 * share: NOINLINE, the fentry symbol of fentry builds, CHECK, which
 * prints "FAIL: ..." and counts into failures (main returns it), and
 * CLOBBERING_HANDLERS (rt-ms-abi.c, rt-keeps-all.c), rt_threads_in_stat
 * (rt-layouts.c, rt-hazards.c).
 * Debug: the programs print every failed CHECK; runtime.exp shows them.
 */
#ifndef RT_TEST_H
#define RT_TEST_H

#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline, noclone))

/* The fentry symbol of fentry builds (the call form is patched to NOPs at
 * pfe_init; these run only if something calls it before). */
#if defined(__x86_64__) || defined(__i386__)
__asm__(".text\n.globl __fentry__\n__fentry__:\n\tret\n");
#elif defined(__aarch64__)
__asm__(".text\n.globl __fentry__\n__fentry__:\n\tmov x16, x30\n\tmov x30, x9\n\tret x16\n");
#elif defined(__riscv)
__asm__(".text\n.globl __fentry__\n__fentry__:\n\tjr t0\n");
#endif

static int failures;

/* How many threads /proc/self/stat says the process has (its 20th
 * field); 0 where it does not say (qemu-user 7 writes 0 there).  Parsed
 * by hand: glibc 2.38's headers bind strtol to a symbol bookworm's libc
 * lacks (pfe.lint). */
static inline long rt_threads_in_stat(void)
{
	char buf[1024] = "", *p;
	FILE *f = fopen("/proc/self/stat", "r");
	int field = 2;
	long n = 0;

	if (f && !fgets(buf, sizeof buf, f))
		buf[0] = 0;
	if (f)
		fclose(f);
	for (p = strrchr(buf, ')'); p && field < 20; field++)
		p = strchr(p + 1, ' ');
	while (p && *++p >= '0' && *p <= '9')
		n = n * 10 + (*p - '0');
	return n;
}

#define CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			printf("FAIL: " __VA_ARGS__); \
			printf("\n"); \
			failures++; \
		} \
	} while (0)

/* Handlers entry_clobbers and exit_clobbers that count their calls (in
 * entries and exits) and call CLOBBER: what a handler may do to the
 * registers its trampoline must keep for the function's caller. */
#define CLOBBERING_HANDLERS(clobber) \
	static unsigned long entries, exits; \
	static void entry_clobbers(struct pfe_call *c) \
	{ \
		(void)c; \
		entries++; \
		clobber(); \
	} \
	static void exit_clobbers(struct pfe_call *c) \
	{ \
		(void)c; \
		exits++; \
		clobber(); \
	}

#endif
