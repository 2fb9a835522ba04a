/* unwind.c: libpfe's wrappers of the entry points that unwind a thread's
 * stack, so that exit hooks survive them.  A frame with an exit handler
 * returns to pfe__tramp_return, whose unwind information ends the stack
 * there: an unwinder must see the real return addresses instead.  As
 * uftrace's libmcount does, these wrappers (found before libgcc_s's,
 * libstdc++'s and libc's: libpfe is linked into the program or preloaded)
 * put them back before the real function unwinds (dispatch.c,
 * pfe__exits_restore), and once an exception is caught, call the exit
 * handlers of the frames it left and divert the others' again
 * (pfe__exits_redivert at __cxa_begin_catch).
 *
 *   _Unwind_RaiseException       a throw (__cxa_throw,
 *                                std::rethrow_exception)
 *   _Unwind_Resume_or_Rethrow    a rethrow (throw;)
 *   _Unwind_Resume               the end of a cleanup (destructors), which
 *                                may have run code that caught an
 *                                exception of its own (not in a forced
 *                                unwind: below)
 *   __cxa_begin_catch            the exception has landed: the catching
 *                                frame's CFA is in the exception's
 *                                private_2 (libgcc's unwinder puts it
 *                                there)
 *   pthread_exit                 the thread leaves every frame: their exit
 *                                handlers are called, then libc's
 *                                pthread_exit unwinds real frames
 *   swapcontext, setcontext      the thread switches stacks (a coroutine):
 *                                the exits pending on the stack left are
 *                                parked, the other stack's made the
 *                                thread's (pfe_stack_switch); a mask that
 *                                blocks SIGTRAP is blocked first
 *                                (signals.c, pfe__context_blocks)
 *   siglongjmp, longjmp,         the mask sigsetjmp saved is put back:
 *   __longjmp_chk                one that blocks SIGTRAP is blocked first
 *                                (the frames left are noticed later:
 *                                dispatch.c)
 *
 * Thread cancellation unwinds by glibc's own handle of libgcc_s, out of
 * these wrappers' reach: its unwinder meets pfe__tramp_return as a return
 * address.  The unwind information there (tramp-<target>.S) names
 * pfe__personality, which lands a forced unwind in pfe__tramp_unwound:
 * the frame's exit handler is called (pfe__exit_unwound), its real return
 * address put where a call leaves it, and the unwind resumed from
 * pfe__tramp_resume, which looks called from there; so each diverted
 * frame's exit is called as the unwind leaves it, and the C++ destructors
 * and cleanup handlers above it run.  An exception that is not forced
 * (one these wrappers did not see: a program that links libgcc_eh
 * statically) still ends there (runtime/README.md).
 *
 * The real functions are looked up when first called (PFE_REAL: dlsym
 * RTLD_NEXT, or the library's handle when it was loaded with RTLD_LOCAL):
 * a program without libstdc++ or libgcc_s never calls them; the jumps',
 * from the constructor (pfe__jumps_init): a jump is often made out of a
 * signal handler, where dlsym must not run.
 * Debugging: break on pfe__exits_restore and pfe__exits_redivert; a
 * forced unwind, on pfe__personality and pfe__exit_unwound.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <setjmp.h>
#include <stdlib.h>
#include <ucontext.h>

/* The exception header of the Itanium C++ ABI (unwind.h): only what
 * these wrappers read. */
struct unwind_exception {
	uint64_t exception_class;
	void (*cleanup)(int, struct unwind_exception *);
	uintptr_t private_1;		/* 0 but in a forced unwind */
	uintptr_t private_2;		/* the catching frame's CFA */
};

/* The caller's stack pointer: this function's CFA. */
#define CALLER_SP() ((uintptr_t)__builtin_dwarf_cfa())

typedef int (*raise_fn)(struct unwind_exception *);
typedef void (*resume_fn)(struct unwind_exception *);
typedef void *(*catch_fn)(void *);
typedef void (*pthread_exit_fn)(void *);

/* What a personality routine is given and answers (unwind.h). */
struct unwind_context;
typedef void (*set_gr_fn)(struct unwind_context *, int, uintptr_t);
typedef void (*set_ip_fn)(struct unwind_context *, uintptr_t);
enum { UA_FORCE_UNWIND = 8 };
enum { URC_INSTALL_CONTEXT = 7, URC_CONTINUE_UNWIND = 8 };

/* NEXT raises E with the real return addresses in place (SP: the
 * wrapper's caller's stack pointer); it returns only when nothing
 * catches E (std::terminate follows) and nothing was unwound. */
static int raise_real(raise_fn next, struct unwind_exception *e, uintptr_t sp)
{
	int err;

	pfe__exits_restore(sp);
	err = next(e);
	pfe__exits_redivert(sp);
	return err;
}

int _Unwind_RaiseException(struct unwind_exception *e)
{
	PFE_REAL(raise_fn, _Unwind_RaiseException, "libgcc_s.so.1");

	return raise_real(next, e, CALLER_SP());
}

int _Unwind_Resume_or_Rethrow(struct unwind_exception *e)
{
	PFE_REAL(raise_fn, _Unwind_Resume_or_Rethrow, "libgcc_s.so.1");

	return raise_real(next, e, CALLER_SP());
}

