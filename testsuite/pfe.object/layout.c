/* Records resolve to their functions; NOPs sit at the right offsets. */
/* { dg-do assemble } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=5,2" } */
int g(int x) { return x + 1; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
__attribute__((patchable_function_entry(3, 1))) int own(int x) { return x; }
__attribute__((patchable_function_entry(0, 0))) int none(int x) { return x; }
int main(void) { return g(1) + own(2) - 4; }
/* { dg-final { pfe-nops g 2 3 } } */
/* { dg-final { pfe-nops s 2 3 } } */
/* { dg-final { pfe-nops main 2 3 } } */
/* { dg-final { pfe-nops own 1 2 } } */
/* { dg-final { pfe-records g s main own } } */
/* { dg-final { pfe-linked } } */
