/* The areas are plain text, as GCC prints its own patchable entries: no
   #APP/#NO_APP lines (GCC's check-function-bodies would read them as
   code), the record label right before the first NOP, inside
   .cfi_startproc (after a landing pad: cet.c, aarch64-bti.c).  */
/* { dg-do compile } */
/* { dg-options "-O1 -fasynchronous-unwind-tables -fplugin-arg-pfe-entry=2" } */
/* { dg-additional-options-if-accepted -fcf-protection=none } */
/* { dg-additional-options-if-accepted -mbranch-protection=none } */
int f(int x) { return x - 1; }
/* { dg-final { scan-assembler-not {^#(NO_)?APP} } } */
/* { dg-final { scan-assembler {\t\.cfi_startproc\n(\t\.[^\n]*\n)*\.LPFE0:\n\tnop\n\tnop\n} } } */
