/* With -fcf-protection, pfe-scan sees ENDBR first and the NOPs after it. */
/* { dg-do assemble } */
/* { dg-require-target x86_64 i386 } */
/* { dg-require-accepts -fcf-protection } */
/* { dg-options "-O2 -fcf-protection -fplugin-arg-pfe-entry=4,1" } */
int a(int x) { return x + 1; }
static int b(int x) { return x + 2; }
int (*pb)(int) = b;
/* { dg-final { pfe-verify --entry=4,1 --all } } */
/* { dg-final { pfe-nops a 1 3 } } */
