/* The arm64 kernel's ftrace layout under BTI (entry=2,
   -mbranch-protection=standard): BTI C, then the two NOPs, then PACIASP
   in a non-leaf function; the record points at the first NOP, after BTI. */
/* { dg-do assemble } */
/* { dg-require-target aarch64 } */
/* { dg-require-accepts -mbranch-protection=standard } */
/* { dg-options "-O2 -mbranch-protection=standard -fplugin-arg-pfe-entry=2" } */
int g(int x) { return x + 1; }
extern int ext(int);
int nonleaf(int x) { return ext(x) + 1; }
/* { dg-final { pfe-verify --entry=2 --all } } */
/* { dg-final { pfe-layout g 0 8 } } */
/* { dg-final { pfe-layout nonleaf 0 8 } } */
/* { dg-final { pfe-target-landing g bti } } */
/* { dg-final { pfe-target-landing nonleaf bti } } */
/* { dg-final { pfe-target-after-area nonleaf d503233f } } */
