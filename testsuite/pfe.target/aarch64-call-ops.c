/* The arm64 kernel's CALL_OPS layout: entry=4,2 with
   -falign-functions=8.  The two NOPs before the label (8 bytes) are the
   8-byte-aligned literal slot for the ops pointer: the record points 8
   bytes before the function, and both are 8-byte aligned. */
/* { dg-do assemble } */
/* { dg-require-target aarch64 } */
/* { dg-options "-O2 -falign-functions=8 -fplugin-arg-pfe-entry=4,2" } */
/* { dg-additional-options-if-accepted -mbranch-protection=none } */
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
