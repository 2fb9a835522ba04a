/* demo.c: the example "make demo" builds with pfe (entry=4,2). */
#include <stdio.h>

__attribute__((noinline)) static int square(int x) { return x * x; }
int add(int a, int b) { return a + b; }

int main(int argc, char **argv)
{
	(void)argv;
	printf("pfe demo: add(square(argc + 2), 4) = %d\n", add(square(argc + 2), 4));
	return 0;
}
