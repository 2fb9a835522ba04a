/* The riscv kernel's ftrace layout without RVC: entry=2, two 4-byte nop
   after the label (8 bytes). */
/* { dg-do assemble } */
/* { dg-require-target riscv64 } */
/* { dg-options "-O2 -march=rv64g -mabi=lp64d -fplugin-arg-pfe-entry=2" } */
int g(int x) { return x + 1; }
extern int ext(int);
int nonleaf(int x) { return ext(x) + 1; }
/* { dg-final { pfe-verify --entry=2 --all } } */
/* { dg-final { pfe-layout g 0 8 } } */
/* { dg-final { pfe-layout nonleaf 0 8 } } */
