/* scan-main.c: main for linked tests of pfe-scan; prints 110 when
 * scan-strong.c overrides scan_weak (9 + 101), 9 when it does not. */
#include <stdio.h>

int scan_call(int x);
int scan_weak(int x);

int main(void)
{
	printf("%d\n", scan_call(3) + scan_weak(1));
	return 0;
}
