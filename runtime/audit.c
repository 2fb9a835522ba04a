/* audit.c: libpfe as an rtld-audit module (LD_AUDIT=libpfe.so; pfe-trace
 * sets it).  The loader calls la_objopen for each object it maps, before
 * relocating it and before any of its code (its constructors, a thread
 * they start) can run: there each entry is written in its disabled form,
 * when no protocol is needed.  The program's libpfe, finding the object
 * later (pfe_init; pfe_rescan after a dlopen, when threads may run the
 * object's code), then has nothing to rewrite (object.c, prepared_at),
 * and enables and disables its entries with the concurrent protocol: an
 * object a threaded program opens is patchable.
 *
 * This copy of libpfe is the loader's, in a namespace of its own (its own
 * C library and state): it publishes nothing, installs no signal handler
 * and does not start libpfe (pfe__audit_copy, checked by api.c's
 * constructor).  It reads an object's records from memory as the link
 * wrote them (not relocated yet: the base is added), or, where the link
 * left them 0 for the loader to fill (riscv64's ld), from their RELATIVE
 * relocations (object.c, relative_addends).  riscv64's disabled form
 * names its target (auipc t0, then NOP), and this copy's targets are its
 * own: the program's libpfe takes that form for any target as prepared
 * and writes its own auipc over it, which a thread running it cannot
 * tell (arch.h, disabled_any).
 *
 * Debugging: with PFE_DEBUG=list this copy says which writer it uses too
 * (a second "libpfe: code writes" line, first), and the program's list
 * shows an object opened under threads patchable; a failure is a warning
 * naming la_objopen.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

bool pfe__audit_copy(void)
{
	Dl_info info;
	struct link_map *self;
	Lmid_t lmid;

	return dladdr1((void *)pfe__audit_copy, &info, (void **)&self, RTLD_DL_LINKMAP) && self &&
	       dlinfo(self, RTLD_DI_LMID, &lmid) == 0 && lmid != LM_ID_BASE;
}

/* Under valgrind (its preloads in LD_PRELOAD) this module is not used:
 * valgrind sends every C library's malloc, this namespace's too, to its
 * preloaded replacement, which is not relocated yet when the loader maps
 * the program's libraries, so la_objopen's first allocation jumps to an
 * unrelocated address (SIGSEGV; json-c's test suite, which runs each
 * test under valgrind, died so under pfe-trace).  The program's libpfe
 * still finds and prepares every object: only the preparation of an
 * object opened while threads run is lost, and valgrind runs one thread
 * at a time.  0: the loader ignores the module, without a word. */
static bool under_valgrind(void)
{
	const char *preload = pfe__getenv("LD_PRELOAD");

	return preload && strstr(preload, "/vgpreload_");
}

unsigned la_version(unsigned version)
{
	if (under_valgrind()) {
		if (pfe__debug("list", NULL))
			fprintf(stderr, "libpfe: not the loader's audit module under valgrind\n");
		return 0;
	}
	return version;
}

/* The program header table of the file at PATH, into PH (up to MAX
 * entries); how many, 0 if it cannot be read. */
static unsigned file_phdrs(const char *path, ElfW(Phdr) *ph, unsigned max)
{
	ElfW(Ehdr) eh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned n = 0;

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_phentsize == sizeof *ph && eh.e_phnum <= max &&
	    pread(fd, ph, eh.e_phnum * sizeof *ph, (off_t)eh.e_phoff) == (ssize_t)(eh.e_phnum * sizeof *ph))
		n = eh.e_phnum;
	close(fd);
	return n;
}

/* Write the entries of the object MAP in their disabled form. */
static void prepare_mapped(const struct link_map *map)
{
	ElfW(Phdr) ph[64];
	struct pfe_object_id id = { map->l_name, map->l_addr, ph, 0, map->l_name[0] == '\0', 0, 0, true };
	struct pfe_object *o;
	int err;

	if (id.is_main) {
		id.phdr = (const void *)getauxval(AT_PHDR);
		id.phnum = (unsigned)getauxval(AT_PHNUM);
	} else {
		id.phnum = file_phdrs(map->l_name, ph, PFE_COUNT_OF(ph));
	}
	if (!id.phnum || (err = pfe__object_load(&id, &o)) != 0)
		return;
	err = pfe__prepare(o);
	if (err)
		pfe__warn("la_objopen", map->l_addr, "%s: %s", id.is_main ? "the program" : map->l_name,
			  pfe_strerror(err));
	pfe__object_free(o);
}

unsigned la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	static int ready = -1;

	(void)cookie;
	if (ready < 0) {
		pfe__arch = pfe_enc_this_arch();
		ready = pfe__arch && pfe__patch_init(false) == 0;
	}
	if (ready && lmid == LM_ID_BASE)
		prepare_mapped(map);
	return 0;
}
