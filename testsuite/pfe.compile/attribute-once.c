/* Exactly one emitter: with the attribute and the plugin loaded, GCC 8+
   must not pad the function a second time (no native .LPFE section
   switch, exactly the attribute's NOPs). */
/* { dg-do compile } */
/* { dg-options "-O2" } */
__attribute__((patchable_function_entry(3, 2))) int f(int x) { return x; }
/* { dg-final { pfe-asm-layout f 2 1 } } */
/* { dg-final { scan-assembler-not {\.section\t__patchable_function_entries} } } */
/* { dg-final { scan-assembler-times {^\s*nop$} 3 } } */
