/* own-pfe.c: a program that uses libpfe itself, for pfe-trace (trace.exp).
 * It attaches an entry handler to mine, calls mine and theirs 10 times
 * each and prints "seen N" (the calls its handler saw), or, when pfe_init
 * fails, "init: MESSAGE"; then "ok".  Linked with libpfe.so it shares
 * pfe-trace's copy (pfe-trace says so; its handler replaces pfe-trace's
 * on mine, theirs is still traced); linked with libpfe.a (libpfe-all.o)
 * its copy is a second one, which finds another serving the process and
 * stays out (PFE_ECOPY), pfe-trace tracing both.  Debugging:
 * pfe-trace ./own-pfe.exe. */
#include "pfe.h"

#include <stdio.h>

static int seen;

__attribute__((noinline)) int mine(int x) { return x + 1; }
__attribute__((noinline)) int theirs(int x) { return x * 2; }

static void on_mine(struct pfe_call *c)
{
	(void)c;
	seen++;
}

int main(void)
{
	volatile int sum = 0;
	struct pfe_func *f;
	int err = pfe_init();

	if (err) {
		printf("init: %s\n", pfe_strerror(err));
	} else if (!(f = pfe_find_addr((void *)mine)) || pfe_attach(f, on_mine, NULL, NULL) || pfe_enable(f)) {
		printf("mine: not attached\n");
		return 1;
	}
	for (int i = 0; i < 10; i++)
		sum += mine(i) + theirs(i);
	if (!err)
		printf("seen %d\n", seen);
	printf("%s\n", sum == 145 ? "ok" : "wrong sum");
	return sum != 145;
}
