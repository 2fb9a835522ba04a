/* kcfi-caller.c: indirect calls of kcfi-callee.c's functions, built by
 * Clang (-fsanitize=kcfi) or by GCC with pfe (cfi=kcfi).
 *
 *   (no argument)  calls through correctly typed pointers: prints the
 *                  results, exits 0
 *   confused       calls kcfi_half, a double (double), through an
 *                  int (*)(int, int): the check must trap first
 *   unchecked      the same call from a function that opts out
 *                  (no_sanitize("kcfi") for Clang, no_sanitize_kcfi for
 *                  pfe): no trap, exits 0
 * A trap (x86 UD2: SIGILL; aarch64 BRK, riscv EBREAK: SIGTRAP) prints
 * "kcfi trap" and exits 42. */
/* No libc headers: Clang compiles this for any target without a sysroot
 * (LP64 Linux: x86_64, aarch64, riscv64). */
#define SIGILL 4
#define SIGTRAP 5
int printf(const char *fmt, ...);
int strcmp(const char *a, const char *b);
long write(int fd, const void *buf, unsigned long n);
void _exit(int status) __attribute__((noreturn));
void (*signal(int sig, void (*handler)(int)))(int);

#ifdef __clang__
#define NO_KCFI __attribute__((noinline, no_sanitize("kcfi")))
#else
#define NO_KCFI __attribute__((noinline, no_sanitize_kcfi))
#endif

int kcfi_add(int a, int b);
long kcfi_scale(long x, const char *s);
double kcfi_half(double x);

/* Volatile: no compiler may see through them and call directly. */
int (*volatile add_p)(int, int) = kcfi_add;
long (*volatile scale_p)(long, const char *) = kcfi_scale;
double (*volatile half_p)(double) = kcfi_half;

static void on_trap(int sig)
{
	static const char msg[] = "kcfi trap\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(43);
	_exit(42);
}

static int confused_call(void)
{
	int (*wrong)(int, int) = (int (*)(int, int))(void *)half_p;

	return wrong(1, 2);
}

NO_KCFI static int unchecked_call(void)
{
	int (*wrong)(int, int) = (int (*)(int, int))(void *)half_p;

	return wrong(1, 2);
}

int main(int argc, char **argv)
{
	signal(SIGILL, on_trap);
	signal(SIGTRAP, on_trap);
	if (argc > 1 && !strcmp(argv[1], "confused")) {
		confused_call();
		printf("confused call not trapped\n");
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "unchecked")) {
		unchecked_call();
		printf("unchecked\n");
		return 0;
	}
	printf("%d %ld %g\n", add_p(2, 3), scale_p(4, "abc"), half_p(5.0));
	return 0;
}
