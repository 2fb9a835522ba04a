/* rt-hazards.c: what patching must survive in a real process, one hazard
 * per MODE (argv[1]); every run is bounded (alarm) and prints "ok" last,
 * or "unsupported: why".
 *   sigblock  a thread that blocks every signal runs the functions while
 *             main toggles them: it must not die (x86: the batch is
 *             refused, PFE_ESIGNAL, while it blocks SIGTRAP, and its
 *             functions stay as they were; PFE_DEBUG=signals names the
 *             thread, and in masked and sigtrap the signal)
 *   handler   a signal handler interrupting the patching thread calls the
 *             functions being toggled: no deadlock, right results
 *   late      threads that block every signal for a while, again and again
 *             (pthread_sigmask, sigprocmask), call the functions while
 *             main toggles them, and (x86) one that installs a handler
 *             blocking SIGTRAP during a batch and runs it, one that
 *             blocks SIGTRAP alone then (sighold, sigset), one that then
 *             waits with a temporary mask blocking it (sigsuspend,
 *             pselect, ppoll, epoll_pwait, epoll_pwait2) while a signal
 *             whose handler calls the functions is pending, and one that
 *             switches to a coroutine whose mask blocks every signal
 *             (swapcontext), which calls them and switches back
 *             (swapcontext, or returning to uc_link), and one that jumps
 *             back to where it saved a mask blocking every signal
 *             (siglongjmp, longjmp, __longjmp_chk) and calls them then:
 *             not killed
 *             (x86: such a call waits for the batch under way; a batch
 *             that finds one blocking, or waiting so, is refused)
 *   masked    a handler whose sa_mask has SIGTRAP (sigfillset) calls the
 *             functions in a thread running them while main toggles them:
 *             it must not die (x86: every batch is refused, PFE_ESIGNAL,
 *             while it is installed so)
 *   segv      a SIGSEGV handler installed after libpfe's sees no fault
 *             while threads run the functions being toggled
 *   mdwe      after prctl(PR_SET_MDWE): argv[2] "works": enable and
 *             disable work; "eprot": enable fails with PFE_EPROT and no
 *             byte changed
 *   nodump    the same once the process is not dumpable and not root
 *             (prctl(PR_SET_DUMPABLE, 0), and setuid(65534) when root:
 *             /proc/self/mem can no longer be opened); "eprot" after
 *             prctl(PR_SET_MDWE) too
 *   sigtrap   (PFE_NO_INIT=1) SIGTRAPs of raise, kill and, on x86, the
 *             program's own int3 and int $3 reach the program's handler
 *             once each, installed before pfe_init and after it (which
 *             sigaction shows); libpfe's own int3s never do, even with
 *             the handler replaced during batches, or set behind
 *             libpfe's back (__sigaction); while it has no SA_NODEFER
 *             (SIGTRAP blocked while it runs), x86 batches are refused;
 *             sysv_signal's handler runs once; signal keeps
 *             siginterrupt's choice; sigset and sigignore set the
 *             program's action
 *   fork      a thread forks while main toggles: each child enables and
 *             disables a function and exits 0 in time
 *   flush     one cache maintenance call a phase on riscv, not one an edit
 *   alone     a process of one thread (libpfe writes each site once, no
 *             int3, where its writer stores a site whole): a timer's
 *             signal interrupts the toggling anywhere and its handler
 *             calls functions, each time the next hundred: each must be
 *             whole; x86 with the
 *             mprotect writer (5 bytes stored one at a time) keeps the
 *             int3 protocol, three barriers a batch
 * Run under PFE_DEBUG=stall=MS to widen the batches (runtime.exp does).
 * Debugging: the failing check is printed ("FAIL: ...").
 */
#define _GNU_SOURCE
#include <pfe.h>

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "rt-many.h"
#include "rt-test.h"

#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_MDWE_REFUSE_EXEC_GAIN 1
#endif
#if defined(__x86_64__) || defined(__i386__)
#define X86 1
#else
#define X86 0
#endif

#define NFUNCS 1000
/* Not const (a call whose result is unused must still be made). */
static volatile long zero;
#define F(n) NOINLINE long hz_f##n(long x) { return x * 3 + n + zero; }
RT_THOUSAND(F)
#define P(n) hz_f##n,
static long (*const table[NFUNCS])(long) = {
	RT_THOUSAND(P)
};

static struct pfe_func *fs[NFUNCS];
static _Atomic unsigned long hits, wrong;
static _Atomic int stop;

