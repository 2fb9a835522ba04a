/* rt-test.h: what the runtime's test programs (rt-layouts.c, rt-abi.c)
 * share: NOINLINE, the fentry symbol of fentry builds, and CHECK, which
 * prints "FAIL: ..." and counts into failures (main returns it).
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

#endif
