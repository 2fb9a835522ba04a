/* riscv64 without RVC (-march=rv64g), entry=3,1: 4-byte nop: 4 bytes
   before the label, 8 after. */
/* { dg-do assemble } */
/* { dg-require-target riscv64 } */
/* { dg-options "-O2 -march=rv64g -mabi=lp64d -fplugin-arg-pfe-entry=3,1" } */
int g(int x) { return x + 1; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
extern int ext(int);
int nonleaf(int x) { return ext(x) + 1; }
/* { dg-final { pfe-verify --entry=3,1 --all } } */
/* { dg-final { pfe-layout g 4 8 } } */
/* { dg-final { pfe-layout s 4 8 } } */
/* { dg-final { pfe-layout nonleaf 4 8 } } */
/* { dg-final { pfe-linked } } */
