/* patch.c: every write to code: preparing an object's entries (their
 * disabled form and ops slots), enabling and disabling them in batches
 * while other threads run them, and the veneers near an object whose
 * code the trampolines are out of reach of.
 *
 * Protocols (the bytes come from arch-hooks/encodings.h):
 *   prepare  each entry's sequence in its disabled form, once per object,
 *            when it is loaded (pfe_init from a constructor, pfe_rescan
 *            after dlopen): no thread runs it yet.
 *   slots    an ops slot gets its function's attachment before the call
 *            to the trampoline can run: in the batch's first phase on
 *            x86 (the call is live only after its last), in a phase of
 *            its own before the one store elsewhere (no thread can fetch
 *            the new call before that phase's barrier made the slot
 *            visible to it); and at once when an enabled function is
 *            attached anew (a call then meets the old handler or the
 *            new, both valid: attachments are never freed).
 *   x86      (trap_byte set) the int3 protocol, for all the batch's sites
 *            at once: int3 on each first byte, barrier; the other bytes,
 *            barrier; the first bytes, barrier.  Three barriers a batch.
 *            A thread meeting an int3 steps over the site (SIGTRAP).
 *   others   the one toggled instruction of each site, an aligned store
 *            of the whole instruction, then cache maintenance and one
 *            barrier.
 * Code pages are made writable (never executable then) for the stores of
 * a phase and executable again right after; a thread executing such a page
 * meanwhile faults, and waits in the SIGSEGV handler until the phase is
 * written (then runs the page again).
 *
 * Debugging: PFE_DEBUG=stall=MS sleeps between the phases; pfe_get_stats
 * counts batches, barriers, sites written and int3 hits.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

struct edit {
	uintptr_t at;
	uint8_t len;
	uint8_t bytes[PFE_ENC_MAX_BYTES];
};

/* The pages being written: a thread faulting there waits. */
static _Atomic uintptr_t window_lo, window_hi;
/* The sites of the current x86 batch (sorted): an int3 there is ours.
 * The buffer is reused; when it grows the old one is never freed (a
 * late trap may still read it).  trap_gen counts its changes, odd while
 * one is under way: on_trap trusts a lookup only when the count was even
 * and the same before and after it. */
static struct edit *_Atomic trap_sites;
static _Atomic size_t trap_nsites;
static _Atomic unsigned trap_gen;
static size_t trap_capacity;
static int membarrier_cmd;
static struct sigaction old_segv, old_trap;
static long page_size;

/* ---- signals ---- */

static uintptr_t *context_pc(void *uc)
{
	return PFE_CONTEXT_PC(&((ucontext_t *)uc)->uc_mcontext);
}

