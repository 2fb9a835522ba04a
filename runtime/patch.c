/* patch.c: every write to code: preparing an object's entries (their
 * disabled form and ops slots), enabling and disabling them in batches
 * while other threads run them, and the veneers near an object whose
 * code the trampolines are out of reach of.
 *
 * Protocols (the bytes come from arch-hooks/arch.h):
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
 *   x86      (trap_byte set; threads) the int3 protocol, for all the
 *            batch's sites at once: int3 on each first byte, barrier; the
 *            other bytes, barrier; the first bytes, barrier.  Three
 *            barriers a batch.  A thread meeting an int3 steps over an
 *            entry's site, and makes an exit sled's call (SIGTRAP).
 *            A batch is refused (PFE_ESIGNAL) while a thread blocks
 *            SIGTRAP, or a signal handler's mask would: the kernel would
 *            kill it at an int3 (signals.c: changes that would block it
 *            wait while a batch is under way, and on_trap stays
 *            SIGTRAP's handler).
 *   others   (threads) the one toggled instruction of each site, an
 *            aligned store of the whole instruction, then cache
 *            maintenance (riscv: one flush for the whole phase, an IPI to
 *            every hart) and one barrier.
 *   alone    (a process of one thread, /proc/self/stat says) every target
 *            whose writer stores a site whole (through /proc/self/mem, or
 *            one aligned store; not x86's 5 bytes through mprotect):
 *            slots and whole sites in one phase, in address order: no
 *            other thread can fetch a site half written, and a signal
 *            handler of this one meets each site before or after its
 *            write, its slot written first.
 *            Not seen: a process sharing the memory without being a
 *            thread (clone(CLONE_VM) without CLONE_THREAD: vfork's child
 *            runs while the parent waits, so not meanwhile).
 *
 * Writers: code never loses its execute permission (a thread may run it
 * at any time).  Where the kernel's writes through /proc/self/mem reach
 * the code this process runs (decided once by a probe: libpfe's
 * pfe__probe rewritten that way must then return 1; not under qemu-user,
 * whose translations do not see such writes), every write goes there:
 * the pages stay r-x, and W^X policies (PR_SET_MDWE, SELinux execmem)
 * allow it.  Otherwise the pages are made r-wx for a phase's stores and
 * r-x again (as XRay does); refused, the batch fails with PFE_EPROT.  A
 * batch that fails part way puts back what it wrote, its phases in
 * reverse (on x86 the int3 protocol backwards).
 *
 * Batches are made and written a chunk of edits at a time (write_stream):
 * whatever their size, they need no memory but a bit a function.
 *
 * Debugging: PFE_DEBUG=stall=MS sleeps between the phases; PFE_DEBUG=
 * chunk=N makes chunks of N edits (the tests cross chunks so); PFE_DEBUG=
 * mprotect forces the r-wx writer; PFE_DEBUG=list says which writer the
 * probe chose; pfe_get_stats counts batches, barriers, sites written,
 * int3 hits and cache flushes.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <fcntl.h>
#include <linux/membarrier.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

struct edit {
	uintptr_t at;
	uint8_t len;
	uint8_t bytes[PFE_ENC_MAX_BYTES];
};

/* The sites of the current x86 batch (sorted): an int3 there is ours.
 * CALL: what an exit sled calls, 0 for an entry (its call is not made
 * while it is patched).  The buffer is reused; when it grows the old one
 * is never freed (a late trap may still read it).  trap_gen counts its
 * changes, odd while one is under way: on_trap trusts a lookup only when
 * the count was even and the same before and after it. */
struct trap_site {
	uintptr_t at, call;
	uint8_t len;
};
static struct trap_site *_Atomic trap_sites;
static _Atomic size_t trap_nsites;
static _Atomic unsigned trap_gen;
static size_t trap_capacity;
static int membarrier_cmd;
static long page_size;
/* Code is written through /proc/self/mem (else with mprotect). */
static bool use_proc_mem;

/* ---- SIGTRAP (x86) ---- */

static uintptr_t *context_pc(void *uc)
{
	return PFE_CONTEXT_PC(&((ucontext_t *)uc)->uc_mcontext);
}

/* The published site at AT (len 0: none).  The count is read first: a
 * buffer that grew is stored before any count larger than the old
 * buffer, so the count never exceeds the buffer read after it. */
static struct trap_site trap_site_at(uintptr_t at)
{
	size_t lo = 0, hi = atomic_load(&trap_nsites);
	struct trap_site *sites = atomic_load(&trap_sites);

