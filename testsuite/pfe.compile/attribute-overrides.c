/* The attribute overrides entry= per function; (0,0) excludes one; a
   single argument means N = 0. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=2,1" } */
int dflt(int x) { return x; }
__attribute__((patchable_function_entry(5, 2))) int more(int x) { return x + 1; }
__attribute__((patchable_function_entry(0, 0))) int none(int x) { return x + 2; }
__attribute__((patchable_function_entry(4))) int one_arg(int x) { return x + 3; }
/* { dg-final { pfe-asm-layout dflt 1 1 } } */
/* { dg-final { pfe-asm-layout more 2 3 } } */
/* { dg-final { pfe-asm-layout none 0 0 } } */
/* { dg-final { pfe-asm-layout one_arg 0 4 } } */
/* { dg-final { scan-assembler-times {\.pushsection} 3 } } */