static void chain(const struct sigaction *old, int sig, siginfo_t *si, void *uc)
{
	if (old->sa_flags & SA_SIGINFO) {
		old->sa_sigaction(sig, si, uc);
	} else if (old->sa_handler != SIG_IGN && old->sa_handler != SIG_DFL) {
		old->sa_handler(sig);
	} else {
		/* The default action: die of it, as without libpfe. */
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

/* Whether PC is in the code of an object libpfe patches. */
static bool in_patched_code(uintptr_t pc)
{
	size_t n = atomic_load_explicit(&pfe__nobjects, memory_order_acquire);

	for (size_t i = 0; i < n; i++)
		if (pc >= pfe__objects[i]->lo && pc < pfe__objects[i]->hi && pfe__objects[i]->nkeys)
			return true;
	return false;
}

/* A thread executing a page while it is writable: wait until the phase
 * is written, then return to run it again.  The phase may be over before
 * the signal is handled, so an execute fault in patched code is retried
 * a few times (100, yielding between them) before it counts as a real
 * one and goes to the handler there was before libpfe's. */
static _Thread_local uintptr_t retry_pc;
static _Thread_local unsigned retries;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	uintptr_t pc = *context_pc(uc);

	if (pc >= atomic_load(&window_lo) && pc < atomic_load(&window_hi)) {
		while (pc >= atomic_load(&window_lo) && pc < atomic_load(&window_hi))
			sched_yield();
		return;
	}
	if (si->si_code == SEGV_ACCERR && (uintptr_t)si->si_addr == pc && in_patched_code(pc)) {
		retries = retry_pc == pc ? retries + 1 : 1;
		retry_pc = pc;
		if (retries <= 100) {
			sched_yield();
			return;
		}
	}
	chain(&old_segv, sig, si, uc);
}

/* The published site at AT: its length, or 0.  The count is read first:
 * a buffer that grew is stored before any count larger than the old
 * buffer, so the count never exceeds the buffer read after it. */
static size_t trap_site_len(uintptr_t at)
{
	size_t lo = 0, hi = atomic_load(&trap_nsites);
	struct edit *sites = atomic_load(&trap_sites);

	while (sites && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sites[mid].at == at)
			return sites[mid].len;
		if (sites[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* x86: an int3 of the protocol: go on after the site (the call of this
 * one entry is not made while it is being patched).  An int3 no published
 * site explains is ours all the same when the sites changed meanwhile (a
 * thread slow to take its trap while the next batch is published): the
 * lookup and the byte are read again until both were read under one even
 * trap_gen. */
static void on_trap(int sig, siginfo_t *si, void *uc)
{
	uintptr_t *pc = context_pc(uc), at = *pc - 1;
	unsigned gen;
	size_t len;
	uint8_t byte;

	do {
		gen = atomic_load(&trap_gen);
		len = trap_site_len(at);
		byte = *(volatile uint8_t *)at;
	} while ((gen & 1) || atomic_load(&trap_gen) != gen);
	if (len) {
		*pc = at + len;
		PFE_COUNT(trap_hits, 1);
	} else if (byte != pfe__arch->trap_byte) {
		/* An int3 of an earlier batch: the site is whole again. */
		*pc = at;
	} else {
		chain(&old_trap, sig, si, uc);
	}
}

static int install(int sig, void (*fn)(int, siginfo_t *, void *), struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, old) == 0 ? 0 : PFE_EINVAL;
}

/* ---- barriers ---- */

/* Every other thread of the process executes a core-serialising
 * instruction before this returns (x86: it then fetches the new bytes). */
static int sync_cores(void)
{
	if (!membarrier_cmd)
		return PFE_ESYNC;
	if (syscall(SYS_membarrier, membarrier_cmd, 0, 0) != 0)
		return PFE_ESYNC;
	PFE_COUNT(barriers, 1);
	return 0;
}

int pfe__patch_init(void)
{
	int err = 0;

	page_size = sysconf(_SC_PAGESIZE);
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) == 0)
		membarrier_cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE;
	else if (!pfe__arch->trap_byte &&
		 syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
		/* aarch64, riscv: concurrent writes of the toggled
		 * instructions are allowed; the barrier only makes "done"
		 * mean every thread sees them. */
		membarrier_cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED;
	err = install(SIGSEGV, on_segv, &old_segv);
	if (!err && pfe__arch->trap_byte)
		err = install(SIGTRAP, on_trap, &old_trap);
	return err ? err : membarrier_cmd ? 0 : PFE_ESYNC;
}

/* ---- writing a phase ---- */

static int by_at(const void *a, const void *b)
{
	uintptr_t x = ((const struct edit *)a)->at, y = ((const struct edit *)b)->at;

	return x < y ? -1 : x > y;
}

/* Sort edits by address; they usually come sorted (functions are kept in
 * address order), and a check is cheaper than qsort on 100000 of them. */
static void sort_edits(struct edit *e, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (e[i - 1].at > e[i].at) {
			qsort(e, n, sizeof *e, by_at);
			return;
		}
	}
}

/* One edit, as one store when it is one aligned instruction or slot
 * (what another thread may fetch whole). */
static void store(const struct edit *e)
{
	if (e->len == 4 && e->at % 4 == 0) {
		uint32_t v;

		memcpy(&v, e->bytes, 4);
		atomic_store_explicit((_Atomic uint32_t *)e->at, v, memory_order_relaxed);
	} else if (e->len == 8 && e->at % 8 == 0) {
		uint64_t v;

		memcpy(&v, e->bytes, 8);
		atomic_store_explicit((_Atomic uint64_t *)e->at, v, memory_order_relaxed);
	} else {
		for (unsigned i = 0; i < e->len; i++)
			((volatile uint8_t *)e->at)[i] = e->bytes[i];
	}
}

static int protect(uintptr_t lo, uintptr_t hi, int prot)
{
	lo &= ~(uintptr_t)(page_size - 1);
	hi = (hi + page_size - 1) & ~(uintptr_t)(page_size - 1);
	return mprotect((void *)lo, hi - lo, prot) == 0 ? 0 : PFE_EPROT;
}

static void stall(void)
{
	long ms;

	if (pfe__debug("stall", &ms) && ms > 0) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
}

/* Write EDITS[0..n) (sorted), a run of pages at a time, each made RW for
 * its stores and RX again; then flush and synchronise every thread. */
static int write_phase(struct edit *edits, size_t n, int prot)
{
	int err = 0;

	for (size_t i = 0; i < n && !err;) {
		uintptr_t lo = edits[i].at, hi = edits[i].at + edits[i].len;
		size_t j = i;

		/* A run: edits whose pages touch. */
		while (j + 1 < n && edits[j + 1].at <= ((hi + page_size - 1) | (uintptr_t)(page_size - 1))) {
			j++;
			hi = edits[j].at + edits[j].len;
		}
		atomic_store(&window_lo, lo & ~(uintptr_t)(page_size - 1));
		atomic_store(&window_hi, (hi + page_size - 1) & ~(uintptr_t)(page_size - 1));
		err = protect(lo, hi, PROT_READ | PROT_WRITE);
		if (!err) {
			for (size_t k = i; k <= j; k++)
				store(&edits[k]);
			err = protect(lo, hi, prot);
		}
		atomic_store(&window_hi, 0);
		atomic_store(&window_lo, 0);
		if (err)
			pfe__warn("write_phase", lo, "mprotect: %s", strerror(errno));
		for (size_t k = i; k <= j; k++)
			__builtin___clear_cache((char *)edits[k].at, (char *)edits[k].at + edits[k].len);
		i = j + 1;
	}
	PFE_COUNT(sites_written, n);
	stall();
	return err ? err : sync_cores();
}

/* ---- prepare, toggle ---- */

static const struct pfe_object *object_of(const struct pfe_func *f)
{
	return f->obj;
}

int pfe__prepare(struct pfe_object *o)
{
	struct edit *e = calloc(o->nfuncs + 1, sizeof *e);
	size_t n = 0;
	int err;

	if (!e)
		return PFE_ENOMEM;
	for (size_t i = 0; i < o->nfuncs; i++) {
		struct pfe_func *f = &o->funcs[i];

		if (!f->patch)
			continue;
		e[n].at = f->pos;
		e[n].len = f->patch->len;
		f->patch->put(e[n].bytes, f->pos, f->target, false);
		if (memcmp((const void *)f->pos, e[n].bytes, e[n].len) != 0)
			n++;
	}
	sort_edits(e, n);
	PFE_COUNT(batches, 1);
	err = n ? write_phase(e, n, o->prot) : 0;
	free(e);
	return err;
}

/* The edit of F's slot into E, if it does not hold F's attachment. */
static bool slot_edit(const struct pfe_func *f, struct edit *e)
{
	uint64_t v = (uintptr_t)atomic_load(&f->att);	/* i386: the high half 0 */

	if (!f->slot || atomic_load(&object_of(f)->dead) || *(const volatile uint64_t *)f->slot == v)
		return false;
	*e = (struct edit){ .at = f->slot, .len = 8 };
	memcpy(e->bytes, &v, 8);
	return true;
}

/* The slot edits of FS[0..n) (the enabled functions' only, when
 * ENABLED_ONLY) into E; how many. */
static size_t slot_edits(struct pfe_func *const *fs, size_t n, bool enabled_only, struct edit *e)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += (!enabled_only || fs[i]->enabled) && slot_edit(fs[i], &e[k]);
	return k;
}