	while (sites && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sites[mid].at == at)
			return sites[mid];
		if (sites[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (struct trap_site){ 0 };
}

static bool is_site_of(const struct pfe_func *f, uintptr_t at)
{
	const struct pfe_enc_patch *p = f->patch;

	return p && f->pos + p->toggle_off == at;
}

/* Whether AT is where a function libpfe manages is toggled: its entry
 * (near its address: the patch is in the NOPs just before or after it)
 * or one of its exit sleds. */
static bool known_site(uintptr_t at)
{
	size_t n = atomic_load_explicit(&pfe__nobjects, memory_order_acquire);

	for (size_t i = 0; i < n; i++) {
		const struct pfe_object *o = pfe__objects[i];
		size_t k = pfe__lower_bound(o->funcs, o->nfuncs, sizeof *o->funcs,
					    offsetof(struct pfe_func, addr), at);
		size_t s = pfe__lower_bound(o->sled_at, o->nsleds, sizeof *o->sled_at, 0, at);

		if (at < o->lo || at >= o->hi)
			continue;
		if ((k < o->nfuncs && is_site_of(&o->funcs[k], at)) || (k > 0 && is_site_of(&o->funcs[k - 1], at)) ||
		    (s < o->nsleds && o->sled_at[s] == at))
			return true;
	}
	return false;
}

/* An exit sled's call made as the sled would make it, the return address
 * RET pushed and the pc at TARGET: its exit handler runs now, with the
 * value, and not later as a frame left's (the kernel's text_poke_bp
 * emulates a call so).  The stack below the sp is free: a sled is right
 * before the return or a sibling call, where nothing is kept there, and
 * the kernel put the signal frame below the red zone. */
static void emulate_call(void *uc, uintptr_t ret, uintptr_t target)
{
	uintptr_t *sp = PFE_CONTEXT_SP(&((ucontext_t *)uc)->uc_mcontext);

	*sp -= sizeof ret;
	*(uintptr_t *)*sp = ret;
	*context_pc(uc) = target;
}

/* x86: an int3 of the protocol: go on after the site (an entry's call is
 * not made while it is being patched; an exit sled's is).  Only an int3
 * (SI_KERNEL) at a site: of the batch under way, or of an earlier one
 * whose site is whole again (a thread slow to take its trap: it runs the
 * site again).  The lookup and the byte are read again until both were
 * read under one even trap_gen.  Any other SIGTRAP (raise, kill, a
 * debugger's, the program's own int3) is the program's. */
static void on_trap(int sig, siginfo_t *si, void *uc)
{
	uintptr_t *pc = context_pc(uc), at = *pc - 1;
	struct trap_site site;
	unsigned gen;
	uint8_t byte;

	(void)sig;
	if (si->si_code != SI_KERNEL) {
		pfe__chain_trap(si, uc);
		return;
	}
	do {
		gen = atomic_load(&trap_gen);
		site = trap_site_at(at);
		byte = *(volatile uint8_t *)at;
	} while ((gen & 1) || atomic_load(&trap_gen) != gen);
	if (site.len) {
		if (site.call)
			emulate_call(uc, at + site.len, site.call);
		else
			*pc = at + site.len;
		PFE_COUNT(trap_hits, 1);
	} else if (byte != pfe__arch->trap_byte && known_site(at)) {
		*pc = at;
	} else {
		pfe__chain_trap(si, uc);
	}
}

/* ---- barriers, cache maintenance ---- */

/* Every other thread of the process executes a core-serialising
 * instruction before this returns (x86: it then fetches the new bytes). */
static int sync_cores(void)
{
	int err = pfe__membarrier();

	if (!err)
		PFE_COUNT(barriers, 1);
	return err;
}

int pfe__membarrier(void)
{
	return membarrier_cmd && syscall(SYS_membarrier, membarrier_cmd, 0, 0) == 0 ? 0 : PFE_ESYNC;
}

/* The registration is the process's (its mm's), and a child of fork
 * inherits it (rt-hazards' fork children patch without registering). */
static void register_membarrier(void)
{
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) == 0)
		membarrier_cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE;
	else if (!pfe__arch->trap_byte &&
		 syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
		/* aarch64, riscv: concurrent writes of the toggled
		 * instructions are allowed; the barrier only makes "done"
		 * mean every thread sees them. */
		membarrier_cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED;
}

static void flush(uintptr_t lo, uintptr_t hi)
{
	__builtin___clear_cache((char *)lo, (char *)hi);
	PFE_COUNT(icache_flushes, 1);
}

/* ---- the writers ---- */

/* How a batch writes: MEM is its own descriptor of /proc/self/mem (one
 * kept open would write the parent's memory after fork, or a file the
 * program dup2'd over it), or -1: mprotect, the pages back to PROT.
 * A process that is not dumpable and not root (after setuid, or
 * prctl(PR_SET_DUMPABLE, 0): ssh-agent, gpg-agent, servers that drop
 * privileges) can no longer open /proc/self/mem (the file is root's):
 * that batch, as one where descriptors ran out, is written with mprotect
 * (refused too under W^X: PFE_EPROT). */
struct writer {
	int mem;
	int prot;
};

static void open_writer(struct writer *w, int prot)
{
	w->prot = prot;
	w->mem = use_proc_mem ? open("/proc/self/mem", O_RDWR | O_CLOEXEC) : -1;
}

static void close_writer(struct writer *w)
{
	if (w->mem >= 0)
		close(w->mem);
}

static int mem_write(int fd, uintptr_t at, const void *bytes, size_t len)
{
	return pwrite64(fd, bytes, len, (off64_t)at) == (ssize_t)len ? 0 : PFE_EPROT;
}

/* Whether edit NEXT joins the span LO..HI: when it is on the page of the
 * span's last byte or the next.  A write costs about as much as copying
 * a page or two (some 1.6 us each, measured), and the span then covers no
 * page without an edit (nothing else is made a private copy, nor is a
 * page met that is not code: another object's mapping, a guard page). */
#define SPAN_MAX 65536
static bool joins_span(uintptr_t lo, uintptr_t hi, const struct edit *next)
{
	uintptr_t page = ~(uintptr_t)(page_size - 1);

	return (next->at & page) <= ((hi - 1) & page) + (uintptr_t)page_size && next->at + next->len - lo <= SPAN_MAX;
}

/* x86: the edits in spans, each one write of the bytes from its first
 * edit to its last (the bytes between rewritten as they are: no thread
 * can tell). */
static int mem_write_spans(int fd, const struct edit *e, size_t n)
{
	static uint8_t buf[SPAN_MAX];	/* under pfe__lock */

	for (size_t i = 0, j; i < n; i = j) {
		uintptr_t lo = e[i].at, hi = lo + e[i].len;

		for (j = i + 1; j < n && joins_span(lo, hi, &e[j]); j++)
			hi = e[j].at + e[j].len > hi ? e[j].at + e[j].len : hi;
		memcpy(buf, (const void *)lo, hi - lo);
		for (size_t k = i; k < j; k++)
			memcpy(buf + (e[k].at - lo), e[k].bytes, e[k].len);
		if (mem_write(fd, lo, buf, hi - lo))
			return PFE_EPROT;
	}
	return 0;
}

/* Each edit as one write: the kernel copies an aligned instruction or
 * slot in one store (aarch64's memcpy does), so no thread fetches half
 * of one. */
static int mem_write_each(int fd, const struct edit *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (mem_write(fd, e[i].at, e[i].bytes, e[i].len))
			return PFE_EPROT;
	return 0;
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

/* The edits a run of pages at a time, each made r-wx (never without x: a
 * thread may be running them) for its stores and PROT again. */
static int mprotect_write(const struct edit *e, size_t n, int prot)
{
	for (size_t i = 0, j; i < n; i = j + 1) {
		uintptr_t lo = e[i].at, hi = e[i].at + e[i].len;

		/* A run: edits whose pages touch. */
		for (j = i; j + 1 < n && e[j + 1].at <= ((hi + page_size - 1) | (uintptr_t)(page_size - 1)); j++)
			hi = e[j + 1].at + e[j + 1].len;
		if (protect(lo, hi, PROT_READ | PROT_WRITE | PROT_EXEC))
			return PFE_EPROT;
		for (size_t k = i; k <= j; k++)
			store(&e[k]);
		if (protect(lo, hi, prot))
			return PFE_EPROT;
	}
	return 0;
}

static void stall(void)
{
	long ms;

	if (pfe__debug("stall", &ms) && ms > 0)
		pfe__sleep_ms(ms);
}

/* Write E[0..n) (sorted); aarch64 flushes the lines edited (riscv flushes
 * every hart's whole cache, once a phase: write_stream; x86 needs none:
 * a call per edit, empty, and its count cost 3 ms a batch of 100000
 * functions). */
static int write_edits(const struct writer *w, const struct edit *e, size_t n)
{
	int err;

	if (w->mem < 0)
		err = mprotect_write(e, n, w->prot);
	else if (PFE_CODE_SPANS)
		err = mem_write_spans(w->mem, e, n);
	else
		err = mem_write_each(w->mem, e, n);
	for (size_t i = 0; PFE_FLUSH == PFE_FLUSH_EACH && i < n; i++)
		flush(e[i].at, e[i].at + e[i].len);
	if (err)
		pfe__warn("write_edits", e[0].at, "%s refused", w->mem < 0 ? "mprotect" : "/proc/self/mem");
	return err;
}

/* A source of a phase's edits: up to ROOM more from CTX (its own cursor)
 * into E; how many, 0 when there are no more. */
typedef size_t fill_fn(void *ctx, struct edit *e, size_t room);

/* A phase's edits are made and written CHUNK at a time in this buffer
 * (under pfe__lock): a batch needs no memory of its own.  Edits of
 * 100000 functions in fresh memory (4 to 8 MB) cost more in page faults
 * than writing them (10 to 20 ms on a VM). */
#define CHUNK 2048
static struct edit chunk[CHUNK];

/* Edits a chunk: CHUNK, or fewer under PFE_DEBUG=chunk=N (the tests'
 * batches are smaller than a chunk: with it, their functions' edits
 * cross chunks). */
static size_t chunk_room(void)
{
	long n;

	return pfe__debug("chunk", &n) && n > 0 && n < CHUNK ? (size_t)n : CHUNK;
}

/* One phase: the edits FILL makes from CTX, a chunk at a time (each
 * sorted); then cache maintenance (riscv: one flush of the phase's range)
 * and every thread synchronised.  Nothing when there is no edit.  How
 * many were made into *MADE (unless NULL). */
static int write_stream(const struct writer *w, fill_fn *fill, void *ctx, size_t *made)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	size_t n = 0, k, room = chunk_room();
	int err = 0;

	while (!err && (k = fill(ctx, chunk, room)) > 0) {
		if ((err = pfe__sort_by_key(chunk, k, sizeof *chunk, offsetof(struct edit, at))) != 0)
			break;
		lo = chunk[0].at < lo ? chunk[0].at : lo;
		hi = chunk[k - 1].at + chunk[k - 1].len > hi ? chunk[k - 1].at + chunk[k - 1].len : hi;
		err = write_edits(w, chunk, k);
		n += k;
	}
	if (PFE_FLUSH == PFE_FLUSH_PHASE && n)
		flush(lo, hi);
	if (made)
		*made = n;
	if (err || !n)
		return err;
	PFE_COUNT(sites_written, n);
	stall();
	return sync_cores();
}

/* The edits of an array: E[0..n). */
struct edit_array {
	const struct edit *e;
	size_t n;
};

static size_t array_edits(void *ctx, struct edit *e, size_t room)
{
	struct edit_array *a = ctx;
	size_t k = a->n < room ? a->n : room;

	memcpy(e, a->e, k * sizeof *e);
	a->e += k, a->n -= k;
	return k;
}

/* ---- the probe ---- */

/* Whether writes through /proc/self/mem reach the code this process
 * runs: pfe__probe (returns 0) gets pfe__probe_one's bytes (returns 1)
 * that way, once /proc/self/mem reads what the process reads (under
 * qemu-user it is qemu's memory); then it must return 1.  If not, its
 * bytes are put back and the other writer serves. */
static bool proc_mem_works(void)
{
	uintptr_t at = (uintptr_t)pfe__probe;
	size_t len = (uintptr_t)pfe__probe_one - at;
	uint8_t seen[64];
	bool wrote, works = false;
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (len <= sizeof seen && pread64(fd, seen, len, (off64_t)at) == (ssize_t)len &&
	    memcmp(seen, (const void *)at, len) == 0 && pfe__probe() == 0) {
		wrote = mem_write(fd, at, (const void *)pfe__probe_one, len) == 0;
		__builtin___clear_cache((char *)at, (char *)at + len);
		works = wrote && pfe__probe() == 1;
		if (wrote && !works)
			mem_write(fd, at, seen, len);
	}
	close(fd);
	return works;
}

int pfe__patch_init(bool traps)
{
	int err;

	page_size = sysconf(_SC_PAGESIZE);
	register_membarrier();
	use_proc_mem = PFE_PROC_MEM_WRITES && !pfe__debug("mprotect", NULL) && proc_mem_works();
	if (pfe__debug("list", NULL))
		fprintf(stderr, "libpfe: code writes: %s\n",
			use_proc_mem ? "/proc/self/mem" : "mprotect (read+write+execute while written)");
	err = traps && pfe__arch->trap_byte ? pfe__own_sigtrap(on_trap) : 0;
	return err ? err : membarrier_cmd ? 0 : PFE_ESYNC;
}

/* ---- prepare, toggle ---- */

/* A batch of one phase: the edits FILL makes from CTX.  Not undone if it
 * fails part way: what it writes is as valid as what it replaces
 * (prepare: the disabled form of NOPs or of a fentry call; slots: another
 * valid attachment; veneers: a page no call reaches yet, unmapped). */
static int write_batch(fill_fn *fill, void *ctx, int prot)
{
	struct writer w;
	size_t made;
	int err;

	open_writer(&w, prot);
	err = write_stream(&w, fill, ctx, &made);
	PFE_COUNT(batches, made > 0);
	close_writer(&w);
	return err;
}

static const struct pfe_object *object_of(const struct pfe_func *f)
{
	return f->obj;
}

bool pfe__disabled_at(const struct pfe_enc_patch *p, uintptr_t at)
{
	uint8_t seq[PFE_ENC_MAX_BYTES];

	if (p->disabled_any)
		return p->disabled_any((const uint8_t *)at);
	p->put(seq, at, 0, false);
	return memcmp((const void *)at, seq, p->len) == 0;
}

/* The functions of an object from the Ith on. */
struct object_cursor {
	const struct pfe_object *o;
	size_t i;
};

/* The disabled form of each entry that is not in it yet. */
static size_t prepare_edits(void *ctx, struct edit *e, size_t room)
{
	struct object_cursor *c = ctx;
	size_t k = 0;

	for (; c->i < c->o->nfuncs && k < room; c->i++) {
		const struct pfe_func *f = &c->o->funcs[c->i];

		if (!f->patch)
			continue;
		e[k].at = f->pos;
		e[k].len = f->patch->len;
		f->patch->put(e[k].bytes, f->pos, f->target, false);
		k += memcmp((const void *)f->pos, e[k].bytes, e[k].len) != 0;
	}
	return k;
}

int pfe__prepare(struct pfe_object *o)
{
	struct object_cursor c = { o, 0 };

	return write_batch(prepare_edits, &c, o->prot);
}

/* The edit of F's slot into E, if it does not hold F's attachment (with
 * PFE_SLOT_SLEDS when F has exit sleds). */
static bool slot_edit(const struct pfe_func *f, struct edit *e)
{
	uint64_t v = pfe__att_word(f, atomic_load(&f->att));	/* i386: the high half 0 */

	if (!f->slot || atomic_load(&object_of(f)->dead) || *(const volatile uint64_t *)f->slot == v)
		return false;
	*e = (struct edit){ .at = f->slot, .len = 8 };
	memcpy(e->bytes, &v, 8);
	return true;
}

/* Functions FS[0..n) from the Ith on. */
struct funcs_cursor {
	struct pfe_func *const *fs;
	size_t n, i;
};

/* The slot edits of the enabled functions. */
static size_t slot_edits(void *ctx, struct edit *e, size_t room)
{
	struct funcs_cursor *c = ctx;
	size_t k = 0;

	for (; c->i < c->n && k < room; c->i++)
		k += c->fs[c->i]->enabled && slot_edit(c->fs[c->i], &e[k]);
	return k;
}

int pfe__set_slots(struct pfe_func *const *fs, size_t n)
{
	struct funcs_cursor c = { fs, n, 0 };

	/* None (pfe_attach_all in a program with no patchable function):
	 * there is no fs[0] to take the protections from. */
	if (n == 0)
		return 0;
	return write_batch(slot_edits, &c, fs[0]->obj->prot);
}

/* Whether the batch rewrites F's sites. */
static bool toggles(const struct pfe_func *f, bool enable)
{
	return f->patch && f->enabled != enable && !atomic_load(&object_of(f)->dead);
}

/* The sites a batch toggles for a function: 0 its entry's patched call,
 * 1 to nsleds its exit sleds (toggled with it). */
struct site {
	uintptr_t at;
	const struct pfe_enc_patch *patch;
	uintptr_t target;
};

static size_t sites_of(const struct pfe_func *f)
{
	return 1 + f->nsleds;
}

static struct site site_of(const struct pfe_func *f, size_t j)
{
	if (j == 0)
		return (struct site){ f->pos, f->patch, f->target };
	return (struct site){ f->sleds[j - 1].at, pfe__arch->exit_sled, f->sleds[j - 1].target };
}

/* Where site S's toggled instruction is (what on_trap looks up). */
static uintptr_t toggled_at(struct site s)
{
	return s.at + s.patch->toggle_off;
}

/* PART of a site's toggled instruction, LEN BYTES at AT, into E: all of
 * it (PART_WHOLE), or on x86 (int3 protocol) its first byte as int3
 * (PART_TRAP), the rest (PART_TAIL), the first byte (PART_HEAD). */
enum part { PART_NONE = -2, PART_WHOLE = -1, PART_TRAP, PART_TAIL, PART_HEAD };

static void part_of(uintptr_t at, const uint8_t *bytes, unsigned len, enum part part, struct edit *e)
{
	unsigned from = part == PART_TAIL;

	e->at = at + from;
	e->len = part == PART_TRAP || part == PART_HEAD ? 1 : len - from;
	memcpy(e->bytes, bytes + from, e->len);
	if (part == PART_TRAP)
		e->bytes[0] = pfe__arch->trap_byte;
}

/* The edit of PART of F's site J's toggled instruction, enabled or not. */
static void toggle_edit(const struct pfe_func *f, size_t j, bool enable, enum part part, struct edit *e)
{
	uint8_t seq[PFE_ENC_MAX_BYTES];
	struct site s = site_of(f, j);
	const struct pfe_enc_patch *p = s.patch;

	p->put(seq, s.at, s.target, enable);
	part_of(toggled_at(s), seq + p->toggle_off, p->toggle_len, part, e);
}

/* A batch: enabling or disabling FS[0..n); TOGGLED a bit a function, set
 * for those whose sites it rewrites (NSITES in all), which say that they
 * are enabled (or not) from the start of the batch until undo.  Its
 * phases make their edits from these as they write them. */
struct batch {
	struct pfe_func *const *fs;
	size_t n, nsites;
	bool enable;
	uint8_t *toggled;
};

static bool toggled(const struct batch *b, size_t i)
{
	return b->toggled[i / 8] >> (i % 8) & 1;
}

static int plan_batch(struct pfe_func *const *fs, size_t n, bool enable, struct batch *b)
{
	*b = (struct batch){ .fs = fs, .n = n, .enable = enable, .toggled = calloc(n / 8 + 1, 1) };
	if (!b->toggled)
		return PFE_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!toggles(fs[i], enable))
			continue;
		b->toggled[i / 8] |= 1u << (i % 8);
		b->nsites += sites_of(fs[i]);
		fs[i]->enabled = enable;
	}
	return 0;
}

