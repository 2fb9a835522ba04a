/* trace-read.c: pfe-trace-read, the reader of `pfe-trace record`'s files
 * (trace-format.h): a host tool, whatever target wrote them.
 *
 *   pfe-trace-read report PATH...   per function: calls, total, self and
 *                                   average time (total counts a recursive
 *                                   function's outermost call only; self
 *                                   leaves out the callees)
 *   pfe-trace-read replay PATH...   the call tree of each thread
 *   pfe-trace-read chrome PATH...   Chrome trace JSON (B/E events)
 *   pfe-trace-read flame PATH...    folded stacks for flamegraph.pl (self
 *                                   time in ns a stack)
 *   pfe-trace-read dump PATH...     every record, as written
 * A PATH is a record file or a directory of them (*.pfetrace); a record
 * file's spool files beside it (FILE.buf<k>, its buffers, which a process
 * killed by SIGKILL left unwritten) are read with it, and a fork's
 * child's functions in its parent's file beside it.  Output on
 * stdout; what was lost (flight recorder wraps, exits never seen) is said
 * on stderr.  Exit status 0, 1 when a file is unreadable or not a record
 * file, 2 for a usage error.
 *
 * How: a file is mapped (not copied: the reader's memory is its
 * functions and call depth, whatever the file's size); its blocks of
 * records are gathered by thread (serial) where they lie, and each
 * thread's records are walked once, a process at a time (its names and
 * mapping let go before the next is read): entries push a
 * frame, exits pop it, and each command is a visitor of the frames'
 * starts and ends.  Depths resynchronise the walk where records are
 * missing (a flight recorder's ring starts mid-call; a call deeper than
 * libpfe's stack of exits has no exit).
 * Debugging: the dump command; runtime/README.md, "pfe-trace record".
 */
#define _GNU_SOURCE
#include "trace-format.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static _Noreturn void out_of_memory(void)
{
	fputs("pfe-trace-read: out of memory\n", stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

/* Make room for one more of N elements of SIZE in *P (capacity *CAP). */
static void grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return;
	*cap = *cap ? *cap * 2 : 16;
	*(void **)p = xrealloc(*(void **)p, *cap * size);
}

/* A run of records: a block's, where the mapped record file holds them
 * (or a spool file's, copied: freed with its process). */
struct run {
	const struct pfe_trace_rec *recs;
	size_t n;
	bool copied;
};

/* One thread's records, in order: its blocks' runs. */
struct thread {
	uint32_t serial, tid;
	uint64_t lost, end_ns;
	struct run *runs;
	size_t nruns, cap;
	size_t n;		/* records in all */
};

/* A function's id by the low 32 bits of its address. */
struct addr_id {
	uint32_t low, id;
};

struct process {
	const char *file;
	const char *data;	/* the file, mapped */
	size_t size;
	uint32_t pid;
	char **names;		/* by function id; NULL: none */
	size_t nnames;
	struct addr_id *addrs;	/* every function's, sorted once read */
	size_t naddrs, addrs_cap;
	struct thread *threads;
	size_t nthreads, cap;
};

static const char *func_name(const struct process *p, uint32_t id)
{
	static char unknown[32];

	if (id < p->nnames && p->names[id])
		return p->names[id];
	snprintf(unknown, sizeof unknown, "func#%" PRIu32, id);
	return unknown;
}

static struct thread *thread_of(struct process *p, const struct pfe_trace_block *b)
{
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i].serial == b->serial)
			return &p->threads[i];
	grow(&p->threads, p->nthreads, &p->cap, sizeof *p->threads);
	p->threads[p->nthreads] = (struct thread){ .serial = b->serial, .tid = b->tid, .lost = b->lost };
	return &p->threads[p->nthreads++];
}

/* What the block readers return for a block cut short (an empty block,
 * of no function or record, is 0 bytes long). */
#define CUT_SHORT SIZE_MAX

/* A block of functions at DATA (SIZE bytes left), of which P takes those
 * of ids below BELOW; its length, or CUT_SHORT. */