static void on_entry(struct pfe_call *c)
{
	(void)c;
	atomic_fetch_add(&hits, 1);
}

/* Call N functions from the FROMth; false if one returns a wrong result. */
static bool call_from(int from, int n)
{
	bool right = true;

	for (int i = from; i < from + n; i++)
		right &= table[i](i) == i * 3 + (i / 100 + 1) * 100 + i % 100;
	return right;
}

static bool call_some(int n)
{
	return call_from(0, n);
}

static void setup(void)
{
	for (int i = 0; i < NFUNCS; i++) {
		fs[i] = pfe_find_addr((void *)table[i]);
		if (!fs[i] || pfe_attach(fs[i], on_entry, NULL, NULL) != 0) {
			printf("FAIL: function %d not found or not attachable\n", i);
			exit(1);
		}
	}
}

static int toggle(bool on)
{
	return on ? pfe_enable_many(fs, NFUNCS) : pfe_disable_many(fs, NFUNCS);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Toggle every function on and off for SECONDS; the errors other than
 * ALLOWED are failures; how many batches ALLOWED refused. */
static int toggle_for(double seconds, int allowed)
{
	int refused = 0;

	for (double end = now() + seconds; now() < end;) {
		for (int on = 1; on >= 0; on--) {
			int err = toggle(on);

			refused += err && err == allowed;
			CHECK(!err || err == allowed, "toggle %d: %s", on, pfe_strerror(err));
		}
	}
	return refused;
}

/* x86: one enable with PFE_DEBUG=signals added, libpfe's stderr
 * captured: whether it was refused (PFE_ESIGNAL) saying WANT. */
static bool refused_saying(const char *want)
{
	char said[512] = "", before[256] = "", debug[300];
	FILE *f = tmpfile();
	int saved = dup(2), err;
	size_t n;

	if (!f || saved < 0)
		return false;
	if (getenv("PFE_DEBUG"))
		snprintf(before, sizeof before, "%s", getenv("PFE_DEBUG"));
	snprintf(debug, sizeof debug, "%s%ssignals", before, *before ? "," : "");
	setenv("PFE_DEBUG", debug, 1);
	fflush(stderr);
	dup2(fileno(f), 2);
	err = toggle(true);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	setenv("PFE_DEBUG", before, 1);
	rewind(f);
	n = fread(said, 1, sizeof said - 1, f);
	said[n] = 0;
	fclose(f);
	if (err != PFE_ESIGNAL || !strstr(said, want))
		printf("enable: %s; libpfe said \"%s\", want \"%s\"\n", pfe_strerror(err), said, want);
	return err == PFE_ESIGNAL && strstr(said, want);
}

/* x86: waits until a batch has written its int3 into function 0's site;
 * false once the test stops. */
static bool batch_underway(void)
{
	static volatile uint8_t *site;
	struct pfe_info info;

	if (!site && pfe_func_info(fs[0], &info) == 0)
		site = info.patch_at;
	while (!atomic_load(&stop))
		if (*site == 0xcc)
			return true;
		else
			usleep(20);
	return false;
}

static void *runner(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop))
		if (!call_some(NFUNCS))
			atomic_fetch_add(&wrong, 1);
	return NULL;
}

static void start(pthread_t *t, int n, void *(*fn)(void *))
{
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, fn, NULL);
}

static void finish(pthread_t *t, int n)
{
	atomic_store(&stop, 1);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	atomic_store(&stop, 0);
	CHECK(atomic_load(&wrong) == 0, "%lu wrong results", atomic_load(&wrong));
}

/* ---- sigblock ---- */

/* The blocking thread's id, once it blocks. */
static _Atomic long blocking;

static void *blocked_runner(void *arg)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	pthread_setname_np(pthread_self(), "hz-blocker");
	atomic_store(&blocking, syscall(SYS_gettid));
	return runner(arg);
}

static void blocked_thread(void)
{
	pthread_t t;
	int refused;

	start(&t, 1, blocked_runner);
	while (!atomic_load(&blocking))
		sched_yield();
	if (X86) {
		struct pfe_info info;
		char want[100];

		snprintf(want, sizeof want, "thread %ld (hz-blocker) blocks SIGTRAP", blocking);
		CHECK(refused_saying(want), "x86: an enable not refused, saying why, while a thread blocks SIGTRAP");
		CHECK(pfe_func_info(fs[0], &info) == 0 && !info.enabled,
		      "x86: an enable refused while a thread blocks SIGTRAP left its functions enabled");
	}
	refused = toggle_for(0.5, X86 ? PFE_ESIGNAL : 0);
	finish(&t, 1);
	CHECK(!X86 || refused > 0, "x86: no batch refused while a thread blocks SIGTRAP");
	CHECK(toggle(true) == 0, "enable once the thread is gone");
	hits = 0;
	call_some(NFUNCS);
	CHECK(hits == NFUNCS, "%lu handler calls, want %d", hits, NFUNCS);
	CHECK(toggle(false) == 0, "disable");
}

