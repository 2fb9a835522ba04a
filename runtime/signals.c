/* signals.c: the process's signals as the x86 int3 protocol needs them,
 * and as the program must keep seeing them.
 *
 *   SIGTRAP   once libpfe's handler (patch.c's on_trap) is installed it
 *             stays the kernel's: sigaction and signal, interposed, set
 *             and show the program's action instead (program_trap), which
 *             on_trap chains to for every SIGTRAP that is not one of its
 *             int3s.  A trap of a batch delivered late (its thread
 *             descheduled between the int3 and the delivery) finds
 *             on_trap however the program changed SIGTRAP meanwhile.
 *   blocking  the kernel kills a thread that meets an int3 with SIGTRAP
 *             blocked.  A batch is refused (PFE_ESIGNAL) while a thread
 *             blocks it or a handler's mask would (checked in
 *             pfe__traps_begin); a change that would start blocking it
 *             (pthread_sigmask, sigprocmask, sigaction, signal, System
 *             V's sighold and sigset, all interposed) waits until the
 *             batch under way is done; so does a wait whose temporary
 *             mask blocks it (sigsuspend, pselect, ppoll, epoll_pwait,
 *             epoll_pwait2, interposed: its handlers run with that
 *             mask), and batches are refused while it waits; a switch
 *             to a context whose mask blocks it (swapcontext,
 *             setcontext, unwind.c's wrappers) blocks it first as
 *             pthread_sigmask would, and the context swapcontext saved
 *             with it blocked unblocks it again when resumed; so does a
 *             jump that puts back such a mask (siglongjmp, longjmp).
 *   chaining  pfe__chain_signal: what the process would have done without
 *             libpfe (also libpfe-trace's fatal signals).
 *
 * The wrappers only add to what the C library does: an action set through
 * them is the kernel's, except SIGTRAP's while on_trap is installed.
 * Not seen: actions and masks changed by raw system calls, by the C
 * library's own calls (__sigaction, sigpause, the setcontext of a
 * uc_link...),
 * and with libpfe.a, by shared libraries; a SIGTRAP action set so is taken
 * over at the next batch (pfe__own_sigtrap).
 *
 * Debugging: PFE_DEBUG=signals says why a batch is refused (the thread
 * blocking SIGTRAP, by id and name, or the signal whose handler would);
 * PFE_DEBUG=stall=MS keeps a batch's int3s in the code for MS ms a phase
 * (rt-hazards.c's masked, late and sigtrap modes change the program's
 * signals then); pfe_get_stats' trap_hits counts on_trap's
 * steps over a site.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <unistd.h>

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);
typedef void (*sighandler_fn)(int);
typedef int (*sigsuspend_fn)(const sigset_t *);
typedef int (*pselect_fn)(int, fd_set *, fd_set *, fd_set *, const struct timespec *, const sigset_t *);
typedef int (*ppoll_fn)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
typedef int (*epoll_pwait_fn)(int, struct epoll_event *, int, int, const sigset_t *);
typedef int (*epoll_pwait2_fn)(int, struct epoll_event *, int, const struct timespec *, const sigset_t *);

/* The C library's sigaction: the kernel's actions, not the program's. */
static int kernel_action(int sig, const struct sigaction *act, struct sigaction *old)
{
	PFE_REAL(sigaction_fn, sigaction, "libc.so.6");

	return next(sig, act, old);
}