static size_t read_funcs(struct process *p, const struct pfe_trace_block *b, const char *data, size_t size,
			 uint32_t below)
{
	size_t at = 0;

	for (uint32_t i = 0; i < b->n; i++) {
		struct pfe_trace_func f;
		size_t len;

		if (size - at < sizeof f)
			return CUT_SHORT;
		memcpy(&f, data + at, sizeof f);
		len = sizeof f + (f.name_len + 7u) / 8 * 8;
		if (size - at < len)
			return CUT_SHORT;
		at += len;
		if (f.id >= below)
			continue;
		if (f.id >= p->nnames) {
			p->names = xrealloc(p->names, (f.id + 1) * sizeof *p->names);
			memset(p->names + p->nnames, 0, (f.id + 1 - p->nnames) * sizeof *p->names);
			p->nnames = f.id + 1;
		}
		free(p->names[f.id]);
		p->names[f.id] = f.name_len ? strndup(data + at - len + sizeof f, f.name_len) : NULL;
		grow(&p->addrs, p->naddrs, &p->addrs_cap, sizeof *p->addrs);
		p->addrs[p->naddrs++] = (struct addr_id){ (uint32_t)f.addr, f.id };
	}
	return at;
}

/* The length of block B of records, SIZE bytes left; or CUT_SHORT. */
static size_t records_len(const struct pfe_trace_block *b, size_t size)
{
	size_t bytes = (size_t)b->n * sizeof(struct pfe_trace_rec);

	return size < bytes ? CUT_SHORT : bytes;
}

/* A block of records at DATA (SIZE bytes left; COPIED: a spool file's,
 * the process's to free); its length, or CUT_SHORT. */
static size_t read_records(struct process *p, const struct pfe_trace_block *b, const char *data, size_t size,
			   bool copied)
{
	struct thread *t;
	size_t bytes = records_len(b, size);

	if (bytes == CUT_SHORT || !b->n)
		return bytes;
	t = thread_of(p, b);
	grow(&t->runs, t->nruns, &t->cap, sizeof *t->runs);
	t->runs[t->nruns++] = (struct run){ (const struct pfe_trace_rec *)(const void *)data, b->n, copied };
	t->n += b->n;
	t->end_ns = b->end_ns;
	return bytes;
}

/* The file PATH mapped read-only, its size in *SIZE; NULL (errno) if it
 * cannot be.  Mapped, not read: a record file of a minute of a busy
 * program is tens of GB (a copy of it was the reader's memory, and the
 * OOM killer ended it), and the walks read its blocks where they are. */
static const char *map_file(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *data = MAP_FAILED;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0)
		;
	else if (!S_ISREG(st.st_mode))
		errno = EINVAL;
	else if ((*size = (size_t)st.st_size) == 0)
		data = (void *)"";
	else
		data = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return data == MAP_FAILED ? NULL : data;
}

static void unmap_file(const char *data, size_t size)
{
	if (size)
		munmap((void *)data, size);
}

static int by_low_then_id(const void *a, const void *b)
{
	const struct addr_id *x = a, *y = b;

	return x->low != y->low ? (x->low < y->low ? -1 : 1) : x->id < y->id ? -1 : x->id > y->id;
}

/* The id of a spool's record that names its function by address: the
 * first function of those 32 bits (trace-format.h). */
static uint32_t id_by_addr(const struct process *p, uint32_t low)
{
	size_t lo = 0, hi = p->naddrs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->addrs[mid].low < low)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->naddrs && p->addrs[lo].low == low ? p->addrs[lo].id : PFE_TRACE_NO_FUNC;
}

/* Whether the N records RECS of a spool file (block B) are what its
 * thread's last block in the record file holds: its process was killed
 * after writing the buffer and before emptying it (trace-record.c's
 * flush_buf), and they are read once.  Records hold times: a spool read
 * for the first time never matches. */
static bool written_already(struct process *p, const struct pfe_trace_block *b, const struct pfe_trace_rec *recs)
{
	struct thread *t = b->n ? thread_of(p, b) : NULL;
	const struct run *last = t && t->nruns ? &t->runs[t->nruns - 1] : NULL;

	return last && last->n == b->n && !memcmp(last->recs, recs, b->n * sizeof *recs);
}

/* The records the spool file PATH kept (its process killed by SIGKILL
 * before it wrote them), added to P's as a block of their thread, which
 * ends at the last record's time; false if there is no such file. */
