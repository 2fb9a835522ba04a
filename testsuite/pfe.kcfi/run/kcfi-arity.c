/* kcfi-arity.c: the arity corpus of pfe.kcfi (x86_64): function
 * definitions whose addresses are taken, so that each gets a kCFI
 * preamble, built by Clang 21 (-fsanitize=kcfi -fsanitize-kcfi-arity)
 * and by pfe (cfi=kcfi cfi-arity) at -O2; kcfi.exp compares, per
 * function, the preamble's mov: its register, which says the arity (the
 * integer registers the function reads its arguments from, or 7 when one
 * comes on the stack), and its hash.
 *
 * Arities 0 to 6 in integer, pointer and small types, more than six (the
 * seventh on the stack), arguments never read (not counted, anywhere in
 * the list), floating arguments (not counted), structs in one and two
 * registers and on the stack, __int128, long double (on the stack), a
 * struct returned through memory (its address counts), _Complex, and a
 * variadic function with va_start (%al counts).  No libc header.
 *
 * Debug: objdump -d on the two objects shows each __cfi_<name>. */
struct s8 { long a; };
struct s16 { long a, b; };
struct s24 { long a, b, c; };
struct sfl { double x, y; };

long kar_0(void) { return 42; }
long kar_1(long a) { return a + 1; }
long kar_2(long a, long b) { return a ^ b; }
long kar_3(int a, short b, char c) { return a + b + c; }
long kar_4(long a, long b, long c, long d) { return a + b * c - d; }
long kar_5(void *a, const char *b, long c, unsigned d, _Bool e) { return (long)a + *b + c + d + e; }
long kar_6(long a, long b, long c, long d, long e, long f) { return a + b + c + d + e + f; }
long kar_7(long a, long b, long c, long d, long e, long f, long g) { return a + b + c + d + e + f + g; }
long kar_8(long a, long b, long c, long d, long e, long f, long g, long h) { return a + b + c + d + e + f + g + h; }
long kar_unused_first(long a, long b) { return b * 3; }
long kar_unused_middle(long a, long b, long c) { return a - c; }
long kar_unused_all(long a, long b) { return 7; }
double kar_fp(double x, float y, double z) { return x + y + z; }
double kar_mixed(double x, long a, float y, long b) { return x * a + y * b; }
long kar_many_fp(double a, double b, double c, double d, double e, double f, double g, double h, double i, long j)
{
	return (long)(a + b + c + d + e + f + g + h + i) + j;
}
long kar_s8(struct s8 s) { return s.a; }
long kar_s16(struct s16 s) { return s.a + s.b; }
long kar_s24(struct s24 s) { return s.a + s.b + s.c; }
double kar_sfl(struct sfl s, long a) { return s.x + s.y + a; }
__int128 kar_i128(__int128 a, long b) { return a + b; }
long double kar_ld(long double x) { return x * 2; }
long kar_ld_int(long a, long double x) { return a + (long)x; }
struct s24 kar_ret24(long a) { struct s24 r = { a, a, a }; return r; }
struct s16 kar_ret16(long a) { struct s16 r = { a, a }; return r; }
_Complex double kar_cplx(_Complex double z, long a) { return z * a; }
long kar_fnptr(long (*f)(long), long a) { return f(a); }
long kar_va(int n, ...)
{
	__builtin_va_list ap;
	long s = 0;

	__builtin_va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += __builtin_va_arg(ap, long);
	__builtin_va_end(ap);
	return s;
}
/* Only a double read: GCC saves no integer register, Clang all. */
double kar_va_fp(int n, ...)
{
	__builtin_va_list ap;
	double first;

	__builtin_va_start(ap, n);
	first = __builtin_va_arg(ap, double);
	__builtin_va_end(ap);
	return first * n;
}

/* Every function's address taken: each gets its hash. */
void *const kar_table[] = {
	(void *)kar_0, (void *)kar_1, (void *)kar_2, (void *)kar_3, (void *)kar_4, (void *)kar_5,
	(void *)kar_6, (void *)kar_7, (void *)kar_8, (void *)kar_unused_first, (void *)kar_unused_middle,
	(void *)kar_unused_all, (void *)kar_fp, (void *)kar_mixed, (void *)kar_many_fp, (void *)kar_s8,
	(void *)kar_s16, (void *)kar_s24, (void *)kar_sfl, (void *)kar_i128, (void *)kar_ld, (void *)kar_ld_int,
	(void *)kar_ret24, (void *)kar_ret16, (void *)kar_cplx, (void *)kar_fnptr, (void *)kar_va, (void *)kar_va_fp,
};
