/* entry=0 emits nothing at all. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=0" } */
int f(int x) { return x - 1; }
/* { dg-final { scan-assembler-not {LPFE|patchable|nop} } } */
