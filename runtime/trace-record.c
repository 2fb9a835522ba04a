/* trace-record.c: the recorder of libpfe-trace.so (`pfe-trace record`):
 * every entry and exit of the traced functions, with its time, thread and
 * depth, into a buffer per thread that only its thread writes (no lock,
 * no atomic read-modify-write on a call), and from there into one file a
 * process (trace-format.h; runtime/README.md, "pfe-trace record").
 *
 * Two modes: write everything (each thread writes its buffer to the file
 * when full, and at exit), or flight recorder (PFE_TRACE_FLIGHT=SIZE: each
 * thread's buffer is a ring of SIZE bytes, written at exit: the last
 * calls).  Filters (what scripts/pfe-trace passes, one pattern a line):
 *   PFE_TRACE_FILTER   -F: only these functions and their callees
 *   PFE_TRACE_NOTRACE  -N: neither these nor their callees
 *   PFE_TRACE_DEPTH    -D: no call deeper than this (from 1, counted from
 *                      the outermost -F function when there is one)
 *   PFE_TRACE_TIME     -t: no call shorter than this (one that recorded
 *                      no callee: it is taken back from the buffer)
 *   PFE_TRACE_ARGS     -A: PATTERN@argN[,argM...] integer arguments
 *   PFE_TRACE_RETVAL   -R: PATTERN[@retval] integer return values
 * Patterns are POSIX extended regular expressions the whole name matches:
 * the symbol, or a C++ function's demangled name with or without its
 * parameters (ns::f(int) or ns::f); reports show the demangled name.  A
 * malformed setting ends the process with status 2, named, before its
 * program runs (refuse_setting): pfe-trace refuses its arguments.
 *
 * The file is opened for each write (O_APPEND, one writev a block): a
 * program closing its descriptors cannot make us write into its files,
 * and a child after fork gets a file of its own.  At exit recording is
 * frozen and libpfe waits until no handler runs, so the buffers are read
 * while nothing writes them.  Each buffer maps a spool file of its own
 * beside the record file (trace-format.h): a process killed by SIGKILL
 * leaves what it had not written there, for the reader (which knows a
 * spool whose records its thread's last block already has: killed
 * between the write and the emptying).
 * Debugging: PFE_DEBUG=1 says on stderr where each process records and
 * how much it wrote; pfe-trace-read dump FILE prints every record;
 * PFE_DEBUG=kill-after-write kills the process with SIGKILL right after
 * it writes its first block of records, before that buffer is emptied
 * (the window above; trace.exp's test).
 */