/* The functions of batch B say again that they are as before it. */
static void unmark(const struct batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (toggled(b, i))
			b->fs[i]->enabled = !b->enable;
}

/* A phase of a batch: its slots (SLOTS, when it enables) and PART of
 * each site. */
struct phase {
	bool slots;
	enum part part;
};

/* Where a phase of B is: function I, its step J (0 its slot, then its
 * sites from 1); the sites are written ENABLED or not (not: undoing). */
struct phase_cursor {
	const struct batch *b;
	struct phase ph;
	bool enabled;
	size_t i, j;
};

static size_t phase_edits(void *ctx, struct edit *e, size_t room)
{
	struct phase_cursor *c = ctx;
	const struct batch *b = c->b;
	size_t k = 0;

	while (c->i < b->n && k < room) {
		const struct pfe_func *f = b->fs[c->i];
		size_t sites = toggled(b, c->i) && c->ph.part != PART_NONE ? sites_of(f) : 0;

		if (c->j == 0 && c->ph.slots && b->enable && slot_edit(f, &e[k]))
			k++;
		for (c->j = c->j ? c->j : 1; c->j <= sites && k < room; c->j++)
			toggle_edit(f, c->j - 1, c->enabled, c->ph.part, &e[k++]);
		if (c->j > sites)
			c->i++, c->j = 0;
	}
	return k;
}

