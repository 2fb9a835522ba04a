/* -ffunction-sections and named sections: each record is linked to its
   function's own section. */
/* { dg-do assemble } */
/* { dg-options "-O2 -ffunction-sections -fplugin-arg-pfe-entry=2,1" } */
int a(int x) { return x + 1; }
int b(int x) { return x + 2; }
__attribute__((section(".text.mine"))) int c(int x) { return x + 3; }
/* { dg-final { pfe-verify --entry=2,1 --all } } */
/* { dg-final { pfe-linked } } */