static bool read_spool(struct process *p, const char *path)
{
	struct pfe_trace_spool s;
	struct pfe_trace_block b = { .kind = PFE_TRACE_RECORDS };
	struct pfe_trace_rec *recs;
	size_t size, at = PFE_TRACE_SPOOL_AT + sizeof s;
	const char *data = map_file(path, &size);
	uint64_t n;

	if (!data)
		return false;
	if (size >= at && !memcmp(data + PFE_TRACE_SPOOL_AT, &(struct pfe_trace_spool){ 0 }, sizeof s)) {
		unmap_file(data, size);	/* its process ended before its first record */
		return true;
	}
	if (size < at || (memcpy(&s, data + PFE_TRACE_SPOOL_AT, sizeof s), memcmp(s.magic, PFE_TRACE_SPOOL_MAGIC, 8)) ||
	    !s.cap || (s.cap & (s.cap - 1)) || (size - at) / sizeof *recs < s.cap) {
		fprintf(stderr, "pfe-trace-read: %s: not a buffer's spool file (left out)\n", path);
		unmap_file(data, size);
		return true;
	}
	n = s.head < s.cap ? s.head : s.cap;
	recs = xrealloc(NULL, n * sizeof *recs + 1);
	for (uint64_t i = 0, first = s.head - n; i < n; i++) {
		struct pfe_trace_rec *r = &recs[i];

		memcpy(r, data + at + ((first + i) & (s.cap - 1)) * sizeof *r, sizeof *r);
		if (r->kind & PFE_TRACE_BY_ADDR) {
			r->func = id_by_addr(p, r->func);
			r->kind &= ~PFE_TRACE_BY_ADDR;
		}
		if (r->kind != PFE_TRACE_ARG && r->kind != PFE_TRACE_RETVAL && r->value > b.end_ns)
			b.end_ns = r->value;
	}
	b.n = (uint32_t)n;
	b.tid = s.tid;
	b.serial = s.serial;
	b.lost = s.head - n;
	/* RECS is the run's now, freed with P. */
	if (written_already(p, &b, recs) || read_records(p, &b, (const char *)recs, n * sizeof *recs, true) == 0)
		free(recs);
	unmap_file(data, size);
	return true;
}

static int by_serial(const void *a, const void *b)
{
	const struct thread *x = a, *y = b;

	return x->serial < y->serial ? -1 : x->serial > y->serial;
}

/* Whether DATA (SIZE bytes, the file PATH) is a record file, its header
 * in *H; said if not. */
static bool record_header(const char *path, const char *data, size_t size, struct pfe_trace_header *h)
{
	if (size >= sizeof *h && (memcpy(h, data, sizeof *h), !memcmp(h->magic, PFE_TRACE_MAGIC, 8)) &&
	    h->version == PFE_TRACE_VERSION)
		return true;
	fprintf(stderr, "pfe-trace-read: %s: not a pfe-trace record file (version %u)\n", path, PFE_TRACE_VERSION);
	return false;
}

/* A fork's child's ancestors' files, one inside the other: a file that
 * named itself (torn, or written by hand) ends there. */
#define MAX_PARENT_LEVELS 1024

static void read_blocks(struct process *p, const char *path, const char *data, size_t size, uint32_t below,
			unsigned level);

/* A block naming the record file of P's parent (beside PATH, the file
 * LEVEL files up from P's) at DATA (SIZE bytes left): the functions of
 * ids below its IDS (and BELOW) read from there, said when they cannot
 * be; its length, or CUT_SHORT. */
static size_t read_parent(struct process *p, const char *path, const char *data, size_t size, uint32_t below,
			  unsigned level)
{
	struct pfe_trace_parent par;
	struct pfe_trace_header h;
	const char *slash = strrchr(path, '/'), *pdata = NULL;
	size_t len, psize = 0;
	char *parent;

	if (size < sizeof par)
		return CUT_SHORT;
	memcpy(&par, data, sizeof par);
	len = sizeof par + (par.name_len + (size_t)7) / 8 * 8;
	if (size < len || !par.name_len || memchr(data + sizeof par, '/', par.name_len))
		return CUT_SHORT;
	if (asprintf(&parent, "%.*s%.*s", slash ? (int)(slash - path + 1) : 0, path, (int)par.name_len,
		     data + sizeof par) < 0)
		out_of_memory();
	if (level >= MAX_PARENT_LEVELS)
		fprintf(stderr, "pfe-trace-read: %s: its functions are named in %s, %u files up (left out)\n", p->file,
			parent, level);
	else if (!(pdata = map_file(parent, &psize)))
		fprintf(stderr, "pfe-trace-read: %s: its functions are named in %s: %s\n", p->file, parent,
			strerror(errno));
	else if (record_header(parent, pdata, psize, &h))
		read_blocks(p, parent, pdata, psize, par.ids < below ? par.ids : below, level + 1);
	if (pdata)
		unmap_file(pdata, psize);
	free(parent);
	return len;
}

