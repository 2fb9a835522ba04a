/* pool.c: blocks of one size a pool, one a thread: libpfe's per-thread
 * state (dispatch.c) and pfe-trace's per-thread buffers (trace-record.c).
 * A thread takes a block at its first call and gives it back when it
 * ends (a thread key's destructor), for the next thread: a server making
 * a thread a request would otherwise map one a thread until mmap fails
 * (Linux's 65530 mappings a process).  Blocks are mapped (mmap: a
 * handler may run in a signal handler, where malloc may not) and never
 * unmapped: the pool's list may be walked without a lock.  A pool may
 * have its blocks backed by files (pfe-trace's buffers: they outlive a
 * SIGKILL'd process).
 *
 * Debugging: `p *pool` in gdb and follow next; used says which are taken.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <sys/mman.h>

struct pfe_pooled *pfe__pool_take(struct pfe_pooled *_Atomic *pool, size_t size, int (*backing)(size_t size))
{
	struct pfe_pooled *b;
	int fd;

	for (b = atomic_load_explicit(pool, memory_order_acquire); b; b = b->next) {
		unsigned free = 0;

		if (atomic_compare_exchange_strong(&b->used, &free, 1))
			return b;
	}
	fd = backing ? backing(size) : -1;
	b = fd >= 0 ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	if (fd >= 0)
		close(fd);
	if (b == MAP_FAILED)
		b = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return NULL;
	b->used = 1;
	b->next = atomic_load_explicit(pool, memory_order_relaxed);
	while (!atomic_compare_exchange_weak_explicit(pool, &b->next, b, memory_order_release, memory_order_relaxed))
		;
	return b;
}
