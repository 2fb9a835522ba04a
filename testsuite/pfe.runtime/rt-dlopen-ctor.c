/* rt-dlopen-ctor.c: an object whose constructor starts a thread running
 * its code (argv[1], rt-dso-ctor.so) is found by pfe_rescan without
 * rewriting any of it under that thread: its entry's bytes are the same
 * after the rescan, and a function whose preparation would rewrite them
 * is not patchable (pfe_func_info's why says so).  One that needs no
 * rewrite (argv[2] "patchable": its bytes are the disabled form as
 * built, or as libpfe, the loader's audit module, wrote them) is enabled
 * and disabled while the thread runs it.  The one change allowed is a
 * disabled form that names its target written for another (riscv64's
 * auipc: the audit copy's target, then the program libpfe's), as the
 * arch-hooks layer recognises it (struct pfe_enc_patch, disabled_any).
 * Exit 1 on a failure; SIGILL or a wrong result when code was rewritten
 * under it.
 */
#include <pfe.h>

#include "arch.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rt-test.h"

static _Atomic unsigned long hits;

static void on_entry(struct pfe_call *c)
{
	(void)c;
	hits++;
}

/* Whether N bytes at CODE are what they were (BEFORE) but for a patch
 * sequence whose disabled form names its target, in that form before
 * and after (for two targets), starting at the aligned address at or
 * before the first byte that changed. */
static int unchanged(const unsigned char *before, const unsigned char *code, size_t n)
{
	const struct pfe_arch *a = pfe_enc_this_arch();
	size_t d = 0;

	while (d < n && before[d] == code[d])
		d++;
	if (d == n)
		return 1;
	for (size_t i = 0; a && i < a->n_patches; i++) {
		const struct pfe_enc_patch *p = &a->patches[i];
		size_t back = ((uintptr_t)code + d) % p->align, w = d - back;

		if (p->disabled_any && back <= d && w + p->len <= n && p->disabled_any(before + w) &&
		    p->disabled_any(code + w) && memcmp(before + w + p->len, code + w + p->len, n - w - p->len) == 0)
			return 1;
	}
	return 0;
}

static void toggle_while_it_runs(struct pfe_func *f)
{
	struct timespec ms = { 0, 1000000L };

	CHECK(pfe_attach(f, on_entry, NULL, NULL) == 0, "attach ctor_work");
	for (int i = 0; i < 50; i++) {
		CHECK(pfe_enable(f) == 0, "enable ctor_work");
		nanosleep(&ms, NULL);
		CHECK(pfe_disable(f) == 0, "disable ctor_work");
	}
	CHECK(hits > 0, "no handler call while ctor_work was enabled");
}

int main(int argc, char **argv)
{
	void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
	unsigned long (*calls)(void) = h ? (unsigned long (*)(void))dlsym(h, "ctor_calls") : NULL;
	int (*stop)(void) = h ? (int (*)(void))dlsym(h, "ctor_stop") : NULL;
	unsigned char *code = h ? dlsym(h, "ctor_work") : NULL, before[16];
	struct pfe_func *f;
	struct pfe_info info;

	if (!calls || !stop || !code) {
		printf("FAIL: dlopen %s: %s\n", argc > 1 ? argv[1] : "(none)", dlerror());
		return 1;
	}
	while (calls() < 1000)
		;
	memcpy(before, code, sizeof before);
	pfe_rescan();
	f = pfe_find("ctor_work");
	CHECK(f && pfe_func_info(f, &info) == 0, "ctor_work not found by pfe_rescan");
	CHECK(unchanged(before, code, sizeof before), "pfe_rescan rewrote ctor_work's entry while a thread ran it");
	if (f && argc > 2 && strcmp(argv[2], "patchable") == 0) {
		CHECK(info.error == 0, "ctor_work (no rewrite needed) not patchable: %s", info.why);
		if (!info.error)
			toggle_while_it_runs(f);
	} else if (f && !info.error) {
		printf("note: ctor_work's bytes were its disabled form already\n");
	} else if (f) {
		printf("not patched: %s\n", info.why);
	}
	CHECK(stop() == 0, "the constructor's thread saw a wrong result");
	dlclose(h);
	printf("%s: %lu calls handled\n", failures ? "FAILED" : "ok", hits);
	return failures != 0;
}
