/* The riscv kernel's CALL_OPS layout with RVC: entry=8,4 and
   -falign-functions=8: four c.nop (8 bytes, the ops pointer's slot)
   before the label, four after; record and function 8-byte aligned.
   -mno-relax: with relaxation the assembler leaves the alignment to the
   linker (R_RISCV_ALIGN), so only the linked program shows it
   (target.exp checks that). */
/* { dg-do assemble } */
/* { dg-require-target riscv64 } */
/* { dg-options "-O2 -march=rv64gc -mabi=lp64d -mno-relax -falign-functions=8 -fplugin-arg-pfe-entry=8,4" } */
int g(int x) { return x + 1; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
extern int ext(int);
int nonleaf(int x) { return ext(x) + g(x); }
/* { dg-final { pfe-verify --entry=8,4 --all } } */
/* { dg-final { pfe-layout g 8 8 } } */
/* { dg-final { pfe-layout s 8 8 } } */
/* { dg-final { pfe-layout nonleaf 8 8 } } */
/* { dg-final { pfe-target-aligned g 8 8 } } */
/* { dg-final { pfe-target-aligned s 8 8 } } */
/* { dg-final { pfe-target-aligned nonleaf 8 8 } } */