/* ---- handler ---- */

static pthread_t interrupted;
/* Handler runs, and those with SIGTRAP not blocked. */
static _Atomic unsigned long handled, handled_unmasked;

static void on_usr1(int sig)
{
	sigset_t now;

	(void)sig;
	if (!call_some(50))
		atomic_fetch_add(&wrong, 1);
	atomic_fetch_add(&handled, 1);
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	if (!sigismember(&now, SIGTRAP))
		atomic_fetch_add(&handled_unmasked, 1);
}

static void *interrupter(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		pthread_kill(interrupted, SIGUSR1);
		usleep(100);
	}
	return NULL;
}

static void handler(void)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	pthread_t t;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	interrupted = pthread_self();
	start(&t, 1, interrupter);
	toggle_for(1.0, 0);
	finish(&t, 1);
	CHECK(handled > 0, "the handler never ran");
}

/* ---- masked ---- */

/* A handler installed with every signal in its sa_mask (sigfillset, as
 * servers do) runs with SIGTRAP blocked: it interrupts a thread running
 * the functions and calls them itself.  On x86 every batch is refused
 * while it is installed; once its mask leaves SIGTRAP out, they work. */
static void masked(void)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	pthread_t t[2];
	int refused;

	sigfillset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	start(&t[0], 1, runner);
	if (X86) {
		char want[100];

		snprintf(want, sizeof want, "the handler of signal %d (%s) has SIGTRAP in its sa_mask", SIGUSR1,
			 strsignal(SIGUSR1));
		CHECK(refused_saying(want), "x86: an enable not refused, saying why, while a handler blocks SIGTRAP");
	}
	interrupted = t[0];
	start(&t[1], 1, interrupter);
	refused = toggle_for(0.5, X86 ? PFE_ESIGNAL : 0);
	CHECK(handled > 0, "the handler never ran");
	CHECK(!X86 || refused > 0, "x86: no batch refused while a handler blocks SIGTRAP");
	sigdelset(&sa.sa_mask, SIGTRAP);
	sigaction(SIGUSR1, &sa, NULL);
	/* A run of the handler that began under the old mask (its thread
	 * descheduled in it, under load) blocks SIGTRAP until it ends: the
	 * batches are refused until then.  Once one ran under the new mask
	 * on that thread, none is left. */
	while (!atomic_load(&handled_unmasked))
		usleep(1000);
	toggle_for(0.25, 0);
	finish(t, 2);
}

/* ---- late ---- */

/* A thread that blocks every signal for a while, again and again, and
 * calls the functions meanwhile: it may start blocking SIGTRAP after a
 * batch found it unblocked.  Each of its calls may block it with
 * pthread_sigmask or sigprocmask. */
static void *late_blocker(void *arg)
{
	sigset_t all, none;

	(void)arg;
	sigfillset(&all);
	sigemptyset(&none);
	for (unsigned long i = 0; !atomic_load(&stop); i++) {
		if (i & 1)
			pthread_sigmask(SIG_BLOCK, &all, NULL);
		else
			sigprocmask(SIG_BLOCK, &all, NULL);
		if (!call_some(50))
			atomic_fetch_add(&wrong, 1);
		pthread_sigmask(SIG_SETMASK, &none, NULL);
		if (!call_some(400))
			atomic_fetch_add(&wrong, 1);
	}
	return NULL;
}

/* x86: installs a handler whose mask has SIGTRAP while a batch has its
 * int3s in the code, runs it at once (it calls the functions), then puts
 * back one that does not block SIGTRAP. */
static _Atomic unsigned long installed_late;

static void *late_installer(void *arg)
{
	struct sigaction blocks = { .sa_handler = on_usr1, .sa_flags = SA_RESTART }, unblocked = blocks;

	(void)arg;
	sigfillset(&blocks.sa_mask);
	sigemptyset(&unblocked.sa_mask);
	while (batch_underway()) {
		sigaction(SIGUSR1, &blocks, NULL);
		raise(SIGUSR1);
		sigaction(SIGUSR1, &unblocked, NULL);
		atomic_fetch_add(&installed_late, 1);
	}
	return NULL;
}

