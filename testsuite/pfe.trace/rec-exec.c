/* rec-exec.c: a program for pfe-trace record (trace.exp) whose image ends
 * without its destructors.  It starts a thread (waiter) that calls work 3
 * times and waits for good, then calls work 5 times.  With no argument it
 * execs: it fails an execl (a path that does not exist: recording goes
 * on), calls work twice more and execvp's itself with "again"; that image
 * calls other 3 times and prints "ok".  The first image's calls, both
 * threads', are in a file of their own (PID.pfetrace; the second's
 * PID-1.pfetrace), written before the exec.  With "_exit", "segv",
 * "abort", "term", "pipe" or "kill" it prints "ok" and ends so: _exit(0),
 * a write where nothing is mapped, abort(), a SIGTERM to itself (the
 * process's: either thread takes it), a write to a pipe nobody reads, a
 * SIGKILL; both threads' calls are written all the same (after a SIGKILL,
 * kept in their buffers' spool files), and the process still dies of its
 * signal.  "kill N": main calls work N times, not 5, first (a flight
 * recorder's ring wraps).  "vfork": a vfork child ends by _exit, then
 * work once more, and main returns.  With "own" it checks that SIGINT's and SIGTERM's actions are
 * the default, as without a tracer, installs its own and raises SIGTERM,
 * which it handles, and returns.  With "hup" it execs as with no argument, and the second image
 * sends itself SIGHUP before its "ok": trace.exp runs it under nohup,
 * whose SIG_IGN both images inherit (pfe-trace must keep it so).  Debugging:
 * pfe-trace record ./rec-exec.exe segv; pfe-trace replay. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int work(int x) { return x * 3 + 1; }
__attribute__((noinline)) int other(int x) { return x * 5 + 1; }

static int ready[2];
static volatile sig_atomic_t termed;

static void on_term(int sig)
{
	termed = sig;
}

/* "own": SIGINT's and SIGTERM's actions are the default, as a program
 * finds them without a tracer (sigaction, signal), and one it installs
 * runs; 0 if so. */
static int own_handlers(void)
{
	struct sigaction sa;

	if (sigaction(SIGINT, NULL, &sa) != 0 || (sa.sa_flags & SA_SIGINFO) || sa.sa_handler != SIG_DFL) {
		printf("SIGINT's action is not the default\n");
		return 1;
	}
	if (signal(SIGTERM, on_term) != SIG_DFL) {
		printf("SIGTERM's action was not the default\n");
		return 1;
	}
	raise(SIGTERM);
	return termed != SIGTERM;
}

/* S's decimal digits as a number: not atoi, which glibc 2.38's headers
 * make a call of __isoc23_strtol, a symbol an older libc lacks (the sid
 * compilers' programs run on bookworm's). */
static int number(const char *s)
{
	int n = 0;

	while (*s >= '0' && *s <= '9')
		n = n * 10 + (*s++ - '0');
	return n;
}

/* "vfork": a vfork child that ends by _exit (its memory is ours: what it
 * would write is our counts), then work once more and return. */
__attribute__((noinline)) static int after_vfork(void)
{
	int status;
	pid_t pid = vfork();

	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return work(1) != 4;
}

__attribute__((noinline)) void *waiter(void *arg)
{
	char c = 1;
	volatile int sum = 0;	/* the calls kept: work is const */

	for (int i = 0; i < 3; i++)
		sum += work(i);
	if (write(ready[1], &c, 1) != 1)
		return arg;
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	volatile int sum = 0;

	if (argc > 1 && strcmp(argv[1], "again") == 0) {
		for (int i = 0; i < 3; i++)
			sum += other(i);
		if (argc > 2 && strcmp(argv[2], "hup") == 0)
			kill(getpid(), SIGHUP);
		printf("%s\n", sum == 18 ? "ok" : "wrong sum");
		return sum != 18;
	}
	pthread_t t;
	char c;

	if (pipe(ready) || pthread_create(&t, NULL, waiter, NULL) || read(ready[0], &c, 1) != 1)
		return 1;
	for (int i = 0, n = argc > 2 && strcmp(argv[1], "kill") == 0 ? number(argv[2]) : 5; i < n; i++)
		sum += work(i);
	if (argc > 1 && strcmp(argv[1], "hup") != 0) {
		printf("ok\n");
		fflush(stdout);
		if (strcmp(argv[1], "_exit") == 0)
			_exit(0);
		if (strcmp(argv[1], "own") == 0)
			return own_handlers();
		if (strcmp(argv[1], "segv") == 0)
			*(volatile int *)(uintptr_t)sum = 1;	/* sum is 35: no page there */
		if (strcmp(argv[1], "abort") == 0)
			abort();
		if (strcmp(argv[1], "term") == 0)
			kill(getpid(), SIGTERM);
		if (strcmp(argv[1], "kill") == 0)
			kill(getpid(), SIGKILL);
		if (strcmp(argv[1], "vfork") == 0)
			return after_vfork();
		if (strcmp(argv[1], "pipe") == 0 && close(ready[0]) == 0)
			sum = (int)write(ready[1], &c, 1);
		for (;;)
			pause();
	}
	if (execl("/nonexistent/pfe-rec-exec", "pfe-rec-exec", "again", (char *)0) == 0)
		return 1;
	for (int i = 0; i < 2; i++)
		sum += work(i);
	char *again[] = { argv[0], "again", argv[1], NULL };
	execvp(argv[0], again);
	perror("execvp");
	return 1;
}
