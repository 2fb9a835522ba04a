// COMDAT functions (inline, templates): the record goes into the
// function's group, so it is kept or dropped with the function.
// { dg-do compile }
// { dg-options "-O0 -fplugin-arg-pfe-entry=2,1" }
inline int g(int x) { return x + 1; }
template <class T> T sq(T x) { return x * x; }
int f(int x) { return g(x) + sq(x) + (int)sq(2.0); }
// { dg-final { pfe-asm-layout _Z1gi 1 1 } }
// { dg-final { pfe-asm-layout _Z2sqIiET_S0_ 1 1 } }
// { dg-final { scan-assembler {\t\.pushsection\t__patchable_function_entries,"awoG",[@%]progbits,\.LPFE[0-9]+,_Z1gi,comdat\n} } }
// { dg-final { scan-assembler {\t\.pushsection\t__patchable_function_entries,"awoG",[@%]progbits,\.LPFE[0-9]+,_Z2sqIdET_S0_,comdat\n} } }
// { dg-final { scan-assembler-times {"awo",} 1 } }