/* x86: blocks SIGTRAP alone with System V's calls (glibc's call its own
 * sigprocmask) while a batch has its int3s in the code, calls the
 * functions, unblocks it. */
static _Atomic unsigned long held_late;

static void *late_holder(void *arg)
{
	(void)arg;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	while (batch_underway()) {
		if (atomic_fetch_add(&held_late, 1) & 1)
			sighold(SIGTRAP);
		else
			sigset(SIGTRAP, SIG_HOLD);
		if (!call_some(NFUNCS))
			atomic_fetch_add(&wrong, 1);
		sigrelse(SIGTRAP);
	}
#pragma GCC diagnostic pop
	return NULL;
}

/* x86: while a batch has its int3s in the code, waits with a temporary
 * mask of every signal but SIGUSR2, which is pending: its handler, which
 * calls the functions, runs inside the wait with that mask.  Each wait
 * of those libpfe interposes in turn. */
static _Atomic unsigned long waited_late;

static void on_usr2(int sig)
{
	(void)sig;
	if (!call_some(NFUNCS))
		atomic_fetch_add(&wrong, 1);
}

static void masked_wait(unsigned long i, const sigset_t *mask, int epfd)
{
	struct timespec second = { 1, 0 };
	struct epoll_event ev;

	switch (i % 5) {
	case 0:
		sigsuspend(mask);
		break;
	case 1:
		pselect(0, NULL, NULL, NULL, &second, mask);
		break;
	case 2:
		ppoll(NULL, 0, &second, mask);
		break;
	case 3:
		epoll_pwait(epfd, &ev, 1, 1000, mask);
		break;
	default:
		epoll_pwait2(epfd, &ev, 1, &second, mask);
	}
}

static void *late_waiter(void *arg)
{
	struct sigaction usr2 = { .sa_handler = on_usr2 };
	sigset_t pending, all_but;
	int epfd = epoll_create1(EPOLL_CLOEXEC);

	(void)arg;
	sigemptyset(&pending);
	sigaddset(&pending, SIGUSR2);
	sigfillset(&all_but);
	sigdelset(&all_but, SIGUSR2);
	sigemptyset(&usr2.sa_mask);
	sigaction(SIGUSR2, &usr2, NULL);
	pthread_sigmask(SIG_BLOCK, &pending, NULL);
	for (unsigned long i = 0; batch_underway(); i++) {
		pthread_kill(pthread_self(), SIGUSR2);
		masked_wait(i, &all_but, epfd);
		atomic_fetch_add(&waited_late, 1);
	}
	close(epfd);
	return NULL;
}

/* x86: while a batch has its int3s in the code, switches to a coroutine
 * whose mask blocks every signal; it calls the functions, then switches
 * back (swapcontext) or returns (to its uc_link: glibc's own setcontext),
 * in turn.  Back on this thread's context, SIGTRAP must be unblocked. */
static _Atomic unsigned long switched_late, trap_left_blocked;
static ucontext_t switcher_ctx, coroutine_ctx;

static void coroutine(int back)
{
	if (!call_some(NFUNCS))
		atomic_fetch_add(&wrong, 1);
	if (back)
		swapcontext(&coroutine_ctx, &switcher_ctx);
}

static void *late_switcher(void *arg)
{
	static char stack[256 * 1024];
	sigset_t now;

	(void)arg;
	/* volatile: getcontext returns twice, as setjmp. */
	for (volatile unsigned long i = 0; batch_underway(); i++) {
		getcontext(&coroutine_ctx);
		coroutine_ctx.uc_stack.ss_sp = stack;
		coroutine_ctx.uc_stack.ss_size = sizeof stack;
		coroutine_ctx.uc_link = &switcher_ctx;
		sigfillset(&coroutine_ctx.uc_sigmask);
		makecontext(&coroutine_ctx, (void (*)(void))coroutine, 1, (int)(i & 1));
		swapcontext(&switcher_ctx, &coroutine_ctx);
		pthread_sigmask(SIG_BLOCK, NULL, &now);
		if (sigismember(&now, SIGTRAP))
			atomic_fetch_add(&trap_left_blocked, 1);
		atomic_fetch_add(&switched_late, 1);
	}
	return NULL;
}

/* x86: saves a mask that blocks every signal (sigsetjmp), unblocks
 * them, then, while a batch has its int3s in the code, jumps back
 * (siglongjmp, longjmp, fortify's __longjmp_chk in turn), which puts the
 * mask back, and calls the functions so. */
