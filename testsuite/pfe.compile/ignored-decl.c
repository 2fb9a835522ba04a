/* Functions whose debug info is ignored (DECL_IGNORED_P: here the gcov
   constructor -fprofile-arcs adds) get no begin_function call from GCC;
   pfe still pads them, and still gives them no debug info. */
/* { dg-do compile } */
/* { dg-options "-O2 -g -fprofile-arcs -fplugin-arg-pfe-entry=2,1" } */
int f(int x) { return x + 1; }
/* { dg-final { pfe-asm-layout f 1 1 } } */
/* GCC 8+ name it _sub_I_00100_0, GCC 7 _GLOBAL__sub_I_00100_0_f.  */
/* { dg-final { pfe-asm-layout *_sub_I_00100_0* 1 1 } } */
/* { dg-final { scan-assembler-not {\.string\t"[^"]*_sub_I} } } */
