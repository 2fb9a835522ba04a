/* api.c: the public calls of pfe.h: the registry of objects (pfe_init,
 * pfe_rescan over dl_iterate_phdr), lookups, attach/enable/disable/detach,
 * stats, and the argument accessors.  Every change of state holds
 * pfe__lock (lock()/unlock(): cancellation disabled meanwhile, and kept
 * consistent over fork by pthread_atfork); objects are published
 * (pfe__objects, pfe__nobjects) with a release store and never freed, so
 * dispatch reads them without a lock.
 *
 * Objects are known by their mapping (dlpi_addr, dlpi_phdr) and their
 * file (device, inode).  dlclose is interposed: once the real one
 * returns, every object no longer loaded is marked dead, before any other
 * libpfe call can write into its range.
 *
 * Debugging: PFE_DEBUG=list prints every function found and its layout;
 * warnings (stderr, "libpfe: FUNCTION: ...") name the function and offset.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

HIDDEN pthread_mutex_t pfe__lock = PTHREAD_MUTEX_INITIALIZER;
HIDDEN const struct pfe_arch *pfe__arch;
HIDDEN struct pfe_object *pfe__objects[PFE_MAX_OBJECTS];
HIDDEN _Atomic size_t pfe__nobjects;
HIDDEN struct pfe_counters pfe__counters;
/* The attachments not retired yet (pfe_synchronize), under the lock. */
static struct pfe_attachment *attachments;
static bool initialised;
static int init_error;
/* The threads of the process at pfe_init (qemu-user has its own). */
static unsigned threads_at_init;

static const char *const messages[] = {
	[PFE_OK] = "no error",
	[PFE_EINVAL] = "invalid argument",
	[PFE_ELAYOUT] = "this entry cannot be patched",
	[PFE_ENOHANDLER] = "no handler attached",
	[PFE_ENOMEM] = "out of memory",
	[PFE_EPROT] = "the code cannot be written (W^X policy, no /proc/self/mem)",
	[PFE_ERANGE] = "no memory for a veneer within reach of the code",
	[PFE_EFILE] = "an object's file is unreadable or malformed",
	[PFE_ESYNC] = "no way to make other threads see new code (membarrier)",
	[PFE_ENOTARGET] = "libpfe has no trampolines for this target",
	[PFE_EUNLOADED] = "the function's object was unloaded (dlclose)",
	[PFE_EBUSY] = "a handler did not return (pfe_synchronize gave up)",
	[PFE_ESIGNAL] = "a thread or a signal handler blocks SIGTRAP (an int3 of the patch would kill it; PFE_DEBUG=signals says which)",
	[PFE_ECOPY] = "another copy of libpfe serves this process",
};

const char *pfe_strerror(int err)
{
	return err >= 0 && (size_t)err < sizeof messages / sizeof messages[0] ? messages[err] : "unknown error";
}

/* The decimal number at P (not strtol: glibc 2.38 headers redirect it to
 * a new symbol, and libpfe built in a newer distribution's chroot must
 * load with an older libc). */
long pfe__decimal(const char *p)
{
	long v = 0;

	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}

/* PFE_DEBUG is a comma-separated list of WHAT or WHAT=VALUE. */
const char *pfe__getenv(const char *name)
{
	size_t len = strlen(name);

	for (char **e = environ; e && *e; e++)
		if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
			return *e + len + 1;
	return NULL;
}

bool pfe__debug(const char *what, long *value)
{
	const char *env = pfe__getenv("PFE_DEBUG");
	size_t len = strlen(what);

	for (const char *p = env; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : "") {
		if (strncmp(p, what, len) != 0 || (p[len] && p[len] != ',' && p[len] != '='))
			continue;
		if (value)
			*value = p[len] == '=' ? pfe__decimal(p + len + 1) : 0;
		return true;
	}
	return false;
}

void pfe__sleep_ms(long ms)
{
	nanosleep(&(struct timespec){ ms / 1000, ms % 1000 * 1000000L }, NULL);
}

void pfe__warn(const char *func, uintptr_t off, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "libpfe: %s: offset 0x%lx: ", func, (unsigned long)off);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void *pfe__real(const char *name, const char *lib)
{
	void *f = dlsym(RTLD_NEXT, name);
	void *h;

	if (!f && (h = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD)))
		f = dlsym(h, name);
	if (!f) {
		fprintf(stderr, "libpfe: %s called, but no %s has it\n", name, lib);
		abort();
	}
	return f;
}

