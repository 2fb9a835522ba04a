/* demo.c: the example "make demo" builds with pfe (entry=4,2). */
#include <stdio.h>

static int square(int x) { return x * x; }
int add(int a, int b) { return a + b; }

int main(void)
{
	printf("pfe demo: add(square(3), 4) = %d\n", add(square(3), 4));
	return 0;
}