/* The blocks of the record file PATH (DATA, SIZE bytes) into P: its
 * functions of ids below BELOW, and its records when it is P's own
 * (LEVEL 0; a parent's LEVEL files up).  A process's ids grow through
 * its file (its parent's first, then its own block by block): a parent's
 * is read up to the last id its child had, not through its records (a
 * shell's, hundreds of MB, for each of its thousands of children). */
static void read_blocks(struct process *p, const char *path, const char *data, size_t size, uint32_t below,
			unsigned level)
{
	size_t at = sizeof(struct pfe_trace_header);

	while (size - at >= sizeof(struct pfe_trace_block) && !(level && p->nnames >= below)) {
		struct pfe_trace_block b;
		size_t len = CUT_SHORT;

		memcpy(&b, data + at, sizeof b);
		at += sizeof b;
		if (b.kind == PFE_TRACE_FUNCS)
			len = read_funcs(p, &b, data + at, size - at, below);
		else if (b.kind == PFE_TRACE_RECORDS)
			len = level ? records_len(&b, size - at) : read_records(p, &b, data + at, size - at, false);
		else if (b.kind == PFE_TRACE_PARENT && b.n == 1)
			len = read_parent(p, path, data + at, size - at, below, level);
		if (len == CUT_SHORT) {
			fprintf(stderr, "pfe-trace-read: %s: a block cut short or unknown at byte %zu (the rest is left out)\n",
				path, at - sizeof b);
			break;
		}
		at += len;
	}
}

/* Read the record file PATH into *P; false (said) if it is not one. */
static bool read_process(const char *path, struct process *p)
{
	struct pfe_trace_header h;
	size_t size = 0;
	const char *data = map_file(path, &size);

	*p = (struct process){ .file = path, .data = data, .size = size };
	if (!data) {
		fprintf(stderr, "pfe-trace-read: %s: %s\n", path, strerror(errno));
		return false;
	}
	if (!record_header(path, data, size, &h)) {
		unmap_file(data, size);
		return false;
	}
	p->pid = h.pid;
	read_blocks(p, path, data, size, UINT32_MAX, 0);
	qsort(p->addrs, p->naddrs, sizeof *p->addrs, by_low_then_id);
	for (unsigned k = 0;; k++) {
		char *spool;

		if (asprintf(&spool, "%s%s%u", path, PFE_TRACE_SPOOL_SUFFIX, k) < 0)
			out_of_memory();
		if (!read_spool(p, spool)) {
			free(spool);
			break;
		}
		free(spool);
	}
	qsort(p->threads, p->nthreads, sizeof *p->threads, by_serial);
	return true;
}

/* Let go of what read_process took for P. */
static void free_process(struct process *p)
{
	for (size_t i = 0; i < p->nnames; i++)
		free(p->names[i]);
	free(p->names);
	free(p->addrs);
	for (size_t i = 0; i < p->nthreads; i++) {
		for (size_t j = 0; j < p->threads[i].nruns; j++)
			if (p->threads[i].runs[j].copied)
				free((void *)p->threads[i].runs[j].recs);
		free(p->threads[i].runs);
	}
	free(p->threads);
	unmap_file(p->data, p->size);
}

/* The walk: a frame a call.  The recorder writes at most 8 arguments. */
#define MAX_ARGS 16
enum leave_how { LEFT_RETURN, LEFT_UNWOUND, LEFT_RUNNING, LEFT_LOST };

struct frame {
	uint32_t func;
	uint16_t depth;
	uint64_t start, child_ns;
	uint64_t args[MAX_ARGS];
	uint8_t argn[MAX_ARGS], nargs;
	bool has_ret;
	uint64_t ret;
	size_t mark;		/* the visitor's */
};

struct walk;
struct visitor {
	void (*enter)(struct walk *w, struct frame *f);
	/* DURATION: end - start; F->child_ns: its callees' (already added) */
	void (*leave)(struct walk *w, struct frame *f, uint64_t end, enum leave_how how);
};

struct walk {
	const struct visitor *v;
	const struct process *p;
	const struct thread *t;
	struct frame *stack;
	size_t depth, cap;
	bool entered;		/* the top's enter was called */
	unsigned floor;		/* the lowest depth of the records so far:
				 * a frame further out began before them */
	uint64_t lost_exits, orphans;
};

