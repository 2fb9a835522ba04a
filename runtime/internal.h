/* internal.h: what the parts of libpfe share.
 *
 *   object.c    one loaded object: its file's sections, records, symbols,
 *               and each function's layout (where it is patched, its slot)
 *   patch.c     code writes: the edits of prepare/enable/disable, the
 *               writers (/proc/self/mem, else r-wx pages), the protocols,
 *               barriers, cache maintenance, the x86 int3 trap, veneers
 *               near an object
 *   dispatch.c  the C side of the trampolines: lookup, recursion guard,
 *               exit hooks (a per-thread stack of diverted return addresses)
 *   unwind.c    the unwinder's and pthread_exit's wrappers: real return
 *               addresses while an unwinder walks the stack
 *   api.c       the registry (pfe_init, pfe_rescan) and the public calls
 *   signals.c   SIGTRAP kept libpfe's, the checks and waits that keep
 *               threads blocking it away from int3s (interposed sigaction,
 *               signal, pthread_sigmask...)
 *   tramp-<target>.S  the trampolines; tramp-layout.h where they save
 *               each register of struct pfe_regs and pfe_retregs
 *               (dispatch.c asserts it against the structures)
 *
 * Target facts (bytes, patch sequences, the int3 byte) come only from
 * arch-hooks/arch.h; what is per target here is the host ABI (the
 * saved registers, the signal context's pc), at the end of this file and
 * nowhere else in the C code.
 *
 * Locking: every change of state (init, rescan, attach, enable...) holds
 * pfe__lock (api.c's lock(): cancellation disabled meanwhile; reset in a
 * fork's child); the dispatch path takes no lock: it reads what is
 * published with release stores and never freed, inside a read section
 * (dispatch.c, read_begin) that pfe_synchronize waits for.
 *
 * Debugging: PFE_DEBUG=list prints each function's layout at pfe_init;
 * PFE_DEBUG=stall=MS sleeps MS ms between the phases of every batch (so
 * that threads meet the intermediate states); PFE_DEBUG=mprotect writes
 * code with r-wx pages instead of /proc/self/mem (patch.c).
 */
#ifndef PFE_INTERNAL_H
#define PFE_INTERNAL_H

#include "pfe.h"
#include "../arch-hooks/arch.h"
#include "../arch-hooks/layout.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIDDEN __attribute__((visibility("hidden")))

/* The handler of a function, replaced whole, never freed (a thread may
 * still be reading one it loaded); pfe_attach_all gives every function
 * the same one.  Once no function uses it, pfe_synchronize retires it:
 * no handler of it is called after that (dispatch and pfe__exit check). */
struct pfe_attachment {
	pfe_entry_handler entry;
	pfe_exit_handler exit;
	void *data;
	_Atomic bool retired;
	size_t users;			/* the functions it is attached to (the lock) */
	struct pfe_attachment *next;	/* those not retired yet (api.c) */
};

struct pfe_object;
struct pfe_func;

/* An exit sled (the plugin's exits, arch-hooks/names.h): the NOP before a
 * return or sibling call of FUNC, enabled and disabled with its function
 * (a call of pfe__tramp_exit, _x87 or _tail, or a veneer). */
struct pfe_sled {
	uintptr_t at;
	uintptr_t target;
	struct pfe_func *func;
	int kind;			/* PFE_EXIT_RETURN, _TAIL, _RETURN_X87... */
};

/* What dispatch reads comes first: in one cache line. */
struct pfe_func {
	uintptr_t addr;			/* the entry label */
	_Atomic(struct pfe_attachment *) att;
	const char *name;		/* NULL: no symbol */
	struct pfe_object *obj;
	uintptr_t entry_record;		/* the first NOP, 0 if none */
	uintptr_t call_record;		/* the fentry call site, 0 if none */
	uint16_t pre, pad, post;	/* NOP bytes before, pad, NOP bytes after */
	uint8_t fentry;			/* 0, 1 call, 2 NOP form */
	uintptr_t slot;			/* the ops slot, 0 if none: it holds the
					 * attachment (0 before the first) */
	const struct pfe_enc_patch *patch;	/* NULL: cannot be patched */
	uintptr_t pos;			/* the patched sequence */
	uintptr_t key;			/* its call's return address */
	uintptr_t target;		/* what the call calls (trampoline, veneer) */
	enum pfe_dispatch dispatch;
	const char *why;		/* why it cannot be patched */
	bool enabled;
	/* Its exit sleds (in its object's array), 0 if none: its exit
	 * handlers run from them, its return address is left alone. */
	struct pfe_sled *sleds;
	size_t nsleds;
	/* What its entry trampoline saves of the vector registers: FULL
	 * unless the plugin's record (PFE_SECTION_VECTOR_ARGS) says its
	 * arguments use less and the ops slot's trampolines serve it. */
	enum pfe_vec_save { PFE_VEC_FULL, PFE_VEC_LOW16, PFE_VEC_NONE } vec_save;
};

