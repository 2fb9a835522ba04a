/* rec-prog.c: a program for pfe-trace record (trace.exp) that knows
 * nothing of libpfe, with calls whose counts and shape are known:
 *   (no argument)  4 threads, each worker -> mid -> leaf twice; fib(5)
 *                  (15 calls, 5 deep); many(1..10) (arguments 9 and 10 on
 *                  the stack on every target); jumper longjmp'ing out of
 *                  deep; a child (fork) calling in_child 3 times
 *   flight         tick(i) for i from 0 to 99999, then last()
 *   churn          CHURN (400) threads one after the other, each worker(0)
 *                  (mid, leaf twice); prints "vm growth N KiB", how much
 *                  the address space grew over them (a record buffer a
 *                  thread that is never freed: 1 MiB each)
 *   siblings       SIBLINGS (3) children (fork), each calling row100 to
 *                  row199 once, which then exit at the same moment: their
 *                  flat tables (4.7 KB each, several writes) are written
 *                  at once
 *   deep N         down(N) recursing N deep (to say what is lost beyond
 *                  libpfe's stack of exits, N more than it holds)
 *   forked         spawn forks and calls after_fork in both processes,
 *                  which return from it; the child calls after_fork again
 *   cloned         clone_wait clones (clone() without CLONE_VM, on an
 *                  8 KiB stack above a guard page, as googletest's death
 *                  tests do) a child whose function calls in_clone 3
 *                  times and returns, and waits for it
 * It defines its own getenv, as bash does: a traced function libpfe must
 * never call (a fork's child recorded its calls of it first, at depth 1).
 * Prints "ok".  Debugging: pfe-trace record ./rec-prog.exe; pfe-trace
 * replay. */
#define _GNU_SOURCE	/* clone */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../pfe.runtime/rt-many.h"

#define THREADS 4

static int sums[THREADS];
static jmp_buf jump;

extern char **environ;

char *getenv(const char *name)
{
	size_t len = strlen(name);

	for (char **e = environ; e && *e; e++)
		if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
			return *e + len + 1;
	return NULL;
}

__attribute__((noinline)) int leaf(int x) { return x + 1; }
__attribute__((noinline)) int mid(int x) { return leaf(x) + leaf(x + 1); }

__attribute__((noinline)) void *worker(void *arg)
{
	intptr_t i = (intptr_t)arg;

	sums[i] = mid((int)i);
	return NULL;
}

__attribute__((noinline)) int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) long many(long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8,
				    long a9, long a10)
{
	return a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10;
}

__attribute__((noinline)) void deep(int x)
{
	if (x)
		longjmp(jump, 1);
}

__attribute__((noinline)) int jumper(void)
{
	if (setjmp(jump))
		return 1;
	deep(1);
	return 0;
}

__attribute__((noinline)) unsigned long down(unsigned n) { return n ? down(n - 1) + n : 0; }

/* deep N's N, read by hand (vm_kib says why). */
static unsigned count_of(const char *arg)
{
	unsigned n = 0;

	for (const char *p = arg; *p >= '0' && *p <= '9'; p++)
		n = n * 10 + (unsigned)(*p - '0');
	return n;
}

__attribute__((noinline)) void in_child(void) { __asm__ volatile(""); }
__attribute__((noinline)) int tick(int i) { return i ^ 1; }
__attribute__((noinline)) void last(void) { __asm__ volatile(""); }

static int flight(void)
{
	int s = 0;

	for (int i = 0; i < 100000; i++)
		s += tick(i);
	last();
	return s != 0;
}

static int threads(void)
{
	pthread_t t[THREADS];

	for (intptr_t i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 0;
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < THREADS; i++)
		if (sums[i] != 2 * i + 3)
			return 0;
	return 1;
}

#define CHURN 400

/* A hexadecimal number at *P, P moved past it. */
static unsigned long hex_at(const char **p)
{
	unsigned long n = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			n = n * 16 + (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			n = n * 16 + (unsigned long)(c - 'a' + 10);
		else
			return n;
	}
}

/* The process's address space in KiB, or -1: the sum of its mappings in
 * /proc/self/maps, which qemu-user shows as the guest's (its VmSize is
 * qemu's own, with a 64 MiB malloc arena more for each thread that met
 * another in malloc: 200 MiB more seen on a loaded machine).  Read by
 * hand: glibc 2.38's headers bind strtol and sscanf under C23 (GCC 15's
 * default) to symbols bookworm's libc lacks. */
