/* features.c: C corpus for the differential test: the function shapes a
 * kernel or a library has (static, inline, varargs, nested, alloca,
 * setjmp, switch tables, recursion, noreturn, cold, named sections,
 * aliases, weak, constructors). Compiled only; never run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf env;
int table[64];

static int helper(int x) { return x * 3 + 1; }
static inline int inl(int x) { return helper(x) ^ 0x55; }
int use_inline(int x) { return inl(x) + inl(x + 1); }

int vsum(int n, ...)
{
	va_list ap;
	int s = 0;
	va_start(ap, n);
	while (n-- > 0)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

int nested(int base)
{
	int add(int y) { return base + y; }
	int (*fp)(int) = add;
	return fp(1) + add(2);
}

int with_alloca(int n)
{
	char *p = __builtin_alloca(n + 1);
	memset(p, 'a', n);
	p[n] = 0;
	return (int)strlen(p);
}

int jumper(int x)
{
	if (setjmp(env))
		return -1;
	if (x < 0)
		longjmp(env, 1);
	return x;
}

int dispatch(int op, int a, int b)
{
	switch (op) {
	case 0: return a + b;
	case 1: return a - b;
	case 2: return a * b;
	case 3: return b ? a / b : 0;
	case 4: return a << (b & 7);
	case 5: return a >> (b & 7);
	case 6: return a & b;
	case 7: return a | b;
	default: return -1;
	}
}

unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noreturn)) void die(const char *msg)
{
	(void)msg;
	abort();
}

__attribute__((cold, noinline)) int rare(int x) { return x * 13; }

int maybe_rare(int x) { return __builtin_expect(x > 100000, 0) ? rare(x) : x; }

__attribute__((section(".text.special"))) int special(int x) { return x + 42; }

int real_impl(int x) { return x - 42; }
int alias_of_impl(int) __attribute__((alias("real_impl")));

__attribute__((weak)) int weak_fn(int x) { return x * 2; }

__attribute__((constructor)) static void init_table(void)
{
	for (int i = 0; i < 64; i++)
		table[i] = helper(i);
}

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

void sort_table(void) { qsort(table, 64, sizeof(table[0]), cmp); }

int loop_first(int n)
{
	int s = 0;
	for (;;) {
		s += n--;
		if (n <= 0)
			break;
	}
	return s;
}

int tail_call(int x) { return dispatch(x & 7, x, 3); }

__attribute__((noinline, patchable_function_entry(0, 0))) int excluded(int x) { return x * 3 + 1; }
/* Keeps IPA-RA's benefit around the unpadded callee (pfe.diff counts it). */
long calls_excluded(long a, long b, long c)
{
	long t1 = a * b, t2 = b ^ c, t3 = a + c;
	return excluded((int)a) + t1 * 3 + t2 * 5 + t3 * 7 + excluded((int)b);
}
__attribute__((patchable_function_entry(6, 3))) int own_entry(int x) { return x + 6; }
