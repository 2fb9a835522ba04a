/* A function in a named section: its record is linked to the .LPFE label,
   so the assembler ties it to that section. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-entry=2,1" } */
__attribute__((section(".text.mine"))) int mine(int x) { return x ^ 5; }
/* { dg-final { pfe-asm-layout mine 1 1 } } */
/* { dg-final { scan-assembler {\.section\t\.text\.mine[^\n]*\n(\t\.(p2)?align[^\n]*\n)*\t\.pushsection\t__patchable} } } */
