/* record=rel32: each record is the 4-byte distance from itself to the
   first NOP, 4-aligned, in its own section, not writable ("ao": the link
   resolves it, nothing at load), linked to the function's section; the
   layout is abs's. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=3,1 -fplugin-arg-pfe-record=rel32" } */
int f(int x) { return x; }
/* { dg-final { pfe-asm-layout f 1 2 } } */
/* { dg-final { scan-assembler {\t\.pushsection\t__patchable_function_entries_rel32,"ao",[@%]progbits,(\.LPFE[0-9]+)\n\t\.p2align\t2\n\t\.4byte\t\1 - \.\n\t\.popsection\n\1:\n} } } */
/* { dg-final { scan-assembler-not {__patchable_function_entries[,"]} } } */
