/* pfe-scan-cfi.c: the kCFI type hash before a function's entry, as Clang's
 * -fsanitize=kcfi and the plugin's cfi=kcfi put it (README.md, "kCFI").
 *
 * The hash is 4 bytes, little-endian: on x86_64 the immediate of a
 * `movl $HASH, %eax` (b8 HASH) in the __cfi_<name> preamble, on aarch64
 * and riscv64 a plain `.word HASH`.  Where it is depends on the layout:
 *   clang  right before the N pre-entry NOPs: it ends 4 + N NOP bytes
 *          before the entry, so it moves with N;
 *   fixed  right before the entry, after the N NOPs: it ends at the entry.
 * With N = 0 the two are the same.  i386 has no kCFI (Clang has none).
 *
 * What counts as a hash: its bytes lie in the function's section, are not
 * NOPs (aarch64, riscv) or follow the b8 opcode (x86_64), and lie in no
 * other function's code but the __cfi_<name> preamble's.  A `.word` is
 * data to the disassembler, so that is the best a scan can do without
 * debug info; verify --cfi checks the value too where the file has
 * __kcfi_typeid_<name> symbols.
 * Debug: `pfe-scan list --cfi --json FILE` shows each hash and its address;
 * compare with `objdump -d` there.
 */
#include "pfe-scan.h"

#include <stdlib.h>
#include <string.h>

#define CFI_PREFIX PFE_KCFI_PREAMBLE_PREFIX
#define HASH_SIZE PFE_KCFI_HASH_SIZE

bool is_cfi_preamble(const char *name)
{
	return !strncmp(name, CFI_PREFIX, sizeof CFI_PREFIX - 1);
}

const char *cfi_layout_name(enum cfi_layout layout)
{
	return layout == CFI_FIXED ? "fixed" : layout == CFI_CLANG ? "clang" : "none";
}

/* Is OWNER, a function whose code covers a hash, F's own preamble? */
static bool is_preamble_of(const struct func *owner, const struct func *f)
{
	return is_cfi_preamble(owner->name) && !strcmp(owner->name + sizeof CFI_PREFIX - 1, f->name);
}

/* Does F's kCFI hash have its 4 bytes at OFF of F's section?  See the top
 * of the file for what counts. */
static bool hash_at(struct image *img, const struct func *f, uint64_t off, uint32_t *value)
{
	const struct pfe_arch *a = img->arch;
	uint64_t size, start;
	const uint8_t *b = section_bytes(img, f->sec, &size);
	const struct func *owner;

	if (!a->kcfi || off < a->kcfi_opcode_len || off > size || size - off < HASH_SIZE ||
	    off % a->insn_align)
		return false;
	start = off - a->kcfi_opcode_len;
	if (a->kcfi_opcode_len ? b[start] != a->kcfi_opcode : pfe_enc_all_entry_nops(a, b + off, HASH_SIZE))
		return false;
	owner = func_containing(img, (struct location){ f->sec, start });
	if (owner && !is_preamble_of(owner, f))
		return false;
	*value = (uint32_t)load_le(b + off, HASH_SIZE);
	return true;
}

/* F's hash ending GAP bytes before its entry (GAP: 0 in the fixed layout,
 * the N NOP bytes in the clang one). */
bool cfi_hash_before(struct image *img, const struct func *f, uint64_t gap, struct cfi_hash *out)
{
	*out = (struct cfi_hash){ .found = false };
	if (f->off < gap + HASH_SIZE)
		return false;
	out->at = (struct location){ f->sec, f->off - gap - HASH_SIZE };
	out->found = hash_at(img, f, out->at.off, &out->value);
	return out->found;
}

/* The fixed layout puts the hash between the N NOPs and the entry: if a
 * hash sits at LOC (where the NOPs stopped) right before a function's
 * entry, that function in *F and the hash's bytes (x86_64 with its
 * opcode), else 0. */
uint64_t cfi_hash_between(struct image *img, struct location loc, const struct func **f)
{
	const struct pfe_arch *a = img->arch;
	uint64_t len = a->kcfi_opcode_len + HASH_SIZE;
	const struct func *next;
	uint32_t value;

	if (!a->kcfi)
		return 0;
	next = canonical_func(img, func_at(img, (struct location){ loc.sec, loc.off + len }));
	if (!next || is_cfi_preamble(next->name) || !hash_at(img, next, loc.off + a->kcfi_opcode_len,
							     &value))
		return 0;
	*f = next;
	return len;
}

/* The hash of a record's function, for list: right before the entry when
 * the NOPs run into it (fixed), else right before the NOPs (clang; with
 * no pre-entry NOPs both are right before the entry). */
void site_cfi_hash(struct image *img, const struct site *site, struct cfi_hash *out)
{
	*out = (struct cfi_hash){ .found = false };
	if (site->func)
		cfi_hash_before(img, site->func, site->cfi_between ? 0 : site->pre, out);
}

static int compare_preambles(const void *pa, const void *pb)
{
	const struct func *const *a = pa, *const *b = pb;

	return strcmp((*a)->name, (*b)->name);
}

static int compare_preamble_name(const void *key, const void *elem)
{
	const struct func *const *p = elem;

	return strcmp(key, (*p)->name + sizeof CFI_PREFIX - 1);
}

/* Has F a __cfi_F symbol (x86_64 Clang and pfe: the preamble)?  The
 * preambles are indexed by name on first use: a kernel has 10^5 of them. */
bool has_cfi_preamble(struct image *img, const struct func *f)
{
	if (!img->preambles_loaded) {
		img->preambles = scan_alloc(img, img->nfuncs, sizeof *img->preambles);
		for (size_t i = 0; i < img->nfuncs; i++)
			if (is_cfi_preamble(img->funcs[i].name))
				img->preambles[img->npreambles++] = &img->funcs[i];
		qsort(img->preambles, img->npreambles, sizeof *img->preambles, compare_preambles);
		img->preambles_loaded = true;
	}
	return bsearch(f->name, img->preambles, img->npreambles, sizeof *img->preambles,
		       compare_preamble_name) != NULL;
}

static int compare_typeid_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct named_value *)elem)->name);
}

/* The value of the absolute symbol __kcfi_typeid_NAME, if the file has it. */
bool kcfi_typeid(struct image *img, const char *name, uint32_t *value)
{
	const struct named_value *v;

	if (!img->typeids_loaded) {
		img->ntypeids = absolute_symbols(img, PFE_KCFI_TYPEID_PREFIX, &img->typeids);
		img->typeids_loaded = true;
	}
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
