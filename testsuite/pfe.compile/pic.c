/* -fPIC: same layout; records are absolute pointers (the dynamic linker
   relocates them). */
/* { dg-do compile } */
/* { dg-options "-O2 -fPIC -fplugin-arg-pfe-entry=4,2" } */
int exported(int x) { return x + 7; }
static int local(int x) { return x * 7; }
int (*get(void))(int) { return local; }
/* { dg-final { pfe-asm-layout exported 2 2 } } */
/* { dg-final { pfe-asm-layout local 2 2 } } */
/* { dg-final { pfe-asm-layout get 2 2 } } */