/* Room for N trap sites (trap_gen odd). */
static bool trap_sites_room(size_t n)
{
	struct trap_site *grown;

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

/* The sites batch B rewrites, for on_trap, before any int3 is written:
 * put in place (sorted) while trap_gen is odd. */
static int publish_trap_sites(const struct batch *b)
{
	struct trap_site *sites;
	int err = PFE_ENOMEM;

	atomic_fetch_add(&trap_gen, 1);
	atomic_store(&trap_nsites, 0);
	if (trap_sites_room(b->nsites)) {
		size_t k = 0;

		sites = atomic_load(&trap_sites);
		for (size_t i = 0; i < b->n; i++) {
			for (size_t j = 0; toggled(b, i) && j < sites_of(b->fs[i]); j++) {
				struct site s = site_of(b->fs[i], j);

				/* An entry's call is not made; a sled's is. */
				sites[k++] = (struct trap_site){ .at = toggled_at(s), .len = s.patch->toggle_len,
								 .call = j ? s.target : 0 };
			}
		}
		err = pfe__sort_by_key(sites, k, sizeof *sites, offsetof(struct trap_site, at));
		atomic_store(&trap_nsites, err ? 0 : k);
	}
	atomic_fetch_add(&trap_gen, 1);
	return err;
}

/* x86: what must hold before an int3 is written: no thread blocks
 * SIGTRAP and no handler would (signals.c: checked now, and changes that
 * would wait until pfe__traps_end), on_trap is SIGTRAP's handler (again:
 * one set behind sigaction's back is taken over), the sites are
 * published. */
static int trap_ready(const struct batch *b)
{
	int err;

	if ((err = pfe__traps_begin()) != 0)
		return err;
	err = pfe__own_sigtrap(on_trap);
	return err ? err : publish_trap_sites(b);
}

/* Whether this thread is the process's only one (its stat's 20th field,
 * num_threads, is 1): then no other can run code while a batch writes it,
 * nor be created meanwhile (no other thread could create it; a signal
 * handler may not).  Unknown (no /proc): no. */
static bool only_thread(void)
{
	char buf[1024], *p;
	ssize_t got;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), field = 2;

	if (fd < 0)
		return false;
	got = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (got <= 0)
		return false;
	buf[got] = 0;
	/* After the command's name, which may hold spaces and parentheses. */
	for (p = strrchr(buf, ')'); p && field < 20; field++)
		p = strchr(p + 1, ' ');
	return p && pfe__decimal(p + 1) == 1;
}

