/* -fcf-protection: ENDBR stays the first instruction at the label; the
   NOPs after the label follow it (GCC 11+; GCC 9/10 got this wrong). */
/* { dg-do compile } */
/* { dg-require-target x86_64 i386 } */
/* { dg-options "-O2 -fcf-protection=full -fplugin-arg-pfe-entry=4,2" } */
int f(int x) { return x * 7; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
int main(void) { return f(1) - 7; }
/* { dg-final { pfe-asm-layout f 2 2 landing } } */