/* F found unpatchable after its layout was classified, for WHY: never
 * attached, enabled or dispatched (pfe_func_info: PFE_ELAYOUT, WHY). */
static inline void pfe__leave_alone(struct pfe_func *f, const char *why)
{
	f->patch = NULL;
	f->dispatch = PFE_DISPATCH_NONE;
	f->why = why;
}

struct pfe_object {
	char *path;
	uintptr_t base;			/* dlpi_addr */
	const void *phdr;		/* dlpi_phdr */
	unsigned long dev, ino;		/* its file's (0, 0: none, the vDSO) */
	_Atomic bool dead;		/* unloaded (dlclose, pfe_rescan) */
	uintptr_t lo, hi;		/* its executable bytes */
	int prot;			/* their protection (PROT_READ|PROT_EXEC) */
	struct pfe_func *funcs;		/* by address */
	size_t nfuncs;
	/* The lookup's table: each patchable function by its key (the
	 * patched call's return address), open addressing, linear probing;
	 * key 0: empty.  A slot holds what a call needs of its function,
	 * so that a lookup in a large object reads one cache line (the
	 * function's descriptor, elsewhere, would be another miss): its
	 * attachment as its ops slot would hold it (pfe__att_word, written
	 * with f->att), its entry.  None (NULL) in the audit copy's objects
	 * (audit.c), which look nothing up. */
	struct pfe_key_slot {
		uintptr_t key;
		struct pfe_func *func;
		_Atomic uintptr_t att;
		uintptr_t addr;
	} *key_slots;
	size_t key_mask;		/* slots - 1 (a power of two) */
	uintptr_t veneers;		/* the veneer page, 0 if none */
	struct pfe_sled *sleds;		/* by function, each one's by address */
	size_t nsleds;
	uintptr_t *sled_at;		/* their addresses, sorted */
};

/* api.c */
extern HIDDEN pthread_mutex_t pfe__lock;
extern HIDDEN const struct pfe_arch *pfe__arch;
/* NAME's value in the environment, read from environ itself: a program
 * may define its own getenv (bash does), which would be a traced call
 * made by libpfe, recorded as the program's. */
HIDDEN const char *pfe__getenv(const char *name);
HIDDEN bool pfe__debug(const char *what, long *value);
HIDDEN long pfe__decimal(const char *p);
/* Sleeps MS milliseconds (nanosleep: a signal handler may call it). */
HIDDEN void pfe__sleep_ms(long ms);
HIDDEN void pfe__warn(const char *func, uintptr_t off, const char *fmt, ...);
/* The next definition of NAME after libpfe's (of LIB's, if not in the
 * global scope): the real function libpfe wraps.  Aborts, saying so, if
 * there is none. */
