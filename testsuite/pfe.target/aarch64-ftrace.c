/* The arm64 kernel's ftrace layout, entry=2: no NOP before the label, two
   after it (MOV X9, LR; BL ftrace_caller once patched): 8 bytes. */
/* { dg-do assemble } */
/* { dg-require-target aarch64 } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=2" } */
/* { dg-additional-options-if-accepted -mbranch-protection=none } */
int g(int x) { return x + 1; }
static int s(int x) { return x * 3; }
int (*p)(int) = s;
extern int ext(int);
int nonleaf(int x) { return ext(x) + 1; }
/* { dg-final { pfe-verify --entry=2 --all } } */
/* { dg-final { pfe-layout g 0 8 } } */
/* { dg-final { pfe-layout s 0 8 } } */
/* { dg-final { pfe-layout nonleaf 0 8 } } */
/* { dg-final { pfe-linked } } */