#define _DEFAULT_SOURCE	/* not _GNU_SOURCE: glibc 2.38+ would bind strtoul to a symbol older libcs lack */
#include "trace.h"
#include "trace-format.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* A record as a buffer holds it is the file's, but for the function of a
 * call recorded without data of its own (trace_plain): named by the low
 * 32 bits of its address, which the call has without reading memory of
 * its own (a per-function id costs a cache miss a call when many
 * functions run: 100000 functions' data do not stay in the caches), and
 * PFE_TRACE_BY_ADDR set; to_file_recs gives it its id when it is written
 * (the reader, when a SIGKILL left it in its spool file). */
#define KIND_BY_ADDR PFE_TRACE_BY_ADDR

/* A thread's buffer; only the thread writes it (the exit reads it after
 * pfe_synchronize).  When its thread ends it is written and free for the
 * next thread (pool.c).  Mapped from its spool file (trace-format.h;
 * anonymous when the file cannot be made): S and the records are what
 * the reader reads of it after a SIGKILL. */
struct tbuf {
	union {
		struct pfe_pooled pooled;	/* first: every buffer of the process */
		char own[PFE_TRACE_SPOOL_AT];
	};
	struct pfe_trace_spool s;		/* tid, serial, head, cap */
	struct pfe_trace_rec recs[];
};
_Static_assert(offsetof(struct tbuf, s) == PFE_TRACE_SPOOL_AT, "a spool file's header");

/* Write everything: buffers of 1 MiB a thread. */
#define WRITE_ALL_BYTES (1u << 20)
/* Flight recorder: the smallest ring (records). */
#define MIN_RING 64u

static struct {
	char path[PATH_MAX];		/* this process's file */
	pid_t pid;			/* this process's (a vfork child's differs) */
	bool flight;			/* ring buffers, written at exit */
	uint64_t cap;			/* records a buffer */
	bool kill_after_write;		/* PFE_DEBUG=kill-after-write (above) */
	bool any_filter;		/* -F given */
	unsigned max_depth;		/* -D, 0: none */
	uint64_t min_ns;		/* -t, 0: none */
	uint64_t t0;			/* the start: cookies count from it */
} cfg;

const struct trace_func trace_plain;

static struct pfe_pooled *_Atomic all_bufs;
/* While an exec writes every thread's buffer (record_exec), and from
 * the end (record_stop): handlers write nothing. */
static _Atomic bool frozen;
#define for_each_buf(buf) \
	for (struct tbuf *buf = (struct tbuf *)atomic_load(&all_bufs); buf; buf = (struct tbuf *)buf->pooled.next)
static _Atomic uint32_t next_serial;
static __thread struct tbuf *my_buf __attribute__((tls_model("initial-exec")));
/* A thread's calls running: its own memory, not its buffer's.  A buffer
 * is a shared mapping, which a fork's child shares with its parent until
 * it lets it go: the child read its depth there after the parent had
 * returned from the fork's caller, and recorded every call one level too
 * far out (bash's children: their parent's exits said lost). */
static __thread struct {
	uint32_t depth;			/* traced calls running */
	uint32_t notrace;		/* -N calls running */
	uint32_t filter_in;		/* -F calls running */
	uint32_t filter_base;		/* depth out of the outermost -F call */
} calls __attribute__((tls_model("initial-exec")));

/* The cookie: the entry's time (44 bits of ns from cfg.t0, 4.8 hours,
 * compared modulo that), what the entry did (4 bits), the depth (16
 * bits, saturating).  The depth travels in the cookie because a call
 * deeper than libpfe's stack of exits gets no exit: the next exit resets
 * the thread's depth from its own cookie. */
enum { C_RECORDED = 1, C_FILTER = 2, C_NOTRACE = 4 };
#define COOKIE_TIME_BITS 44
#define COOKIE_TIME_MASK ((UINT64_C(1) << COOKIE_TIME_BITS) - 1)

static uint64_t make_cookie(uint64_t now, unsigned flags, unsigned depth)
{
	return ((now - cfg.t0) & COOKIE_TIME_MASK) << 20 | (uint64_t)flags << 16 | (depth > 0xffff ? 0xffff : depth);
}

static uint64_t cookie_elapsed(uint64_t cookie, uint64_t now)
{
	return ((now - cfg.t0) - (cookie >> 20)) & COOKIE_TIME_MASK;
}

/* Say what cannot be done. */
static void say(const char *what, const char *detail)
{
	fprintf(stderr, "pfe-trace: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

static bool debugging(void)
{
	return pfe__getenv("PFE_DEBUG") != NULL;
}

/* The bytes of this process's record file, written or about to be: a
 * write reserves its bytes first, and one that would take the file past
 * its size limit (trace_size_allows) is not made, its bytes given back.
 * Threads and a fatal signal's handler write at once: a file a process,
 * so the count is exact where fstat would race. */
static _Atomic uint64_t file_bytes;

/* Write BLOCK and the records of up to two segments to the file. */
static void write_block(const struct pfe_trace_block *block, const void *a, size_t alen, const void *b, size_t blen)
{
	/* Said once.  A word: an exchange of a byte is a libatomic call on
	 * riscv64 (RT_LDLIBS). */
	static _Atomic unsigned failed;
	struct iovec iov[3] = { { (void *)block, sizeof *block }, { (void *)a, alen }, { (void *)b, blen } };
	ssize_t want = (ssize_t)(sizeof *block + alen + blen);
	uint64_t at = atomic_fetch_add(&file_bytes, (uint64_t)want);
	int fd = -1;

	if (!trace_size_allows(at, (uint64_t)want)) {
		atomic_fetch_sub(&file_bytes, (uint64_t)want);
		errno = EFBIG;
	} else if (cfg.path[0]) {
		fd = open(cfg.path, O_WRONLY | O_APPEND | O_CLOEXEC);
	}
	if ((fd < 0 || writev(fd, iov, 3) != want) && cfg.path[0] && !atomic_exchange(&failed, 1))
		say(cfg.path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* Function ids by the low 32 bits of their address, for to_file_recs:
 * open addressing, at most half full, an empty slot's id
 * PFE_TRACE_NO_FUNC.  A new table replaces the old when functions are
 * added (at load, after a dlopen: trace.c's lock held); the old is never
 * freed (a thread may be writing its buffer with it). */
struct id_slot {
	uint32_t addr, id;
};

struct id_table {
	size_t mask, count;
	struct id_slot slots[];
};

static struct id_table *_Atomic ids;

static size_t id_hash(uint32_t addr)
{
	return (size_t)((addr * UINT64_C(0x9e3779b97f4a7c15)) >> 32);
}

/* The slot of ADDR in T: its own, or the empty one where it would go. */
static struct id_slot *id_slot(const struct id_table *t, uint32_t addr)
{
	size_t i = id_hash(addr) & t->mask;

	while (t->slots[i].id != PFE_TRACE_NO_FUNC && t->slots[i].addr != addr)
		i = (i + 1) & t->mask;
	return (struct id_slot *)&t->slots[i];
}

/* Give F its id in T by address; false when another function has those
 * 32 bits (an object 4 GiB away): then F records by id (TRACE_OWN_ID). */
static bool add_id(struct id_table *t, uint32_t addr, uint32_t id)
{
	struct id_slot *s = id_slot(t, addr);

	if (s->id != PFE_TRACE_NO_FUNC)
		return false;
	*s = (struct id_slot){ addr, id };
	t->count++;
	return true;
}

/* The N functions FS get ids by address (or TRACE_OWN_ID); false if there
 * is no memory. */
static bool add_ids(struct trace_func *fs, size_t n)
{
	const struct id_table *old = atomic_load(&ids);
	size_t size = 16, count = (old ? old->count : 0) + n;
	struct id_table *t;

	while (size < 2 * count)
		size *= 2;
	if (!(t = malloc(sizeof *t + size * sizeof t->slots[0])))
		return false;
	memset(t->slots, 0xff, size * sizeof t->slots[0]);
	t->mask = size - 1;
	t->count = 0;
	for (size_t i = 0; old && i <= old->mask; i++)
		if (old->slots[i].id != PFE_TRACE_NO_FUNC)
			add_id(t, old->slots[i].addr, old->slots[i].id);
	for (size_t i = 0; i < n; i++)
		if (!add_id(t, (uint32_t)(uintptr_t)pfe_func_addr(fs[i].func), fs[i].id))
			fs[i].flags |= TRACE_OWN_ID;
	atomic_store_explicit(&ids, t, memory_order_release);
	return true;
}

/* The N records from R as the file has them: each by address given its
 * id.  The table is larger than the caches: the slot of a record a few
 * ahead is fetched while this one is looked up, and a record of the
 * function before it (a leaf's exit after its entry) reuses its id. */
#define ID_PREFETCH 8
static void to_file_recs(struct pfe_trace_rec *r, size_t n)
{
	const struct id_table *t = atomic_load_explicit(&ids, memory_order_acquire);
	uint32_t last_addr = 0, last_id = PFE_TRACE_NO_FUNC;

	for (size_t i = 0; i < n; i++) {
		if (t && i + ID_PREFETCH < n && (r[i + ID_PREFETCH].kind & KIND_BY_ADDR))
			__builtin_prefetch(&t->slots[id_hash(r[i + ID_PREFETCH].func) & t->mask]);
		if (!(r[i].kind & KIND_BY_ADDR))
			continue;
		if (r[i].func != last_addr || last_id == PFE_TRACE_NO_FUNC) {
			last_addr = r[i].func;
			last_id = t ? id_slot(t, last_addr)->id : PFE_TRACE_NO_FUNC;
		}
		r[i].func = last_id;
		r[i].kind &= ~KIND_BY_ADDR;
	}
}

/* Write what BUF holds (from the owning thread, or at exit) and empty it. */
static void flush_buf(struct tbuf *buf)
{
	struct pfe_trace_block block = { PFE_TRACE_RECORDS, 0, buf->s.tid, buf->s.serial, 0, trace_now_ns() };
	uint64_t n = buf->s.head < buf->s.cap ? buf->s.head : buf->s.cap;
	uint64_t first = buf->s.head - n;		/* the oldest record kept */
	uint64_t at = first & (buf->s.cap - 1);	/* where it is (the ring wraps) */
	uint64_t before_wrap = n < buf->s.cap - at ? n : buf->s.cap - at;

	if (!n)
		return;
	block.n = (uint32_t)n;
	block.lost = first;
	to_file_recs(&buf->recs[at], before_wrap);
	to_file_recs(buf->recs, n - before_wrap);
	write_block(&block, &buf->recs[at], before_wrap * sizeof *buf->recs, buf->recs,
		    (n - before_wrap) * sizeof *buf->recs);
	if (cfg.kill_after_write)
		raise(SIGKILL);
	buf->s.head = 0;
}

static uint32_t gettid_now(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

static pthread_key_t buf_key;
static bool buf_key_made;
/* Held while an ending thread writes its buffer and frees it, and while
 * record_stop writes them all: never both on one buffer. */
static pthread_mutex_t ending_lock = PTHREAD_MUTEX_INITIALIZER;

/* A buffer's size: one for all (cfg.cap is set once, at the start). */
static size_t buf_size(void)
{
	return sizeof(struct tbuf) + cfg.cap * sizeof(struct pfe_trace_rec);
}

/* The spool files this process made: <record file>.buf<k>, k below. */
static _Atomic unsigned spools;

/* A spool file's path is held in an array of SPOOL_PATH_SIZE, the
 * record file's path and the suffix (a VLA, not PATH_MAX more: new_spool
 * runs at a thread's first recorded call, on whatever stack it has, a
 * clone()'s child's 8 KiB, a signal's). */
#define SPOOL_PATH_SIZE (strlen(cfg.path) + sizeof PFE_TRACE_SPOOL_SUFFIX + sizeof "4294967295")

static void spool_path(char *path, size_t size, unsigned k)
{
	snprintf(path, size, "%s%s%u", cfg.path, PFE_TRACE_SPOOL_SUFFIX, k);
}

/* A new buffer's file, of SIZE bytes (pool.c maps it); -1 (an anonymous
 * buffer) when it cannot be made.  Its blocks allocated now: a store
 * into a hole the disk has no room for would be a SIGBUS. */
static int new_spool(size_t size)
{
	int fd, err;

	if (!cfg.path[0])
		return -1;
	char path[SPOOL_PATH_SIZE];
	spool_path(path, sizeof path, atomic_fetch_add(&spools, 1));
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	err = fd < 0 ? errno : !trace_size_allows(0, size) ? EFBIG : posix_fallocate(fd, 0, (off_t)size);
	if (err && fd >= 0) {
		close(fd);
		unlink(path);
		fd = -1;
	}
	if (err && debugging())
		say(path, strerror(err));
	return fd;
}

/* This thread's buffer, taken at its first call (an ended thread's, or
 * a new one); NULL when there is no memory (its calls are not
 * recorded). */
static struct tbuf *thread_buf(void)
{
	struct tbuf *buf = my_buf;

	if (buf)
		return buf;
	buf = (struct tbuf *)pfe__pool_take(&all_bufs, buf_size(), new_spool);
	if (!buf)
		return NULL;
	memcpy(buf->s.magic, PFE_TRACE_SPOOL_MAGIC, sizeof buf->s.magic);
	buf->s.cap = cfg.cap;
	buf->s.tid = gettid_now();
	buf->s.serial = atomic_fetch_add(&next_serial, 1);
	buf->s.head = 0;
	my_buf = buf;
	if (buf_key_made)
		pthread_setspecific(buf_key, buf);
	return buf;
}

/* Its thread ends (the key's destructor): the buffer written, then free.
 * A call after this (a later destructor's) takes another. */
static void thread_ends(void *arg)
{
	struct tbuf *buf = arg;

	pthread_mutex_lock(&ending_lock);
	flush_buf(buf);
	my_buf = NULL;
	pfe__pool_give_back(&buf->pooled);
	pthread_mutex_unlock(&ending_lock);
}

static void put(struct tbuf *buf, uint64_t value, uint32_t func, unsigned depth, unsigned kind, unsigned index)
{
	if (!cfg.flight && buf->s.head == buf->s.cap)
		flush_buf(buf);
	buf->recs[buf->s.head & (buf->s.cap - 1)] = (struct pfe_trace_rec){
		value, func, (uint16_t)(depth > 0xffff ? 0xffff : depth), (uint8_t)kind, (uint8_t)index
	};
	buf->s.head++;
}

/* How the records of call C name its function: by id when it has data of
 * its own, else by address (KIND_BY_ADDR in *BY). */
static uint32_t rec_func(const struct pfe_call *c, unsigned *by)
{
	const struct trace_func *f = c->data;

	*by = f == &trace_plain ? KIND_BY_ADDR : 0;
	return *by ? (uint32_t)(uintptr_t)c->fn : f->id;
}

void record_entry(struct pfe_call *c)
{
	const struct trace_func *f = c->data;
	uint64_t now = trace_now_ns();
	unsigned flags = 0, depth, rdepth, by;
	uint32_t func = rec_func(c, &by);
	struct tbuf *buf;

	/* Frozen first: a buffer taken now would have a spool file that
	 * nothing removes (record_stop). */
	if (atomic_load_explicit(&frozen, memory_order_acquire) || !(buf = thread_buf())) {
		c->cookie = 0;
		return;
	}
	depth = ++calls.depth;
	if (f->flags & TRACE_NOTRACE) {
		calls.notrace++;
		flags |= C_NOTRACE;
	}
	if (f->flags & TRACE_FILTER) {
		if (!calls.filter_in++)
			calls.filter_base = depth - 1;
		flags |= C_FILTER;
	}
	rdepth = depth - calls.filter_base;
	if (!calls.notrace && (!cfg.any_filter || calls.filter_in) && (!cfg.max_depth || rdepth <= cfg.max_depth)) {
		flags |= C_RECORDED;
		put(buf, now, func, rdepth, PFE_TRACE_ENTRY | by, 0);
		for (unsigned i = 0; i < f->nargs; i++)
			put(buf, pfe_arg(c, f->args[i] - 1u), func, rdepth, PFE_TRACE_ARG | by, f->args[i]);
	}
	c->cookie = make_cookie(now, flags, depth);
}

/* -t: take back the entry of a call too short, when nothing was recorded
 * after it but its arguments (they are still in the buffer). */
static bool took_back(struct tbuf *buf, const struct pfe_call *c, unsigned rdepth)
{
	const struct trace_func *f = c->data;
	uint64_t k = 1u + f->nargs;
	const struct pfe_trace_rec *r;
	unsigned by;
	uint32_t func = rec_func(c, &by);

	if (buf->s.head < k)
		return false;
	r = &buf->recs[(buf->s.head - k) & (buf->s.cap - 1)];
	if (r->kind != (PFE_TRACE_ENTRY | by) || r->func != func || r->depth != rdepth)
		return false;
	buf->s.head -= k;
	return true;
}

void record_exit(struct pfe_call *c)
{
	const struct trace_func *f = c->data;
	struct tbuf *buf;
	uint64_t now = trace_now_ns();
	unsigned flags = (unsigned)(c->cookie >> 16) & 0xf, depth = (unsigned)(c->cookie & 0xffff), by;
	uint32_t func = rec_func(c, &by);

	if (!depth)
		return;
	calls.depth = depth - 1;
	/* A buffer taken here too: a fork's child returns from its parent's
	 * calls before it makes one of its own. */
	if ((flags & C_RECORDED) && !atomic_load_explicit(&frozen, memory_order_acquire) && (buf = thread_buf())) {
		unsigned rdepth = depth - calls.filter_base;

		if (!cfg.min_ns || cookie_elapsed(c->cookie, now) >= cfg.min_ns || !took_back(buf, c, rdepth)) {
			if ((f->flags & TRACE_RETVAL) && c->retregs)
				put(buf, pfe_retval(c), func, rdepth, PFE_TRACE_RETVAL | by, 0);
			put(buf, now, func, rdepth, (c->retregs ? PFE_TRACE_EXIT : PFE_TRACE_UNWOUND) | by, 0);
		}
	}
	if (flags & C_FILTER)
		calls.filter_in--;
	if (flags & C_NOTRACE)
		calls.notrace--;
}

/* The filters: each line of the variable VAR a pattern (with what follows
 * its last '@' when AT), and what to do with each function it matches. */
struct pattern {
	regex_t re;
	char *spec;		/* after '@' (its own copy), or NULL */
};

static struct pattern *patterns[4];
static size_t npatterns[4];
enum { P_FILTER, P_NOTRACE, P_ARGS, P_RETVAL };
static const char *const pattern_vars[4] = { "PFE_TRACE_FILTER", "PFE_TRACE_NOTRACE", "PFE_TRACE_ARGS",
					     "PFE_TRACE_RETVAL" };
static const char *const pattern_options[4] = { "-F", "-N", "-A", "-R" };

/* pfe-trace record's OPTION (the variable VAR) given VALUE, which is
 * WHY: said, and the process ends before its program runs, as any tool
 * refuses a malformed argument (traced without it, the user would read
 * a trace of something else).  A process after the first was given the
 * same settings, and refused them first. */
static _Noreturn void refuse_setting(const char *option, const char *var, const char *value, const char *why)
{
	fprintf(stderr, "pfe-trace: %s %s (%s): %s\n", option, value, var, why);
	_exit(2);
}

static bool parse_args(struct trace_func *f, const char *spec);

/* LINE of WHICH's variable, its '@' at SIGN (or NULL) cut, is WHY. */
static _Noreturn void refuse_pattern(unsigned which, char *line, char *sign, const char *why)
{
	if (sign)
		*sign = '@';
	refuse_setting(pattern_options[which], pattern_vars[which], line, why);
}

/* LINE of WHICH's variable as P: its expression, and what follows its
 * last '@' for -A and -R, each checked (refuse_setting). */
static void compile_pattern(struct pattern *p, char *line, unsigned which)
{
	bool at = which >= P_ARGS;
	char *sign = at ? strrchr(line, '@') : NULL;
	size_t size;
	char *anchored;
	int err;

	if (sign)
		*sign = '\0';
	p->spec = sign ? strdup(sign + 1) : NULL;
	size = strlen(line) + sizeof "^()$";
	if ((sign && !p->spec) || !(anchored = malloc(size)))
		refuse_pattern(which, line, sign, "no memory to compile it");
	snprintf(anchored, size, "^(%s)$", line);
	err = regcomp(&p->re, anchored, REG_EXTENDED | REG_NOSUB);
	free(anchored);
	if (err) {
		char msg[128];

		regerror(err, &p->re, msg, sizeof msg);
		refuse_pattern(which, line, sign, msg);
	}
	if (which == P_ARGS && !parse_args(&(struct trace_func){ 0 }, p->spec)) {
		char why[128];

		snprintf(why, sizeof why, "want RE@argN[,argM...] (integer and pointer arguments, N from 1 to 255, "
			 "at most %d)", TRACE_MAX_ARGS);
		refuse_pattern(which, line, sign, why);
	}
	if (which == P_RETVAL && p->spec && strcmp(p->spec, "retval") != 0)
		refuse_pattern(which, line, sign, "want RE or RE@retval");
}

static void read_patterns(unsigned which)
{
	const char *value = pfe__getenv(pattern_vars[which]);
	char *copy = value ? strdup(value) : NULL, *save = NULL;
	size_t n = 0;

	if (!copy)
		return;
	for (const char *c = copy; *c; c++)
		n += *c == '\n';
	patterns[which] = calloc(n + 1, sizeof *patterns[which]);
	for (char *line = strtok_r(copy, "\n", &save); line && patterns[which]; line = strtok_r(NULL, "\n", &save))
		compile_pattern(&patterns[which][npatterns[which]++], line, which);
	free(copy);
}

/* The names a pattern may match for F: its symbol, and for C++ its
 * demangled name whole and without its parameters (ns::f for
 * ns::f(int) const, as people type it); the last is malloc'ed. */
struct func_names {
	const char *symbol, *demangled;
	char *bare;
};

static struct func_names names_of(const struct trace_func *f)
{
	struct func_names n = { pfe_func_name(f->func), f->demangled, NULL };

	if (n.demangled)
		n.bare = strndup(n.demangled, pfe_trace_name_bare_len(n.demangled));
	return n;
}

/* The first pattern of WHICH that one of the names N matches, or NULL. */
static const struct pattern *matching(unsigned which, const struct func_names *n)
{
	const char *names[] = { n->symbol, n->demangled, n->bare };

	for (size_t i = 0; i < npatterns[which]; i++)
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
			if (names[k] && regexec(&patterns[which][i].re, names[k], 0, NULL, 0) == 0)
				return &patterns[which][i];
	return NULL;
}

/* -A's "arg1,arg3": the argument numbers into F; false if malformed. */
static bool parse_args(struct trace_func *f, const char *spec)
{
	const char *s = spec;

	f->nargs = 0;
	while (s && *s) {
		char *end;
		unsigned long n;

		if (strncmp(s, "arg", 3) != 0)
			return false;
		n = strtoul(s + 3, &end, 10);
		if (n < 1 || n > 255 || f->nargs == TRACE_MAX_ARGS || (*end && *end != ','))
			return false;
		f->args[f->nargs++] = (uint8_t)n;
		s = *end ? end + 1 : end;
	}
	return f->nargs > 0;
}

static void apply_filters(struct trace_func *f)
{
	struct func_names names = names_of(f);
	const struct pattern *p;

	if (!names.symbol)
		return;
	f->flags = (matching(P_FILTER, &names) ? TRACE_FILTER : 0) | (matching(P_NOTRACE, &names) ? TRACE_NOTRACE : 0);
	/* Their specs were checked when read (compile_pattern). */
	if (matching(P_RETVAL, &names))
		f->flags |= TRACE_RETVAL;
	p = matching(P_ARGS, &names);
	if (p)
		parse_args(f, p->spec);
	free(names.bare);
}

/* Write the names of the N functions FS (a block of them). */
static void write_functions(struct trace_func *fs, size_t n)
{
	struct pfe_trace_block block = { PFE_TRACE_FUNCS, (uint32_t)n, 0, 0, 0, 0 };
	size_t bytes = 0, at = 0;
	char *data;

	for (size_t i = 0; i < n; i++) {
		const char *name = trace_func_name(&fs[i]);

		bytes += sizeof(struct pfe_trace_func) + ((name ? strlen(name) : 0) + 7) / 8 * 8;
	}
	data = calloc(1, bytes + 1);
	if (!data) {
		say("no memory for the names of the functions", NULL);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = trace_func_name(&fs[i]);
		struct pfe_trace_func tf = { fs[i].id, (uint32_t)(name ? strlen(name) : 0),
					     (uint64_t)(uintptr_t)pfe_func_addr(fs[i].func) };

		memcpy(data + at, &tf, sizeof tf);
		memcpy(data + at + sizeof tf, name ? name : "", tf.name_len);
		at += sizeof tf + (tf.name_len + 7u) / 8 * 8;
	}
	write_block(&block, data, bytes, NULL, 0);
	free(data);
}

/* A fork's child's functions, ids below IDS: named in the file of its
 * parent, NAME in the same directory, where they are. */
static void write_parent(const char *name, uint32_t ids)
{
	struct pfe_trace_block block = { PFE_TRACE_PARENT, 1, 0, 0, 0, 0 };
	char data[sizeof(struct pfe_trace_parent) + NAME_MAX + 8] = { 0 };
	struct pfe_trace_parent par = { ids, (uint32_t)strlen(name) };

	memcpy(data, &par, sizeof par);
	memcpy(data + sizeof par, name, par.name_len);
	write_block(&block, data, sizeof par + (par.name_len + 7u) / 8 * 8, NULL, 0);
}

bool record_functions(struct trace_func *fs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		apply_filters(&fs[i]);
	if (!add_ids(fs, n)) {
		say("no memory for the ids of the functions (not traced)", NULL);
		return false;
	}
	write_functions(fs, n);
	return true;
}

/* Make this process's file, DIR/<pid>.pfetrace (or <pid>-<n>.pfetrace:
 * a process that exec'ed keeps its id), with its header. */
static bool make_file(const char *dir)
{
	struct pfe_trace_header h = { PFE_TRACE_MAGIC, PFE_TRACE_VERSION, (uint32_t)getpid() };
	int fd = -1;
	bool fits;

	for (unsigned n = 0; fd < 0 && n < 100; n++) {
		if (n)
			snprintf(cfg.path, sizeof cfg.path, "%s/%u-%u%s", dir, h.pid, n, PFE_TRACE_SUFFIX);
		else
			snprintf(cfg.path, sizeof cfg.path, "%s/%u%s", dir, h.pid, PFE_TRACE_SUFFIX);
		fd = open(cfg.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	fits = fd >= 0 && trace_size_allows(0, sizeof h);
	if (fd >= 0 && !fits)
		errno = EFBIG;
	if (!fits || write(fd, &h, sizeof h) != (ssize_t)sizeof h) {
		fprintf(stderr, "pfe-trace: cannot make a record file in %s: %s (not tracing)\n", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	atomic_store(&file_bytes, sizeof h);
	cfg.pid = (pid_t)h.pid;
	if (debugging())
		fprintf(stderr, "pfe-trace: recording into %s\n", cfg.path);
	return true;
}

/* "10us", "1M": a number with an optional unit of UNITS (name, factor;
 * the first has the factor of a bare number); false if malformed. */
struct unit {
	const char *name;
	uint64_t factor;
};

/* S: digits, then one of UNITS (strtoull alone would take "-1" and " 1",
 * and a product past 64 bits would wrap). */
static bool parse_scaled(const char *s, const struct unit *units, uint64_t *out)
{
	char *end;
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return false;
	for (const struct unit *u = units; u->name; u++)
		if (strcmp(end, u->name) == 0 && n <= UINT64_MAX / u->factor) {
			*out = n * u->factor;
			return true;
		}
	return false;
}

static const struct unit time_units[] = { { "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
					   { "s", 1000000000 }, { NULL, 0 } };
static const struct unit count_units[] = { { "", 1 }, { NULL, 0 } };
static const struct unit size_units[] = { { "", 1 }, { "K", 1u << 10 }, { "M", 1u << 20 }, { "G", 1u << 30 },
					   { NULL, 0 } };

/* "a number, or one with K, M or G": what UNITS take, into BUF. */
static void units_text(char *buf, size_t size, const struct unit *units)
{
	size_t len = (size_t)snprintf(buf, size, "a number"), named = 0, k = 0;

	for (const struct unit *u = units; u->name; u++)
		named += *u->name != '\0';
	for (const struct unit *u = units; u->name && len < size; u++) {
		const char *sep = k == 0 ? ", or one with " : k + 1 == named ? " or " : ", ";

		if (!*u->name)
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s", sep, u->name);
		k++;
	}
}

/* pfe-trace record's OPTION, the numeric setting VAR (a WHAT), parsed
 * with UNITS into *OUT, left alone if unset. */
static void read_scaled(const char *option, const char *var, const char *what, const struct unit *units,
			uint64_t *out)
{
	const char *value = pfe__getenv(var);
	char want[128], taken[96];

	if (!value || !*value || parse_scaled(value, units, out))
		return;
	units_text(taken, sizeof taken, units);
	snprintf(want, sizeof want, "want %s: %s", what, taken);
	refuse_setting(option, var, value, want);
}

/* The ring's records: the largest power of two in BYTES, at least MIN_RING. */
static uint64_t ring_records(uint64_t bytes)
{
	uint64_t n = MIN_RING;

	while (n * 2 * sizeof(struct pfe_trace_rec) <= bytes)
		n *= 2;
	return n;
}

static void read_settings(void)
{
	uint64_t flight = 0, depth = 0;

	read_scaled("--flight", "PFE_TRACE_FLIGHT", "a size in bytes", size_units, &flight);
	read_scaled("-D", "PFE_TRACE_DEPTH", "a depth in calls", count_units, &depth);
	read_scaled("-t", "PFE_TRACE_TIME", "a time in nanoseconds", time_units, &cfg.min_ns);
	cfg.flight = flight != 0;
	cfg.cap = cfg.flight ? ring_records(flight) : WRITE_ALL_BYTES / sizeof(struct pfe_trace_rec);
	cfg.max_depth = depth > 0xffff ? 0xffff : (unsigned)depth;
	cfg.kill_after_write = pfe__debug("kill-after-write", NULL);
	for (unsigned i = 0; i < 4; i++)
		read_patterns(i);
	cfg.any_filter = npatterns[P_FILTER] > 0;
}

void record_mine(void)
{
	if (cfg.path[0] && my_buf)
		flush_buf(my_buf);
}

/* Every buffer a thread holds, written (while the file can be). */
static void flush_used_bufs(void)
{
	for_each_buf(buf)
		if (cfg.path[0] && atomic_load(&buf->pooled.used))
			flush_buf(buf);
}

/* The buffers written, their files go (the mappings stay: after a
 * failed exec they are memory, a later SIGKILL loses what they hold).
 * Called where no handler writes any more: recording frozen. */
static void remove_spools(void)
{
	char path[SPOOL_PATH_SIZE];

	for (unsigned k = 0, n = atomic_load(&spools); k < n; k++) {
		spool_path(path, sizeof path, k);
		unlink(path);
	}
}

void record_exec(void)
{
	int err;

	if (getpid() != cfg.pid) {
		record_mine();
		return;
	}
	atomic_store(&frozen, true);
	err = pfe__quiesce((uintptr_t)__builtin_dwarf_cfa());
	if (err)
		say("record_exec: a handler still runs; its thread's last records may be torn", pfe_strerror(err));
	pthread_mutex_lock(&ending_lock);
	flush_used_bufs();
	pthread_mutex_unlock(&ending_lock);
	remove_spools();
}

void record_exec_failed(void)
{
	atomic_store(&frozen, false);
}

/* The process ends (_exit, a fatal signal's default action): frozen, so
 * that what a handler records from now on is not left in a spool file
 * (each 1 MiB, one a thread: a forked worker or a c-stack program that
 * _exits left its own), and no quiescence (this may be a signal handler
 * that interrupted a handler of this thread): a record being written
 * now is lost or torn, as before. */
void record_all_now(void)
{
	if (getpid() != cfg.pid) {
		record_mine();
		return;
	}
	atomic_store(&frozen, true);
	flush_used_bufs();
	remove_spools();
}

enum record_mode record_start(void)
{
	const char *dir = pfe__getenv("PFE_TRACE_RECORD");

	if (!dir || !*dir)
		return RECORD_NO;
	read_settings();
	cfg.t0 = trace_now_ns();
	if (!make_file(dir))
		return RECORD_FAILED;
	buf_key_made = pthread_key_create(&buf_key, thread_ends) == 0;
	return RECORD_YES;
}

void record_forked(uint32_t ids)
{
	struct pfe_pooled *theirs = atomic_load(&all_bufs);
	/* Not on the stack: a clone()'s child may have a small one (trace.c),
	 * and has one thread. */
	static char parent[PATH_MAX];
	char *slash;

	/* The parent writes what the buffers held; the other threads are gone
	 * (and may have held the lock, or frozen recording for an exec). */
	pthread_mutex_init(&ending_lock, NULL);
	atomic_store(&frozen, false);
	atomic_store(&next_serial, 0);
	atomic_store(&spools, 0);
	atomic_store(&all_bufs, NULL);
	my_buf = NULL;
	/* A parent without a file (it could not be made) records nothing,
	 * nor does its child; the child's file is made beside its parent's
	 * (an absolute path: pfe-trace's), which names its functions. */
	snprintf(parent, sizeof parent, "%s", cfg.path);
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';	/* the directory, then the name after it */
	if (!slash || !make_file(parent))
		cfg.path[0] = '\0';
	else
		write_parent(slash + 1, ids);
	/* The parent's buffers map its spool files: this thread takes one of
	 * its own at its next call (its call state is its memory's, copied),
	 * and lets theirs go. */
	for (struct pfe_pooled *b = theirs, *next; b; b = next) {
		next = b->next;
		munmap(b, buf_size());
	}
}

/* Recording stops as at an exec (frozen: a handler writes nothing, and a
 * thread takes no buffer), the code left patched: unpatching 100000
 * functions cost some 20 ms of the exit (make bench's trace rows), and
 * the process ends. */
void record_stop(void)
{
	size_t threads = 0;
	int err;

	atomic_store(&frozen, true);
	err = pfe__quiesce((uintptr_t)__builtin_dwarf_cfa());
	if (err)
		say("record_stop: a handler still runs; its thread's last records may be torn", pfe_strerror(err));
	if (!cfg.path[0])
		return;
	pthread_mutex_lock(&ending_lock);
	for_each_buf(buf) {
		flush_buf(buf);
		threads++;
	}
	pthread_mutex_unlock(&ending_lock);
	remove_spools();
	if (debugging())
		fprintf(stderr, "pfe-trace: %zu threads written to %s\n", threads, cfg.path);
}