/* pfe__lock, cancellation disabled while it is held: a deferred
 * cancellation point inside libpfe (open, read, fprintf) would otherwise
 * end the thread with the lock held.  Returns the state to restore. */
static int lock(void)
{
	int old;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	pthread_mutex_lock(&pfe__lock);
	return old;
}

static void unlock(int cancel_state)
{
	pthread_mutex_unlock(&pfe__lock);
	pthread_setcancelstate(cancel_state, NULL);
}

/* fork: no batch is in flight while the lock is held, so the child gets
 * consistent code and state, and a lock of its own; and dispatch.c's
 * parked stacks as they were.  pthread_atfork runs these around fork;
 * libpfe-trace.so around a clone() that is a fork no atfork handler
 * sees (internal.h). */
void pfe__fork_prepare(void)
{
	pfe__parked_lock();
	pthread_mutex_lock(&pfe__lock);
}

void pfe__fork_parent(void)
{
	pthread_mutex_unlock(&pfe__lock);
	pfe__parked_unlock();
}

void pfe__fork_child(void)
{
	pthread_mutex_init(&pfe__lock, NULL);
	/* The other threads' read sections are not the child's. */
	pfe__threads_forked();
	/* Of patch.c's state, only the mask changes under way are the
	 * parent's: its /proc/self/mem descriptor is a batch's,
	 * membarrier's registration is inherited. */
	pfe__traps_forked();
	pfe__parked_unlock();
}

/* ---- the registry ---- */

struct scan {
	struct pfe_object_id ids[PFE_MAX_OBJECTS];
	size_t n;
};

static int collect(struct dl_phdr_info *info, size_t size, void *data)
{
	struct scan *s = data;
	struct pfe_object_id *id;
	struct stat st;

	(void)size;
	if (s->n < PFE_MAX_OBJECTS) {
		id = &s->ids[s->n];
		*id = (struct pfe_object_id){ info->dlpi_name ? info->dlpi_name : "",
			info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, s->n == 0, 0, 0, false };
		/* The vDSO has no file: 0, 0. */
		if (stat(id->is_main ? "/proc/self/exe" : id->name, &st) == 0) {
			id->dev = st.st_dev;
			id->ino = st.st_ino;
		}
		s->n++;
	}
	return 0;
}

static void list_object(const struct pfe_object *o)
{
	static const char *const how[] = { "none", "slot", "lookup" };

	for (size_t i = 0; i < o->nfuncs; i++) {
		const struct pfe_func *f = &o->funcs[i];

		fprintf(stderr, "libpfe: %s %s+0x%lx pre %u pad %u post %u fentry %u dispatch %s exit sleds %zu%s%s\n",
			f->name ? f->name : "?", o->path, (unsigned long)(f->addr - o->base), f->pre, f->pad,
			f->post, f->fentry, how[f->dispatch], f->nsleds, f->why ? ": " : "", f->why ? f->why : "");
	}
}

/* The same mapping of the same file.  The file tells apart objects
 * loaded at the same address (dlpi_phdr is the same offset from it in
 * most); the same file unloaded and loaded again there is a new object
 * only because dlclose told us (mark_unloaded). */
static bool same_object(const struct pfe_object *o, const struct pfe_object_id *id)
{
	return o->base == id->base && o->phdr == id->phdr && o->dev == id->dev && o->ino == id->ino;
}

static bool known(const struct pfe_object_id *id)
{
	for (size_t i = 0; i < pfe__nobjects; i++)
		if (same_object(pfe__objects[i], id) && !pfe__objects[i]->dead)
			return true;
	return false;
}

/* The objects loaded now, into S (the lock held). */
static void collect_loaded(struct scan *s)
{
	s->n = 0;
	dl_iterate_phdr(collect, s);
}

/* Mark dead the objects that S does not list. */
static void mark_unloaded(const struct scan *s)
{
	for (size_t i = 0; i < pfe__nobjects; i++) {
		bool live = false;

		for (size_t k = 0; k < s->n; k++)
			live |= same_object(pfe__objects[i], &s->ids[k]);
		if (!live)
			atomic_store(&pfe__objects[i]->dead, true);
	}
}