HIDDEN void *pfe__real(const char *name, const char *lib);
/* NEXT: the real NAME (type TYPE) of LIB, looked up at its first call. */
#define PFE_REAL(type, name, lib) \
	static _Atomic(type) real_##name; \
	type next = atomic_load_explicit(&real_##name, memory_order_relaxed); \
	if (!next) \
		atomic_store_explicit(&real_##name, next = (type)pfe__real(#name, lib), memory_order_relaxed)

/* object.c: read one object; 0, or an error (nothing added). */
struct pfe_object_id {
	const char *name;		/* dlpi_name; "" for the main program */
	uintptr_t base;
	const void *phdr;
	unsigned phnum;
	bool is_main;
	unsigned long dev, ino;		/* the file's, 0 if it has none */
	bool unrelocated;		/* mapped, not yet relocated (audit.c):
					   its records are as the link wrote
					   them, less the base */
};
HIDDEN int pfe__object_load(const struct pfe_object_id *id, struct pfe_object **out);
/* An object pfe__object_load read and nothing else refers to. */
HIDDEN void pfe__object_free(struct pfe_object *o);

/* audit.c: whether this copy of libpfe is one the loader opened as an
 * rtld-audit module (its constructors must not start libpfe there). */
HIDDEN bool pfe__audit_copy(void);

/* patch.c: its writer, and with TRAPS the SIGTRAP handler of the int3
 * protocol (not in an rtld-audit copy: a handler is the process's). */
HIDDEN int pfe__patch_init(bool traps);
/* A memory barrier on every thread of the process (membarrier). */
HIDDEN int pfe__membarrier(void);

/* signals.c: HANDLER becomes SIGTRAP's handler, if it is not, the action
 * before it the program's; 0 or PFE_EINVAL. */
HIDDEN int pfe__own_sigtrap(void (*handler)(int, siginfo_t *, void *));
/* What the program's SIGTRAP action does with a SIGTRAP not libpfe's. */
HIDDEN void pfe__chain_trap(siginfo_t *si, void *uc);
/* A batch's int3s may be written from now on: no thread blocks SIGTRAP,
 * no handler would, and changes that would wait until pfe__traps_end;
 * else PFE_ESIGNAL (pfe__traps_end still to be called). */
HIDDEN int pfe__traps_begin(void);
HIDDEN void pfe__traps_end(void);
/* From a constructor: what signals.c looks up before a handler can. */
HIDDEN void pfe__traps_init(void);
/* fork's child: no other thread is changing its signal mask. */
HIDDEN void pfe__traps_forked(void);
/* Before a switch to the context TO (swapcontext, setcontext), whose
 * mask the C library installs unseen: true if SIGTRAP was blocked for it
 * first; pfe__context_resumed(that) once the context swapcontext saved
 * runs again. */
HIDDEN bool pfe__context_blocks(const sigset_t *to);
HIDDEN void pfe__context_resumed(bool blocked);
/* unwind.c: the real siglongjmp, longjmp and __longjmp_chk looked up,
 * from a constructor (a jump out of a signal handler must not call
 * dlsym). */
HIDDEN void pfe__jumps_init(void);
/* What the process would have done without libpfe on signal SIG (also
 * libpfe-trace's fatal signals): OLD's handler (with its mask), nothing
 * (ignored), or the default action. */
HIDDEN void pfe__chain_signal(const struct sigaction *old, int sig, siginfo_t *si, void *uc);
/* trace.c (libpfe-trace only): SA, an action of SIG sigaction read, the
 * one before libpfe-trace's where it is libpfe-trace's. */
HIDDEN void pfe__trace_hide_action(int sig, struct sigaction *sa) __attribute__((weak));
/* Whether SA is the default action. */
static inline bool pfe__default_action(const struct sigaction *sa)
{
	return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_DFL;
}
/* Whether SA ignores its signal. */
static inline bool pfe__ignored_action(const struct sigaction *sa)
{
	return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_IGN;
}
/* Give O's functions their call targets (trampolines, or veneers near O). */
HIDDEN int pfe__place_targets(struct pfe_object *o);
/* The trampoline an exit sled of KIND calls (patch.c's table), or -1 for
 * a kind libpfe does not know. */
HIDDEN int pfe__sled_tramp(int kind);
/* Whether P's disabled form (for some target, where it names one) is at
 * AT already. */
HIDDEN bool pfe__disabled_at(const struct pfe_enc_patch *p, uintptr_t at);
/* Write every function of O in its disabled form. */
HIDDEN int pfe__prepare(struct pfe_object *o);
/* Write each ops slot of the enabled functions of FS[0..n) that does not
 * hold its function's attachment (one batch, if any); pfe__toggle writes
 * the others' as it enables them. */
HIDDEN int pfe__set_slots(struct pfe_func *const *fs, size_t n);
/* Enable or disable FS[0..n) in one batch. */
HIDDEN int pfe__toggle(struct pfe_func *const *fs, size_t n, bool enable);

/* dispatch.c and the trampolines. */
HIDDEN void pfe__tramp_slot(void);
HIDDEN void pfe__tramp_lookup(void);
HIDDEN void pfe__tramp_return(void);
HIDDEN void pfe__tramp_exit(void);
HIDDEN void pfe__tramp_exit_x87(void);
HIDDEN void pfe__tramp_exit_gp(void);
HIDDEN void pfe__tramp_exit_low16(void);
HIDDEN void pfe__tramp_exit_tail(void);
/* An enabled exit sled's trampoline: its function, whose CFA is CFA,
 * returns (R: its return registers), or leaves its frame by a sibling
 * call (pfe__exit_tail, REGS: the callee's arguments).  Nothing if it has
 * no exit pending from a sled-mode entry (entered before it was enabled,
 * or its entry skipped). */
HIDDEN void pfe__exit_sled(struct pfe_retregs *r, uintptr_t cfa);
HIDDEN void pfe__exit_tail(struct pfe_regs *regs);	/* x86_64 (PFE_EXIT_SLEDS) */
/* The bit an ops slot's attachment pointer carries when the function
 * has exit sleds (dispatch.c: no return address diverted). */
#define PFE_SLOT_SLEDS ((uintptr_t)1)
/* The probe of patch.c's writer: pfe__probe returns 0, pfe__probe_one 1;
 * they are as long as each other and adjacent. */
HIDDEN int pfe__probe(void);
HIDDEN int pfe__probe_one(void);
/* A: what the function's ops slot holds (pfe__tramp_slot), or NULL
 * (pfe__tramp_lookup, or a slot not written yet): look KEY up. */
HIDDEN void pfe__dispatch(struct pfe_attachment *a, uintptr_t key, struct pfe_regs *regs);
/* A function returned to pfe__tramp_return, whose stack pointer was SP
 * then: call its exit handler, and put where it really returns to in
 * RA_SLOT, the trampoline's own return address (its unwind information
 * says so: it looks called from there). */
HIDDEN void pfe__exit(struct pfe_retregs *r, uintptr_t sp, uintptr_t *ra_slot);
/* unwind.c, before an unwinder walks this thread's stack from SP: put the
 * real return addresses back into the frames; once it has landed in the
 * frame whose CFA is CFA: call the exits of the frames below it (left)
 * and divert the others' again.  pfe__exits_leave_all: the thread leaves
 * every frame (pthread_exit). */
HIDDEN void pfe__exits_restore(uintptr_t sp);
HIDDEN void pfe__exits_redivert(uintptr_t cfa);
HIDDEN void pfe__exits_leave_all(void);
/* dispatch.c, from an entry handler: whether this thread has an exit
 * pending for FN, i.e. the call entered is inside another of the same
 * function (a recursion; a tail call into itself) on this stack.  O(its
 * pending exits): for pfe-trace's flat table, which counts a recursive
 * function's outermost calls' time only. */
HIDDEN bool pfe__exit_pending_for(const void *fn);
/* pool.c: a pool of per-thread blocks of one size, each beginning with
 * struct pfe_pooled, listed newest first from the pool's head.
 * pfe__pool_take: a free one taken (used), else a new one of SIZE bytes,
 * zeroed, mapped from the file BACKING opens (a descriptor of SIZE bytes)
 * or, when it is NULL or returns -1, anonymous; NULL without memory.
 * pfe__pool_give_back: free for another thread (its thread ended). */
struct pfe_pooled {
	struct pfe_pooled *next;	/* every block of the pool */
	_Atomic unsigned used;		/* 0 or 1: riscv64 has no byte CAS */
};
HIDDEN struct pfe_pooled *pfe__pool_take(struct pfe_pooled *_Atomic *pool, size_t size, int (*backing)(size_t size));
static inline void pfe__pool_give_back(struct pfe_pooled *b)
{
	atomic_store_explicit(&b->used, 0, memory_order_release);
}
/* dispatch.c: a thread's block (its read sections and exit stack), made
 * at its first handler call: the thread key that frees it (pfe_init);
 * the blocks of the threads a fork left behind, free in the child. */
HIDDEN void pfe__threads_init(void);
HIDDEN void pfe__threads_forked(void);
HIDDEN void pfe__parked_lock(void);
HIDDEN void pfe__parked_unlock(void);
/* pfe_synchronize: flip the read sections' epoch and wait until none of
 * the old one is left, at most TIMEOUT_MS: 0, PFE_EBUSY or PFE_ESYNC. */
HIDDEN int pfe__drain(unsigned timeout_ms);
/* This thread's read section closed if it was left (dispatch.c's
 * section_left: a handler siglongjmp'ed out of) as seen from HERE, the
 * CFA of a call made outside any handler. */
HIDDEN void pfe__section_close_left(uintptr_t here);
/* api.c: pfe_synchronize's wait without libpfe's lock: when it returns 0,
 * every handler call that began before it has ended (PFE_EBUSY or
 * PFE_ESYNC if not).  HERE: the caller's CFA (__builtin_dwarf_cfa()), for
 * pfe__section_close_left: this thread would wait for a section it left
 * in vain. */
HIDDEN int pfe__quiesce(uintptr_t here);
/* api.c: libpfe's fork handlers (pthread_atfork's prepare, parent,
 * child), for a fork that runs no atfork handler: libpfe-trace.so's
 * clone() without CLONE_VM. */
HIDDEN void pfe__fork_prepare(void);
HIDDEN void pfe__fork_parent(void);
HIDDEN void pfe__fork_child(void);
/* A forced unwind (thread cancellation: glibc's own unwinder, which
 * unwind.c's wrappers do not see) left the frame whose CFA is CFA and
 * which returns to pfe__tramp_return, and those it called: call their
 * exit handlers (retregs NULL); return where the frame really returns
 * to.  From pfe__tramp_unwound, where pfe__personality lands. */
HIDDEN uintptr_t pfe__exit_unwound(uintptr_t cfa);
HIDDEN void pfe__tramp_unwound(void);
/* unwind.c: the personality routine of pfe__tramp_return's unwind
 * information; the real _Unwind_Resume of a forced unwind landed in
 * pfe__tramp_unwound, called from pfe__tramp_resume. */
struct unwind_exception;
struct unwind_context;
HIDDEN int pfe__personality(int version, int actions, uint64_t exception_class, struct unwind_exception *e,
			    struct unwind_context *context);
HIDDEN _Noreturn void pfe__unwind_resume(struct unwind_exception *e);
HIDDEN struct pfe_key_slot *pfe__lookup_key(uintptr_t key);
/* The first slot of KEY in a table of MASK + 1 slots. */
static inline size_t pfe__key_hash(uintptr_t key, size_t mask)
{
	return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15u) >> 32) & mask;
}
/* KEY's slot in O's table (the slots from its hash up to the first
 * empty one), or NULL. */