void pfe__chain_signal(const struct sigaction *old, int sig, siginfo_t *si, void *uc)
{
	sigset_t mask = old->sa_mask, saved;

	if (pfe__ignored_action(old))
		return;
	if (pfe__default_action(old)) {
		kernel_action(sig, old, NULL);
		raise(sig);
		return;
	}
	if (!(old->sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	pthread_sigmask(SIG_BLOCK, &mask, &saved);
	if (old->sa_flags & SA_SIGINFO)
		old->sa_sigaction(sig, si, uc);
	else
		old->sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

/* ---- SIGTRAP's action: the kernel's is libpfe's, the program's is kept here ---- */

/* libpfe's SIGTRAP handler, once installed. */
static void (*_Atomic trap_handler)(int, siginfo_t *, void *);

/* The program's SIGTRAP action while trap_handler is the kernel's (NULL
 * before): the one it chains to, the one sigaction shows.  Any thread
 * may set it at any time, from a handler too, so no lock: a new action
 * is copied into the next of TRAP_ACTIONS slots, then published; a
 * reader's copy of the slot it loaded stays whole unless TRAP_ACTIONS
 * more are set while it copies. */
#define TRAP_ACTIONS 16
static struct sigaction trap_actions[TRAP_ACTIONS];
static _Atomic unsigned trap_actions_used;
static struct sigaction *_Atomic program_trap;
/* The default action (all zero: SIG_DFL, no flags, an empty mask). */
static struct sigaction trap_default;

static bool is_trap_handler(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == atomic_load(&trap_handler);
}

/* Makes ACT (if not NULL) the program's SIGTRAP action; OLD (if not
 * NULL) gets the one before. */
static void swap_program_trap(const struct sigaction *act, struct sigaction *old)
{
	struct sigaction *before = atomic_load(&program_trap);

	if (act) {
		struct sigaction *slot = &trap_actions[atomic_fetch_add(&trap_actions_used, 1) % TRAP_ACTIONS];

		*slot = *act;
		before = atomic_exchange(&program_trap, slot);
	}
	if (old)
		*old = before ? *before : trap_default;
}

/* What the program's SIGTRAP action does with a SIGTRAP that is not
 * libpfe's.  SA_RESETHAND's (sysv_signal's) handler runs once and leaves
 * the default in its place, as the kernel would do. */
void pfe__chain_trap(siginfo_t *si, void *uc)
{
	struct sigaction sa, *p;

	do {
		p = atomic_load(&program_trap);
		sa = p ? *p : trap_default;
	} while ((sa.sa_flags & SA_RESETHAND) && !pfe__default_action(&sa) && !pfe__ignored_action(&sa) &&
		 !atomic_compare_exchange_weak(&program_trap, &p, &trap_default));
	pfe__chain_signal(&sa, SIGTRAP, si, uc);
}

int pfe__own_sigtrap(void (*handler)(int, siginfo_t *, void *))
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER }, cur;

	if (kernel_action(SIGTRAP, NULL, &cur) != 0)
		return PFE_EINVAL;
	if (is_trap_handler(&cur))
		return 0;
	/* The program's first: HANDLER may run as soon as it is installed.
	 * (An action set behind sigaction's back between the two calls is
	 * lost.) */
	atomic_store(&trap_handler, handler);
	swap_program_trap(&cur, NULL);
	sigemptyset(&sa.sa_mask);
	if (kernel_action(SIGTRAP, &sa, NULL) == 0)
		return 0;
	atomic_store(&program_trap, NULL);
	return PFE_EINVAL;
}

/* ---- who blocks SIGTRAP ---- */

/* The value of hex digit C. */
static unsigned hex_digit(char c)
{
	return c >= 'a' ? (unsigned)(c - 'a') + 10 : (unsigned)(c - '0');
}

/* Whether the signal mask in LINE ("SigBlk:\t<hex>", to its newline)
 * has SIG. */
static bool mask_has(const char *line, int sig)
{
	size_t end = strcspn(line, "\n");
	unsigned bit = sig - 1;

	while (end > 0 && !((line[end - 1] >= '0' && line[end - 1] <= '9') ||
			    (line[end - 1] >= 'a' && line[end - 1] <= 'f')))
		end--;
	if (end < 8 + bit / 4)
		return false;
	return hex_digit(line[end - 1 - bit / 4]) >> (bit % 4) & 1;
}

/* The first of the C library's own signals (glibc's and musl's
 * SIGCANCEL): a mask set by the program never has it (sigfillset and
 * pthread_sigmask leave it out); one the C library sets for a moment has
 * it (pthread_create, until the new thread first runs; pthread_kill,
 * raise, fork...: code that runs no patched function meanwhile). */
#define LIBC_SIGNAL 32

/* Whether thread TID (a name in TASKS, /proc/self/task) keeps SIGTRAP
 * blocked: its mask, set by the program, has it; NAME (SIZE bytes) gets
 * its name.  Its status file in one read, no stdio: this runs for every
 * thread at every x86 batch (some 10 us a thread, most of it the
 * kernel's; fopen and fgets doubled it). */
static bool blocks_sigtrap(int tasks, const char *tid, char *name, size_t size)
{
	char path[300], buf[4096], *line;
	ssize_t got = 0, r;
	int fd;

	snprintf(path, sizeof path, "%s/status", tid);
	if ((fd = openat(tasks, path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	while (got < (ssize_t)sizeof buf - 1 && (r = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
		got += r;
	close(fd);
	buf[got] = 0;
	line = strstr(buf, "\nSigBlk:");
	if (!line || !mask_has(line + 1, SIGTRAP) || mask_has(line + 1, LIBC_SIGNAL))
		return false;
	/* Its first line is "Name:\t<name>". */
	snprintf(name, size, "%.*s", (int)strcspn(buf + 6, "\n"), got > 6 ? buf + 6 : "");
	return true;
}

/* The thread of the process that keeps SIGTRAP blocked (an int3 would
 * kill it: the kernel forces a blocked trap signal to its default
 * action): its id, its name in NAME (SIZE bytes); else 0 (also when
 * unknown: no /proc). */
static long a_thread_blocking_sigtrap(char *name, size_t size)
{
	DIR *d = opendir("/proc/self/task");
	long found = 0;
	struct dirent *t;

	while (d && !found && (t = readdir(d)))
		if (t->d_name[0] != '.' && blocks_sigtrap(dirfd(d), t->d_name, name, size))
			found = pfe__decimal(t->d_name);
	if (d)
		closedir(d);
	return found;
}

/* Whether SA, SIG's action, runs a handler with SIGTRAP blocked: its
 * sa_mask has it (sigfillset, as servers install theirs), or it is
 * SIGTRAP's own without SA_NODEFER.  Such a handler may interrupt any
 * thread and call a function of a batch at its int3 at any time. */
static bool handler_blocks_sigtrap(int sig, const struct sigaction *sa)
{
	if (pfe__default_action(sa) || pfe__ignored_action(sa))
		return false;
	return sigismember(&sa->sa_mask, SIGTRAP) == 1 || (sig == SIGTRAP && !(sa->sa_flags & SA_NODEFER));
}

/* The signal whose handler installed now blocks SIGTRAP (for SIGTRAP,
 * the program's action, which libpfe's handler chains to), else 0.
 * Signals the C library keeps for itself (sigaction refuses them) are
 * skipped. */
static int a_handler_blocking_sigtrap(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (kernel_action(sig, NULL, &sa) != 0)
			continue;
		if (is_trap_handler(&sa))
			swap_program_trap(NULL, &sa);
		if (handler_blocks_sigtrap(sig, &sa))
			return sig;
	}
	return 0;
}

/* ---- changes that start blocking SIGTRAP wait for the batch ---- */

/* A change that would make a thread or a handler block SIGTRAP while a
 * batch's int3s may be in the code would get it killed at one: it waits
 * until the batch is done.  Dekker's handshake, in sequentially
 * consistent order: the change counts itself in `blocking`, then looks at
 * `trap_batch`; the batch sets `trap_batch`, then waits for `blocking` to
 * drain before it reads the threads' masks and the handlers.  Either the
 * change sees the batch (it uncounts itself and waits), or the batch sees
 * the change (and then its result).  The batch's own thread never waits
 * (a handler of its own, or on_trap's chaining, would wait for itself). */
static _Atomic bool trap_batch;
static _Atomic int blocking;
static _Atomic pthread_t trap_patcher;

/* A wait whose temporary mask blocks SIGTRAP (sigsuspend, pselect,
 * ppoll, epoll_pwait, epoll_pwait2): its signal handlers run with that
 * mask.  Counted in `waits` from before the batch under way is done until
 * the wait returns: a batch is refused while one is (the thread's mask,
 * read from /proc, would say so only once the kernel has set it). */
static _Atomic int waits;

/* A change that blocks SIGTRAP (counted in COUNT: blocking or waits)
 * begins: after the batch under way, and counted until blocking_end. */
static void blocking_begin(_Atomic int *count)
{
	for (;;) {
		atomic_fetch_add(count, 1);
		if (!atomic_load(&trap_batch) || pthread_equal(atomic_load(&trap_patcher), pthread_self()))
			return;
		atomic_fetch_sub(count, 1);
		/* Asleep, not yielding: a thread of a higher real-time
		 * priority would keep the batch's off its core. */
		while (atomic_load(&trap_batch))
			pfe__sleep_ms(1);
	}
}

static void blocking_end(_Atomic int *count)
{
	atomic_fetch_sub(count, 1);
}

/* FN(HOW, SET, OLD), the real pthread_sigmask or sigprocmask, after the
 * batch under way if it blocks SIGTRAP. */
static int change_mask(sigmask_fn fn, int how, const sigset_t *set, sigset_t *old)
{
	bool blocks = set && how != SIG_UNBLOCK && sigismember(set, SIGTRAP) == 1;
	int ret;

	if (blocks)
		blocking_begin(&blocking);
	ret = fn(how, set, old);
	if (blocks)
		blocking_end(&blocking);
	return ret;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	PFE_REAL(sigmask_fn, pthread_sigmask, "libc.so.6");

	return change_mask(next, how, set, old);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	PFE_REAL(sigmask_fn, sigprocmask, "libc.so.6");

	return change_mask(next, how, set, old);
}

/* SIG, alone, blocked or unblocked (HOW) through sigprocmask above; the
 * mask before in OLD if not NULL.  EINVAL for a signal that is not one. */
static int one_signal_mask(int how, int sig, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	if (sigaddset(&set, sig) != 0)
		return -1;
	return sigprocmask(how, &set, old);
}

/* The C library's swapcontext and setcontext install the mask TO of the
 * context they switch to, unseen.  One that blocks SIGTRAP where this
 * thread does not is a change that starts blocking it: made first,
 * through change_mask (after the batch under way; the thread's mask then
 * shows it to the next batch until the switch back).  swapcontext then
 * saves the mask with SIGTRAP blocked; pfe__context_resumed unblocks it
 * when that context runs again (whoever resumed it: a setcontext of
 * uc_link too). */
bool pfe__context_blocks(const sigset_t *to)
{
	sigset_t now;

	if (sigismember(to, SIGTRAP) != 1 || pthread_sigmask(SIG_BLOCK, NULL, &now) != 0 ||
	    sigismember(&now, SIGTRAP) == 1)
		return false;
	return one_signal_mask(SIG_BLOCK, SIGTRAP, NULL) == 0;
}

void pfe__context_resumed(bool blocked)
{
	if (blocked)
		one_signal_mask(SIG_UNBLOCK, SIGTRAP, NULL);
}

/* Whether a wait with the temporary MASK blocks SIGTRAP: then it began
 * as a change that does (blocking_begin(&waits)); wait_end after it. */
static bool wait_begin(const sigset_t *mask)
{
	bool blocks = mask && sigismember(mask, SIGTRAP) == 1;

	if (blocks)
		blocking_begin(&waits);
	return blocks;
}

/* RET, the wait's result, once it ended (BLOCKS: wait_begin's).  The
 * wrappers sequence the two: a function's arguments are evaluated in no
 * set order. */
static int wait_end(bool blocks, int ret)
{
	if (blocks)
		blocking_end(&waits);
	return ret;
}

int sigsuspend(const sigset_t *mask)
{
	PFE_REAL(sigsuspend_fn, sigsuspend, "libc.so.6");

	bool blocks = wait_begin(mask);

	return wait_end(blocks, next(mask));
}

int pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *timeout, const sigset_t *mask)
{
	PFE_REAL(pselect_fn, pselect, "libc.so.6");

	bool blocks = wait_begin(mask);

	return wait_end(blocks, next(n, r, w, e, timeout, mask));
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask)
{
	PFE_REAL(ppoll_fn, ppoll, "libc.so.6");

	bool blocks = wait_begin(mask);

	return wait_end(blocks, next(fds, n, timeout, mask));
}

int epoll_pwait(int fd, struct epoll_event *events, int max, int timeout, const sigset_t *mask)
{
	PFE_REAL(epoll_pwait_fn, epoll_pwait, "libc.so.6");

	bool blocks = wait_begin(mask);

	return wait_end(blocks, next(fd, events, max, timeout, mask));
}

int epoll_pwait2(int fd, struct epoll_event *events, int max, const struct timespec *timeout, const sigset_t *mask)
{
	PFE_REAL(epoll_pwait2_fn, epoll_pwait2, "libc.so.6");
	bool blocks = wait_begin(mask);

	return wait_end(blocks, next(fd, events, max, timeout, mask));
}

/* sigaction: SIGTRAP's action is the program's once libpfe's handler is
 * installed; an action whose handler blocks SIGTRAP waits for the batch
 * under way.  libpfe-trace hides its own handlers in OLD. */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	bool blocks = act && handler_blocks_sigtrap(sig, act);
	int ret = 0;

	if (blocks)
		blocking_begin(&blocking);
	if (sig == SIGTRAP && atomic_load(&program_trap))
		swap_program_trap(act, old);
	else
		ret = kernel_action(sig, act, old);
	if (blocks)
		blocking_end(&blocking);
	if (ret == 0 && old && pfe__trace_hide_action)
		pfe__trace_hide_action(sig, old);
	return ret;
}

/* Signals siginterrupt made interrupt system calls (bit SIG - 1): glibc
 * keeps this for its own signal, which the one below replaces. */
static _Atomic uint64_t interrupting;

/* signal and its kin: the action glibc's would set, through sigaction
 * above (glibc's call its own, which the program's SIGTRAP action and
 * the wait for a batch would miss).  FLAGS: BSD's (the signal blocked
 * while its handler runs, system calls restarted unless siginterrupt
 * said otherwise) or System V's (reset to the default when delivered,
 * not blocked). */
static sighandler_fn set_handler(int sig, sighandler_fn handler, int flags)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = flags }, old;

	if (handler == SIG_ERR || sig < 1 || sig >= NSIG) {
		errno = EINVAL;
		return SIG_ERR;
	}
	sigemptyset(&sa.sa_mask);
	if (!(flags & SA_NODEFER))
		sigaddset(&sa.sa_mask, sig);
	if ((flags & SA_RESTART) && (atomic_load(&interrupting) >> (sig - 1) & 1))
		sa.sa_flags &= ~SA_RESTART;
	return sigaction(sig, &sa, &old) == 0 ? old.sa_handler : SIG_ERR;
}

sighandler_fn signal(int sig, sighandler_fn handler)
{
	return set_handler(sig, handler, SA_RESTART);
}

/* glibc's other names of signal (an alias would need the attributes of
 * glibc's declarations, which differ between GCCs). */
sighandler_fn bsd_signal(int sig, sighandler_fn handler)
{
	return signal(sig, handler);
}

sighandler_fn ssignal(int sig, sighandler_fn handler)
{
	return signal(sig, handler);
}

sighandler_fn sysv_signal(int sig, sighandler_fn handler)
{
	return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER);
}

