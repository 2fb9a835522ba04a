/* min-function-alignment=8: every function starts 8-aligned, cold ones too,
   which -falign-functions leaves out (GCC PR 88345): arm64's CALL_OPS reads
   an 8-byte literal from the pre-entry NOPs of every traced function, so a
   kernel built with GCC < 14 (no -fmin-function-alignment) has misaligned
   literals in its cold functions.  The program checks each record (the
   first NOP: the function's start) at run time.  Cold functions of odd
   sizes, packed in .text.unlikely, so that without the argument some start
   off the 8-byte grid on every target (x86: byte-aligned; aarch64, riscv64:
   4 or 2). */
/* { dg-do run } */
/* { dg-options "-O2 -falign-functions=8 -fplugin-arg-pfe-entry=4,2 -fplugin-arg-pfe-min-function-alignment=8" } */
#include <stdint.h>
#include <stdio.h>

#define COLD __attribute__((cold, noinline, noclone))

COLD int c1(int x) { return x + 1; }
COLD int c2(int x, int y) { return x * y + 3; }
COLD int c3(volatile int *p) { return *p + *p * 5; }
COLD int c4(int x) { return x ^ 0x5a; }
COLD long c5(long x, long y, long z) { return x * y - z; }
COLD int c6(int x) { return x - 7; }
int hot(int x) { return x * 3; }

extern const uintptr_t __start___patchable_function_entries[];
extern const uintptr_t __stop___patchable_function_entries[];

int main(void)
{
	volatile int v = 2;
	int bad = 0, n = 0;

	for (const uintptr_t *r = __start___patchable_function_entries;
	     r < __stop___patchable_function_entries; r++, n++)
		if (*r % 8) {
			printf("record %d: %#lx is not 8-aligned\n", n, (unsigned long)*r);
			bad++;
		}
	if (n < 8) {
		printf("%d records, expected one per function (8)\n", n);
		bad++;
	}
	return bad + (c1(v) + c2(v, v) + c3(&v) + c4(v) + (int)c5(v, v, v) +
		      c6(v) + hot(v) != 3 + 7 + 12 + (2 ^ 0x5a) + 2 - 5 + 6) * 100;
}
