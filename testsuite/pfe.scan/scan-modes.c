/* scan-modes.c: functions for pfe-scan's tests of the plugin's entry modes
 * (fentry, fentry-nop, ops-slot; testsuite/pfe.scan/scan.exp): global,
 * static, a nested one (its static chain is pushed around the entry call
 * on x86), one that starts with a loop, one left out of everything.  Each
 * instrumented one runs once from mode_calls: main (scan-modes-main.c)
 * prints mode_calls(3), 108, and how often the entry hook ran (scan-hook.c). */
#define NOINLINE __attribute__((noinline, noclone))

int scan_mode_data;

NOINLINE int mode_leaf(int x)
{
	return x * 3 + scan_mode_data;
}

static NOINLINE int mode_static(int x)
{
	return mode_leaf(x) + 1;
}

NOINLINE int mode_nested(int a)
{
	NOINLINE int inner(int b)
	{
		return a + b + scan_mode_data;
	}
	return inner(1) + inner(2);
}

NOINLINE int mode_loop(const char *s)
{
	int n = 0;

	while (s[n])
		n++;
	return n;
}

/* The kernel's notrace: no -pg call, no patch area. */
__attribute__((no_instrument_function, patchable_function_entry(0, 0))) NOINLINE
int mode_untraced(int x)
{
	return x ^ 0x55;
}

NOINLINE int mode_calls(int x)
{
	return mode_static(x) + mode_nested(x) + mode_loop("abc") + mode_untraced(x);
}