static inline struct pfe_key_slot *pfe__key_slot(const struct pfe_object *o, uintptr_t key)
{
	for (size_t k = pfe__key_hash(key, o->key_mask);; k = (k + 1) & o->key_mask) {
		if (o->key_slots[k].key == key)
			return &o->key_slots[k];
		if (!o->key_slots[k].key)
			return NULL;
	}
}
/* What F's ops slot and key slot hold for attachment A: A, with
 * PFE_SLOT_SLEDS when F has exit sleds. */
static inline uintptr_t pfe__att_word(const struct pfe_func *f, const struct pfe_attachment *a)
{
	return a && f->nsleds ? (uintptr_t)a | PFE_SLOT_SLEDS : (uintptr_t)a;
}

/* The published objects (api.c). */
#define PFE_MAX_OBJECTS 1024
extern HIDDEN struct pfe_object *pfe__objects[PFE_MAX_OBJECTS];
extern HIDDEN _Atomic size_t pfe__nobjects;

/* Counters (pfe_get_stats). */
struct pfe_counters {
	_Atomic uint64_t batches, barriers, sites_written, trap_hits;
	_Atomic uint64_t recursion_skips, exit_skips, unknown_calls;
	_Atomic uint64_t icache_flushes, parked_searches;
};
extern HIDDEN struct pfe_counters pfe__counters;
#define PFE_COUNT(name, n) atomic_fetch_add_explicit(&pfe__counters.name, (n), memory_order_relaxed)

