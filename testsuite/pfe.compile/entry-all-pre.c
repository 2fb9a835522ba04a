/* entry=3,3: every NOP before the label, none after. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=3,3" } */
int f(int x) { return x - 1; }
/* { dg-final { pfe-asm-layout f 3 0 } } */
/* { dg-final { scan-assembler-not {#APP} } } */
