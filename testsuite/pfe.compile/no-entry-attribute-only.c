/* Without entry=, only functions with the attribute are padded. */
/* { dg-do compile } */
/* { dg-options "-O2" } */
__attribute__((patchable_function_entry(2, 1))) int padded(int x) { return x; }
int plain(int x) { return x + 2; }
/* { dg-final { pfe-asm-layout padded 1 1 } } */
/* { dg-final { pfe-asm-layout plain 0 0 } } */
/* { dg-final { scan-assembler-times {\.pushsection} 1 } } */