/* Sort the N records of SIZE bytes at BASE by the uintptr_t at OFF in
 * each, stably (object.c: nothing done when they are in order, else a
 * radix sort); PFE_ENOMEM. */
HIDDEN int pfe__sort_by_key(void *base, size_t n, size_t size, size_t off);

/* The first of N records of SIZE bytes at BASE (sorted by the uintptr_t
 * at OFF in each) whose key is not below KEY; N if none.  The symbols, the
 * lookup's keys and the functions by address are each searched so. */
static inline size_t pfe__lower_bound(const void *base, size_t n, size_t size, size_t off, uintptr_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (*(const uintptr_t *)((const char *)base + mid * size + off) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- the host ABI: the one place libpfe's C code is per target ----
 * (each target's bytes are arch-hooks/<target>/bytes.c's; tramp-<target>.S
 * saves the registers as struct pfe_regs, runtime/pfe.h, lays them out)
 *
 *   PFE_SLOT_BIAS        the patched call's length: the ops slot, from the
 *                        key, is ((key - PFE_SLOT_BIAS - gap) & ~7) - 8,
 *                        as the trampolines compute it (pfe__slot_entry)
 *   PFE_NARG_REGS        integer argument registers; pfe__arg_reg(R, I)
 *                        is the saved one, NULL past them
 *   PFE_STACK_ARG(R, I)  stack argument I (the first after the registers)
 *   PFE_RETVAL(RR)       the integer return value
 *   PFE_RETURN_SLOT(R)   where the function's return address is saved
 *   PFE_ENTRY_CFA(R)     the function's CFA: the stack pointer before the
 *                        call that entered it
 *   PFE_CALLEE_POP       how far above its CFA a function may return
 *                        (i386: a hidden struct pointer popped by ret $4)
 *   PFE_RA_SEARCH_LO(CFA, INNER)  where a frame whose CFA is CFA may
 *                        keep its return address, from (up to CFA;
 *                        INNER: the stack pointer of the frame it called):
 *                        x86's is on the stack, just below the CFA;
 *                        aarch64's and riscv's is in a register at the
 *                        entry, saved anywhere in the frame
 *   PFE_CONTEXT_PC(MC)   the pc in a signal's mcontext_t (needs
 *                        _GNU_SOURCE and <ucontext.h>)
 *   PFE_CONTEXT_SP(MC)   its stack pointer
 *   PFE_PROC_MEM_WRITES  1: code may be written through /proc/self/mem
 *                        (the kernel copies an aligned 4- or 8-byte
 *                        word with one store); riscv 0: its memcpy copies
 *                        small writes byte by byte, and every write
 *                        flushes every hart's icache
 *   PFE_CODE_SPANS       1: /proc/self/mem writes may cover the bytes
 *                        between a phase's edits (rewritten as they are:
 *                        x86 fetches bytes; no instruction can tear)
 *   PFE_FLUSH            the cache maintenance after a phase's writes:
 *                        PFE_FLUSH_PHASE one flush covers it (riscv: the
 *                        flush_icache call is of every hart's whole
 *                        icache); _EACH one per edit (aarch64: DC/IC of
 *                        its lines); _NONE (x86: the i-cache is coherent)
 *   PFE_EXIT_SLEDS       1: the trampolines of exit sleds exist (x86_64);
 *                        0: exit handlers divert the return address
 *   PFE_SLOT_VEC_SAVES   1: pfe__tramp_slot_low16 and _no_vectors exist,
 *                        for the functions whose arguments use only the
 *                        low 16 bytes of vector registers or none
 *                        (x86_64); 0: every entry saves them in full
 *   PFE_SLOT_AFTER_HASH  1: pfe__tramp_slot_after_hash exists, for an ops
 *                        slot before a kCFI hash word (slot, hash, entry:
 *                        pfe_layout_slot_hash_gap); 0: x86, whose hash is
 *                        code (the plugin refuses the layout)
 */
