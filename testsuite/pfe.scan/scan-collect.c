/* scan-collect.c: the kernel-style two-step link of `pfe-scan collect`.
 * Linked once without the table (the weak bounds are 0), then again with
 * the table object: main prints each table entry, one per line. */
#include <stdint.h>
#include <stdio.h>

extern const uintptr_t __pfe_start___mcount_loc[] __attribute__((weak));
extern const uintptr_t __pfe_stop___mcount_loc[] __attribute__((weak));

/* Read through data, not code: a weak undefined symbol in code may be
 * relaxed differently from a defined one, and the code must not change. */
const uintptr_t *const volatile coll_table[2] = {
	__pfe_start___mcount_loc, __pfe_stop___mcount_loc
};

__attribute__((noinline)) int coll_leaf(int x)
{
	return x * 3 + 1;
}

/* Calls: what riscv linker relaxation shrinks (auipc+jalr to jal). */
__attribute__((noinline)) int coll_mid(int x)
{
	return coll_leaf(x) + coll_leaf(x + 1);
}

__attribute__((noinline)) int coll_top(int x)
{
	return coll_mid(x) - coll_leaf(x + 2);
}

int main(void)
{
	for (const uintptr_t *p = coll_table[0]; p < coll_table[1]; p++)
		printf("%#lx\n", (unsigned long)*p);
	return coll_top(1) == 1 ? 0 : 1;
}
