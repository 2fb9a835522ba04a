/* aarch64 -mbranch-protection=pac-ret, entry=3,1: no BTI C anywhere; a
   function that signs its return address has the NOPs after the label
   first, then PACIASP. */
/* { dg-do compile } */
/* { dg-require-target aarch64 } */
/* { dg-require-accepts -mbranch-protection=pac-ret } */
/* { dg-options "-O2 -mbranch-protection=pac-ret -fplugin-arg-pfe-entry=3,1" } */
extern int ext(int);
int leaf(int x) { return x * 7; }
int nonleaf(int x) { return ext(x) + 1; }
__attribute__((noinline)) static int direct(int x) { return ext(x) + 2; }
int call_direct(int x) { return direct(x) * 3; }
/* { dg-final { pfe-asm-layout leaf 1 2 } } */
/* { dg-final { pfe-asm-layout nonleaf 1 2 } } */
/* { dg-final { pfe-asm-layout call_direct 1 2 } } */
/* { dg-final { pfe-asm-layout direct 1 2 } } */
/* { dg-final { scan-assembler {\nnonleaf:\n(?:(?:\.L\w+:|\t\.[^\n]*|#\w*)\n)*\tnop\n\tnop\n(?:#\w*\n)*\thint\t25\M} } } */
/* { dg-final { scan-assembler-not {\thint\t34\M} } } */
/* { dg-final { scan-assembler-times {^\thint\t25\M} 3 } } */
