/* lines.c: functions with arguments, one after the other, for lines.exp:
 * the line table has a row at each record's first NOP, and uftrace -a
 * reads the arguments of a pfe-built program from its DWARF. */
#include <stdio.h>

__attribute__((noinline)) int add2(int a, int b)
{
	return a + b;
}

__attribute__((noinline)) long mul3(long a, long b, long c)
{
	return a * b * c;
}

__attribute__((noinline)) int pick(const char *s, int i)
{
	return s[i];
}

int main(void)
{
	printf("%d %ld %d\n", add2(1, 2), mul3(2, 3, 4), pick("pfe", 1));
	return 0;
}
