/* kcfi-callee.c: the functions kcfi-caller.c calls through pointers; built
 * by Clang (-fsanitize=kcfi) or by GCC with pfe (cfi=kcfi), each with its
 * type hash before its entry. */
unsigned long strlen(const char *s);	/* no headers: see kcfi-caller.c */

int kcfi_add(int a, int b);
long kcfi_scale(long x, const char *s);
double kcfi_half(double x);

int kcfi_add(int a, int b)
{
	return a + b;
}

long kcfi_scale(long x, const char *s)
{
	return x * (long)strlen(s);
}

double kcfi_half(double x)
{
	return x / 2;
}