static _Atomic unsigned long jumped_late;
extern void __longjmp_chk(struct __jmp_buf_tag *env, int val) __attribute__((noreturn));

static _Noreturn void masked_jump(unsigned long i, sigjmp_buf env)
{
	switch (i % 3) {
	case 0:
		siglongjmp(env, 1);
	case 1:
		longjmp(env, 1);
	default:
		__longjmp_chk(env, 1);
	}
}

static void *late_jumper(void *arg)
{
	sigset_t all, none;
	sigjmp_buf env;

	(void)arg;
	sigfillset(&all);
	sigemptyset(&none);
	for (volatile unsigned long i = 0;; i++) {
		pthread_sigmask(SIG_SETMASK, &all, NULL);
		if (sigsetjmp(env, 1) == 0) {
			pthread_sigmask(SIG_SETMASK, &none, NULL);
			if (!batch_underway())
				break;
			masked_jump(i, env);
		}
		if (!call_some(NFUNCS))
			atomic_fetch_add(&wrong, 1);
		pthread_sigmask(SIG_SETMASK, &none, NULL);
		atomic_fetch_add(&jumped_late, 1);
	}
	return NULL;
}

/* Whether each x86 thread of late has changed its mask during a batch. */
static bool late_all_met(void)
{
	return installed_late && held_late && waited_late && switched_late && jumped_late;
}

static void late(void)
{
	struct pfe_stats before, after;
	pthread_t t[7];
	double began = now();

	pfe_get_stats(&before);
	start(t, 2, late_blocker);
	start(&t[2], X86, late_installer);
	start(&t[2 + X86], X86, late_holder);
	start(&t[2 + 2 * X86], X86, late_waiter);
	start(&t[2 + 3 * X86], X86, late_switcher);
	start(&t[2 + 4 * X86], X86, late_jumper);
	toggle_for(0.5, X86 ? PFE_ESIGNAL : 0);
	/* Under load a thread may not have met a batch yet (most are
	 * refused while the others block SIGTRAP, and a thread descheduled
	 * for a batch's few ms misses it): on until each has, 40 s at most
	 * (the run's bound is 60). */
	for (double end = now() + 40; X86 && now() < end && !late_all_met();)
		toggle_for(0.05, PFE_ESIGNAL);
	finish(t, 2 + 5 * X86);
	pfe_get_stats(&after);
	/* The CHECKs below name the threads that met no batch. */
	if (X86 && !late_all_met())
		printf("after %.1f s and %llu batches not every thread met one\n", now() - began,
		       (unsigned long long)(after.batches - before.batches));
	CHECK(after.batches > before.batches, "every batch refused");
	CHECK(!X86 || installed_late > 0, "x86: no handler installed during a batch");
	CHECK(!X86 || held_late > 0, "x86: SIGTRAP never held during a batch");
	CHECK(!X86 || waited_late > 0, "x86: no masked wait during a batch");
	CHECK(!X86 || switched_late > 0, "x86: no switch to a masked coroutine during a batch");
	CHECK(!X86 || jumped_late > 0, "x86: no jump to a masked point during a batch");
	CHECK(trap_left_blocked == 0, "SIGTRAP left blocked %lu times after a masked coroutine", trap_left_blocked);
}

/* ---- segv ---- */

static _Atomic unsigned long segvs;

static void on_segv(int sig)
{
	(void)sig;
	atomic_fetch_add(&segvs, 1);
}

static void segv(void)
{
	struct sigaction sa = { .sa_handler = on_segv, .sa_flags = SA_NODEFER };
	pthread_t t[4];

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	start(t, 4, runner);
	toggle_for(1.0, 0);
	finish(t, 4);
	CHECK(segvs == 0, "the program's SIGSEGV handler saw %lu faults", segvs);
}

/* ---- mdwe, nodump ---- */

static void set_mdwe(void)
{
	if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0L, 0L, 0L) != 0) {
		printf("unsupported: prctl(PR_SET_MDWE): %s\n", strerror(errno));
		exit(0);
	}
}

/* Not dumpable, and not root: /proc/self/mem is root's. */
static void set_nodump(void)
{
	if (prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L) != 0 || (getuid() == 0 && setuid(65534) != 0)) {
		printf("unsupported: not dumpable, not root: %s\n", strerror(errno));
		exit(0);
	}
}

/* After RESTRICT ("works": enable and disable work, every handler runs;
 * else enable fails with PFE_EPROT): no byte is left changed. */