#define PFE_FLUSH_NONE 0
#define PFE_FLUSH_EACH 1
#define PFE_FLUSH_PHASE 2
#if defined(__x86_64__)
#define PFE_SLOT_BIAS 5
#define PFE_NARG_REGS 6
static inline uint64_t *pfe__arg_reg(struct pfe_regs *r, unsigned i)
{
	uint64_t *regs[PFE_NARG_REGS] = { &r->rdi, &r->rsi, &r->rdx, &r->rcx, &r->r8, &r->r9 };

	return i < PFE_NARG_REGS ? regs[i] : NULL;
}
#define PFE_STACK_ARG(r, i) (((const uint64_t *)(r)->sp)[1 + (i)])	/* above the return address */
#define PFE_RETVAL(rr) ((rr)->rax)
#define PFE_RETURN_SLOT(r) ((uintptr_t *)(r)->sp)
#define PFE_CONTEXT_PC(mc) ((uintptr_t *)&(mc)->gregs[REG_RIP])
#define PFE_CONTEXT_SP(mc) ((uintptr_t *)&(mc)->gregs[REG_RSP])
#define PFE_CALLEE_POP 0
#define PFE_ENTRY_CFA(r) ((r)->sp + 8)
#define PFE_RA_SEARCH_LO(cfa, inner) ((void)(inner), (cfa) - 8)
#define PFE_PROC_MEM_WRITES 1
#define PFE_CODE_SPANS 1
#define PFE_FLUSH PFE_FLUSH_NONE
#define PFE_SLOT_AFTER_HASH 0
#define PFE_EXIT_SLEDS 1
#define PFE_SLOT_VEC_SAVES 1
#elif defined(__i386__)
/* cdecl: every argument on the stack, in 4-byte slots. */
#define PFE_SLOT_BIAS 5
#define PFE_NARG_REGS 0
static inline uint32_t *pfe__arg_reg(struct pfe_regs *r, unsigned i)
{
	(void)r, (void)i;
	return NULL;
}
#define PFE_STACK_ARG(r, i) (((const uint32_t *)(uintptr_t)(r)->sp)[1 + (i)])
#define PFE_RETVAL(rr) ((rr)->eax)
#define PFE_RETURN_SLOT(r) ((uintptr_t *)(uintptr_t)(r)->sp)
#define PFE_CONTEXT_PC(mc) ((uintptr_t *)&(mc)->gregs[REG_EIP])
#define PFE_CONTEXT_SP(mc) ((uintptr_t *)&(mc)->gregs[REG_ESP])
#define PFE_CALLEE_POP 4
#define PFE_ENTRY_CFA(r) ((uintptr_t)(r)->sp + 4)
#define PFE_RA_SEARCH_LO(cfa, inner) ((void)(inner), (cfa) - 4)
#define PFE_PROC_MEM_WRITES 1
#define PFE_CODE_SPANS 1
#define PFE_FLUSH PFE_FLUSH_NONE
#define PFE_SLOT_AFTER_HASH 0
#define PFE_EXIT_SLEDS 0
#define PFE_SLOT_VEC_SAVES 0
#elif defined(__aarch64__)
#define PFE_SLOT_BIAS 8
#define PFE_NARG_REGS 8
static inline uint64_t *pfe__arg_reg(struct pfe_regs *r, unsigned i)
{
	return i < PFE_NARG_REGS ? &r->x[i] : NULL;
}
#define PFE_STACK_ARG(r, i) (((const uint64_t *)(r)->sp)[i])
#define PFE_RETVAL(rr) ((rr)->x[0])
#define PFE_RETURN_SLOT(r) ((uintptr_t *)&(r)->lr)
#define PFE_CONTEXT_PC(mc) ((uintptr_t *)&(mc)->pc)
#define PFE_CONTEXT_SP(mc) ((uintptr_t *)&(mc)->sp)
#define PFE_CALLEE_POP 0
#define PFE_ENTRY_CFA(r) ((uintptr_t)(r)->sp)
#define PFE_RA_SEARCH_LO(cfa, inner) (inner)
#define PFE_PROC_MEM_WRITES 1
#define PFE_CODE_SPANS 0
#define PFE_FLUSH PFE_FLUSH_EACH
#define PFE_SLOT_AFTER_HASH 1
#define PFE_EXIT_SLEDS 0
#define PFE_SLOT_VEC_SAVES 0
#elif defined(__riscv)
#define PFE_SLOT_BIAS 8
#define PFE_NARG_REGS 8
static inline uint64_t *pfe__arg_reg(struct pfe_regs *r, unsigned i)
{
	return i < PFE_NARG_REGS ? &r->a[i] : NULL;
}
#define PFE_STACK_ARG(r, i) (((const uint64_t *)(r)->sp)[i])
#define PFE_RETVAL(rr) ((rr)->a[0])
#define PFE_RETURN_SLOT(r) ((uintptr_t *)&(r)->ra)
#define PFE_CONTEXT_PC(mc) ((uintptr_t *)&(mc)->__gregs[REG_PC])
#define PFE_CONTEXT_SP(mc) ((uintptr_t *)&(mc)->__gregs[REG_SP])
#define PFE_CALLEE_POP 0
#define PFE_ENTRY_CFA(r) ((uintptr_t)(r)->sp)
#define PFE_RA_SEARCH_LO(cfa, inner) (inner)
#define PFE_PROC_MEM_WRITES 0
#define PFE_CODE_SPANS 0
#define PFE_FLUSH PFE_FLUSH_PHASE
#define PFE_SLOT_AFTER_HASH 1
#define PFE_EXIT_SLEDS 0
#define PFE_SLOT_VEC_SAVES 0
#else
#error "libpfe: no trampolines for this target (x86_64, i386, aarch64, riscv64)"
#endif

