/* aarch64 -mbranch-protection=bti, entry=3,1: BTI C first at every
   function that may be called indirectly, the NOPs after it; no PACIASP
   anywhere; a static function only called directly has no BTI C. */
/* { dg-do compile } */
/* { dg-require-target aarch64 } */
/* { dg-require-accepts -mbranch-protection=bti } */
/* { dg-options "-O2 -mbranch-protection=bti -fplugin-arg-pfe-entry=3,1" } */
extern int ext(int);
int leaf(int x) { return x * 7; }
int nonleaf(int x) { return ext(x) + 1; }
__attribute__((noinline)) static int direct(int x) { return ext(x) + 2; }
int call_direct(int x) { return direct(x) * 3; }
/* { dg-final { pfe-asm-layout leaf 1 2 landing } } */
/* { dg-final { pfe-asm-layout nonleaf 1 2 landing } } */
/* { dg-final { pfe-asm-layout call_direct 1 2 landing } } */
/* { dg-final { pfe-asm-layout direct 1 2 } } */
/* { dg-final { scan-assembler-times {^\thint\t34\M} 3 } } */
/* { dg-final { scan-assembler-not {\thint\t(25|27)\M} } } */