/* The threads of the process (entries of /proc/self/task), 0 if unknown. */
static unsigned count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	unsigned n = 0;

	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Whether preparing F rewrites code a running thread may meet: its bytes
 * are not yet its disabled form (x86: single NOPs, or the fentry call;
 * aarch64: mov x9, x30 and NOP).  riscv's (auipc, NOP) written for
 * another target (by libpfe as the loader's audit module, audit.c) is
 * that form: pfe__prepare then changes only what the auipc loads into a
 * register no instruction reads (struct pfe_enc_patch's disabled_any). */
static bool prepare_rewrites(const struct pfe_func *f)
{
	return !pfe__disabled_at(f->patch, f->pos);
}

/* An object found while threads run that pfe_init did not know (dlopen:
 * its constructors have run, and may have started threads running its
 * code): an entry whose preparation rewrites code is left alone, as no
 * protocol makes that rewrite safe for a thread inside it.  Those whose
 * bytes already are the disabled form are prepared by no write at all. */
static void keep_from_running_code(struct pfe_object *o)
{
	unsigned threads = count_threads();

	if (threads && threads <= threads_at_init)
		return;
	for (size_t i = 0; i < o->nfuncs; i++) {
		struct pfe_func *f = &o->funcs[i];

		if (f->patch && prepare_rewrites(f))
			pfe__leave_alone(f, "found after threads started, and preparing it rewrites code they may run");
	}
}

/* Objects loaded since the last scan are read, prepared and published;
 * objects no longer loaded are marked dead. */
static int scan_locked(bool at_init)
{
	static struct scan s;
	int first = 0;

	collect_loaded(&s);
	mark_unloaded(&s);
	for (size_t k = 0; k < s.n && pfe__nobjects < PFE_MAX_OBJECTS; k++) {
		struct pfe_object *o;
		int err;

		if (known(&s.ids[k]))
			continue;
		err = pfe__object_load(&s.ids[k], &o);
		if (!err)
			err = pfe__place_targets(o);
		if (!err && !at_init)
			keep_from_running_code(o);
		if (!err)
			err = pfe__prepare(o);
		if (err) {
			pfe__warn("pfe_rescan", s.ids[k].base, "%s: %s", s.ids[k].is_main ? "the program" : s.ids[k].name,
				  pfe_strerror(err));
			first = first ? first : err;
			continue;
		}
		if (pfe__debug("list", NULL))
			list_object(o);
		pfe__objects[pfe__nobjects] = o;
		atomic_store_explicit(&pfe__nobjects, pfe__nobjects + 1, memory_order_release);
	}
	return first;
}

/* Whether another copy of libpfe serves this process: the pfe_init the
 * loader binds the name to is another object's (a program that links
 * libpfe.a, run under pfe-trace, whose libpfe-trace.so exports it; a
 * program linked with libpfe.so binds to that one copy).  Two copies
 * would write the same code, each under its own lock; the second says so
 * and stays out.  Objects compared, not addresses: &pfe_init here would be
 * the loader's binding too, and a reference through the GOT makes
 * riscv64's linker export pfe_init from a program that links libpfe.a. */
static bool another_copy_serves(void)
{
	void *first = dlsym(RTLD_DEFAULT, "pfe_init");
	Dl_info theirs, ours;

	if (!first || !dladdr(first, &theirs) || !dladdr((void *)another_copy_serves, &ours) ||
	    theirs.dli_fbase == ours.dli_fbase)
		return false;
	fprintf(stderr, "libpfe: pfe_init: another copy of libpfe serves this process (%s): this one patches nothing\n",
		theirs.dli_fname ? theirs.dli_fname : "?");
	return true;
}

int pfe_init(void)
{
	int err, cs = lock();

	if (!initialised && another_copy_serves()) {
		initialised = true;
		init_error = PFE_ECOPY;
	} else if (!initialised) {
		initialised = true;
		pthread_atfork(pfe__fork_prepare, pfe__fork_parent, pfe__fork_child);
		threads_at_init = count_threads();
		pfe__threads_init();
		pfe__arch = pfe_enc_this_arch();
		init_error = pfe__arch ? pfe__patch_init(true) : PFE_ENOTARGET;
		if (!init_error)
			init_error = scan_locked(true);
	}
	err = init_error;
	unlock(cs);
	return err;
}

int pfe_rescan(void)
{
	int err = pfe_init(), cs = lock();

	if (pfe__arch && !err)
		err = scan_locked(false);
	unlock(cs);
	return err;
}

typedef int (*dlclose_fn)(void *);

/* dlclose, interposed: the objects it unloaded are dead before it
 * returns (pfe_disable of one of their functions writes nothing and says
 * PFE_EUNLOADED; an object loaded in their range later is new).  A
 * dlclose that does not come here (libpfe itself dlopen'ed without
 * RTLD_GLOBAL, a call to libc's own) is seen at the next pfe_rescan. */
int dlclose(void *handle)
{
	static struct scan s;
	int ret, cs;
	PFE_REAL(dlclose_fn, dlclose, "libc.so.6");

	ret = next(handle);
	cs = lock();
	if (initialised) {
		collect_loaded(&s);
		mark_unloaded(&s);
	}
	unlock(cs);
	return ret;
}

__attribute__((constructor)) static void pfe_auto_init(void)
{
	const char *no = pfe__getenv("PFE_NO_INIT");

	pfe__traps_init();
	pfe__jumps_init();
	if ((!no || strcmp(no, "1") != 0) && !pfe__audit_copy())
		pfe_init();
}

/* ---- lookups ---- */

struct pfe_func *pfe_next(const struct pfe_func *prev)
{
	size_t n = atomic_load_explicit(&pfe__nobjects, memory_order_acquire), i = 0;

	if (prev) {
		const struct pfe_object *o = prev->obj;
		size_t k = (size_t)(prev - o->funcs) + 1;

		if (k < o->nfuncs)
			return &o->funcs[k];
		while (i < n && pfe__objects[i] != o)
			i++;
		i++;
	}
	for (; i < n; i++)
		if (!pfe__objects[i]->dead && pfe__objects[i]->nfuncs)
			return &pfe__objects[i]->funcs[0];
	return NULL;
}

size_t pfe_count(void)
{
	size_t n = 0;

	for (struct pfe_func *f = pfe_next(NULL); f; f = pfe_next(f))
		n++;
	return n;
}

struct pfe_func *pfe_find(const char *name)
{
	for (struct pfe_func *f = pfe_next(NULL); f; f = pfe_next(f))
		if (f->name && strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

/* A binary search of each live object's functions (sorted by address):
 * a handler may ask for its function on every call (pfe_call_func). */
struct pfe_func *pfe_find_addr(const void *fn)
{
	size_t n = atomic_load_explicit(&pfe__nobjects, memory_order_acquire);
	uintptr_t addr = (uintptr_t)fn;

	for (size_t i = 0; i < n; i++) {
		struct pfe_object *o = pfe__objects[i];
		size_t k;

		if (atomic_load_explicit(&o->dead, memory_order_relaxed) || addr < o->lo || addr >= o->hi)
			continue;
		k = pfe__lower_bound(o->funcs, o->nfuncs, sizeof *o->funcs, offsetof(struct pfe_func, addr), addr);
		if (k < o->nfuncs && o->funcs[k].addr == addr)
			return &o->funcs[k];
	}
	return NULL;
}

struct pfe_func *pfe_call_func(const struct pfe_call *call)
{
	return call->func ? call->func : pfe_find_addr(call->fn);
}

int pfe_func_info(const struct pfe_func *f, struct pfe_info *out)
{
	if (!f || !out)
		return PFE_EINVAL;
	memset(out, 0, sizeof *out);
	out->name = f->name;
	out->addr = (void *)f->addr;
	out->object = f->obj->path;
	out->pre_bytes = f->pre;
	out->pad_bytes = f->pad;
	out->post_bytes = f->post;
	out->fentry = f->fentry;
	out->ops_slot = f->slot != 0;
	out->dispatch = f->dispatch;
	out->patch_at = (void *)f->pos;
	out->attached = atomic_load(&f->att) != NULL;
	out->enabled = f->enabled;
	out->error = f->patch ? 0 : PFE_ELAYOUT;
	out->why = f->why;
	out->exit_sleds = f->nsleds;
	out->vector_bytes_saved = f->vec_save == PFE_VEC_NONE ? 0 : f->vec_save == PFE_VEC_LOW16 ? 16 : -1;
	return 0;
}

const char *pfe_func_name(const struct pfe_func *f)
{
	return f ? f->name : NULL;
}

void *pfe_func_addr(const struct pfe_func *f)
{
	return f ? (void *)f->addr : NULL;
}

/* ---- state changes ---- */

/* The attached patchable functions of the loaded objects (the lock
 * held), in pfe_next's order: an array to free, NULL when out of memory.
 * One pass over the functions (100000 of them are in no cache). */
static struct pfe_func **attached_funcs(size_t *n)
{
	size_t nobjs = atomic_load(&pfe__nobjects), cap = 1;
	struct pfe_func **fs;

	for (size_t i = 0; i < nobjs; i++)
		cap += pfe__objects[i]->nfuncs;
	*n = 0;
	if (!(fs = malloc(cap * sizeof *fs)))
		return NULL;
	for (size_t i = 0; i < nobjs; i++) {
		struct pfe_object *o = pfe__objects[i];

		for (size_t k = 0; k < o->nfuncs && !o->dead; k++)
			if (o->funcs[k].patch && atomic_load_explicit(&o->funcs[k].att, memory_order_relaxed))
				fs[(*n)++] = &o->funcs[k];
	}
	return fs;
}

/* A handler's attachment: its handlers and data immutable, never freed,
 * so that one can serve many functions (pfe_attach_all: a call touches
 * one, hot in the cache). */
static struct pfe_attachment *new_attachment(pfe_entry_handler entry, pfe_exit_handler exit, void *data)
{
	struct pfe_attachment *a = calloc(1, sizeof *a);

	if (a) {
		a->entry = entry;
		a->exit = exit;
		a->data = data;
	}
	return a;
}

/* A new attachment A, listed for pfe_synchronize (the lock held). */
static void keep_attachment(struct pfe_attachment *a)
{
	a->next = attachments;
	attachments = a;
}

/* F's attachment becomes A (the lock held; NULL: detached). */
static void set_attachment(struct pfe_func *f, struct pfe_attachment *a)
{
	struct pfe_attachment *old = atomic_load(&f->att);
	struct pfe_key_slot *s = pfe__key_slot(f->obj, f->key);

	if (a)
		a->users++;
	if (old)
		old->users--;
	atomic_store_explicit(&f->att, a, memory_order_release);
	/* Every patchable function has one (index_keys). */
	if (s)
		atomic_store_explicit(&s->att, pfe__att_word(f, a), memory_order_release);
}

/* 0 if F can be attached or toggled now (the lock held), else why not. */
static int patchable_now(const struct pfe_func *f)
{
	if (!f)
		return PFE_EINVAL;
	if (!f->patch)
		return PFE_ELAYOUT;
	if (atomic_load(&f->obj->dead))
		return PFE_EUNLOADED;
	return 0;
}

static int attach_locked(struct pfe_func *f, struct pfe_attachment *a)
{
	int err = patchable_now(f);

	if (!err)
		set_attachment(f, a);
	return err;
}

int pfe_attach_many(struct pfe_func *const *fs, size_t n, pfe_entry_handler entry, pfe_exit_handler exit,
		    void *data)
{
	struct pfe_attachment *a = NULL;
	int err = 0, cs;

	if ((!entry && !exit) || (n && !fs))
		return PFE_EINVAL;
	cs = lock();
	for (size_t i = 0; i < n && !err; i++)
		err = patchable_now(fs[i]);
	if (!err && !(a = new_attachment(entry, exit, data)))
		err = PFE_ENOMEM;
	if (!err) {
		keep_attachment(a);
		for (size_t i = 0; i < n; i++)
			set_attachment(fs[i], a);
		err = pfe__set_slots(fs, n);
	}
	unlock(cs);
	return err;
}

int pfe_attach(struct pfe_func *f, pfe_entry_handler entry, pfe_exit_handler exit, void *data)
{
	return pfe_attach_many(&f, 1, entry, exit, data);
}

int pfe_attach_all(pfe_entry_handler entry, pfe_exit_handler exit, void *data, size_t *attached)
{
	struct pfe_attachment *a;
	struct pfe_func **fs;
	size_t n = 0, nfs;
	int err, cs;

	if (!entry && !exit)
		return PFE_EINVAL;
	if (!(a = new_attachment(entry, exit, data)))
		return PFE_ENOMEM;

	cs = lock();
	keep_attachment(a);
	for (struct pfe_func *f = pfe_next(NULL); f; f = pfe_next(f))
		n += attach_locked(f, a) == 0;
	fs = attached_funcs(&nfs);
	err = !fs ? PFE_ENOMEM : pfe__set_slots(fs, nfs);
	unlock(cs);
	free(fs);
	if (attached)
		*attached = n;
	return err;
}

/* FS must all be patchable, in loaded objects (and attached, to enable). */
static int toggle_many(struct pfe_func *const *fs, size_t n, bool enable)
{
	int err = 0, cs = lock();

	for (size_t i = 0; i < n && !err; i++) {
		err = patchable_now(fs[i]);
		if (!err && enable && !atomic_load(&fs[i]->att))
			err = PFE_ENOHANDLER;
	}
	if (!err && n)
		err = pfe__toggle(fs, n, enable);
	unlock(cs);
	return err;
}

int pfe_enable(struct pfe_func *f)
{
	return toggle_many(&f, 1, true);
}

int pfe_disable(struct pfe_func *f)
{
	return toggle_many(&f, 1, false);
}

int pfe_enable_many(struct pfe_func *const *fs, size_t n)
{
	return toggle_many(fs, n, true);
}

int pfe_disable_many(struct pfe_func *const *fs, size_t n)
{
	return toggle_many(fs, n, false);
}

int pfe_detach(struct pfe_func *f)
{
	int err = pfe_disable(f), cs;

	if (!err) {
		cs = lock();
		set_attachment(f, NULL);
		unlock(cs);
	}
	return err;
}

static int toggle_all(bool enable, bool detach)
{
	size_t n;
	struct pfe_func **fs;
	int err, cs = lock();

	fs = attached_funcs(&n);
	err = !fs ? PFE_ENOMEM : n ? pfe__toggle(fs, n, enable) : 0;
	for (size_t i = 0; i < n && detach && !err; i++)
		set_attachment(fs[i], NULL);
	unlock(cs);
	free(fs);
	return err;
}

int pfe_enable_all(void)
{
	return toggle_all(true, false);
}

int pfe_disable_all(void)
{
	return toggle_all(false, false);
}

int pfe_detach_all(void)
{
	return toggle_all(false, true);
}

/* Retire the attachments no function uses (the lock held). */
static void retire_unused(void)
{
	for (struct pfe_attachment **p = &attachments; *p;) {
		if ((*p)->users) {
			p = &(*p)->next;
			continue;
		}
		atomic_store(&(*p)->retired, true);
		*p = (*p)->next;
	}
}

/* Two flips: a reader may have read the epoch before the first and
 * counted itself after the wait for it; it is waited for at the second
 * (and checks retired after counting itself, so it calls nothing retired
 * before the first). */
int pfe__quiesce(uintptr_t here)
{
	static pthread_mutex_t flips = PTHREAD_MUTEX_INITIALIZER;
	int cs, err = 0;

	pfe__section_close_left(here);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	pthread_mutex_lock(&flips);
	for (int i = 0; i < 2 && !err; i++)
		err = pfe__drain(10000);
	pthread_mutex_unlock(&flips);
	pthread_setcancelstate(cs, NULL);
	return err;
}

int pfe_synchronize(void)
{
	int cs = lock();

	retire_unused();
	unlock(cs);
	return pfe__quiesce((uintptr_t)__builtin_dwarf_cfa());
}

void pfe_get_stats(struct pfe_stats *out)
{
	memset(out, 0, sizeof *out);
	for (struct pfe_func *f = pfe_next(NULL); f; f = pfe_next(f)) {
		out->functions++;
		out->patchable += f->patch != NULL;
	}
	out->batches = atomic_load(&pfe__counters.batches);
	out->barriers = atomic_load(&pfe__counters.barriers);
	out->sites_written = atomic_load(&pfe__counters.sites_written);
	out->trap_hits = atomic_load(&pfe__counters.trap_hits);
	out->recursion_skips = atomic_load(&pfe__counters.recursion_skips);
	out->exit_skips = atomic_load(&pfe__counters.exit_skips);
	out->unknown_calls = atomic_load(&pfe__counters.unknown_calls);
	out->icache_flushes = atomic_load(&pfe__counters.icache_flushes);
	out->parked_searches = atomic_load(&pfe__counters.parked_searches);
}

/* ---- arguments ---- */

uintptr_t pfe_arg(const struct pfe_call *call, unsigned i)
{
	const void *reg = pfe__arg_reg(call->regs, i);

	if (!reg)
		return PFE_STACK_ARG(call->regs, i - PFE_NARG_REGS);
	return *(const uintptr_t *)reg;
}

uintptr_t pfe_retval(const struct pfe_call *call)
{
	return call->retregs ? PFE_RETVAL(call->retregs) : 0;
}

int pfe_set_arg(struct pfe_call *call, unsigned i, uintptr_t value)
{
	void *reg = pfe__arg_reg(call->regs, i);

	if (!reg)
		return PFE_EINVAL;
	*(uintptr_t *)reg = value;
	return 0;
}
