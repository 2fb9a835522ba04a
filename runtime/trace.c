/* trace.c: libpfe-trace.so, the LD_PRELOAD library of pfe-trace
 * (scripts/pfe-trace): at load it attaches an entry and an exit handler to
 * every patchable function of the program and its shared objects and
 * enables them all; at exit it prints, per function called, the number of
 * calls and the total time spent in it (wall clock, callees included;
 * a recursive function's outermost calls only, as pfe-trace report),
 * most time first, to stderr or appended to the file PFE_TRACE_OUTPUT
 * names (a fork's child: its calls since the fork, said so); and so
 * when a signal ends it (Ctrl-C, kill, a crash), or _exit, or an exec
 * (each image its table).
 *
 * A process with no patchable function says so instead, if it is the one
 * pfe-trace ran (PFE_TRACE_PID, the script's pid); those it starts say
 * nothing.  A call still running at exit (main, when the program calls
 * exit) is counted but adds no time.  dlopen is interposed: after the
 * real one returns, pfe_rescan finds the new object and its functions
 * are traced too (those whose preparation would rewrite code are not,
 * when the object's constructors started threads: pfe.h).  A function
 * of an object closed since is still printed (libpfe keeps its name).
 * The limit of the interposition: the loader sees this library as
 * dlopen's caller, so a bare name is searched with this library's
 * RUNPATH (none), not the calling object's (the program's DT_RUNPATH,
 * $ORIGIN).
 * With PFE_TRACE_RECORD set (`pfe-trace record`), the same functions get
 * trace-record.c's handlers instead, which record every call; this file
 * still finds them, follows dlopen and fork (and clone() without
 * CLONE_VM, a fork no atfork handler sees: interposed), catches the
 * signals that end the process, and stops them at exit.
 * Debugging: PFE_DEBUG=list shows what libpfe found; "pfe-trace: N
 * functions" on stderr at load (and after each dlopen) says how many are
 * traced; PFE_DEBUG=table-stall=MS sleeps MS ms after each write of the
 * flat table (the suite's way of making processes' tables overlap).
 */
#define _GNU_SOURCE
#include "trace.h"

#include <dlfcn.h>
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The counters of the functions traced so far: a block per scan (at
 * load, then after each dlopen), never freed (handlers point into them). */
struct block {
	struct block *next;
	size_t n;
	struct trace_func counters[];
};

static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct block *_Atomic blocks;
static _Atomic size_t ncounters;
static size_t ntraced;			/* of them attached and enabled */
static enum record_mode mode;

uint64_t trace_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool trace_size_allows(uint64_t size, uint64_t len)
{
	struct rlimit l;

	return getrlimit(RLIMIT_FSIZE, &l) != 0 || l.rlim_cur == RLIM_INFINITY || size + len <= l.rlim_cur;
}

static void on_entry(struct pfe_call *c)
{
	struct trace_func *k = c->data;

	atomic_fetch_add_explicit(&k->calls, 1, memory_order_relaxed);
	/* A recursive call's time is in its outermost call's already:
	 * counted again, a recursion D deep would count it D times. */
	c->cookie = pfe__exit_pending_for(c->fn) ? 0 : trace_now_ns();
}

static void on_exit_call(struct pfe_call *c)
{
	struct trace_func *k = c->data;

	if (c->cookie)
		atomic_fetch_add_explicit(&k->ns, trace_now_ns() - c->cookie, memory_order_relaxed);
}

/* ---- the flat table ----
 * Written at exit, and from the handler of a signal that ends the process
 * (Ctrl-C, kill, a crash): so with nothing a signal handler may not call
 * (no stdio, no malloc, no lock: the signal may have stopped a thread
 * holding one).  The counters are read as they are at one moment, a row
 * at a time; the blocks are published whole (trace_new_functions). */

/* A function's row: what it had when the table was taken. */
struct row {
	uint64_t ns, calls;
	const struct trace_func *k;
};

/* Whether A comes before B: more time first, then by address (a heap
 * sort keeps no order of its own). */