static long vm_kib(void)
{
	char line[512];
	long kib = -1;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof line, f)) {
		const char *p = line;
		unsigned long lo = hex_at(&p), hi = lo;

		if (*p == '-') {
			p++;
			hi = hex_at(&p);
		}
		kib = (kib < 0 ? 0 : kib) + (long)((hi - lo) >> 10);
		/* A line longer than the buffer: the rest of it is no mapping. */
		while (!strchr(line, '\n') && fgets(line, sizeof line, f))
			;
	}
	if (f)
		fclose(f);
	return kib;
}

/* One thread at a time: the second on, each reuses what the first left
 * (its stack, libpfe's block, its record buffer). */
static int churn(void)
{
	long before = 0;

	for (int i = 0; i <= CHURN; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, worker, (void *)0) || pthread_join(t, NULL))
			return 0;
		if (i == 0)
			before = vm_kib();
	}
	printf("vm growth %ld KiB\n", vm_kib() - before);
	return before > 0;
}

#define SIBLINGS 3
/* Each its own constant (N): identical functions would be folded into
 * one (-fipa-icf). */
#define ROW(n) __attribute__((noinline)) int row##n(int x) { return x + n; }
#define ROW_ADDRESS(n) row##n,
RT_X100(ROW, 1)
static int (*const rows[])(int) = { RT_X100(ROW_ADDRESS, 1) };
#define NROWS (int)(sizeof rows / sizeof *rows)

/* A child of siblings: each row once, then waits until the parent closes
 * the gate's other end (all are forked), and exits. */
__attribute__((noinline)) void sibling(int gate)
{
	int wrong = 0;
	char c;

	for (int k = 0; k < NROWS; k++)
		wrong |= rows[k](0) != 100 + k;
	while (read(gate, &c, 1) > 0)
		;
	exit(wrong);
}

__attribute__((noinline)) int siblings(void)
{
	pid_t kids[SIBLINGS];
	int gate[2], ok = 1, status;

	if (pipe(gate) != 0)
		return 0;
	for (int i = 0; i < SIBLINGS; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			close(gate[1]);
			sibling(gate[0]);
		}
	}
	close(gate[1]);
	for (int i = 0; i < SIBLINGS; i++)
		ok &= kids[i] > 0 && waitpid(kids[i], &status, 0) == kids[i] && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0;
	return ok;
}

__attribute__((noinline)) void after_fork(void) { __asm__ volatile(""); }

__attribute__((noinline)) pid_t spawn(void)
{
	pid_t pid = fork();

	after_fork();
	return pid;
}

static int forked(void)
{
	int status;
	pid_t pid = spawn();

	if (pid == 0) {
		after_fork();
		exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

__attribute__((noinline)) int in_clone(int x) { return x + 1; }

__attribute__((noinline)) static int clone_main(void *arg)
{
	int n = 0;

	for (int i = 0; i < 3; i++)
		n = in_clone(n);
	return n == 3 ? *(int *)arg : 1;
}

__attribute__((noinline)) int clone_wait(void)
{
	enum { PAGE = 4096, STACK = 2 * PAGE };
	char *map = mmap(NULL, PAGE + STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int zero = 0, status = 0;
	pid_t pid;

	if (map == MAP_FAILED || mprotect(map, PAGE, PROT_NONE) != 0)
		return 0;
	pid = clone(clone_main, map + PAGE + STACK, SIGCHLD, &zero);
	if (pid > 0 && waitpid(pid, &status, 0) != pid)
		status = -1;
	munmap(map, PAGE + STACK);
	return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int child(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		for (int i = 0; i < 3; i++)
			in_child();
		exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 2 ? count_of(argv[2]) : 0;
	int ok;

	if (argc > 1 && strcmp(argv[1], "flight") == 0)
		ok = flight();
	else if (argc > 1 && strcmp(argv[1], "churn") == 0)
		ok = churn();
	else if (argc > 1 && strcmp(argv[1], "siblings") == 0)
		ok = siblings();
	else if (argc > 1 && strcmp(argv[1], "forked") == 0)
		ok = forked();
	else if (argc > 1 && strcmp(argv[1], "cloned") == 0)
		ok = clone_wait();
	else if (argc > 2 && strcmp(argv[1], "deep") == 0)
		/* From main: no other exit pending (trace.exp counts on it). */
		ok = down(n) == (unsigned long)n * (n + 1) / 2;
	else
		ok = threads() && fib(5) == 5 && many(1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == 55 && jumper() == 1 && child();
	puts(ok ? "ok" : "FAIL");
	return !ok;
}
