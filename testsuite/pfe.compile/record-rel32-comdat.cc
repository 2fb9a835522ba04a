// record=rel32 of COMDAT functions: in the function's group, as abs
// records; section= names another section, in the same format.
// { dg-do compile }
// { dg-options "-O0 -fplugin-arg-pfe-entry=2,1 -fplugin-arg-pfe-record=rel32 -fplugin-arg-pfe-section=__my_rel32" }
inline int g(int x) { return x + 1; }
int f(int x) { return g(x); }
// { dg-final { pfe-asm-layout _Z1gi 1 1 } }
// { dg-final { scan-assembler {\t\.pushsection\t__my_rel32,"aoG",[@%]progbits,(\.LPFE[0-9]+),_Z1gi,comdat\n\t\.p2align\t2\n\t\.4byte\t\1 - \.\n} } }
// { dg-final { scan-assembler {\t\.pushsection\t__my_rel32,"ao",[@%]progbits,(\.LPFE[0-9]+)\n\t\.p2align\t2\n\t\.4byte\t\1 - \.\n} } }
// { dg-final { scan-assembler-not {__patchable_function_entries} } }
