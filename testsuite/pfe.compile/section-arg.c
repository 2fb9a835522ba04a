/* section=NAME chooses the record section. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=1 -fplugin-arg-pfe-section=__my_entries" } */
int f(int x) { return x; }
/* { dg-final { scan-assembler {\t\.pushsection\t__my_entries,"awo",[@%]progbits,\.LPFE[0-9]+\n} } } */
/* { dg-final { scan-assembler-not {__patchable_function_entries} } } */