static void restricted(void (*restrict_it)(void), const char *expect)
{
	static unsigned char before[NFUNCS][16];
	bool works = strcmp(expect, "works") == 0;
	int err, changed = 0;

	for (int i = 0; i < NFUNCS; i++) {
		struct pfe_info info;

		pfe_func_info(fs[i], &info);
		memcpy(before[i], info.patch_at, 16);
	}
	restrict_it();
	err = toggle(true);
	CHECK(err == (works ? 0 : PFE_EPROT), "enable: %s", pfe_strerror(err));
	hits = 0;
	CHECK(call_some(NFUNCS), "wrong results");
	CHECK(hits == (works ? NFUNCS : 0), "%lu handler calls", hits);
	if (works)
		CHECK(toggle(false) == 0, "disable");
	for (int i = 0; i < NFUNCS; i++) {
		struct pfe_info info;

		pfe_func_info(fs[i], &info);
		changed += memcmp(before[i], info.patch_at, 16) != 0;
	}
	CHECK(changed == 0, "%d functions' bytes changed", changed);
}

static void nodump_mdwe(void)
{
	set_nodump();
	set_mdwe();
}

/* ---- sigtrap ---- */

static _Atomic int traps;
static _Atomic int trap_code;
/* Set while the program makes no SIGTRAP: one of libpfe's int3s that
 * reaches its handler is a failure (the process would go on in the
 * middle of an instruction). */
static _Atomic int only_libpfes;

static void libpfes_int3_stolen(void)
{
	static const char msg[] = "FAIL: one of libpfe's int3s reached the program's SIGTRAP handler\n";

	if (write(1, msg, sizeof msg - 1) < 0)
		_exit(2);
	_exit(1);
}

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	if (atomic_load(&only_libpfes) && si->si_code == SI_KERNEL)
		libpfes_int3_stolen();
	atomic_fetch_add(&traps, 1);
	trap_code = si->si_code;
}

/* The same, installed by signal's kin (no siginfo). */
static void on_trap_plain(int sig)
{
	(void)sig;
	if (atomic_load(&only_libpfes))
		libpfes_int3_stolen();
	atomic_fetch_add(&traps, 1);
}

static struct sigaction trap_action(int flags)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | flags };

	sigemptyset(&sa.sa_mask);
	return sa;
}

static void own_handler(int flags)
{
	struct sigaction sa = trap_action(flags);

	sigaction(SIGTRAP, &sa, NULL);
}

/* SIGTRAPs the program makes: each must reach on_trap once. */
static void foreign_traps(const char *when)
{
	volatile int after = 0;

	traps = 0;
	raise(SIGTRAP);
	CHECK(traps == 1 && trap_code == SI_TKILL, "%s: raise: %d calls, si_code %d", when, traps, trap_code);
	kill(getpid(), SIGTRAP);
	CHECK(traps == 2 && trap_code == SI_USER, "%s: kill: %d calls, si_code %d", when, traps, trap_code);
#if X86
	__asm__ volatile("int3");
	after = 1;
	CHECK(traps == 3 && trap_code == SI_KERNEL && after, "%s: int3: %d calls, si_code %d", when, traps, trap_code);
	/* int $3: the same trap, the byte before the pc not an int3. */
	after = 0;
	__asm__ volatile(".byte 0xcd, 0x03");	/* int $3 (gas would emit int3) */
	after = 1;
	CHECK(traps == 4 && trap_code == SI_KERNEL && after, "%s: int $3: %d calls, si_code %d", when, traps, trap_code);
#endif
	(void)after;
}

/* x86: replaces the program's SIGTRAP handler while batches have their
 * int3s in the code (sigaction; sysv_signal: neither blocks SIGTRAP, so
 * neither waits for the batch), then calls the functions. */
static _Atomic unsigned long replaced;

static void *replacer(void *arg)
{
	(void)arg;
	while (batch_underway()) {
		if (atomic_fetch_add(&replaced, 1) & 1)
			own_handler(SA_NODEFER);
		else
			sysv_signal(SIGTRAP, on_trap_plain);
		if (!call_some(NFUNCS))
			atomic_fetch_add(&wrong, 1);
	}
	return NULL;
}

/* glibc's own name of sigaction (libpfe does not see it). */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