/* Whether W writes each site so that a signal handler of this thread
 * meets it whole: through /proc/self/mem (a system call a span), or as
 * one aligned store of its instruction (not x86's 5 bytes, stored a byte
 * at a time with mprotect). */
static bool writes_sites_whole(const struct writer *w)
{
	return w->mem >= 0 || !pfe__arch->trap_byte;
}

/* The phases of a batch.  x86 (the int3 protocol): int3 on each site
 * with the slots, the rest, the first bytes.  Elsewhere: the slots, then
 * the sites' one store each.  A process's only thread, where each site
 * is written whole: everything in one phase, in address order (no thread
 * can fetch a site half written, and a signal handler of this one meets
 * each site whole, before or after, with its slot written before it). */
static const struct phase x86_phases[] = { { true, PART_TRAP }, { false, PART_TAIL }, { false, PART_HEAD } },
			  two_phases[] = { { true, PART_NONE }, { false, PART_WHOLE } },
			  one_phase[] = { { true, PART_WHOLE } };

/* Put back the first NP of PHASES of batch B written, the last first
 * (x86: the int3 protocol backwards), in the bytes of the state before
 * the batch, as far as writes succeed; the functions toggled say so
 * again.  A slot written keeps its attachment (valid; its call is not
 * enabled). */