int siginterrupt(int sig, int flag)
{
	struct sigaction sa;
	uint64_t bit;

	if (sig < 1 || sig >= NSIG || sigaction(sig, NULL, &sa) != 0) {
		errno = EINVAL;
		return -1;
	}
	bit = (uint64_t)1 << (sig - 1);
	if (flag) {
		atomic_fetch_or(&interrupting, bit);
		sa.sa_flags &= ~SA_RESTART;
	} else {
		atomic_fetch_and(&interrupting, ~bit);
		sa.sa_flags |= SA_RESTART;
	}
	return sigaction(sig, &sa, NULL);
}

/* System V's calls (obsolete, still in old programs), as glibc's, through
 * the ones above: glibc's call its own sigaction and sigprocmask.  Not
 * sigrelse: it only unblocks, which needs no wait. */
int sighold(int sig)
{
	return one_signal_mask(SIG_BLOCK, sig, NULL);
}

int sigignore(int sig)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

/* DISP SIG_HOLD: SIG blocked; else DISP its handler (System V's: the
 * signal blocked while it runs) and SIG unblocked.  SIG_HOLD when it was
 * blocked before, else its handler before. */
sighandler_fn sigset(int sig, sighandler_fn disp)
{
	struct sigaction sa = { .sa_handler = disp }, old;
	sigset_t was;

	sigemptyset(&sa.sa_mask);
	if (disp == SIG_HOLD) {
		if (one_signal_mask(SIG_BLOCK, sig, &was) != 0 || sigaction(sig, NULL, &old) != 0)
			return SIG_ERR;
	} else if (sigaction(sig, &sa, &old) != 0 || one_signal_mask(SIG_UNBLOCK, sig, &was) != 0) {
		return SIG_ERR;
	}
	return sigismember(&was, sig) == 1 ? SIG_HOLD : old.sa_handler;
}