static bool row_before(const struct row *a, const struct row *b)
{
	return a->ns != b->ns ? a->ns > b->ns : a->k < b->k;
}

static void sift_down(struct row *r, size_t i, size_t n)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		struct row t;

		if (c + 1 < n && row_before(&r[c], &r[c + 1]))
			c++;
		if (!row_before(&r[i], &r[c]))
			return;
		t = r[i], r[i] = r[c], r[c] = t;
	}
}

/* Heap sort: in place, no recursion. */
static void sort_rows(struct row *r, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(r, i, n);
	for (size_t m = n; m-- > 1;) {
		struct row t = r[0];

		r[0] = r[m], r[m] = t;
		sift_down(r, 0, m);
	}
}

static long table_stall_ms;	/* PFE_DEBUG=table-stall=MS (above) */

/* Output through a buffer of our own, written with write(2). */
struct out {
	int fd;
	bool full;		/* its file at its size limit: nothing more written */
	size_t len;
	char buf[4096];
};

/* Whether FD is a file its size limit would not let grow by LEN
 * (trace_size_allows; tables of several processes may be appended to one
 * file: its size is asked each time). */
static bool at_size_limit(int fd, size_t len)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && !trace_size_allows((uint64_t)st.st_size, len);
}

/* Written unless the output is at its size limit: then the rest is
 * dropped, and said on stderr (unless that is the one at its limit). */
