/* A function split into hot and cold parts: only the entry is padded and
   recorded; the .cold part has no NOPs and no record. */
/* { dg-do compile } */
/* { dg-require-gcc 8 } */
/* { dg-options "-O2 -freorder-blocks-and-partition -fplugin-arg-pfe-entry=2,1" } */
extern void fail(const char *) __attribute__((cold, noreturn));
int split(int x)
{
	if (__builtin_expect(x > 1000, 0))
		fail("big");
	return x * 2;
}
/* { dg-final { scan-assembler {split\.cold} } } */
/* { dg-final { pfe-asm-layout split 1 1 } } */
/* { dg-final { pfe-asm-layout split.cold 0 0 } } */
/* { dg-final { scan-assembler-times {\.pushsection} 1 } } */