/* ---- a batch's int3s ---- */

/* PFE_DEBUG=signals: why a batch is refused (the format FMT), on
 * stderr.  PFE_ESIGNAL. */
static int refused(const char *fmt, ...)
{
	va_list ap;

	if (!pfe__debug("signals", NULL))
		return PFE_ESIGNAL;
	fputs("libpfe: batch refused (PFE_ESIGNAL): ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return PFE_ESIGNAL;
}

int pfe__traps_begin(void)
{
	char name[64];
	long tid;
	int sig;

	atomic_store(&trap_patcher, pthread_self());
	atomic_store(&trap_batch, true);
	for (int ms = 0; atomic_load(&blocking) > 0; ms++) {
		/* A change that never ends (its thread stopped inside it by
		 * a handler that waits for libpfe). */
		if (ms == 1000)
			return refused("a change of a signal mask or action that blocks SIGTRAP did not end in 1 s");
		pfe__sleep_ms(1);
	}
	if (atomic_load(&waits) > 0)
		return refused("a thread waits with SIGTRAP in its temporary mask (sigsuspend, pselect, ppoll, epoll_pwait)");
	if ((tid = a_thread_blocking_sigtrap(name, sizeof name)) != 0)
		return refused("thread %ld (%s) blocks SIGTRAP", tid, name);
	if ((sig = a_handler_blocking_sigtrap()) == SIGTRAP)
		return refused("SIGTRAP's handler runs with SIGTRAP blocked (no SA_NODEFER, or SIGTRAP in its sa_mask)");
	if (sig)
		return refused("the handler of signal %d (%s) has SIGTRAP in its sa_mask", sig, strsignal(sig));
	return 0;
}

void pfe__traps_end(void)
{
	atomic_store(&trap_batch, false);
}

/* The real functions looked up now, from a constructor: dlsym is not
 * async-signal-safe, and their first call could be in a handler. */
void pfe__traps_init(void)
{
	pthread_sigmask(SIG_BLOCK, NULL, NULL);
	sigprocmask(SIG_BLOCK, NULL, NULL);
	kernel_action(SIGTRAP, NULL, NULL);
}

void pfe__traps_forked(void)
{
	/* The threads counted in blocking and waits are the parent's (this
	 * one's own change or wait, if fork came from a handler inside it,
	 * uncounts itself below 0 when it resumes). */
	atomic_store(&blocking, 0);
	atomic_store(&waits, 0);
}