static void announce_top(struct walk *w)
{
	if (w->depth && !w->entered) {
		w->entered = true;
		if (w->v->enter)
			w->v->enter(w, &w->stack[w->depth - 1]);
	}
}

static void pop(struct walk *w, uint64_t end, enum leave_how how)
{
	struct frame *f = &w->stack[w->depth - 1];

	announce_top(w);
	if (end < f->start)
		end = f->start;
	if (w->v->leave)
		w->v->leave(w, f, end, how);
	w->depth--;
	if (w->depth)
		w->stack[w->depth - 1].child_ns += end - f->start;
	w->lost_exits += how == LEFT_LOST;
}

static void walk_entry(struct walk *w, const struct pfe_trace_rec *r)
{
	announce_top(w);
	while (w->depth && w->stack[w->depth - 1].depth >= r->depth)
		pop(w, r->value, LEFT_LOST);
	grow(&w->stack, w->depth, &w->cap, sizeof *w->stack);
	w->stack[w->depth++] = (struct frame){ .func = r->func, .depth = r->depth, .start = r->value };
	w->entered = false;
}

static struct frame *top_if(struct walk *w, const struct pfe_trace_rec *r)
{
	struct frame *f = w->depth ? &w->stack[w->depth - 1] : NULL;

	return f && f->func == r->func && f->depth == r->depth ? f : NULL;
}

static void walk_exit(struct walk *w, const struct pfe_trace_rec *r)
{
	size_t i = w->depth;

	while (i && w->stack[i - 1].depth > r->depth)
		i--;
	if (!i || w->stack[i - 1].depth != r->depth || w->stack[i - 1].func != r->func) {
		/* Its entry is not in the trace: of a frame entered before
		 * the thread's records begin when it is further out than
		 * all of them (a fork's child goes on in its parent's calls;
		 * a flight recorder's ring starts mid-call), else lost. */
		if (i || r->depth >= w->floor)
			w->orphans++;
		return;
	}
	while (w->depth > i)
		pop(w, r->value, LEFT_LOST);
	pop(w, r->value, r->kind == PFE_TRACE_EXIT ? LEFT_RETURN : LEFT_UNWOUND);
}

static void walk_record(struct walk *w, const struct pfe_trace_rec *r)
{
	struct frame *f;

	switch (r->kind) {
	case PFE_TRACE_ENTRY:
		walk_entry(w, r);
		break;
	case PFE_TRACE_ARG:
		if ((f = top_if(w, r)) && !w->entered && f->nargs < MAX_ARGS) {
			f->argn[f->nargs] = r->index;
			f->args[f->nargs++] = r->value;
		}
		break;
	case PFE_TRACE_RETVAL:
		if ((f = top_if(w, r))) {
			f->has_ret = true;
			f->ret = r->value;
		}
		break;
	case PFE_TRACE_EXIT:
	case PFE_TRACE_UNWOUND:
		walk_exit(w, r);
		break;
	default:
		w->orphans++;
	}
	if (r->depth < w->floor)
		w->floor = r->depth;
}

/* Walk each thread of P with V. */
static void walk_process(const struct process *p, const struct visitor *v, void (*each_thread)(struct walk *w))
{
	for (size_t i = 0; i < p->nthreads; i++) {
		struct walk w = { .v = v, .p = p, .t = &p->threads[i], .floor = UINT_MAX };

		if (each_thread)
			each_thread(&w);
		for (size_t j = 0; j < w.t->nruns; j++)
			for (size_t k = 0; k < w.t->runs[j].n; k++)
				walk_record(&w, &w.t->runs[j].recs[k]);
		while (w.depth)
			pop(&w, w.t->end_ns, LEFT_RUNNING);
		if (w.t->lost)
			fprintf(stderr, "pfe-trace-read: %s: thread %" PRIu32 ": the %" PRIu64
				" records before these were overwritten (flight recorder)\n", p->file, w.t->tid, w.t->lost);
		if (w.lost_exits || w.orphans)
			fprintf(stderr, "pfe-trace-read: %s: thread %" PRIu32 ": %" PRIu64 " calls without their exit, %"
				PRIu64 " exits without their entry\n", p->file, w.t->tid, w.lost_exits, w.orphans);
		free(w.stack);
	}
}

/* A map from strings to counters (report: by name; flame: by stack). */
struct entry {
	char *key;
	uint64_t calls, total, self;
	unsigned running;	/* report: calls of it on the thread's stack */
};

struct map {
	struct entry *slots;
	size_t n, cap;
};