void _Unwind_Resume(struct unwind_exception *e)
{
	PFE_REAL(resume_fn, _Unwind_Resume, "libgcc_s.so.1");

	/* A forced unwind meets each diverted frame (pfe__personality). */
	if (!e->private_1)
		pfe__exits_restore(CALLER_SP());
	next(e);
	abort();
}

void *__cxa_begin_catch(void *exception)
{
	PFE_REAL(catch_fn, __cxa_begin_catch, "libstdc++.so.6");
	const struct unwind_exception *e = exception;

	/* A forced unwind (cancellation) diverted nothing back. */
	if (!e->private_1)
		pfe__exits_redivert(e->private_2);
	return next(exception);
}

/* The setters of the unwinder that calls pfe__personality: a forced
 * unwind runs in libgcc_s, looked up only then. */
static void set_gr(struct unwind_context *context, int reg, uintptr_t value)
{
	PFE_REAL(set_gr_fn, _Unwind_SetGR, "libgcc_s.so.1");

	next(context, reg, value);
}

static void set_ip(struct unwind_context *context, uintptr_t ip)
{
	PFE_REAL(set_ip_fn, _Unwind_SetIP, "libgcc_s.so.1");

	next(context, ip);
}

/* The personality routine of the return address pfe__tramp_return: a
 * forced unwind lands in pfe__tramp_unwound with the frame's registers
 * (the stack pointer is its CFA) and the exception in the first register
 * a landing pad gets; any other goes on, to the end of the stack (the
 * unwind information's). */
int pfe__personality(int version, int actions, uint64_t exception_class, struct unwind_exception *e,
		     struct unwind_context *context)
{
	(void)exception_class;
	if (version != 1 || !(actions & UA_FORCE_UNWIND))
		return URC_CONTINUE_UNWIND;

	set_gr(context, __builtin_eh_return_data_regno(0), (uintptr_t)e);
	set_ip(context, (uintptr_t)pfe__tramp_unwound);
	return URC_INSTALL_CONTEXT;
}

void pfe__unwind_resume(struct unwind_exception *e)
{
	PFE_REAL(resume_fn, _Unwind_Resume, "libgcc_s.so.1");

	next(e);
	abort();
}

typedef int (*swapcontext_fn)(ucontext_t *, const ucontext_t *);
typedef int (*setcontext_fn)(const ucontext_t *);

int swapcontext(ucontext_t *restrict from, const ucontext_t *restrict to)
{
	PFE_REAL(swapcontext_fn, swapcontext, "libc.so.6");
	bool blocked = pfe__context_blocks(&to->uc_sigmask);
	int ret;

	/* Back on FROM's stack, its exits are found by their CFAs when its
	 * frames return (dispatch.c): it may be resumed by glibc's own
	 * setcontext (uc_link), which no wrapper sees. */
	pfe_stack_switch(from, to);
	ret = next(from, to);
	pfe__context_resumed(blocked);
	return ret;
}

int setcontext(const ucontext_t *to)
{
	PFE_REAL(setcontext_fn, setcontext, "libc.so.6");
	bool blocked = pfe__context_blocks(&to->uc_sigmask);
	int ret;

	pfe_stack_switch(NULL, to);
	ret = next(to);
	pfe__context_resumed(blocked);	/* it failed */
	return ret;
}

/* glibc's siglongjmp and longjmp (one function) and fortify's
 * __longjmp_chk put back the mask sigsetjmp saved, which no wrapper sees:
 * as a switch of context does. */
typedef void (*jump_fn)(struct __jmp_buf_tag *, int);
enum { SIGLONGJMP, LONGJMP, LONGJMP_CHK, NJUMPS };
static const char *const jump_names[NJUMPS] = { "siglongjmp", "longjmp", "__longjmp_chk" };
static _Atomic(jump_fn) real_jumps[NJUMPS];

/* The real jump WHICH, looked up if a jump came before the constructor. */
static jump_fn real_jump(int which)
{
	jump_fn next = atomic_load_explicit(&real_jumps[which], memory_order_relaxed);

	if (!next)
		atomic_store_explicit(&real_jumps[which], next = (jump_fn)pfe__real(jump_names[which], "libc.so.6"),
				      memory_order_relaxed);
	return next;
}

void pfe__jumps_init(void)
{
	for (int i = 0; i < NJUMPS; i++)
		real_jump(i);
}

static _Noreturn void jump(int which, struct __jmp_buf_tag *env, int val)
{
	if (env->__mask_was_saved)
		pfe__context_blocks(&env->__saved_mask);
	real_jump(which)(env, val);
	abort();
}

void siglongjmp(sigjmp_buf env, int val)
{
	jump(SIGLONGJMP, env, val);
}

void longjmp(jmp_buf env, int val)
{
	jump(LONGJMP, env, val);
}

void __longjmp_chk(jmp_buf env, int val);
void __longjmp_chk(jmp_buf env, int val)
{
	jump(LONGJMP_CHK, env, val);
}

void pthread_exit(void *value)
{
	PFE_REAL(pthread_exit_fn, pthread_exit, "libc.so.6");

	pfe__exits_restore(CALLER_SP());
	pfe__exits_leave_all();
	next(value);
	abort();
}