static void sigtrap(void)
{
	struct sigaction sa = trap_action(SA_NODEFER), cur;
	pthread_t t[3];

	/* Without SA_NODEFER, SIGTRAP is blocked while the handler runs:
	 * x86 batches are refused, whether it was installed before pfe_init
	 * or after it.  The program sees its own action, never libpfe's. */
	own_handler(0);
	CHECK(pfe_init() == 0, "pfe_init");
	setup();
	CHECK(sigaction(SIGTRAP, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_trap,
	      "sigaction: SIGTRAP's action is not the program's");
	foreign_traps("handler before pfe_init");
	start(t, 2, runner);
	CHECK(!X86 || refused_saying("SIGTRAP's handler runs with SIGTRAP blocked"),
	      "x86: a batch not refused, saying why, while the handler before pfe_init blocks SIGTRAP");
	own_handler(0);
	CHECK(!X86 || toggle(true) == PFE_ESIGNAL, "x86: a batch not refused while the handler after pfe_init blocks SIGTRAP");
	atomic_store(&only_libpfes, 1);
	own_handler(SA_NODEFER);
	toggle_for(0.5, 0);
	/* Replaced during the batches: a trap delivered late (its thread
	 * descheduled between its int3 and the delivery) must still find
	 * libpfe's handler. */
	start(&t[2], X86, replacer);
	toggle_for(0.5, 0);
	finish(t, 2 + X86);
	CHECK(!X86 || replaced > 0, "x86: the handler never replaced during a batch");
	/* Set behind libpfe's back (glibc's own name): libpfe takes it over
	 * at its next batch. */
	__sigaction(SIGTRAP, &sa, NULL);
	start(t, 2, runner);
	toggle_for(0.5, 0);
	finish(t, 2);
	atomic_store(&only_libpfes, 0);
	foreign_traps("handler after pfe_init");
	/* signal's kin return the program's handler; sysv_signal's runs
	 * once, then the default action is SIGTRAP's. */
	CHECK(sysv_signal(SIGTRAP, on_trap_plain) == (sighandler_t)(void (*)(void))on_trap, "sysv_signal: not the program's handler");
	traps = 0;
	raise(SIGTRAP);
	CHECK(traps == 1 && sigaction(SIGTRAP, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL && !(cur.sa_flags & SA_SIGINFO),
	      "sysv_signal's handler: %d calls, then SIGTRAP's action not the default", traps);
	/* signal (libpfe's) keeps siginterrupt's choice, as glibc's does
	 * (old programs still call it). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	siginterrupt(SIGUSR2, 1);
#pragma GCC diagnostic pop
	signal(SIGUSR2, on_trap_plain);
	CHECK(sigaction(SIGUSR2, NULL, &cur) == 0 && !(cur.sa_flags & SA_RESTART),
	      "signal after siginterrupt(SIGUSR2, 1): system calls restarted");
	/* System V's calls set and show the program's action too. */
	own_handler(SA_NODEFER);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	CHECK(sigset(SIGTRAP, on_trap_plain) == (sighandler_t)(void (*)(void))on_trap &&
	      sigaction(SIGTRAP, NULL, &cur) == 0 && cur.sa_handler == on_trap_plain,
	      "sigset: not the program's handler, or not set");
	sigignore(SIGTRAP);
#pragma GCC diagnostic pop
	traps = 0;
	raise(SIGTRAP);
	CHECK(traps == 0 && sigaction(SIGTRAP, NULL, &cur) == 0 && cur.sa_handler == SIG_IGN,
	      "sigignore: SIGTRAP not ignored, or not shown so");
}

/* ---- fork ---- */

/* The child: patch one function, run it. */
static int child(void)
{
	int err;

	alarm(10);
	hits = 0;
	err = pfe_enable(fs[0]);
	call_some(1);
	if (err || hits != 1)
		return printf("FAIL: child: enable: %s, %lu calls\n", pfe_strerror(err), hits), 1;
	err = pfe_disable(fs[0]);
	call_some(1);
	if (err || hits != 1)
		return printf("FAIL: child: disable: %s, %lu calls\n", pfe_strerror(err), hits), 1;
	return 0;
}

/* Wait for PID at most 5 s; kill it after that. */
static bool reaped_in_time(pid_t pid)
{
	int status;

	for (int i = 0; i < 500; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) && WEXITSTATUS(status) == 0;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	printf("FAIL: a child hung\n");
	return false;
}

static _Atomic int children_failed;

static void *forker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10 && !children_failed; i++) {
		pid_t pid;

		usleep(20000);
		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(child());
		if (pid < 0 || !reaped_in_time(pid))
			atomic_fetch_add(&children_failed, 1);
	}
	atomic_store(&stop, 1);
	return NULL;
}