static size_t hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static struct entry *lookup(struct map *m, const char *key)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct map bigger = { calloc(m->cap ? m->cap * 2 : 64, sizeof *m->slots), 0, m->cap ? m->cap * 2 : 64 };

		if (!bigger.slots)
			out_of_memory();
		for (size_t j = 0; j < m->cap; j++)
			if (m->slots[j].key)
				*lookup(&bigger, m->slots[j].key) = m->slots[j];
		free(m->slots);
		*m = bigger;
	}
	for (i = hash(key) & (m->cap - 1); m->slots[i].key; i = (i + 1) & (m->cap - 1))
		if (strcmp(m->slots[i].key, key) == 0)
			return &m->slots[i];
	m->slots[i].key = strdup(key);
	m->n++;
	return &m->slots[i];
}

/* The entries of M, sorted by CMP. */
static struct entry **sorted(const struct map *m, int (*cmp)(const void *, const void *))
{
	struct entry **all = xrealloc(NULL, (m->n + 1) * sizeof *all);
	size_t n = 0;

	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			all[n++] = &m->slots[i];
	qsort(all, n, sizeof *all, cmp);
	return all;
}

/* report */
static struct map report_map;

static void report_enter(struct walk *w, struct frame *f)
{
	struct entry *e = lookup(&report_map, func_name(w->p, f->func));

	e->calls++;
	e->running++;
}

static void report_leave(struct walk *w, struct frame *f, uint64_t end, enum leave_how how)
{
	struct entry *e = lookup(&report_map, func_name(w->p, f->func));
	uint64_t duration = end - f->start;

	(void)how;
	if (--e->running == 0)
		e->total += duration;
	e->self += duration - f->child_ns;
}

static int by_total(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->key, y->key);
}

static void report_process(const struct process *p)
{
	static const struct visitor v = { report_enter, report_leave };

	walk_process(p, &v, NULL);
}

static void report_table(void)
{
	struct entry **all = sorted(&report_map, by_total);

	printf("%10s %14s %14s %14s  %s\n", "calls", "total_us", "self_us", "avg_us", "function");
	for (size_t i = 0; i < report_map.n; i++)
		printf("%10" PRIu64 " %14.3f %14.3f %14.3f  %s\n", all[i]->calls, all[i]->total / 1e3, all[i]->self / 1e3,
		       all[i]->total / 1e3 / (double)all[i]->calls, all[i]->key);
	free(all);
}

/* replay: a call is printed when its first callee starts ("f() {") or
 * when it ends without one ("f() = 3;", with its duration). */
static bool replay_open;	/* the top frame's line is not printed yet */

/* F's line, indented for the LEVEL of calls out of it on the stack: its
 * name (a C++ one without its parameters: the recorded arguments go
 * there) and its arguments. */
static void print_call(struct walk *w, const struct frame *f, size_t level)
{
	const char *name = func_name(w->p, f->func);

	printf("%*s%.*s(", 2 * (int)level, "", (int)pfe_trace_name_bare_len(name), name);
	for (unsigned i = 0; i < f->nargs; i++) {
		int64_t s = (int64_t)f->args[i];

		if (s >= INT32_MIN && s <= INT32_MAX)
			printf("%sarg%u=%" PRId64, i ? ", " : "", f->argn[i], s);
		else
			printf("%sarg%u=%#" PRIx64, i ? ", " : "", f->argn[i], f->args[i]);
	}
	putchar(')');
}

static void replay_enter(struct walk *w, struct frame *f)
{
	if (replay_open && w->depth > 1) {
		printf("%13s | ", "");
		print_call(w, &w->stack[w->depth - 2], w->depth - 2);
		puts(" {");
	}
	(void)f;
	replay_open = true;
}

/* A duration of NS in the replay's column: 13 characters in the first
 * unit it is below a million of (us, ms, s), as uftrace's replay changes
 * units, so that " | " stays in its column; a call of a second or more
 * in us took 14 and shifted its line. */
static void print_duration(uint64_t ns)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = { { "us", 1e3 }, { "ms", 1e6 }, { " s", 1e9 } };
	size_t u = 0;

	while (u + 1 < sizeof units / sizeof units[0] && ns / units[u].ns >= 999999.9995)
		u++;
	/* Past a million seconds (a torn record's time) in 10 characters too. */
	printf(ns / units[u].ns >= 999999.9995 ? "%10.3e %s | " : "%10.3f %s | ", ns / units[u].ns, units[u].name);
}

