/* entry=3,1: one NOP before the label, two after, one record each. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=3,1" } */
int g(int x) { return x + 1; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
/* { dg-final { pfe-asm-layout g 1 2 } } */
/* { dg-final { pfe-asm-layout s 1 2 } } */
/* { dg-final { scan-assembler-times {^\t\.pushsection\t__patchable_function_entries,"awo",[@%]progbits,\.LPFE[0-9]+$} 2 } } */
