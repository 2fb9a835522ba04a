/* The areas are plain text, as GCC prints its own patchable entries: no
   #APP/#NO_APP lines (GCC's check-function-bodies would read them as
   code), the record label right before the first NOP after the landing
   pad (GCC's pr93492-2.c), inside .cfi_startproc.  */
/* { dg-do compile } */
/* { dg-options "-O1 -fasynchronous-unwind-tables -fplugin-arg-pfe-entry=2" } */
/* { dg-additional-options "-fcf-protection" { target x86_64 i386 } } */
/* { dg-additional-options "-mbranch-protection=bti" { target aarch64 } } */
int f(int x) { return x - 1; }
/* { dg-final { scan-assembler-not {^#(NO_)?APP} } } */
/* { dg-final { scan-assembler {\t\.cfi_startproc\n\t(endbr64|endbr32|hint\t34|bti\tc)[^\n]*\n(\t\.[^\n]*\n)*\.LPFE0:\n\tnop\n\tnop\n} { target x86_64 i386 aarch64 } } } */
/* { dg-final { scan-assembler {\t\.cfi_startproc\n(\t\.[^\n]*\n)*\.LPFE0:\n\tnop\n\tnop\n} { target riscv64 } } } */
