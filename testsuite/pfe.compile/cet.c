/* -fcf-protection: ENDBR stays the first instruction at the label; the
   NOPs after the label follow it (GCC 11+; GCC 9/10 got this wrong). */
/* { dg-do compile } */
/* { dg-require-target x86_64 i386 } */
/* { dg-require-accepts -fcf-protection } */
/* { dg-options "-O2 -fcf-protection=full -fplugin-arg-pfe-entry=4,2" } */
int f(int x) { return x * 7; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
int main(void) { return f(1) - 7; }
__attribute__((patchable_function_entry(1, 0))) int g(int x) { return x; }
/* { dg-final { pfe-asm-layout f 2 2 landing } } */
/* { dg-final { pfe-asm-layout g 0 1 landing } } */
/* With N = 0 the record label is right after ENDBR, before the first NOP
   (GCC's pr93492-2.c), and there is no #APP.  */
/* { dg-final { scan-assembler {\ng:\n\.LFB[0-9]+:\n\t\.cfi_startproc\n\tendbr(32|64)\n(\t\.[^\n]*\n)*\.LPFE[0-9]+:\n\tnop\n} } } */
/* { dg-final { scan-assembler-not {^#(NO_)?APP} } } */
