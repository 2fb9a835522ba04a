/* trace.h: what the two halves of libpfe-trace.so share: trace.c finds and
 * attaches the functions (at load, after each dlopen) and prints the flat
 * table; trace-record.c records every call into per-thread buffers when
 * `pfe-trace record` asks (PFE_TRACE_RECORD).  Internal to the library.
 * Debugging: PFE_DEBUG=1 makes both say what they do on stderr.
 */
#ifndef PFE_RUNTIME_TRACE_H
#define PFE_RUNTIME_TRACE_H

#include "pfe.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most arguments recorded of one function (-A). */
#define TRACE_MAX_ARGS 8

/* What the record filters make of a function (trace-record.c). */
enum {
	TRACE_FILTER = 1,	/* -F: record it and its callees */
	TRACE_NOTRACE = 2,	/* -N: record neither it nor its callees */
	TRACE_RETVAL = 4,	/* -R: record its return value */
	TRACE_OWN_ID = 8,	/* recorded by id: another function has the low 32
				 * bits of its address (trace-record.c) */
};

/* A traced function: what its handlers get as data. */
struct trace_func {
	struct pfe_func *func;
	char *demangled;		/* a C++ name as people read it, or NULL */
	uint32_t id;			/* in record files */
	uint8_t flags;			/* TRACE_FILTER... */
	uint8_t nargs;			/* -A: how many of ARGS */
	uint8_t args[TRACE_MAX_ARGS];	/* argument numbers, from 1 */
	_Atomic uint64_t calls, ns;	/* the flat table */
};

/* trace.c: call FN on each block of functions traced so far (the lock
 * held: FN must not dlopen). */
void trace_for_each(void (*fn)(struct trace_func *fs, size_t n));

/* trace.c: F's name as reports show it (demangled when it is C++). */
const char *trace_func_name(const struct trace_func *f);

/* trace.c: CLOCK_MONOTONIC in nanoseconds. */
uint64_t trace_now_ns(void);

/* trace.c: whether a file of SIZE bytes may grow by LEN within the
 * process's file size limit (RLIMIT_FSIZE, ulimit -f).  A write past it
 * would end the traced process with SIGXFSZ: pfe-trace makes none
 * (async-signal-safe: a fatal signal's handler writes too). */
bool trace_size_allows(uint64_t size, uint64_t len);

/* trace-record.c.  Whether this process records (PFE_TRACE_RECORD names
 * a directory): RECORD_YES when its file is made and the filters read,
 * RECORD_FAILED (said on stderr) when it cannot be: nothing is traced. */
enum record_mode { RECORD_NO, RECORD_YES, RECORD_FAILED };
enum record_mode record_start(void);
/* Before the N functions FS are attached: apply the filters to them and
 * write their names to the file; false (said) if they cannot be recorded. */
bool record_functions(struct trace_func *fs, size_t n);
/* Whether F's calls are recorded without data of its own (no filter or
 * argument applies to it, its address names it): such functions share
 * one attachment, whose data is trace_plain (a call reads nothing per
 * function). */
static inline bool trace_func_plain(const struct trace_func *f)
{
	return !f->flags && !f->nargs;
}
extern const struct trace_func trace_plain;
void record_entry(struct pfe_call *c);
void record_exit(struct pfe_call *c);
/* In a child after fork (trace.c's lock held): a file of its own, which
 * names its functions (ids below IDS) by its parent's. */
void record_forked(uint32_t ids);
/* What this thread's buffer holds written (a crash a handler before ours
 * may recover from). */
void record_mine(void);
/* Before an exec (trace.c): every thread's records written, the others'
 * once no handler runs (recording frozen: their calls from now on are
 * not recorded; a vfork child writes its own alone), the spool files
 * removed; after a failed one, recording goes on (record_exec_failed)
 * into buffers that are memory. */
void record_exec(void);
void record_exec_failed(void);
/* The process ends now (_exit, trace.c; a crash): recording frozen,
 * every thread's records written (another's last record torn or lost at
 * most: the process is going), the spool files removed; the calling
 * thread's records alone in a vfork child (the others are its parent's,
 * which goes on). */
void record_all_now(void);
/* At exit: stop recording and write what the buffers hold. */
void record_stop(void);

#endif /* PFE_RUNTIME_TRACE_H */
