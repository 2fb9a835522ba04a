/* rec-exec.c: a program for pfe-trace record (trace.exp) that execs: the
 * first image calls work 5 times, fails an execl (a path that does not
 * exist: recording goes on), calls work twice more and execvp's itself
 * with "again"; that image calls other 3 times and prints "ok".  The
 * first image's calls are in a file of their own (PID.pfetrace; the
 * second's PID-1.pfetrace), written before the exec: an image that execs
 * runs no destructor.  Debugging: PFE_DEBUG=1 pfe-trace record
 * ./rec-exec.exe says when it writes. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) int work(int x) { return x * 3 + 1; }
__attribute__((noinline)) int other(int x) { return x * 5 + 1; }

int main(int argc, char **argv)
{
	volatile int sum = 0;

	if (argc > 1 && strcmp(argv[1], "again") == 0) {
		for (int i = 0; i < 3; i++)
			sum += other(i);
		printf("%s\n", sum == 18 ? "ok" : "wrong sum");
		return sum != 18;
	}
	for (int i = 0; i < 5; i++)
		sum += work(i);
	if (execl("/nonexistent/pfe-rec-exec", "pfe-rec-exec", "again", (char *)0) == 0)
		return 1;
	for (int i = 0; i < 2; i++)
		sum += work(i);
	char *again[] = { argv[0], "again", NULL };
	execvp(argv[0], again);
	perror("execvp");
	return 1;
}
