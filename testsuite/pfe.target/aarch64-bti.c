/* aarch64 -mbranch-protection=standard (BTI + PAC-RET), entry=3,1: BTI C
   stays first at the label, the NOPs after the label follow it (GCC 13+).
   A function that starts with PACIASP and may be called indirectly gets
   BTI C, then the NOPs, then PACIASP; a static function only called
   directly gets no BTI: NOPs, then PACIASP.  Records: .8byte, 2^3. */
/* { dg-do compile } */
/* { dg-require-target aarch64 } */
/* { dg-require-accepts -mbranch-protection=standard } */
/* { dg-options "-O2 -mbranch-protection=standard -fplugin-arg-pfe-entry=3,1" } */
extern int ext(int);
int leaf(int x) { return x * 7; }
int nonleaf(int x) { return ext(x) + 1; }
__attribute__((noinline)) static int direct(int x) { return ext(x) + 2; }
int call_direct(int x) { return direct(x) * 3; }
static int taken(int x) { return x * 3; }
int (*p)(int) = taken;
/* { dg-final { pfe-asm-layout leaf 1 2 landing } } */
/* { dg-final { pfe-asm-layout nonleaf 1 2 landing } } */
/* { dg-final { pfe-asm-layout call_direct 1 2 landing } } */
/* { dg-final { pfe-asm-layout taken 1 2 landing } } */
/* { dg-final { pfe-asm-layout direct 1 2 } } */
/* BTI C, the 2 NOPs, PACIASP: */
/* { dg-final { scan-assembler {\nnonleaf:\n(?:(?:\.L\w+:|\t\.[^\n]*|#\w*)\n)*\thint\t34\M[^\n]*\n(?:#\w*\n)*\tnop\n\tnop\n(?:#\w*\n)*\thint\t25\M} } } */
/* { dg-final { scan-assembler {\ncall_direct:\n(?:(?:\.L\w+:|\t\.[^\n]*|#\w*)\n)*\thint\t34\M[^\n]*\n(?:#\w*\n)*\tnop\n\tnop\n(?:#\w*\n)*\thint\t25\M} } } */
/* No BTI: the 2 NOPs, PACIASP: */
/* { dg-final { scan-assembler {\ndirect:\n(?:(?:\.L\w+:|\t\.[^\n]*|#\w*)\n)*\tnop\n\tnop\n(?:#\w*\n)*\thint\t25\M} } } */
/* { dg-final { scan-assembler-times {^\thint\t34\M} 4 } } */
/* { dg-final { scan-assembler-times {^\thint\t25\M} 3 } } */
/* { dg-final { scan-assembler-times {^\t\.pushsection\t__patchable_function_entries,"awo",@progbits,\.LPFE[0-9]+\n\t\.p2align\t3\n\t\.8byte\t\.LPFE[0-9]+\n\t\.popsection$} 5 } } */
