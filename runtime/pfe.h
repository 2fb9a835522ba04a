/* pfe.h: the pfe run-time library (libpfe): find every patchable function
 * entry of the running program and of its shared objects, attach handlers
 * to them, and enable and disable them while other threads run.
 *
 * A program built with pfe (any M,N, fentry, fentry-nop, ops-slot, landing
 * pads) or with GCC's -fpatchable-function-entry is instrumentable on
 * x86_64, i386, aarch64 and riscv64; link with -lpfe or LD_PRELOAD libpfe.so.  runtime/README.md
 * is the reference: every function, its errors, the safety rules.
 *
 *     #include <pfe.h>
 *     static void on_entry(struct pfe_call *c) { ... pfe_arg(c, 0) ... }
 *     struct pfe_func *f = pfe_find("parse");
 *     pfe_attach(f, on_entry, NULL, NULL);
 *     pfe_enable(f);
 *
 * Debugging: pfe_func_info() says how each entry is laid out and why one
 * cannot be patched; PFE_DEBUG=list in the environment prints every
 * function found at pfe_init().
 */
#ifndef PFE_RUNTIME_PFE_H
#define PFE_RUNTIME_PFE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the functions returning int return: 0, or one of these. */
enum pfe_error {
	PFE_OK = 0,
	PFE_EINVAL,	/* a NULL function or handler, an unknown option */
	PFE_ELAYOUT,	/* this entry cannot be patched (pfe_func_info's why) */
	PFE_ENOHANDLER,	/* enable without a handler attached */
	PFE_ENOMEM,	/* out of memory */
	PFE_EPROT,	/* the code cannot be written: /proc/self/mem unusable and
			   mprotect of read+write+execute refused (a W^X
			   policy: PR_SET_MDWE, SELinux execmod); nothing is
			   written */
	PFE_ERANGE,	/* no memory for a veneer within reach of the code */
	PFE_EFILE,	/* an object's file is unreadable or not what is mapped */
	PFE_ESYNC,	/* no way to make other threads see new code (no
			   membarrier, no riscv_flush_icache) */
	PFE_ENOTARGET,	/* libpfe was built for a target it has no trampolines for */
	PFE_EUNLOADED,	/* the function's object was unloaded (dlclose):
			   nothing is written */
	PFE_EBUSY,	/* pfe_synchronize: a handler did not return within
			   10 s (one left by longjmp, or blocked) */
	PFE_ESIGNAL,	/* x86, more than one thread: a thread blocks SIGTRAP,
			   or a signal handler runs with it blocked (its
			   sa_mask has it), which an int3 of the patch
			   protocol would kill: nothing is written */
	PFE_ECOPY,	/* pfe_init: another copy of libpfe serves this process
			   (libpfe.a linked in, run under pfe-trace): this one
			   finds and writes nothing */
};

/* A message for an error code. */
const char *pfe_strerror(int err);

/* One instrumentable function (an entry with a record). */
struct pfe_func;

/* The argument registers at the entry, as the trampoline saved them; a
 * handler may change them (the function then sees the new values). */
struct pfe_regs {
#if defined(__x86_64__)
	uint64_t rdi, rsi, rdx, rcx, r8, r9;
	uint64_t rax;		/* varargs: the number of vector registers used */
	uint64_t r10;		/* the static chain */
	uint64_t sp;		/* where the return address is (read only) */
	uint64_t pad_;
	uint64_t xmm[8][2];	/* xmm0-7; their upper halves (ymm, zmm)
				 * are kept beside, not here.  Not saved
				 * for a function whose arguments use
				 * none (pfe_info's vector_bytes_saved) */
#elif defined(__i386__)
	uint32_t eax, edx, ecx;	/* ecx: the static chain (arguments are on the stack) */
	uint32_t sp;		/* where the return address is (read only) */
	uint8_t fpu[512];	/* x87, MMX and xmm0-7 as the entry had them
				 * (fxsave's image; the rest of the extended
				 * state follows it, by xsave) */
#elif defined(__aarch64__)
	uint64_t x[9];		/* x0-x7 and x8, the indirect result address */
	uint64_t x18;		/* the static chain */
	uint64_t lr;		/* the function's return address (x9 at the entry) */
	uint64_t sp;		/* the stack pointer at the entry (read only) */
	uint64_t v[8][2];	/* q0-q7 */
#elif defined(__riscv)
	uint64_t a[8];
	uint64_t t2;		/* the static chain */
	uint64_t ra;		/* the function's return address */
	uint64_t sp;		/* the stack pointer at the entry (read only) */
	uint64_t pad_;
	uint64_t fa[8];		/* fa0-fa7 as raw bits */
#endif
};

