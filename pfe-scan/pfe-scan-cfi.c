/* pfe-scan-cfi.c: what pfe-scan knows of kCFI (README.md, "kCFI") on top
 * of arch-hooks/layout.c, which finds the type hash before an entry in
 * either layout (clang: before the N pre-entry NOPs; fixed: right before
 * the entry) and says what counts as one: the layouts' names, the
 * __cfi_<name> preamble symbols (x86_64), the __kcfi_typeid_<name>
 * symbols verify --cfi compares the hash with, and what the hash of a
 * type hash is (x86_64: Clang's mask, the target's table).  i386 has no
 * kCFI (Clang has none).
 * Debug: `pfe-scan list --cfi --json FILE` shows each hash and its address;
 * compare with `objdump -d` there.
 */
#include "pfe-scan.h"

#include <stdlib.h>
#include <string.h>

const char *cfi_layout_name(enum cfi_layout layout)
{
	return layout == CFI_FIXED ? "fixed" : layout == CFI_CLANG ? "clang" : "none";
}

static int compare_preambles(const void *pa, const void *pb)
{
	const struct func *const *a = pa, *const *b = pb;

	return strcmp((*a)->name, (*b)->name);
}

static int compare_preamble_name(const void *key, const void *elem)
{
	const struct func *const *p = elem;

	return strcmp(key, (*p)->name + sizeof PFE_KCFI_PREAMBLE_PREFIX - 1);
}

/* Index the kCFI symbols when the file is opened: the __cfi_<name>
 * preambles (x86_64 Clang and pfe) by <name>, and the absolute
 * __kcfi_typeid_<name> symbols by <name> (a kernel has 10^5 of each). */
void index_kcfi_symbols(struct image *img)
{
	img->preambles = scan_alloc(img, img->nfuncs, sizeof *img->preambles);
	for (size_t i = 0; i < img->nfuncs; i++)
		if (pfe_layout_is_cfi_preamble(img->funcs[i].name))
			img->preambles[img->npreambles++] = &img->funcs[i];
	if (img->npreambles)
		qsort(img->preambles, img->npreambles, sizeof *img->preambles, compare_preambles);
	img->ntypeids = absolute_symbols(img, PFE_KCFI_TYPEID_PREFIX, &img->typeids);
}

/* Has F a __cfi_F symbol (the preamble)? */
bool has_cfi_preamble(const struct image *img, const struct func *f)
{
	return img->npreambles && bsearch(f->name, img->preambles, img->npreambles, sizeof *img->preambles,
					  compare_preamble_name) != NULL;
}

static int compare_typeid_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct named_value *)elem)->name);
}

/* The value of the absolute symbol __kcfi_typeid_NAME, if the file has it. */
bool kcfi_typeid(const struct image *img, const char *name, uint32_t *value)
{
	const struct named_value *v;

	if (!img->ntypeids)
		return false;
	v = bsearch(name, img->typeids, img->ntypeids, sizeof *img->typeids, compare_typeid_name);
	if (v)
		*value = (uint32_t)v->value;
	return v != NULL;
}

/* What the preamble holds for a function whose __kcfi_typeid_ is TYPEID
 * (x86_64: Clang's mask, arch-hooks/x86/x86.h). */
uint32_t kcfi_masked(const struct image *img, uint32_t typeid)
{
	return pfe_kcfi_hash_of(img->arch, typeid);
}
