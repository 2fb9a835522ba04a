/* A function whose callers keep every register across it (x86's
   no_caller_saved_registers and interrupt, riscv's interrupt) gets a
   record of its site in __pfe_keeps_all, whatever the options, which
   libpfe reads to leave it alone (its handlers would clobber what its
   callers keep: runtime.exp's "runtime keeps-all"); an ordinary function
   gets none.  aarch64's GCC has no such attribute.  x86's need
   -mgeneral-regs-only (GCC refuses SSE and x87 code in them).  */
/* { dg-do compile } */
/* { dg-require-target x86_64 i386 riscv64 } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=3" } */
/* { dg-additional-options "-mgeneral-regs-only" { target x86_64 i386 } } */
#if defined(__x86_64__) || defined(__i386__)
struct frame;
__attribute__((no_caller_saved_registers)) int keeps(int x) { return x * 3; }
__attribute__((interrupt)) void isr(struct frame *f) { (void)f; }
#else
__attribute__((interrupt("supervisor"))) void keeps(void) { }
__attribute__((interrupt)) void isr(void) { }
#endif
int plain(int x) { return x + 1; }
/* { dg-final { scan-assembler-times {__pfe_keeps_all} 2 } } */
/* { dg-final { scan-assembler-times {\.pushsection\t__pfe_keeps_all,"awo",[@%]progbits,\.LPFE0\n\t\.p2align\t[23]\n\t\.(quad|8byte|long)\t\.LPFE0\n\t\.popsection\n} 1 } } */
/* { dg-final { scan-assembler-times {\.pushsection\t__pfe_keeps_all,"awo",[@%]progbits,\.LPFE1\n\t\.p2align\t[23]\n\t\.(quad|8byte|long)\t\.LPFE1\n\t\.popsection\n} 1 } } */
