/* main and GNU C nested functions are padded like the rest. */
/* { dg-do compile } */
/* { dg-options "-O0 -fplugin-arg-pfe-entry=2,1" } */
int outer(int x)
{
	int inner(int y) { return x + y; }
	return inner(1);
}
int main(void) { return outer(1) - 2; }
/* { dg-final { pfe-asm-layout main 1 1 } } */
/* { dg-final { pfe-asm-layout outer 1 1 } } */
/* { dg-final { scan-assembler {\.LPFE[0-9]+:\n\tnop\n\t\.type\tinner\.[0-9]+, [@%]function\ninner\.[0-9]+:} } } */
/* { dg-final { scan-assembler-times {\.pushsection} 3 } } */
