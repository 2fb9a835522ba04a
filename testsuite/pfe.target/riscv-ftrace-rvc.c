/* The riscv kernel's ftrace layout with RVC: entry=4, four c.nop after
   the label (8 bytes: AUIPC T0 + JALR T0 once patched). */
/* { dg-do assemble } */
/* { dg-require-target riscv64 } */
/* { dg-options "-O2 -march=rv64gc -mabi=lp64d -fplugin-arg-pfe-entry=4" } */
int g(int x) { return x + 1; }
extern int ext(int);
int nonleaf(int x) { return ext(x) + 1; }
/* { dg-final { pfe-verify --entry=4 --all } } */
/* { dg-final { pfe-layout g 0 8 } } */
/* { dg-final { pfe-layout nonleaf 0 8 } } */