static void undo(const struct writer *w, const struct batch *b, const struct phase *phases, size_t np)
{
	static const enum part undo_of[] = { [PART_TRAP] = PART_HEAD, [PART_TAIL] = PART_TAIL,
					     [PART_HEAD] = PART_TRAP };

	while (np--) {
		enum part part = phases[np].part;
		struct phase_cursor c = { b, { false, part < 0 ? part : undo_of[part] }, !b->enable, 0, 0 };

		write_stream(w, phase_edits, &c, NULL);
	}
	unmark(b);
}

/* The phases of batch B, NP of PHASES (empty ones skipped); undone if one
 * fails. */
static int toggle_phases(const struct writer *w, const struct batch *b, const struct phase *phases, size_t np)
{
	size_t i;
	int err = 0;

	for (i = 0; i < np && !err; i++) {
		struct phase_cursor c = { b, phases[i], b->enable, 0, 0 };

		err = write_stream(w, phase_edits, &c, NULL);
	}
	if (err)
		undo(w, b, phases, i);
	return err;
}

int pfe__toggle(struct pfe_func *const *fs, size_t n, bool enable)
{
	const struct phase *phases = one_phase;
	size_t np = 1;
	struct batch b;
	struct writer w;
	int err = plan_batch(fs, n, enable, &b);

	if (err || !b.nsites) {
		free(b.toggled);
		return err;
	}
	open_writer(&w, fs[0]->obj->prot);
	if (!only_thread() || !writes_sites_whole(&w)) {
		phases = pfe__arch->trap_byte ? x86_phases : two_phases;
		np = pfe__arch->trap_byte ? 3 : 2;
		err = pfe__arch->trap_byte ? trap_ready(&b) : 0;
	}
	if (!err) {
		PFE_COUNT(batches, 1);
		err = toggle_phases(&w, &b, phases, np);
	} else {
		unmark(&b);
	}
	close_writer(&w);
	pfe__traps_end();
	free(b.toggled);
	return err;
}

