/* exits: an ms_abi function's returns are of the full kind (0) whatever
   its value (an int here, 3 in a SysV function: exits.c): its caller
   keeps values in rdi, rsi and xmm6-15 across the call, which only the
   full and x87 kinds' trampolines keep through a handler
   (runtime/tramp-x86_64.S, XMM_KEPT); a void one and one whose long
   double the MS ABI returns in memory (rax its address; on the x87
   stack, 2, in a SysV function) too.  */
/* { dg-do compile } */
/* { dg-require-target x86_64 } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=5 -fplugin-arg-pfe-exits" } */
__attribute__((ms_abi)) int ms_int(int x) { return x * 3; }
__attribute__((ms_abi)) void ms_void(int *p) { *p = 1; }
__attribute__((ms_abi)) long double ms_ld(long double x) { return x * 2; }
/* { dg-final { scan-assembler-times {\.pushsection\t__pfe_exit_sleds,"awo",@progbits,\.LPFX[0-9]+\n} 3 } } */
/* { dg-final { scan-assembler-times {\.quad\t\.LPFX[0-9]+\n\t\.quad\t\.LPFE0\n\t\.quad\t0\n} 1 } } */
/* { dg-final { scan-assembler-times {\.quad\t\.LPFX[0-9]+\n\t\.quad\t\.LPFE1\n\t\.quad\t0\n} 1 } } */
/* { dg-final { scan-assembler-times {\.quad\t\.LPFX[0-9]+\n\t\.quad\t\.LPFE2\n\t\.quad\t0\n} 1 } } */
