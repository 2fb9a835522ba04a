/* The record is one pointer, pointer-aligned: .quad/.8byte and 2^3 on
   64-bit targets, .long and 2^2 on i386. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=1" } */
int f(int x) { return x; }
/* { dg-final { scan-assembler {\t\.p2align\t3\n\t\.(quad|8byte)\t\.LPFE[0-9]+\n} { target x86_64 aarch64 riscv64 } } } */
/* { dg-final { scan-assembler {\t\.p2align\t2\n\t\.long\t\.LPFE[0-9]+\n} { target i386 } } } */
