/* fentry calls from every function but those no_instrument_function
   leaves out, as -pg does (the attribute alone, without (0,0)): no call,
   no call record for them; pfe's own NOPs and record stay.  i386: fentry
   is not PIC; riscv under RVC: two NOPs keep the call 4-aligned. */
/* { dg-do compile } */
/* { dg-options "-O2 -fno-pie -fplugin-arg-pfe-fentry -fplugin-arg-pfe-entry=2" } */
__attribute__((no_instrument_function)) int skipped(int x) { return x + 1; }
int traced(int x) { return x - 1; }
/* { dg-final { scan-function-not skipped {__fentry__|__mcount_loc|\.LPFC} } } */
/* { dg-final { scan-function traced {__mcount_loc,[^\n]*\.LPFC[0-9]+$} } } */
/* { dg-final { scan-function traced {__fentry__} } } */
/* { dg-final { scan-assembler-times {^\t\.pushsection\t__patchable_function_entries,} 2 } } */