/* ---- call targets and veneers ---- */

static bool in_reach_of(const struct pfe_enc_patch *p, uintptr_t at, uintptr_t target)
{
	uint64_t d = target > at ? target - at : at - target;

	return p->reach == 0 || d < p->reach;
}

static bool in_reach(const struct pfe_func *f, uintptr_t target)
{
	return in_reach_of(f->patch, f->pos, target);
}

/* A page near O (within every site's reach of it), r-x; 0 if none. */
static uintptr_t near_page(const struct pfe_object *o)
{
	for (uintptr_t step = 1; step < 4096; step++) {
		uintptr_t tries[2] = { ((o->hi + page_size - 1) & ~(uintptr_t)(page_size - 1)) + step * page_size * 16,
				       (o->lo & ~(uintptr_t)(page_size - 1)) - step * page_size * 16 };

		for (int t = 0; t < 2; t++) {
			void *p = mmap((void *)tries[t], page_size, PROT_READ | PROT_EXEC,
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

/* The trampolines, in pfe__place_targets' table. */
enum {
	TRAMP_SLOT, TRAMP_SLOT_LOW16, TRAMP_SLOT_NO_VECTORS, TRAMP_SLOT_AFTER_HASH, TRAMP_LOOKUP,
	TRAMP_EXIT, TRAMP_EXIT_X87, TRAMP_EXIT_GP, TRAMP_EXIT_LOW16, TRAMP_EXIT_TAIL, NTRAMPS
};

/* F's trampoline: the lookup one, or the slot one for where its slot is
 * (right before the entry, for what it saves of the vector registers). */
static unsigned tramp_of(const struct pfe_func *f)
{
	static const unsigned by_save[] = { [PFE_VEC_FULL] = TRAMP_SLOT, [PFE_VEC_LOW16] = TRAMP_SLOT_LOW16,
					    [PFE_VEC_NONE] = TRAMP_SLOT_NO_VECTORS };

	if (f->dispatch == PFE_DISPATCH_LOOKUP)
		return TRAMP_LOOKUP;
	return f->addr - f->slot == 8 ? by_save[f->vec_save] : TRAMP_SLOT_AFTER_HASH;
}

/* A veneer for each trampoline (but one that is 0: none on the target) on
 * a page near O, written as code is; TRAMP becomes their addresses. */
static int put_veneers(struct pfe_object *o, uintptr_t tramp[NTRAMPS])
{
	uintptr_t page = near_page(o);
	unsigned stride = (pfe__arch->veneer_len + 15) & ~15u;
	struct edit v[NTRAMPS];
	size_t n = 0;
	int err;

	if (!page)
		return PFE_ERANGE;
	for (int k = 0; k < NTRAMPS; k++) {
		if (!tramp[k])
			continue;
		v[n] = (struct edit){ .at = page + k * stride, .len = pfe__arch->veneer_len };
		pfe__arch->put_veneer(v[n++].bytes, page + k * stride, tramp[k]);
	}
	err = write_batch(array_edits, &(struct edit_array){ v, n }, PROT_READ | PROT_EXEC);
	if (err) {
		munmap((void *)page, page_size);
		return err;
	}
	for (int k = 0; k < NTRAMPS; k++)
		tramp[k] = tramp[k] ? page + k * stride : 0;
	o->veneers = page;
	return 0;
}

/* The trampoline of an exit sled of KIND (names.h), or -1: a kind this
 * libpfe does not know (the sled is not used, object.c). */
int pfe__sled_tramp(int kind)
{
	switch (kind) {
	case PFE_EXIT_RETURN:
		return TRAMP_EXIT;
	case PFE_EXIT_TAIL:
		return TRAMP_EXIT_TAIL;
	case PFE_EXIT_RETURN_X87:
		return TRAMP_EXIT_X87;
	case PFE_EXIT_RETURN_GP:
		return TRAMP_EXIT_GP;
	case PFE_EXIT_RETURN_LOW16:
		return TRAMP_EXIT_LOW16;
	default:
		return -1;
	}
}

/* Sled S's trampoline (its kind known: object.c keeps no other). */
static unsigned tramp_of_sled(const struct pfe_sled *s)
{
	return (unsigned)pfe__sled_tramp(s->kind);
}

/* Whether each of F's sleds reaches its trampoline in TRAMP; if so,
 * they get them as targets. */
static bool place_sleds(struct pfe_func *f, const uintptr_t tramp[NTRAMPS])
{
	for (size_t j = 0; j < f->nsleds; j++)
		if (!in_reach_of(pfe__arch->exit_sled, f->sleds[j].at, tramp[tramp_of_sled(&f->sleds[j])]))
			return false;
	for (size_t j = 0; j < f->nsleds; j++)
		f->sleds[j].target = tramp[tramp_of_sled(&f->sleds[j])];
	return true;
}

int pfe__place_targets(struct pfe_object *o)
{
	uintptr_t tramp[NTRAMPS] = { (uintptr_t)pfe__tramp_slot, PFE_TRAMP_SLOT_LOW16, PFE_TRAMP_SLOT_NO_VECTORS,
				     PFE_TRAMP_SLOT_AFTER_HASH, (uintptr_t)pfe__tramp_lookup, PFE_TRAMP_EXIT,
				     PFE_TRAMP_EXIT_X87, PFE_TRAMP_EXIT_GP, PFE_TRAMP_EXIT_LOW16,
				     PFE_TRAMP_EXIT_TAIL };
	bool need = false;
	int err;

	for (size_t i = 0; i < o->nfuncs; i++) {
		struct pfe_func *f = &o->funcs[i];

		if (f->patch)
			need |= !in_reach(f, tramp[tramp_of(f)]);
	}
	for (size_t k = 0; k < o->nsleds; k++)
		need |= !in_reach_of(pfe__arch->exit_sled, o->sleds[k].at, tramp[tramp_of_sled(&o->sleds[k])]);
	if (need && (err = put_veneers(o, tramp)) != 0)
		return err;
	for (size_t i = 0; i < o->nfuncs; i++) {
		struct pfe_func *f = &o->funcs[i];

		if (!f->patch)
			continue;
		f->target = tramp[tramp_of(f)];
		/* What pfe_info says: only the ops slot's trampolines save less. */
		if (tramp_of(f) != TRAMP_SLOT_LOW16 && tramp_of(f) != TRAMP_SLOT_NO_VECTORS)
			f->vec_save = PFE_VEC_FULL;
		if (!in_reach(f, f->target))
			pfe__leave_alone(f, "no trampoline or veneer within the call's reach");
		/* Sleds out of reach: its exits divert the return address. */
		if (!f->patch || !place_sleds(f, tramp))
			f->nsleds = 0;
	}
	return 0;
}
