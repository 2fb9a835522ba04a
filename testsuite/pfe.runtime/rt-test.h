/* rt-test.h: what the runtime's test programs (rt-layouts.c, rt-abi.c)
 * share: NOINLINE, the fentry symbol of fentry builds, CHECK, which
 * prints "FAIL: ..." and counts into failures (main returns it), and
 * CLOBBERING_HANDLERS (rt-ms-abi.c, rt-keeps-all.c).
 * Debug: the programs print every failed CHECK; runtime.exp shows them.
 */
#ifndef RT_TEST_H
#define RT_TEST_H

#include <stdio.h>

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
