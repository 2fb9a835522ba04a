/* rt-dlopen-ctor.c: an object whose constructor starts a thread running
 * its code (argv[1], rt-dso-ctor.so) is found by pfe_rescan without
 * rewriting any of it under that thread: its entry's bytes are the same
 * after the rescan, and a function whose preparation would rewrite them
 * is not patchable (pfe_func_info's why says so).  One that needs no
 * rewrite (argv[2] "patchable": its bytes are the disabled form as
 * built, or as libpfe, the loader's audit module, wrote them) is enabled
 * and disabled while the thread runs it.  The one change allowed is
 * riscv64's: the disabled form's auipc gets another immediate (the
 * audit copy's target, then the program libpfe's), its next word a NOP.
 * Exit 1 on a failure; SIGILL or a wrong result when code was rewritten
 * under it.
 */
#include <pfe.h>

#include <dlfcn.h>
#include <stdint.h>
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

/* Whether N bytes at CODE are what they were (BEFORE) but for riscv64's
 * disabled form given another target: the word of an auipc t0 (at a
 * multiple of 4) with another immediate, the word after it NOP in both. */
static int unchanged(const unsigned char *before, const unsigned char *code, size_t n)
{
	size_t d = 0;

	while (d < n && before[d] == code[d])
		d++;
	if (d == n)
		return 1;
#ifdef __riscv
	{
		size_t w = d - (((uintptr_t)code + d) & 3);
		uint32_t b[2], c[2];

		if (d < ((uintptr_t)code + d) % 4 || w + 8 > n)
			return 0;
		memcpy(b, before + w, 8);
		memcpy(c, code + w, 8);
		return (b[0] & 0xfff) == 0x297 && (c[0] & 0xfff) == 0x297 && b[1] == 0x13 && c[1] == 0x13 &&
		       memcmp(before + w + 4, code + w + 4, n - w - 4) == 0;
	}
#else
	return 0;
#endif
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