static const char *const how_note[] = { "", " /* unwound */", " /* still running */", " /* exit lost */" };

static void replay_leave(struct walk *w, struct frame *f, uint64_t end, enum leave_how how)
{
	const char *name = func_name(w->p, f->func);

	print_duration(end - f->start);
	if (replay_open) {
		print_call(w, f, w->depth - 1);
		if (f->has_ret)
			printf(" = %" PRId64, (int64_t)f->ret);
		printf(";%s\n", how_note[how]);
	} else {
		printf("%*s}", 2 * (int)(w->depth - 1), "");
		if (f->has_ret)
			printf(" = %" PRId64 ";", (int64_t)f->ret);
		printf(" /* %.*s */%s\n", (int)pfe_trace_name_bare_len(name), name, how_note[how]);
	}
	replay_open = false;
}

static void replay_thread(struct walk *w)
{
	printf("# pid %" PRIu32 " tid %" PRIu32 " (thread %" PRIu32 ")\n", w->p->pid, w->t->tid, w->t->serial);
	replay_open = false;
}

static void replay_process(const struct process *p)
{
	static const struct visitor v = { replay_enter, replay_leave };

	walk_process(p, &v, replay_thread);
}

/* chrome: {"traceEvents":[...]}, a B event a call and an E event at its end. */
static bool chrome_first = true;

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void chrome_event(struct walk *w, const struct frame *f, char ph, uint64_t ns)
{
	printf("%s\n{\"name\":", chrome_first ? "" : ",");
	chrome_first = false;
	json_string(func_name(w->p, f->func));
	printf(",\"ph\":\"%c\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32 ",\"ts\":%" PRIu64 ".%03u", ph, w->p->pid,
	       w->t->tid, ns / 1000, (unsigned)(ns % 1000));
}

static void chrome_enter(struct walk *w, struct frame *f)
{
	chrome_event(w, f, 'B', f->start);
	if (f->nargs) {
		printf(",\"args\":{");
		for (unsigned i = 0; i < f->nargs; i++)
			printf("%s\"arg%u\":%" PRId64, i ? "," : "", f->argn[i], (int64_t)f->args[i]);
		putchar('}');
	}
	putchar('}');
}

static void chrome_leave(struct walk *w, struct frame *f, uint64_t end, enum leave_how how)
{
	static const char *const how_name[] = { "return", "unwound", "still running", "exit lost" };

	chrome_event(w, f, 'E', end);
	printf(",\"args\":{\"end\":\"%s\"", how_name[how]);
	if (f->has_ret)
		printf(",\"retval\":%" PRId64, (int64_t)f->ret);
	printf("}}");
}

static void chrome_start(void)
{
	printf("{\"traceEvents\":[");
}

static void chrome_process(const struct process *p)
{
	static const struct visitor v = { chrome_enter, chrome_leave };

	walk_process(p, &v, NULL);
}

static void chrome_finish(void)
{
	printf("\n],\"displayTimeUnit\":\"ns\"}\n");
}

/* flame: "main;f;g NS", the self time of each stack. */
static struct map flame_map;
static char *flame_path;
static size_t flame_len, flame_cap;

static void flame_enter(struct walk *w, struct frame *f)
{
	const char *name = func_name(w->p, f->func);
	size_t len = strlen(name);

	f->mark = flame_len;
	grow(&flame_path, flame_len + len + 2, &flame_cap, 1);
	flame_len += (size_t)sprintf(flame_path + flame_len, "%s%s", flame_len ? ";" : "", name);
}

static void flame_leave(struct walk *w, struct frame *f, uint64_t end, enum leave_how how)
{
	(void)w;
	(void)how;
	lookup(&flame_map, flame_path)->self += end - f->start - f->child_ns;
	flame_len = f->mark;
	flame_path[flame_len] = '\0';
}

static int by_key(const void *a, const void *b)
{
	return strcmp((*(struct entry *const *)a)->key, (*(struct entry *const *)b)->key);
}

static void flame_process(const struct process *p)
{
	static const struct visitor v = { flame_enter, flame_leave };

	walk_process(p, &v, NULL);
}

static void flame_stacks(void)
{
	struct entry **all = sorted(&flame_map, by_key);

	for (size_t i = 0; i < flame_map.n; i++)
		printf("%s %" PRIu64 "\n", all[i]->key, all[i]->self);
	free(all);
}

