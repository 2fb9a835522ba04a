/* trace-format.h: the file `pfe-trace record` writes (runtime/trace-record.c)
 * and pfe-trace-read reads (runtime/trace-read.c): one file a process,
 * a header and blocks.  runtime/README.md ("Record files") describes it.
 *
 * Every field is little-endian, the byte order of the four targets, and
 * fixed-width, laid out without padding on all of them (the asserts
 * below): the writer stores these structures as they are in memory and a
 * reader on any of them reads a file written by any other.
 * Debugging: od -A d -t x1 FILE | head shows the header and first block.
 */
#ifndef PFE_RUNTIME_TRACE_FORMAT_H
#define PFE_RUNTIME_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PFE_TRACE_MAGIC "PFETRACE"
#define PFE_TRACE_VERSION 1u
/* A record's function when the recorder could not name it. */
#define PFE_TRACE_NO_FUNC UINT32_MAX
/* The record files' name: DIR/<pid>.pfetrace (DIR/<pid>-<n>.pfetrace when
 * a process of that id, one that exec'ed, wrote one already). */
#define PFE_TRACE_SUFFIX ".pfetrace"

struct pfe_trace_header {
	char magic[8];		/* PFE_TRACE_MAGIC, no NUL */
	uint32_t version;	/* PFE_TRACE_VERSION */
	uint32_t pid;
};

enum pfe_trace_block_kind {
	PFE_TRACE_FUNCS = 1,	/* N functions: struct pfe_trace_func, name, padding */
	PFE_TRACE_RECORDS = 2,	/* N records of one thread: struct pfe_trace_rec */
	PFE_TRACE_PARENT = 3,	/* N 1: struct pfe_trace_parent, its file's name,
				 * padding */
};

struct pfe_trace_block {
	uint32_t kind;		/* enum pfe_trace_block_kind */
	uint32_t n;
	uint32_t tid;		/* RECORDS: the thread's id (gettid) */
	uint32_t serial;	/* RECORDS: the thread's buffer in this process
				 * (a tid may be reused by a later thread;
				 * a serial is not) */
	uint64_t lost;		/* RECORDS: records of this thread overwritten
				 * before these (flight recorder) */
	uint64_t end_ns;	/* RECORDS: when the block was written
				 * (CLOCK_MONOTONIC): the end of calls still
				 * running then */
};

/* A function: its name (NAME_LEN bytes, no NUL) follows, then zeros up to
 * a multiple of 8 bytes. */
struct pfe_trace_func {
	uint32_t id;		/* what records name it by */
	uint32_t name_len;
	uint64_t addr;		/* its entry in the process */
};

/* A fork's child names the functions it had at the fork (ids below IDS)
 * by its parent's record file, in the same directory, where they are
 * (the table of a shell's child is tens of kB, a build forks thousands):
 * the file's name (NAME_LEN bytes, no NUL) follows, then zeros up to a
 * multiple of 8 bytes. */
struct pfe_trace_parent {
	uint32_t ids;
	uint32_t name_len;
};

enum pfe_trace_rec_kind {
	PFE_TRACE_ENTRY = 1,	/* value: the time (CLOCK_MONOTONIC ns) */
	PFE_TRACE_EXIT = 2,	/* value: the time; the function returned */
	PFE_TRACE_UNWOUND = 3,	/* value: the time; the frame was left
				 * without returning (longjmp, exception),
				 * noticed then */
	PFE_TRACE_ARG = 4,	/* value: argument INDEX (from 1) of the
				 * entry before it */
	PFE_TRACE_RETVAL = 5,	/* value: the return value; the exit follows */
};

struct pfe_trace_rec {
	uint64_t value;
	uint32_t func;		/* struct pfe_trace_func's id */
	uint16_t depth;		/* 1 for the outermost recorded call */
	uint8_t kind;		/* enum pfe_trace_rec_kind */
	uint8_t index;		/* PFE_TRACE_ARG: the argument's number */
};

/* A thread's buffer while its process runs is a file of its own beside
 * the record file, <record file>.buf<k> (k from 0 in each process),
 * mapped shared: what it holds outlives a process killed by SIGKILL (the
 * kernel keeps the pages), and the reader adds it to the record file's
 * records.  The process's own PFE_TRACE_SPOOL_AT bytes come first (not
 * read), then this header, then CAP records, the one put K-th at K % CAP.
 * A record of a function recorded without data of its own names it by
 * the low 32 bits of its address there, kind | PFE_TRACE_BY_ADDR: its id
 * is that of the first function in the file with those 32 bits (the
 * recorder gives it when it writes the records to the file). */
#define PFE_TRACE_SPOOL_SUFFIX ".buf"
#define PFE_TRACE_SPOOL_MAGIC "PFESPOOL"
#define PFE_TRACE_SPOOL_AT 64
#define PFE_TRACE_BY_ADDR 0x80u

struct pfe_trace_spool {
	char magic[8];		/* PFE_TRACE_SPOOL_MAGIC, no NUL */
	uint32_t tid, serial;	/* the thread's, as in a block of records */
	uint64_t head;		/* records put since the buffer was last
				 * written to the file (flight recorder: ever) */
	uint64_t cap;		/* records it holds, a power of two */
};

_Static_assert(sizeof(struct pfe_trace_header) == 16, "header layout");
_Static_assert(sizeof(struct pfe_trace_spool) == 32, "spool layout");
_Static_assert(sizeof(struct pfe_trace_block) == 32, "block layout");
_Static_assert(sizeof(struct pfe_trace_func) == 16, "function layout");
_Static_assert(sizeof(struct pfe_trace_parent) == 8, "parent layout");
_Static_assert(sizeof(struct pfe_trace_rec) == 16, "record layout");

/* A function's name in the file is its symbol, or a C++ function's
 * demangled name (ns::f(int) const).  How long NAME is without its
 * parameter list: up to the '(' that matches its last ')' (ns::f), or
 * all of it when it has none. */
static inline size_t pfe_trace_name_bare_len(const char *name)
{
	const char *close = strrchr(name, ')');
	int depth = 0;

	for (size_t at = close ? (size_t)(close - name) + 1 : 0; at-- > 0;) {
		depth += name[at] == ')' ? 1 : name[at] == '(' ? -1 : 0;
		if (depth == 0)
			return at;
	}
	return strlen(name);
}

#endif /* PFE_RUNTIME_TRACE_FORMAT_H */
