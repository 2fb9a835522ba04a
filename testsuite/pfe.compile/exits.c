/* exits: a sled, the 5-byte NOP, right before each return and sibling
   call of an instrumented function, and its record in __pfe_exit_sleds
   (linked to the sled's section): the sled, the function's site (its
   first NOP's label) and the kind: 1 a sibling call; a return whose
   value is anywhere, vector registers at full width too (0: a 32-byte
   vector in ymm0), on the x87 stack (2), in no vector register (3: an
   int), in xmm only (4: a double).  None in an excluded function.  */
/* { dg-do compile } */
/* { dg-require-target x86_64 } */
/* { dg-options "-O2 -Wno-psabi -fplugin-arg-pfe-entry=5 -fplugin-arg-pfe-exits" } */
typedef float v8sf __attribute__((vector_size(32)));
extern void ext(int);
extern int g(int);
int two_returns(int x)
{
	if (x > 10)
		return x * 5;
	ext(x);
	return 1;
}
int tail(int x) { return g(x + 1); }
long double ld(long double x) { return x * 2; }
double dbl(double x) { return x * 2; }
__attribute__((target("avx"))) v8sf vec8(v8sf x) { return x + x; }
__attribute__((patchable_function_entry(0, 0))) int excluded(int x) { return g(x) + 1; }
/* { dg-final { scan-assembler-times {\.LPFX[0-9]+:\n\t\.byte\t0x0f, 0x1f, 0x44, 0x00, 0x00\n} 6 } } */
/* { dg-final { scan-assembler-times {\.pushsection\t__pfe_exit_sleds,"awo",@progbits,\.LPFX[0-9]+\n} 6 } } */
/* { dg-final { scan-assembler-times {\.quad\t\.LPFX[0-9]+\n\t\.quad\t\.LPFE0\n\t\.quad\t3\n} 2 } } */
/* { dg-final { scan-assembler-times {\.quad\t\.LPFX[0-9]+\n\t\.quad\t\.LPFE1\n\t\.quad\t1\n} 1 } } */
/* { dg-final { scan-assembler-times {\.quad\t\.LPFX[0-9]+\n\t\.quad\t\.LPFE2\n\t\.quad\t2\n} 1 } } */
/* { dg-final { scan-assembler-times {\.quad\t\.LPFX[0-9]+\n\t\.quad\t\.LPFE3\n\t\.quad\t4\n} 1 } } */
/* { dg-final { scan-assembler-times {\.quad\t\.LPFX[0-9]+\n\t\.quad\t\.LPFE4\n\t\.quad\t0\n} 1 } } */
/* { dg-final { scan-assembler-times {\.popsection\n(#[^\n]*\n)*\t(vzeroupper\n\t)?ret\n} 5 } } */
/* { dg-final { scan-assembler-times {\.popsection\n(#[^\n]*\n)*\tjmp\tg} 1 } } */