/* The slot edits of FS[0..n) as a phase of their own (none if none). */
static int slot_phase(struct pfe_func *const *fs, size_t n, bool enabled_only, size_t *written)
{
	struct edit *e = calloc(n + 1, sizeof *e);
	int err;

	if (!e)
		return PFE_ENOMEM;
	*written = slot_edits(fs, n, enabled_only, e);
	sort_edits(e, *written);
	err = *written ? write_phase(e, *written, fs[0]->obj->prot) : 0;
	free(e);
	return err;
}

int pfe__set_slots(struct pfe_func *const *fs, size_t n)
{
	size_t written;
	int err = slot_phase(fs, n, true, &written);

	PFE_COUNT(batches, written > 0);
	return err;
}

/* The edits of F's toggled instruction, enabled or not: all of it, or on
 * x86 (int3 protocol) PART 0 its first byte as int3, 1 the rest, 2 the
 * first byte. */
static void toggle_edit(const struct pfe_func *f, bool enable, int part, struct edit *e)
{
	uint8_t seq[PFE_ENC_MAX_BYTES];
	const struct pfe_enc_patch *p = f->patch;

	p->put(seq, f->pos, f->target, enable);
	e->at = f->pos + p->toggle_off;
	e->len = p->toggle_len;
	memcpy(e->bytes, seq + p->toggle_off, p->toggle_len);
	if (part == 0) {
		e->len = 1;
		e->bytes[0] = pfe__arch->trap_byte;
	} else if (part == 1) {
		e->at++;
		e->len--;
		memmove(e->bytes, e->bytes + 1, e->len);
	} else if (part == 2) {
		e->len = 1;
	}
}

