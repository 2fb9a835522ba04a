/* rt-dlclose.c: dlclose is noticed at once, and an object loaded where
 * another was is new.  argv[1] is rt-dso.so (dso_twice), argv[2] the
 * same source built as another file (dso_other).
 *   1. dlclose of A: dso_twice is no longer listed, without a rescan;
 *      pfe_disable of it says PFE_EUNLOADED and writes nothing into B,
 *      opened next (most often at A's address).
 *   2. B is found by pfe_rescan although it has A's address.
 *   3. B closed by libc's own dlclose (one libpfe does not see), A opened
 *      again (at the same address): pfe_rescan takes it for a new object,
 *      not for B (their files differ).
 * A note says when the loader put B elsewhere (then 1's "writes nothing"
 * and 3 test less).  Exit 1 on a failure.
 */
#define _GNU_SOURCE
#include <pfe.h>

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "rt-test.h"

static unsigned long hits;

static void on_entry(struct pfe_call *c)
{
	(void)c;
	hits++;
}

static uintptr_t base_of(void *h)
{
	struct link_map *lm = NULL;

	return dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm ? lm->l_addr : 0;
}

/* libc's dlclose (libdl's before glibc 2.34), not libpfe's. */
static int (*libc_dlclose(void))(void *)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	void *sym = libc ? dlsym(libc, "dlclose") : NULL;
	void *libdl = dlopen("libdl.so.2", RTLD_LAZY | RTLD_NOLOAD);

	if (libdl && dlsym(libdl, "dlclose"))
		sym = dlsym(libdl, "dlclose");
	return (int (*)(void *))sym;
}

/* Step 1; B's handle. */
static void *close_then_disable(const char *a_path, const char *b_path, uintptr_t *a_base)
{
	void *a = dlopen(a_path, RTLD_NOW), *b;
	long (*twice)(long) = a ? (long (*)(long))dlsym(a, "dso_twice") : NULL;
	struct pfe_func *f;
	struct pfe_info info;
	unsigned char before[16];
	int err;

	pfe_rescan();
	f = pfe_find("dso_twice");
	if (!twice || !f || pfe_attach(f, on_entry, NULL, NULL) || pfe_enable(f) || twice(21) != 42 || hits != 1) {
		printf("FAIL: dso_twice not opened, found, patched and run (%lu calls handled)\n", hits);
		return NULL;
	}
	*a_base = base_of(a);
	pfe_func_info(f, &info);
	dlclose(a);
	CHECK(!pfe_find("dso_twice"), "dso_twice still listed after dlclose, without a rescan");
	b = dlopen(b_path, RTLD_NOW);
	if (!b)
		return NULL;
	if (base_of(b) == *a_base)
		memcpy(before, info.patch_at, sizeof before);
	else
		printf("note: B opened at 0x%lx, not at A's 0x%lx\n", (unsigned long)base_of(b), (unsigned long)*a_base);
	err = pfe_disable(f);
	CHECK(err == PFE_EUNLOADED, "pfe_disable of an unloaded function: %s, not PFE_EUNLOADED", pfe_strerror(err));
	CHECK(base_of(b) != *a_base || memcmp(before, info.patch_at, sizeof before) == 0,
	      "pfe_disable of an unloaded function wrote into the object now there");
	return b;
}

int main(int argc, char **argv)
{
	void *b, *a;
	uintptr_t a_base = 0;
	int (*real_dlclose)(void *) = libc_dlclose();
	struct pfe_func *f;

	if (argc < 3 || !real_dlclose || !(b = close_then_disable(argv[1], argv[2], &a_base))) {
		printf("FAIL: setting up: %s\n", dlerror());
		return 1;
	}
	pfe_rescan();
	f = pfe_find("dso_other");
	CHECK(f && pfe_func_addr(f) == dlsym(b, "dso_other"), "dso_other (loaded where dso_twice was) not found");

	real_dlclose(b);
	a = dlopen(argv[1], RTLD_NOW);
	if (!a) {
		printf("FAIL: dlopen %s again: %s\n", argv[1], dlerror());
		return 1;
	}
	if (base_of(a) != a_base)
		printf("note: A opened again at 0x%lx, not at 0x%lx\n", (unsigned long)base_of(a), (unsigned long)a_base);
	pfe_rescan();
	f = pfe_find("dso_twice");
	CHECK(f && pfe_func_addr(f) == dlsym(a, "dso_twice"),
	      "dso_twice (its object closed behind libpfe's back, loaded again) not found");
	CHECK(!pfe_find("dso_other"), "dso_other still listed after its object was closed and a rescan");
	printf("%s: %lu calls handled\n", failures ? "FAILED" : "ok", hits);
	return failures != 0;
}
