/* The riscv kernel's CALL_OPS layout without RVC: entry=4,2 and
   -falign-functions=8: two 4-byte nop (8 bytes) before the label, two
   after; record and function 8-byte aligned (-mno-relax: see
   riscv-call-ops.c). */
/* { dg-do assemble } */
/* { dg-require-target riscv64 } */
/* { dg-options "-O2 -march=rv64g -mabi=lp64d -mno-relax -falign-functions=8 -fplugin-arg-pfe-entry=4,2" } */
int g(int x) { return x + 1; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
extern int ext(int);
int nonleaf(int x) { return ext(x) + g(x); }
/* { dg-final { pfe-verify --entry=4,2 --all } } */
/* { dg-final { pfe-layout g 8 8 } } */
/* { dg-final { pfe-layout s 8 8 } } */
/* { dg-final { pfe-layout nonleaf 8 8 } } */
/* { dg-final { pfe-target-aligned g 8 8 } } */
/* { dg-final { pfe-target-aligned s 8 8 } } */
/* { dg-final { pfe-target-aligned nonleaf 8 8 } } */