/* Room for N trap sites (trap_gen odd). */
static bool trap_sites_room(size_t n)
{
	struct edit *grown;

	if (n <= trap_capacity)
		return true;
	grown = calloc(n, sizeof *grown);
	if (!grown)
		return false;
	atomic_store(&trap_nsites, 0);
	atomic_store(&trap_sites, grown);
	trap_capacity = n;
	return true;
}

/* The M SITES of a batch, for on_trap, before any int3 is written. */
static bool publish_trap_sites(const struct edit *sites, size_t m)
{
	bool ok;

	atomic_fetch_add(&trap_gen, 1);
	ok = trap_sites_room(m);
	if (ok) {
		atomic_store(&trap_nsites, 0);
		memcpy(atomic_load(&trap_sites), sites, m * sizeof *sites);
		atomic_store(&trap_nsites, m);
	}
	atomic_fetch_add(&trap_gen, 1);
	return ok;
}

int pfe__toggle(struct pfe_func *const *fs, size_t n, bool enable)
{
	int parts = pfe__arch->trap_byte ? 3 : 1, err = 0;
	struct edit *e = calloc(2 * n + 1, sizeof *e), *sites = calloc(n + 1, sizeof *sites);
	size_t m = 0, k;

	if (!e || !sites) {
		free(e);
		free(sites);
		return PFE_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (fs[i]->patch && fs[i]->enabled != enable && !atomic_load(&object_of(fs[i])->dead))
			sites[m++] = (struct edit){ .at = fs[i]->pos + fs[i]->patch->toggle_off,
						    .len = fs[i]->patch->toggle_len };
	sort_edits(sites, m);
	if (parts == 3 && !publish_trap_sites(sites, m)) {
		free(e);
		free(sites);
		return PFE_ENOMEM;
	}
	if (enable && parts == 1)
		err = slot_phase(fs, n, false, &k);
	PFE_COUNT(batches, m > 0);
	for (int part = parts == 3 ? 0 : -1; m && part < (parts == 3 ? 3 : 0) && !err; part++) {
		/* Each slot (x86: in the first phase) just before its site:
		 * the edits stay in address order. */
		k = 0;
		for (size_t i = 0; i < n; i++) {
			if (enable && part == 0)
				k += slot_edit(fs[i], &e[k]);
			if (fs[i]->patch && fs[i]->enabled != enable && !atomic_load(&object_of(fs[i])->dead))
				toggle_edit(fs[i], enable, part, &e[k++]);
		}
		sort_edits(e, k);
		err = write_phase(e, k, fs[0]->obj->prot);
	}
	for (size_t i = 0; i < n && !err; i++)
		if (fs[i]->patch && !atomic_load(&object_of(fs[i])->dead))
			fs[i]->enabled = enable;
	free(e);
	free(sites);
	return err;
}

/* ---- call targets and veneers ---- */

static bool in_reach(const struct pfe_func *f, uintptr_t target)
{
	uint64_t d = target > f->pos ? target - f->pos : f->pos - target;

	return f->patch->reach == 0 || d < f->patch->reach;
}

/* A page near O (within every site's reach of it), RW; 0 if none. */
static uintptr_t near_page(const struct pfe_object *o)
{
	for (uintptr_t step = 1; step < 4096; step++) {
		uintptr_t tries[2] = { ((o->hi + page_size - 1) & ~(uintptr_t)(page_size - 1)) + step * page_size * 16,
				       (o->lo & ~(uintptr_t)(page_size - 1)) - step * page_size * 16 };

		for (int t = 0; t < 2; t++) {
			void *p = mmap((void *)tries[t], page_size, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

			if (p == MAP_FAILED)
				continue;
			if ((uintptr_t)p == tries[t])
				return (uintptr_t)p;
			munmap(p, page_size);
		}
	}
	return 0;
}

int pfe__place_targets(struct pfe_object *o)
{
	uintptr_t tramp[2] = { (uintptr_t)pfe__tramp_slot, (uintptr_t)pfe__tramp_lookup };
	bool need = false;

	for (size_t i = 0; i < o->nfuncs; i++) {
		struct pfe_func *f = &o->funcs[i];

		if (f->patch)
			need |= !in_reach(f, tramp[f->dispatch == PFE_DISPATCH_LOOKUP]);
	}
	if (need) {
		/* Two veneers (slot, lookup) on a page near the object. */
		uintptr_t page = near_page(o);
		unsigned stride = (pfe__arch->veneer_len + 15) & ~15u;

		if (!page)
			return PFE_ERANGE;
		for (int k = 0; k < 2; k++) {
			pfe__arch->put_veneer((uint8_t *)page + k * stride, page + k * stride, tramp[k]);
			tramp[k] = page + k * stride;
		}
		if (mprotect((void *)page, page_size, PROT_READ | PROT_EXEC) != 0)
			return PFE_EPROT;
		__builtin___clear_cache((char *)page, (char *)page + 2 * stride);
		o->veneers = page;
	}
	for (size_t i = 0; i < o->nfuncs; i++) {
		struct pfe_func *f = &o->funcs[i];

		if (!f->patch)
			continue;
		f->target = tramp[f->dispatch == PFE_DISPATCH_LOOKUP];
		if (!in_reach(f, f->target)) {
			f->patch = NULL;
			f->dispatch = PFE_DISPATCH_NONE;
			f->why = "no trampoline or veneer within the call's reach";
		}
	}
	return 0;
}