static void out_flush(struct out *o)
{
	static const char note[] = "pfe-trace: the table's file is at its size limit (ulimit -f): the rest is not written\n";

	if (!o->full && at_size_limit(o->fd, o->len)) {
		if (o->fd != 2 && !at_size_limit(2, sizeof note - 1))
			(void)!write(2, note, sizeof note - 1);
		o->full = true;
	}
	for (size_t done = 0; !o->full && done < o->len;) {
		ssize_t w = write(o->fd, o->buf + done, o->len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (table_stall_ms)
		pfe__sleep_ms(table_stall_ms);
	o->len = 0;
}

static void out_put(struct out *o, const char *s, size_t len)
{
	while (len) {
		size_t n = len < sizeof o->buf - o->len ? len : sizeof o->buf - o->len;

		memcpy(o->buf + o->len, s, n);
		o->len += n, s += n, len -= n;
		if (o->len == sizeof o->buf)
			out_flush(o);
	}
}

static void out_str(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

/* V in decimal, right-aligned in WIDTH, with FRAC digits after a point
 * (V counted in units of 10^-FRAC). */
static void out_number(struct out *o, uint64_t v, unsigned width, unsigned frac)
{
	char s[32];
	size_t i = sizeof s;

	do {
		s[--i] = (char)('0' + v % 10);
		v /= 10;
		if (frac && --frac == 0)
			s[--i] = '.';
	} while (v || frac || s[i] == '.');
	while (sizeof s - i < width)
		s[--i] = ' ';
	out_put(o, s + i, sizeof s - i);
}

/* Where the table goes: appended to PFE_TRACE_OUTPUT (read at start: the
 * program may change its environment; every process of a program that
 * forks or execs adds its own), else stderr. */
static const char *output_path;
/* The table's process, and the one it was forked from (0: none). */
static pid_t table_pid, forked_from;
/* The process pfe-trace ran: PFE_TRACE_PID, the script's pid, which its
 * exec kept (0: not run by it); a child it starts has a pid of its own. */
static pid_t command_pid;

/* O, empty, writing to the table's file (PFE_TRACE_OUTPUT, else
 * stderr; stderr, said so, when it cannot be opened). */
static void open_output(struct out *o)
{
	int fd = output_path ? open(output_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666) : 2;

	*o = (struct out){ .fd = fd >= 0 ? fd : 2 };
	if (fd >= 0)
		return;
	out_str(o, "pfe-trace: trace_report: cannot write ");
	out_str(o, output_path);
	out_str(o, "\n");
	out_flush(o);
	*o = (struct out){ .fd = 2 };
}

/* The processes of a program (a fork's children exiting at once) write
 * their tables to one file one at a time: each holds a lock on the file
 * while it writes (an open file description's: released when the file
 * is closed or its process dies), so that no table is cut by another's
 * writes (O_APPEND keeps a write whole, a table is several) and its size
 * checks (at_size_limit) and writes are one.  Waited for up to a second,
 * then written anyway: a process stopped while holding it must not stop
 * the others.  Not where there is no such lock (a pipe, a kernel before
 * 3.15). */
static void lock_output(int fd)
{
	struct flock whole = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int saved = errno;

	for (int i = 0; i < 1000 && fcntl(fd, F_OFD_SETLK, &whole) != 0; i++) {
		if (errno != EAGAIN && errno != EACCES && errno != EINTR)
			break;
		pfe__sleep_ms(1);
	}
	errno = saved;
}

/* The rows of the functions called (at most N), in R; how many. */
static size_t take_rows(struct row *r, size_t n)
{
	size_t m = 0;

	for (struct block *b = atomic_load(&blocks); b; b = b->next) {
		for (size_t i = 0; i < b->n && m < n; i++) {
			r[m] = (struct row){ atomic_load(&b->counters[i].ns), atomic_load(&b->counters[i].calls),
					     &b->counters[i] };
			m += r[m].calls != 0;
		}
	}
	return m;
}

/* The M rows R (sorted), with their header, through O; of a process
 * where no function was found (FOUND false: built without the option or
 * pfe, a program pfe-trace cannot trace), a line that says so instead of
 * an empty table. */
static void print_rows(const struct row *r, size_t m, bool found, struct out *o)
{
	open_output(o);
	if (o->fd != 2)
		lock_output(o->fd);
	if (forked_from) {
		out_str(o, "pfe-trace: pid ");
		out_number(o, (uint64_t)table_pid, 0, 0);
		out_str(o, ", forked from ");
		out_number(o, (uint64_t)forked_from, 0, 0);
		out_str(o, ": its calls since\n");
	}
	if (!found) {
		out_str(o, "pfe-trace: no patchable function in ");
		out_str(o, program_invocation_name);
		out_str(o, " or what it loaded: nothing traced (build it with -fpatchable-function-entry=N or pfe)\n");
	} else {
		out_str(o, "pfe-trace:        calls       total ms  function\n");
	}
	for (size_t i = 0; i < m; i++) {
		const char *name = trace_func_name(r[i].k);

		out_str(o, "pfe-trace: ");
		out_number(o, r[i].calls, 12, 0);
		out_str(o, " ");
		out_number(o, (r[i].ns + 500) / 1000, 14, 3);	/* ms, rounded to the microsecond */
		out_str(o, "  ");
		out_str(o, name ? name : "?");
		out_str(o, "\n");
	}
	out_flush(o);
	if (o->fd != 2)
		close(o->fd);
}

/* Whether a table of M rows of the N functions found is printed: not
 * by a fork's child that called none (one about to exec), nor where no
 * function was found but in the process pfe-trace ran, which says so (a
 * program it ran runs others: theirs say nothing). */
static bool table_wanted(size_t n, size_t m)
{
	if (!n)
		return table_pid == command_pid;
	return m || !forked_from;
}

/* The table's state: 0, 1 being written, 2 written (once an image; again
 * after an exec that failed). */
static atomic_int table_state;

/* The table, once: a second caller (another thread's signal) waits for
 * the first's, up to a second.  A fork's child that called nothing (one
 * about to exec) prints none. */
static void write_table(void)
{
	/* The rows, and the output's buffer after them: not on the stack,
	 * which may be a clone()'s small one, or a signal's. */
	size_t n = atomic_load(&ncounters), m, rows_len = (n + 1) * sizeof(struct row);
	size_t len = rows_len + sizeof(struct out);
	struct row *r;
	int expect = 0;

	if (!atomic_compare_exchange_strong(&table_state, &expect, 1)) {
		for (int i = 0; i < 1000 && atomic_load(&table_state) == 1; i++)
			pfe__sleep_ms(1);
		return;
	}
	r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r != MAP_FAILED) {
		m = take_rows(r, n);
		sort_rows(r, m);
		if (table_wanted(n, m))
			print_rows(r, m, n != 0, (struct out *)(void *)((char *)r + rows_len));
		munmap(r, len);
	}
	atomic_store(&table_state, 2);
}

static void counters_zeroed(struct trace_func *fs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		atomic_store(&fs[i].calls, 0);
		atomic_store(&fs[i].ns, 0);
	}
}

/* Without record, an image that ends by exec or _exit prints its table
 * first; not a vfork child (its memory, the counts too, is its
 * parent's). */
static void table_of_image(void)
{
	if (mode == RECORD_NO && getpid() == table_pid)
		write_table();
}

/* After an exec that failed: a table again at the end, of the calls
 * since. */
static void table_restarted(void)
{
	if (mode == RECORD_NO && getpid() == table_pid) {
		pthread_mutex_lock(&blocks_lock);
		trace_for_each(counters_zeroed);
		pthread_mutex_unlock(&blocks_lock);
		atomic_store(&table_state, 0);
	}
}

__attribute__((destructor)) static void trace_stop(void)
{
	if (mode == RECORD_YES) {
		record_stop();
	} else if (mode == RECORD_NO) {
		write_table();	/* of a snapshot: no need to unpatch first */
	}
}

void trace_for_each(void (*fn)(struct trace_func *fs, size_t n))
{
	for (struct block *b = blocks; b; b = b->next)
		fn(b->counters, b->n);
}

/* NAME as people read it (f(int), not _Z1fi): libstdc++'s demangler, which
 * a C++ program has loaded (found once, under blocks_lock); NULL for a C
 * name, or when there is no demangler. */
static char *demangle(const char *name)
{
	static char *(*cxa_demangle)(const char *, char *, size_t *, int *);
	static bool looked;
	char *s;
	int status;

	if (!name || strncmp(name, "_Z", 2) != 0)
		return NULL;
	if (!looked) {
		cxa_demangle = (char *(*)(const char *, char *, size_t *, int *))dlsym(RTLD_DEFAULT, "__cxa_demangle");
		looked = true;
	}
	if (!cxa_demangle)
		return NULL;
	s = cxa_demangle(name, NULL, NULL, &status);
	if (status != 0) {
		free(s);
		return NULL;
	}
	return s;
}

const char *trace_func_name(const struct trace_func *f)
{
	return f->demangled ? f->demangled : pfe_func_name(f->func);
}

/* Whether F is patchable and not traced yet. */
static bool untraced(const struct pfe_func *f)
{
	struct pfe_info info;

	return pfe_func_info(f, &info) == 0 && !info.error && !info.attached;
}

/* Attach the N functions FS with their counters CS (the lock held):
 * recorded without data of their own in one attachment (trace_func_plain),
 * each other with its counter.  The functions attached go to *ON. */
static void attach_block(struct pfe_func **fs, struct trace_func *cs, size_t n, struct pfe_func **on, size_t *non)
{
	pfe_entry_handler entry = mode == RECORD_YES ? record_entry : on_entry;
	pfe_exit_handler exit = mode == RECORD_YES ? record_exit : on_exit_call;
	size_t nplain = 0;

	for (size_t i = 0; i < n; i++) {
		if (mode == RECORD_YES && trace_func_plain(&cs[i]))
			fs[nplain++] = cs[i].func;
		else if (pfe_attach(cs[i].func, entry, exit, &cs[i]) == 0)
			on[(*non)++] = cs[i].func;
	}
	if (nplain && pfe_attach_many(fs, nplain, entry, exit, (void *)&trace_plain) == 0) {
		memcpy(&on[*non], fs, nplain * sizeof *fs);
		*non += nplain;
	}
}

/* Trace every patchable function found and not traced yet: attached,
 * then enabled in one batch. */
static void trace_new_functions(void)
{
	struct block *b;
	struct pfe_func **fs, **on;
	size_t n = 0, i = 0, non = 0;
	int err = 0;

	pthread_mutex_lock(&blocks_lock);
	for (struct pfe_func *f = pfe_next(NULL); f; f = pfe_next(f))
		n += untraced(f);
	b = calloc(1, sizeof *b + n * sizeof *b->counters);
	fs = calloc(n + 1, sizeof *fs);
	on = calloc(n + 1, sizeof *on);
	for (struct pfe_func *f = pfe_next(NULL); f && b && i < n; f = pfe_next(f)) {
		if (!untraced(f))
			continue;
		b->counters[i].func = f;
		b->counters[i].id = (uint32_t)(ncounters + i);
		b->counters[i].demangled = demangle(pfe_func_name(f));
		i++;
	}
	if (!b || !fs || !on)
		err = PFE_ENOMEM;
	else if (mode != RECORD_YES || record_functions(b->counters, i))
		attach_block(fs, b->counters, i, on, &non);
	if (!err)
		err = pfe_enable_many(on, non);
	ntraced += err ? 0 : non;
	if (b) {
		b->n = i;
		b->next = blocks;
		blocks = b;
		ncounters += i;
	}
	pthread_mutex_unlock(&blocks_lock);
	free(fs);
	free(on);
	if (err)
		fprintf(stderr, "pfe-trace: trace_new_functions: %s\n", pfe_strerror(err));
	if (pfe__getenv("PFE_DEBUG"))
		fprintf(stderr, "pfe-trace: %zu functions\n", ntraced);
}

/* The functions interposed below: the next object's own, looked up at
 * load (trace_start): an exec in a child after fork must not call dlsym,
 * whose lock another thread may have held at the fork. */
enum {
	REAL_DLOPEN, REAL_EXECVE, REAL_EXECVPE, REAL_EXECV, REAL_EXECVP, REAL_FEXECVE, REAL__EXIT, REAL__EXIT2,
	REAL_CLONE, NREALS
};
static const char *const real_names[NREALS] = {
	"dlopen", "execve", "execvpe", "execv", "execvp", "fexecve", "_exit", "_Exit", "clone",
};
static void *_Atomic reals[NREALS];

/* The real function I (looked up now if called before trace_start), or
 * NULL if there is none. */
static void *real_fn(unsigned i)
{
	void *fn = atomic_load(&reals[i]);

	if (!fn) {
		fn = dlsym(RTLD_NEXT, real_names[i]);
		atomic_store(&reals[i], fn);
	}
	return fn;
}

void *dlopen(const char *path, int flags)
{
	void *(*fn)(const char *, int) = (void *(*)(const char *, int))real_fn(REAL_DLOPEN);
	void *h;

	if (!fn)
		return NULL;
	h = fn(path, flags);
	if (h && mode != RECORD_FAILED) {
		pfe_rescan();
		trace_new_functions();
	}
	return h;
}

/* exec and _exit: the image ends without its destructors, so what it
 * recorded is written first, every thread's (record_exec,
 * record_all_now); a failed exec records on.  Every exec function of
 * libc's is interposed: they do not call each other through symbols
 * another object can take.  exit calls _exit inside libc: its destructors
 * (trace_stop) have written everything by then.  The flat table is not
 * printed: a fork's child that execs or _exits would print its parent's
 * counts. */

/* Call the real exec function I of type TYPE with ARGS, after
 * record_exec (or the table); -1 (ENOSYS) if there is none. */
#define REAL_EXEC(type, i, ...) \
	do { \
		type fn = (type)real_fn(i); \
		int ret, err; \
		if (!fn) { \
			errno = ENOSYS; \
			return -1; \
		} \
		if (mode == RECORD_YES) \
			record_exec(); \
		table_of_image(); \
		ret = fn(__VA_ARGS__); \
		err = errno; \
		if (mode == RECORD_YES) \
			record_exec_failed(); \
		table_restarted(); \
		errno = err; \
		return ret; \
	} while (0)

typedef int (*execve_type)(const char *, char *const[], char *const[]);
typedef int (*execv_type)(const char *, char *const[]);
typedef int (*fexecve_type)(int, char *const[], char *const[]);

int execve(const char *path, char *const argv[], char *const envp[])
{
	REAL_EXEC(execve_type, REAL_EXECVE, path, argv, envp);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL_EXEC(execve_type, REAL_EXECVPE, file, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	REAL_EXEC(execv_type, REAL_EXECV, path, argv);
}

int execvp(const char *file, char *const argv[])
{
	REAL_EXEC(execv_type, REAL_EXECVP, file, argv);
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	REAL_EXEC(fexecve_type, REAL_FEXECVE, fd, argv, envp);
}

/* execl, execlp, execle: their arguments as an array (on the stack: an
 * exec after vfork may not allocate) for the functions above.  How many
 * pointers ARG0 and those after it up to the NULL are, from *AP. */
static size_t count_args(va_list *ap)
{
	size_t n = 1;

	while (va_arg(*ap, char *))
		n++;
	return n;
}

/* ARGV[0..n]: ARG0, the N - 1 arguments after it from *AP, the NULL. */
static void fill_argv(char **argv, size_t n, const char *arg0, va_list *ap)
{
	argv[0] = (char *)arg0;
	for (size_t i = 1; i <= n; i++)
		argv[i] = va_arg(*ap, char *);
}

/* Declare ARGV, the arguments of the current exec function from ARG0 on,
 * with AP, its va_list, left after their NULL (execle's envp follows). */
#define ARGV_OF(argv, arg0, ap) \
	va_start(ap, arg0); \
	size_t argv##_n = count_args(&ap); \
	va_end(ap); \
	char *argv[argv##_n + 1]; \
	va_start(ap, arg0); \
	fill_argv(argv, argv##_n, arg0, &ap)

int execl(const char *path, const char *arg0, ...)
{
	va_list ap;

	ARGV_OF(argv, arg0, ap);
	va_end(ap);
	return execv(path, argv);
}

int execlp(const char *file, const char *arg0, ...)
{
	va_list ap;

	ARGV_OF(argv, arg0, ap);
	va_end(ap);
	return execvp(file, argv);
}

int execle(const char *path, const char *arg0, ...)
{
	va_list ap;
	char *const *envp;

	ARGV_OF(argv, arg0, ap);
	envp = va_arg(ap, char *const *);
	va_end(ap);
	return execve(path, argv, envp);
}

/* The signals whose default action ends the process: a crash (and
 * abort), and those sent to end it (Ctrl-C, kill, a write to a closed
 * pipe, a timer without a handler...).  The records are written first
 * (without record: the table, when the process ends), then the process
 * does what it would have done without us (pfe__chain_signal: the
 * handler before ours, or the default action, whose core dump has the
 * fault's context).  Every thread's records when that is the default
 * action (the process ends), else the thread's the signal hit (a handler
 * before ours may recover).  An ignored signal stays ignored (nohup's
 * SIGHUP: the programs it execs inherit that); a handler the program
 * installs later replaces ours.  Not the real-time signals (glibc keeps
 * some for itself). */
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGHUP, SIGINT, SIGQUIT,
				     SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM,
				     SIGPROF, SIGIO, SIGPWR };
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction before_ours[NFATAL];

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
	for (size_t i = 0; i < NFATAL; i++) {
		if (fatal_signals[i] != sig)
			continue;
		bool ends = pfe__default_action(&before_ours[i]);

		if (mode == RECORD_YES && ends)
			record_all_now();
		else if (mode == RECORD_YES)
			record_mine();
		else if (ends)
			table_of_image();
		pfe__chain_signal(&before_ours[i], sig, si, uc);
	}
}

/* What the program is told of its actions (signals.c's sigaction, which
 * signal and its kin call too): where pfe-trace's handler of a signal
 * that ends the process is installed, the action before it, as if we
 * were not there (CPython installs its KeyboardInterrupt handler only
 * where SIGINT's action is the default; a shell keeps what it
 * inherited).  Setting an action replaces ours. */
void pfe__trace_hide_action(int sig, struct sigaction *sa)
{
	if (!(sa->sa_flags & SA_SIGINFO) || sa->sa_sigaction != on_fatal)
		return;
	for (size_t i = 0; i < NFATAL; i++)
		if (fatal_signals[i] == sig)
			*sa = before_ours[i];
}

static void catch_fatal_signals(void)
{
	struct sigaction sa = { .sa_sigaction = on_fatal, .sa_flags = SA_SIGINFO | SA_ONSTACK };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		if (sigaction(fatal_signals[i], NULL, &before_ours[i]) == 0 &&
		    !pfe__ignored_action(&before_ours[i]))
			sigaction(fatal_signals[i], &sa, NULL);
}

/* _exit, _Exit: every thread's records written (the others' while they
 * may run: their last record torn at most), or the table; then the real
 * one I (the system call if there is none). */
static void image_ends(void)
{
	if (mode == RECORD_YES)
		record_all_now();
	table_of_image();
}

#define REAL_EXIT(i, status) \
	do { \
		void (*fn)(int) = (void (*)(int))real_fn(i); \
		image_ends(); \
		if (fn) \
			fn(status); \
		for (;;) \
			syscall(SYS_exit_group, status); \
	} while (0)

void _exit(int status)
{
	REAL_EXIT(REAL__EXIT, status);
}

void _Exit(int status)
{
	REAL_EXIT(REAL__EXIT2, status);
}

/* fork: the child may dlopen (the lock must be free) and records into a
 * file of its own. */
static void lock_blocks(void)
{
	pthread_mutex_lock(&blocks_lock);
}

static void unlock_blocks(void)
{
	pthread_mutex_unlock(&blocks_lock);
}

/* A fork's child records into a file of its own, or has a table of its
 * own: its calls since the fork, said so. */
static void child_after_fork(void)
{
	if (mode == RECORD_YES) {
		record_forked((uint32_t)atomic_load(&ncounters));
	} else {
		trace_for_each(counters_zeroed);
		forked_from = table_pid;
		table_pid = getpid();
	}
	pthread_mutex_unlock(&blocks_lock);
}

/* clone() without CLONE_VM is a fork that runs no pthread_atfork
 * handler (googletest's death tests make their children so): its child
 * recorded into its parent's buffers (mappings both share) and found
 * libpfe's lock as another thread held it.  The fork handlers run
 * around it as around a fork, the child's before its function (on the
 * stack it was given, which may be small: googletest's is 8 KiB), and
 * when that function returns the process ends as by _exit (glibc's
 * clone then makes the exit system call).  With CLONE_VM the child is a
 * thread, or vfork's kind of child, which shares the memory: as it was.
 * A fork by the system call itself is out of reach. */
struct clone_start {
	int (*fn)(void *);
	void *arg;
};

static int cloned_child(void *p)
{
	/* In this process's copy of the parent's stack. */
	const struct clone_start *start = p;
	int status;

	pfe__fork_child();
	child_after_fork();
	status = start->fn(start->arg);
	image_ends();
	return status;
}

int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	typedef int (*clone_type)(int (*)(void *), void *, int, void *, ...);
	clone_type real = (clone_type)real_fn(REAL_CLONE);
	struct clone_start start = { fn, arg };
	va_list ap;
	pid_t *parent_tid, *child_tid;
	void *tls;
	int ret, err;

	/* As glibc's clone reads them: what FLAGS does not ask for is not
	 * used. */
	va_start(ap, arg);
	parent_tid = va_arg(ap, pid_t *);
	tls = va_arg(ap, void *);
	child_tid = va_arg(ap, pid_t *);
	va_end(ap);
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	if ((flags & CLONE_VM) || mode == RECORD_FAILED)
		return real(fn, stack, flags, arg, parent_tid, tls, child_tid);
	/* In pthread_atfork's order: prepare handlers the last registered
	 * first (ours after pfe_init's), the others the first first. */
	lock_blocks();
	pfe__fork_prepare();
	ret = real(cloned_child, stack, flags, &start, parent_tid, tls, child_tid);
	err = errno;
	pfe__fork_parent();
	unlock_blocks();
	errno = err;
	return ret;
}

/* A program linked with libpfe.so uses this library's copy (the loader
 * binds its calls to the first definition): what it attaches replaces
 * our handlers, its pfe_disable_all or pfe_detach_all end the tracing.
 * Said at start, naming its libpfe. */
static void say_if_program_uses_libpfe(void)
{
	void *theirs = dlsym(RTLD_NEXT, "pfe_init");
	Dl_info info;

	if (theirs)
		fprintf(stderr,
			"pfe-trace: the program uses libpfe itself (%s), which binds to pfe-trace's: a function it "
			"attaches is not traced from then on, and its pfe_disable_all or pfe_detach_all end the tracing\n",
			dladdr(theirs, &info) && info.dli_fname ? info.dli_fname : "?");
}

/* Whether the LD_AUDIT entry P of LEN bytes names a libpfe.so. */
static bool names_libpfe(const char *p, size_t len)
{
	static const char ours[] = "libpfe.so";
	const char *slash = memrchr(p, '/', len);
	const char *name = slash ? slash + 1 : p;

	return (size_t)(p + len - name) == sizeof ours - 1 && memcmp(name, ours, sizeof ours - 1) == 0;
}

/* In valgrind's launcher (valgrind, Debian's valgrind.bin), take libpfe
 * out of LD_AUDIT, which valgrind hands to the program it runs: there
 * memcheck reports the loader's own frees of an audited process as
 * invalid (at exit, --run-libc-freeres: a test suite that runs its tests
 * under valgrind, json-c's, fails every one), and its malloc replacement
 * breaks the module (audit.c, under_valgrind).  The program is traced
 * through LD_PRELOAD alone, as pfe-trace did before it gave LD_AUDIT. */
static void keep_audit_from_valgrind(void)
{
	char exe[256], kept[4096] = "";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	const char *audit = pfe__getenv("LD_AUDIT"), *base;

	if (n <= 0 || !audit || strlen(audit) >= sizeof kept)
		return;
	exe[n] = '\0';
	base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	if (strcmp(base, "valgrind") != 0 && strcmp(base, "valgrind.bin") != 0)
		return;
	for (const char *p = audit; *p; p += *p == ':') {
		size_t len = strcspn(p, ":");

		if (len && !names_libpfe(p, len))
			snprintf(kept + strlen(kept), sizeof kept - strlen(kept), "%s%.*s", kept[0] ? ":" : "",
				 (int)len, p);
		p += len;
	}
	if (kept[0])
		setenv("LD_AUDIT", kept, 1);
	else
		unsetenv("LD_AUDIT");
}

__attribute__((constructor)) static void trace_start(void)
{
	const char *command = pfe__getenv("PFE_TRACE_PID");
	int err;

	keep_audit_from_valgrind();
	for (unsigned i = 0; i < NREALS; i++)
		real_fn(i);
	err = pfe_init();
	mode = record_start();
	if (mode == RECORD_FAILED)
		return;
	pthread_atfork(lock_blocks, unlock_blocks, child_after_fork);
	output_path = pfe__getenv("PFE_TRACE_OUTPUT");
	pfe__debug("table-stall", &table_stall_ms);
	table_pid = getpid();
	command_pid = command ? (pid_t)pfe__decimal(command) : 0;
	catch_fatal_signals();
	if (err)
		fprintf(stderr, "pfe-trace: trace_start: %s (tracing what was found)\n", pfe_strerror(err));
	say_if_program_uses_libpfe();
	trace_new_functions();
}