static void forking(void)
{
	pthread_t t;

	pthread_create(&t, NULL, forker, NULL);
	while (!atomic_load(&stop))
		toggle_for(0.01, 0);
	pthread_join(t, NULL);
	CHECK(children_failed == 0, "%d children failed", children_failed);
}

/* ---- flush ---- */

static void flush(void)
{
	struct pfe_stats a, b;

	for (int on = 1; on >= 0; on--) {
		pfe_get_stats(&a);
		CHECK(toggle(on) == 0, "toggle %d", on);
		pfe_get_stats(&b);
		printf("%s: %llu batches, %llu cache flushes\n", on ? "enable" : "disable",
		       (unsigned long long)(b.batches - a.batches),
		       (unsigned long long)(b.icache_flushes - a.icache_flushes));
#if defined(__riscv)
		/* A slot phase (none here: no ops slots) and the one of the
		 * instructions. */
		CHECK(b.icache_flushes - a.icache_flushes <= 2, "more than one flush a phase");
#endif
	}
}

/* ---- alone ---- */

/* A hundred functions a signal, the next hundred the next time: all of
 * them would take longer than the timer's period where each meets an
 * int3 mid-batch (a SIGTRAP each). */
static void on_timer(int sig)
{
	static unsigned next;

	(void)sig;
	if (!call_from(next++ % (NFUNCS / 100) * 100, 100))
		atomic_fetch_add(&wrong, 1);
	atomic_fetch_add(&handled, 1);
}

/* Barriers a batch: three where x86's int3 protocol is kept (the
 * mprotect writer), one alone; 0: not known (/proc/self/stat gives no
 * thread count, as under qemu-user 7: the protocol for threads). */
static unsigned barriers_alone(void)
{
	const char *debug = getenv("PFE_DEBUG");

	if (rt_threads_in_stat() != 1)
		return 0;
	return X86 && debug && strstr(debug, "mprotect") ? 3 : 1;
}

static void alone(void)
{
	struct sigaction sa = { .sa_handler = on_timer, .sa_flags = SA_RESTART };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	struct itimerspec every = { { 0, 1000000 }, { 0, 1000000 } }, off = { { 0, 0 }, { 0, 0 } };
	unsigned want = barriers_alone();
	struct pfe_stats a, b;
	timer_t timer;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0 || timer_settime(timer, 0, &every, NULL) != 0) {
		printf("FAIL: timer_create: %s\n", strerror(errno));
		exit(1);
	}
	pfe_get_stats(&a);
	toggle_for(1.0, 0);
	pfe_get_stats(&b);
	timer_settime(timer, 0, &off, NULL);
	timer_delete(timer);
	CHECK(handled > 0 && atomic_load(&wrong) == 0, "%lu signals handled, %lu wrong results", (unsigned long)handled,
	      (unsigned long)atomic_load(&wrong));
	printf("%llu batches, %llu barriers, %lu signals handled\n", (unsigned long long)(b.batches - a.batches),
	       (unsigned long long)(b.barriers - a.barriers), (unsigned long)handled);
	CHECK(!want || b.barriers - a.barriers == want * (b.batches - a.batches),
	      "%llu barriers in %llu batches, want %u a batch", (unsigned long long)(b.barriers - a.barriers),
	      (unsigned long long)(b.batches - a.batches), want);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	alarm(60);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(mode, "sigtrap") == 0) {
		sigtrap();
		goto done;
	}
	setup();
	if (strcmp(mode, "sigblock") == 0)
		blocked_thread();
	else if (strcmp(mode, "handler") == 0)
		handler();
	else if (strcmp(mode, "masked") == 0)
		masked();
	else if (strcmp(mode, "late") == 0)
		late();
	else if (strcmp(mode, "segv") == 0)
		segv();
	else if (strcmp(mode, "mdwe") == 0)
		restricted(set_mdwe, argc > 2 ? argv[2] : "works");
	else if (strcmp(mode, "nodump") == 0)
		restricted(argc > 2 && strcmp(argv[2], "eprot") == 0 ? nodump_mdwe : set_nodump,
			   argc > 2 ? argv[2] : "works");
	else if (strcmp(mode, "fork") == 0)
		forking();
	else if (strcmp(mode, "flush") == 0)
		flush();
	else if (strcmp(mode, "alone") == 0)
		alone();
	else
		CHECK(0, "unknown mode '%s'", mode);
done:
	if (failures)
		return 1;
	printf("ok %s\n", mode);
	return 0;
}
