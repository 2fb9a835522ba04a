/* scan-basic.c: functions of several kinds for pfe-scan's tests
 * (testsuite/pfe.scan/scan.exp): global, static, weak, a caller, and one
 * whose address is taken.  Every function here gets a record. */
int scan_data;

int scan_add(int x)
{
	return x + scan_data;
}

static __attribute__((noinline)) int scan_twice(int x)
{
	return 2 * x + scan_data;
}

int scan_call(int x)
{
	return scan_twice(x) + scan_add(x);
}

__attribute__((weak)) int scan_weak(int x)
{
	return x - 1;
}

int (*scan_ptr)(int) = scan_add;