/* The return value registers, for exit handlers. */
struct pfe_retregs {
#if defined(__x86_64__)
	uint64_t rax, rdx;
	uint64_t xmm[2][2];	/* not saved when the plugin's exit sled
				 * knows no vector register holds the value */
#elif defined(__i386__)
	uint32_t eax, edx, pad_[2];
	uint8_t fpu[512];	/* fxsave: st(0) holds a float return value */
#elif defined(__aarch64__)
	uint64_t x[8];
	uint64_t v[4][2];
#elif defined(__riscv)
	uint64_t a[2];
	uint64_t fa[2];
#endif
};

/* What a handler is called with. */
struct pfe_call {
	struct pfe_func *func;		/* NULL when dispatched through the ops
					 * slot, which names no function:
					 * pfe_call_func finds it */
	void *fn;			/* the function's address (its entry label) */
	void *ret;			/* where it returns to (in its caller) */
	struct pfe_regs *regs;		/* entry handlers: the argument registers */
	struct pfe_retregs *retregs;	/* exit handlers: the return value;
					 * NULL: the frame was left without
					 * returning (longjmp, exception) */
	void *data;			/* what pfe_attach was given */
	uint64_t cookie;		/* set by the entry handler, given to the exit one */
};

/* Called at the entry, before the function's first instruction. */
typedef void (*pfe_entry_handler)(struct pfe_call *call);
/* Called when the function returns: while it runs, its return address is
 * diverted to the library (or its exit sleds are used), one of a
 * per-thread stack of PFE_EXIT_DEPTH pending exits; a call deeper gets no
 * exit call, counted as exit_skips.  A function left without returning
 * gets its exit call with CALL->retregs NULL (pfe_retval 0) when libpfe
 * notices: after longjmp, at the thread's next traced call or return at or
 * above it; after a C++ exception, when it is caught; at pthread_exit;
 * under thread cancellation, as the unwind leaves it (runtime/README.md,
 * "Frames left without returning").  Handlers must not throw, longjmp out
 * or call pthread_exit. */
typedef void (*pfe_exit_handler)(struct pfe_call *call);
/* Pending exits a thread (the depth of calls whose exits are taken): 4x
 * uftrace's default, above the 1900 traced frames Lua reaches at its
 * C-stack limit.  Mapped per thread, 72 bytes an exit on 64-bit targets:
 * what a thread has not reached costs no memory. */
#define PFE_EXIT_DEPTH 4096

/* The function called (CALL->func, or found by its address). */
struct pfe_func *pfe_call_func(const struct pfe_call *call);

/* Integer or pointer argument I of the function (I from 0), wherever the
 * ABI puts it (a register, or the stack beyond them). */
uintptr_t pfe_arg(const struct pfe_call *call, unsigned i);
/* Change a register argument I; PFE_EINVAL for a stack argument. */
int pfe_set_arg(struct pfe_call *call, unsigned i, uintptr_t value);
/* The integer return value (exit handlers; 0 when retregs is NULL). */
uintptr_t pfe_retval(const struct pfe_call *call);

/* Find every record of the program and its loaded objects, name the
 * functions and prepare their entries (below).  Idempotent; libpfe calls
 * it from a constructor (unless PFE_NO_INIT=1 is in the environment).
 * Returns the first error met; what was found is usable anyway. */
int pfe_init(void);
/* The same for objects loaded since (dlopen); objects gone are dropped.
 * An entry of an object found after threads started whose preparation
 * would rewrite code (its bytes are not the disabled form as built) is
 * not patched: PFE_ELAYOUT, and pfe_info's why says so.  libpfe
 * interposes dlclose: a function of an object it unloaded is never
 * written again (PFE_EUNLOADED) and is no longer listed. */
int pfe_rescan(void);

/* The functions found: the first (PREV NULL) or the one after PREV. */
struct pfe_func *pfe_next(const struct pfe_func *prev);
size_t pfe_count(void);
/* The function named NAME (the main program's first, then in load
 * order), or NULL. */
struct pfe_func *pfe_find(const char *name);
/* The function whose entry is FN, or NULL. */
struct pfe_func *pfe_find_addr(const void *fn);

