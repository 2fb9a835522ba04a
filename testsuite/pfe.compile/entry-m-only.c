/* entry=M alone means N = 0: the record label is on the first NOP after
   the function label. */
/* { dg-do compile } */
/* { dg-options "-O1 -fplugin-arg-pfe-entry=5" } */
int f(int x) { return x - 1; }
/* { dg-final { pfe-asm-layout f 0 5 } } */