#if PFE_SLOT_AFTER_HASH
HIDDEN void pfe__tramp_slot_after_hash(void);
/* pfe__dispatch for pfe__tramp_slot_after_hash. */
HIDDEN void pfe__dispatch_after_hash(struct pfe_attachment *a, uintptr_t key, struct pfe_regs *regs);
#define PFE_TRAMP_SLOT_AFTER_HASH ((uintptr_t)pfe__tramp_slot_after_hash)
#else
#define PFE_TRAMP_SLOT_AFTER_HASH ((uintptr_t)0)
#endif
#if PFE_SLOT_VEC_SAVES
HIDDEN void pfe__tramp_slot_low16(void);
HIDDEN void pfe__tramp_slot_no_vectors(void);
#define PFE_TRAMP_SLOT_LOW16 ((uintptr_t)pfe__tramp_slot_low16)
#define PFE_TRAMP_SLOT_NO_VECTORS ((uintptr_t)pfe__tramp_slot_no_vectors)
#else
#define PFE_TRAMP_SLOT_LOW16 ((uintptr_t)0)
#define PFE_TRAMP_SLOT_NO_VECTORS ((uintptr_t)0)
#endif
#if PFE_EXIT_SLEDS
#define PFE_TRAMP_EXIT ((uintptr_t)pfe__tramp_exit)
#define PFE_TRAMP_EXIT_X87 ((uintptr_t)pfe__tramp_exit_x87)
#define PFE_TRAMP_EXIT_GP ((uintptr_t)pfe__tramp_exit_gp)
#define PFE_TRAMP_EXIT_LOW16 ((uintptr_t)pfe__tramp_exit_low16)
#define PFE_TRAMP_EXIT_TAIL ((uintptr_t)pfe__tramp_exit_tail)
#else
#define PFE_TRAMP_EXIT ((uintptr_t)0)
#define PFE_TRAMP_EXIT_X87 ((uintptr_t)0)
#define PFE_TRAMP_EXIT_GP ((uintptr_t)0)
#define PFE_TRAMP_EXIT_LOW16 ((uintptr_t)0)
#define PFE_TRAMP_EXIT_TAIL ((uintptr_t)0)
#endif

/* The bytes between the ops slot of a function entered at ENTRY and its
 * entry: its kCFI hash where the entry is 4 past an 8-aligned slot (slot,
 * hash, entry), else none. */
static inline unsigned pfe__slot_gap(uintptr_t entry)
{
	unsigned gap = PFE_SLOT_AFTER_HASH ? pfe_layout_slot_hash_gap(pfe__arch) : 0;

	return gap && entry % 8 == gap ? gap : 0;
}

/* The entry of a function dispatched through its ops slot, from its key
 * and the gap between its slot and its entry: the patched call's first
 * byte is less than 8 bytes past the entry, which is GAP past an 8-aligned
 * address, the end of the slot (tramp-<target>.S computes the same). */
static inline uintptr_t pfe__slot_entry(uintptr_t key, unsigned gap)
{
	return ((key - PFE_SLOT_BIAS - gap) & ~(uintptr_t)7) + gap;
}

#endif /* PFE_INTERNAL_H */