/* How a function's entry is laid out and patched. */
enum pfe_dispatch {
	PFE_DISPATCH_NONE,	/* cannot be patched */
	PFE_DISPATCH_SLOT,	/* the trampoline loads the function's ops slot */
	PFE_DISPATCH_LOOKUP,	/* the trampoline looks the call site up */
};
struct pfe_info {
	const char *name;	/* NULL when no symbol names it */
	void *addr;		/* the entry */
	const char *object;	/* the file it is in */
	unsigned pre_bytes;	/* NOP bytes before the entry */
	unsigned pad_bytes;	/* the landing pad (ENDBR, BTI C) */
	unsigned post_bytes;	/* NOP bytes after it (a fentry NOP form included) */
	int fentry;		/* 0 none, 1 a call, 2 its NOP form (as built) */
	int ops_slot;		/* 1 if an 8-byte slot precedes the entry */
	enum pfe_dispatch dispatch;
	void *patch_at;		/* the patched call's first byte */
	int attached, enabled;
	int error;		/* PFE_ELAYOUT, PFE_ERANGE... if it cannot be patched */
	const char *why;	/* and why */
	/* The exit sleds its exit handlers run from (the plugin's exits,
	 * x86_64), 0: they divert its return address instead. */
	unsigned exit_sleds;
	/* What its entry trampoline saves of each vector argument register:
	 * -1 all of it; 16 only the low 16 bytes (xmm), 0 nothing, where
	 * the plugin's vector-args (x86_64) says its arguments use no more:
	 * with 0 its entry handler's regs->xmm are not the function's. */
	int vector_bytes_saved;
};
int pfe_func_info(const struct pfe_func *f, struct pfe_info *out);
const char *pfe_func_name(const struct pfe_func *f);
void *pfe_func_addr(const struct pfe_func *f);

/* Attach ENTRY and EXIT (either may be NULL, not both) and DATA to F,
 * replacing any; attaching does not enable.  Handlers run on the thread
 * that called F; while one runs, calls of instrumented functions on that
 * thread call no handler (counted as recursion_skips). */
int pfe_attach(struct pfe_func *f, pfe_entry_handler entry, pfe_exit_handler exit, void *data);
/* The same handlers and DATA for the N functions FS, in one call: one
 * attachment that all share, so that a call reads nothing per function
 * (handlers tell the functions apart by pfe_call.fn).  When one of FS
 * cannot be attached, none is. */
int pfe_attach_many(struct pfe_func *const *fs, size_t n, pfe_entry_handler entry, pfe_exit_handler exit,
		    void *data);
/* Disable F and forget its handler (a handler already running finishes;
 * the library never frees what a handler was attached with). */
int pfe_detach(struct pfe_func *f);
/* Quiescence: when it returns 0, no thread runs or will run a handler of
 * an attachment that no function had when it was called (detached, or
 * replaced by pfe_attach): the calls in them have returned, and exit
 * handlers still pending on stacks are not called (their functions return
 * as usual).  Then the handlers' data may be freed and their library
 * closed.  PFE_EBUSY after 10 s when a handler does not return.  Never
 * from a handler: it would wait for itself.  A function disabled but
 * still attached may still have its handler called by a call under way. */
int pfe_synchronize(void);
int pfe_enable(struct pfe_func *f);
int pfe_disable(struct pfe_func *f);

/* The same for many functions at once: one batch, whose cost on x86 is
 * three barriers whatever N.  Functions that cannot be patched fail the
 * whole call (nothing changes) unless skipped by the _all variants. */
int pfe_enable_many(struct pfe_func *const *fs, size_t n);
int pfe_disable_many(struct pfe_func *const *fs, size_t n);
/* Every function that can be patched; *ATTACHED (may be NULL) gets how many. */
int pfe_attach_all(pfe_entry_handler entry, pfe_exit_handler exit, void *data, size_t *attached);
int pfe_enable_all(void);	/* every attached function */
int pfe_disable_all(void);
int pfe_detach_all(void);

/* A stack switch libpfe does not see (a coroutine library's own
 * assembler: boost.context, libco; swapcontext and setcontext are
 * libpfe's own, which call this): call it right before the switch.  FROM
 * names the stack left, TO the one resumed (NULL: one that starts), each
 * by a pointer the same at all its switches (its coroutine's object, the
 * ucontext it is saved in).  The exits pending on the stack left are kept
 * under FROM until a switch names it as TO (or one of its frames returns:
 * they are found by its address).  Unannounced, such a switch makes the
 * first return on the other stack abort, saying so.  Per thread: the
 * thread that switches calls it.  A library that must also run without
 * libpfe declares it weak and calls it when it is not NULL (pfe-trace's
 * library defines it too). */
void pfe_stack_switch(const void *from, const void *to);

/* Counters, for tests and tuning. */
struct pfe_stats {
	uint64_t functions;	/* found */
	uint64_t patchable;
	uint64_t batches;	/* code write windows */
	uint64_t barriers;	/* cross-thread synchronisations */
	uint64_t sites_written;
	uint64_t trap_hits;	/* x86: threads that met an int3 mid-patch */
	uint64_t recursion_skips;	/* handler not called: already in one (or the
					   thread got no memory for its state) */
	uint64_t exit_skips;	/* exit not hooked: the thread's stack of them full */
	uint64_t unknown_calls;	/* a trampoline call from no known entry */
	uint64_t icache_flushes;	/* cache maintenance calls (riscv: one
					   flush_icache system call a phase) */
	uint64_t parked_searches;	/* returns whose exits were looked for
					   among the stacks switched away from
					   (a switch unseen or unnamed) */
};
void pfe_get_stats(struct pfe_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* PFE_RUNTIME_PFE_H */
