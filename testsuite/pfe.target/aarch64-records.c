/* aarch64, entry=3,1, no branch protection: one 4-byte NOP before the
   label, two after; one .8byte record per function, 2^3-aligned, in a
   section linked to the function's. */
/* { dg-do compile } */
/* { dg-require-target aarch64 } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=3,1" } */
/* { dg-additional-options-if-accepted -mbranch-protection=none } */
int g(int x) { return x + 1; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
/* { dg-final { pfe-asm-layout g 1 2 } } */
/* { dg-final { pfe-asm-layout s 1 2 } } */
/* { dg-final { scan-assembler-times {^\t\.pushsection\t__patchable_function_entries,"awo",@progbits,\.LPFE([0-9]+)\n\t\.p2align\t3\n\t\.8byte\t\.LPFE\1\n\t\.popsection\n\.LPFE\1:\n\tnop$} 2 } } */
/* { dg-final { scan-assembler-not {\.(quad|word|4byte)\t\.LPFE} } } */
/* { dg-final { scan-assembler-not {\thint\t(34|25)\M} } } */
