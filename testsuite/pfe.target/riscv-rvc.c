/* riscv64 with RVC (-march=rv64gc), entry=3,1: the NOPs are 2-byte c.nop:
   2 bytes before the label, 4 after (pfe-layout counts bytes). */
/* { dg-do assemble } */
/* { dg-require-target riscv64 } */
/* { dg-options "-O2 -march=rv64gc -mabi=lp64d -fplugin-arg-pfe-entry=3,1" } */
int g(int x) { return x + 1; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
extern int ext(int);
int nonleaf(int x) { return ext(x) + 1; }
/* { dg-final { pfe-verify --entry=3,1 --all } } */
/* { dg-final { pfe-layout g 2 4 } } */
/* { dg-final { pfe-layout s 2 4 } } */
/* { dg-final { pfe-layout nonleaf 2 4 } } */
/* { dg-final { pfe-linked } } */