/* dump: the records as they are. */
static void dump_process(const struct process *p)
{
	static const char *const kinds[] = { "?", "entry", "exit", "unwound", "arg", "retval" };

	for (size_t j = 0; j < p->nthreads; j++) {
		const struct thread *t = &p->threads[j];

		printf("# %s: pid %" PRIu32 " tid %" PRIu32 " thread %" PRIu32 ": %zu records, %" PRIu64
		       " lost before, end %" PRIu64 "\n", p->file, p->pid, t->tid, t->serial, t->n, t->lost, t->end_ns);
		for (size_t k = 0; k < t->nruns; k++)
			for (const struct pfe_trace_rec *r = t->runs[k].recs; r < t->runs[k].recs + t->runs[k].n; r++)
				printf("%-7s %5u %" PRIu64 " %s/%u\n", kinds[r->kind <= 5 ? r->kind : 0], r->depth, r->value,
				       func_name(p, r->func), r->index);
	}
}

/* The process number of record file PATH's name (PID.pfetrace) and its
 * image's (PID-N.pfetrace: a later one of that pid, after an exec). */
static void file_number(const char *path, unsigned long *pid, unsigned long *image)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *end;

	*pid = strtoul(name, &end, 10);
	*image = *end == '-' ? strtoul(end + 1, NULL, 10) : 0;
}

/* Record files in the order their processes made them: by pid, a pid's
 * images in order (names as numbers: 9 before 10, 5 before 5-1). */
static int by_process(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	unsigned long xp, xi, yp, yi;

	file_number(x, &xp, &xi);
	file_number(y, &yp, &yi);
	if (xp != yp)
		return xp < yp ? -1 : 1;
	if (xi != yi)
		return xi < yi ? -1 : 1;
	return strcmp(x, y);
}

/* The record files of PATH: itself, or the *.pfetrace in it (sorted). */
static void add_path(const char *path, char ***files, size_t *n, size_t *cap)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	size_t first = *n;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode) || !(d = opendir(path))) {
		grow(files, *n, cap, sizeof **files);
		(*files)[(*n)++] = strdup(path);
		return;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), slen = strlen(PFE_TRACE_SUFFIX);

		if (len > slen && strcmp(e->d_name + len - slen, PFE_TRACE_SUFFIX) == 0) {
			grow(files, *n, cap, sizeof **files);
			if (asprintf(&(*files)[(*n)++], "%s/%s", path, e->d_name) < 0)
				out_of_memory();
		}
	}
	closedir(d);
	if (*n == first)
		fprintf(stderr, "pfe-trace-read: %s: no record file (*%s) in it\n", path, PFE_TRACE_SUFFIX);
	qsort(*files + first, *n - first, sizeof **files, by_process);
}

/* A command: START before the first process read, PROCESS each in turn
 * (read, walked, let go: the reader's memory is one process's), FINISH
 * after the last; neither when none could be read (no table of nothing
 * under the messages). */
static const struct command {
	const char *name;
	void (*start)(void);
	void (*process)(const struct process *p);
	void (*finish)(void);
} commands[] = {
	{ "report", NULL, report_process, report_table },
	{ "replay", NULL, replay_process, NULL },
	{ "chrome", chrome_start, chrome_process, chrome_finish },
	{ "flame", NULL, flame_process, flame_stacks },
	{ "dump", NULL, dump_process, NULL },
};

/* Run C on the record files FILES (N); the exit status. */
static int run_command(const struct command *c, char **files, size_t n)
{
	size_t nread = 0;
	int status = 0;

	for (size_t i = 0; i < n; i++) {
		struct process p;

		if (!read_process(files[i], &p)) {
			status = 1;
			continue;
		}
		if (!nread++ && c->start)
			c->start();
		c->process(&p);
		free_process(&p);
	}
	if (nread && c->finish)
		c->finish();
	return status || !nread;
}

int main(int argc, char **argv)
{
	char **files = NULL;
	size_t nfiles = 0, cap = 0;

	for (size_t c = 0; argc >= 3 && c < sizeof commands / sizeof *commands; c++) {
		if (strcmp(argv[1], commands[c].name) != 0)
			continue;
		for (int i = 2; i < argc; i++)
			add_path(argv[i], &files, &nfiles, &cap);
		return run_command(&commands[c], files, nfiles);
	}
	fputs("usage: pfe-trace-read report|replay|chrome|flame|dump FILE-OR-DIR...\n", stderr);
	return 2;
}
