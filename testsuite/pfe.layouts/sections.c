/* Record sections per function: patchable_function_entry's third argument
 * (Clang 21), beside -fpatchable-function-entry's third field (pfe:
 * section=).  pfe.layouts/layouts.exp builds this with pfe and with Clang
 * 21 and compares, per function, the record's section, the section it is
 * linked to and the group. */
#define NOINLINE __attribute__((noinline))

NOINLINE __attribute__((patchable_function_entry(2, 1, "sec_a"))) int fa(int x) { return x + 1; }
NOINLINE __attribute__((patchable_function_entry(3, 0, "sec_a"))) int fb(int x) { return x + 2; }
/* notrace with a section: no record anywhere */
NOINLINE __attribute__((patchable_function_entry(0, 0, "sec_b"))) int fc(int x) { return x + 3; }
NOINLINE int fd(int x) { return x + 4; }
NOINLINE static int fs(int x) { return x * 5; }
NOINLINE __attribute__((patchable_function_entry(1, 0, "sec_c"))) int ff(int x) { return fs(x) + 6; }
NOINLINE __attribute__((section(".text.mine"), patchable_function_entry(2, 0, "sec_c")))
int fm(int x) { return x + 7; }
