/* pfe-scan-sort.c: `pfe-scan sort`, sort records by target and zero the
 * ones that point into no function, in place.
 *
 * Why zero: when a strong definition overrides a weak one, the linker keeps
 * the weak copy's code and its record but drops its symbol, so the record
 * points at code no function owns (the kernel zeroes such mcount entries).
 *
 *  - executable: the records are sorted in place, each written for its
 *    new slot (abs: the address; rel32: the distance from the slot);
 *    zeroed ones (0) sort first.
 *  - PIE / shared object: the same; an abs record also has a RELATIVE
 *    dynamic relocation.  Its addend follows the sorted value; a zeroed
 *    record's relocation becomes R_*_NONE and is moved out of the
 *    DT_RELACOUNT / DT_RELCOUNT prefix, which the loader applies without
 *    looking at types.  rel32 records have none.
 *  - relocatable object: the records are their relocations; these are
 *    renumbered so record i gets the i-th target; a zeroed record's
 *    relocation becomes R_*_NONE.  A relocation of the slot itself
 *    (riscv rel32's SUB32, the pair's other half) stays at its slot, and
 *    becomes NONE with the record there if that is zeroed.
 * Debug: `pfe-scan list --json` and `readelf -rdW` before and after.
 */
#include "pfe-scan.h"

#include <stdlib.h>

/* A record of a relocatable object with its relocation. */
struct entry {
	struct slot_reloc reloc;
	struct record rec;
	bool zero;
	uint64_t addend_in_place;	/* REL: the addend moves with the record */
};

static int compare_values(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* Zeroed first, then by target section and offset. */
static int compare_entries(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->zero != b->zero)
		return a->zero ? -1 : 1;
	if (a->rec.target.sec != b->rec.target.sec)
		return a->rec.target.sec < b->rec.target.sec ? -1 : 1;
	return a->rec.target.off < b->rec.target.off ? -1 : a->rec.target.off > b->rec.target.off;
}

static int compare_positions(const void *pa, const void *pb)
{
	const struct slot_reloc *a = pa, *b = pb;

	if (a->rsec != b->rsec)
		return a->rsec < b->rsec ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static uint8_t *writable_bytes(struct image *img, size_t sec)
{
	Elf_Data *d = section_data(img, sec);

	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	return d->d_buf;
}

static void make_none(GElf_Rela *r)
{
	*r = (GElf_Rela){ r->r_offset, GELF_R_INFO(0, 0), 0 };
}

/* Put the relocations of the slots themselves (reloc_of_slot) after the
 * others, those that move; returns how many move. */
static size_t moving_relocs_first(struct image *img, enum record_format format,
				  struct slot_reloc *r, size_t n)
{
	size_t moving = 0;

	for (size_t i = 0; i < n; i++)
		if (!reloc_of_slot(img, format, &r[i])) {
			struct slot_reloc t = r[moving];

			r[moving++] = r[i];
			r[i] = t;
		}
	return moving;
}

/* The relocations of the slots themselves, STAY[0..N): NONE where the
 * slot's record was zeroed (DROPPED, by record index; SIZE: a record's
 * bytes), so that nothing is left there. */
static void drop_slot_relocs(struct image *img, size_t rs, unsigned size,
			     struct slot_reloc *stay, size_t n, const bool *dropped)
{
	for (size_t i = 0; i < n; i++)
		if (dropped[stay[i].rela.r_offset / size]) {
			make_none(&stay[i].rela);
			update_slot_reloc(img, rs, &stay[i]);
		}
}

/* Relocatable object: the record slots stay, the relocations move: the
 * i-th slot (by offset) gets the i-th target, written into the i-th
 * relocation entry (by position), so the relocations stay in slot order. */
static size_t sort_object_records(struct image *img, enum record_format format, size_t rs)
{
	unsigned size = record_size(img, format);
	struct record *recs;
	struct slot_reloc *pos;
	size_t nrecs = read_records(img, rs, format, &recs), zeroed = 0;
	size_t all = slot_relocs(img, rs, format, &pos);
	size_t n = moving_relocs_first(img, format, pos, all);
	struct entry *e = scan_alloc(img, n, sizeof *e);
	uint64_t *slots = scan_alloc(img, n, sizeof *slots);
	bool *dropped = scan_alloc(img, nrecs, sizeof *dropped);
	uint8_t *bytes = nrecs ? writable_bytes(img, rs) : NULL;

	for (size_t i = 0; i < n; i++) {
		e[i].reloc = pos[i];
		e[i].rec = recs[pos[i].rela.r_offset / size];
		e[i].zero = !points_into_function(img, &e[i].rec);
		e[i].addend_in_place = load_le(bytes + e[i].rec.slot, size);
		zeroed += e[i].zero && !e[i].rec.zero;
		slots[i] = pos[i].rela.r_offset;
	}
	qsort(e, n, sizeof *e, compare_entries);
	qsort(slots, n, sizeof *slots, compare_values);
	qsort(pos, n, sizeof *pos, compare_positions);
	for (size_t i = 0; i < n; i++) {
		struct slot_reloc r = e[i].reloc;

		r.rsec = pos[i].rsec;
		r.index = pos[i].index;
		r.is_rela = pos[i].is_rela;
		r.rela.r_offset = slots[i];
		if (e[i].zero)
			make_none(&r.rela);
		dropped[slots[i] / size] = e[i].zero;
		store_le(bytes + slots[i], size, e[i].zero || r.is_rela ? 0 : e[i].addend_in_place);
		update_slot_reloc(img, rs, &r);
	}
	drop_slot_relocs(img, rs, size, pos + n, all - n, dropped);
	return zeroed;
}

/* The .dynamic entry with tag TAG, or false. */
static bool find_dynamic(struct image *img, GElf_Sxword tag, Elf_Data **d, int *index,
			 GElf_Dyn *dyn)
{
	for (size_t s = 1; s < img->nsecs; s++) {
		if (img->secs[s].sh.sh_type != SHT_DYNAMIC || !(*d = section_data(img, s)))
			continue;
		for (*index = 0; gelf_getdyn(*d, *index, dyn) && dyn->d_tag != DT_NULL; ++*index)
			if (dyn->d_tag == tag)
				return true;
	}
	return false;
}

static void swap_relocs(struct image *img, size_t rsec, size_t a, size_t b)
{
	Elf_Data *d = section_data(img, rsec);
	GElf_Rela ra, rb;
	GElf_Rel la, lb;

	if (img->secs[rsec].sh.sh_type == SHT_RELA) {
		if (!gelf_getrela(d, (int)a, &ra) || !gelf_getrela(d, (int)b, &rb) ||
		    !gelf_update_rela(d, (int)a, &rb) || !gelf_update_rela(d, (int)b, &ra))
			scan_fail(img, "%s: %s", img->secs[rsec].name, elf_errmsg(-1));
	} else if (!gelf_getrel(d, (int)a, &la) || !gelf_getrel(d, (int)b, &lb) ||
		   !gelf_update_rel(d, (int)a, &lb) || !gelf_update_rel(d, (int)b, &la)) {
		scan_fail(img, "%s: %s", img->secs[rsec].name, elf_errmsg(-1));
	}
}

static unsigned reloc_type(struct image *img, size_t rsec, size_t i)
{
	Elf_Data *d = section_data(img, rsec);
	GElf_Rela ra;
	GElf_Rel rl;

	if (img->secs[rsec].sh.sh_type == SHT_RELA ? !gelf_getrela(d, (int)i, &ra)
						   : !gelf_getrel(d, (int)i, &rl))
		scan_fail(img, "%s: relocation %zu: %s", img->secs[rsec].name, i, elf_errmsg(-1));
	return GELF_R_TYPE(img->secs[rsec].sh.sh_type == SHT_RELA ? ra.r_info : rl.r_info);
}

/* Move R_*_NONE entries out of the leading RELATIVE run the loader applies
 * blindly (DT_RELACOUNT / DT_RELCOUNT entries of DT_RELA / DT_REL). */
static void shrink_relative_count(struct image *img, size_t rsec)
{
	bool rela = img->secs[rsec].sh.sh_type == SHT_RELA;
	Elf_Data *d, *dc;
	int i, ic;
	GElf_Dyn table, count;
	size_t lo = 0, hi;

	if (!find_dynamic(img, rela ? DT_RELA : DT_REL, &d, &i, &table) ||
	    table.d_un.d_ptr != img->secs[rsec].sh.sh_addr ||
	    !find_dynamic(img, rela ? DT_RELACOUNT : DT_RELCOUNT, &dc, &ic, &count))
		return;
	hi = count.d_un.d_val;
	while (lo < hi)
		if (reloc_type(img, rsec, lo) != 0)
			lo++;
		else
			swap_relocs(img, rsec, lo, --hi);
	count.d_un.d_val = lo;
	if (!gelf_update_dyn(dc, ic, &count))
		scan_fail(img, ".dynamic: %s", elf_errmsg(-1));
	elf_flagdata(dc, ELF_C_SET, ELF_F_DIRTY);
}

/* Give slot K's relocation value V: RELATIVE with addend V, or NONE if 0. */
static void relocate_slot(struct image *img, size_t rs, struct slot_reloc *r, uint64_t v)
{
	if (!v)
		make_none(&r->rela);
	else if (GELF_R_TYPE(r->rela.r_info) != img->arch->relative_reloc)
		scan_fail(img, "%s+0x%llx: a record moves onto a slot without a RELATIVE relocation",
			  img->secs[rs].name, (unsigned long long)r->rela.r_offset);
	else if (r->is_rela)
		r->rela.r_addend = (int64_t)v;
	update_slot_reloc(img, rs, r);
}

/* Executable, PIE or shared object: sort the targets themselves, each
 * written for its new slot. */
static size_t sort_linked_records(struct image *img, enum record_format format, size_t rs)
{
	unsigned size = record_size(img, format);
	uint64_t addr = img->secs[rs].sh.sh_addr;
	struct record *recs;
	struct slot_reloc *relocs;
	size_t n = read_records(img, rs, format, &recs);
	size_t nrelocs = slot_relocs(img, rs, format, &relocs);
	uint64_t *values = scan_alloc(img, n, sizeof *values);
	uint8_t *bytes = n ? writable_bytes(img, rs) : NULL;
	bool *has_reloc = scan_alloc(img, n, sizeof *has_reloc);
	size_t zeroed = 0;

	for (size_t i = 0; i < n; i++) {
		bool zero = !points_into_function(img, &recs[i]);

		zeroed += zero && !recs[i].zero;
		values[i] = zero ? 0 : recs[i].value;
	}
	qsort(values, n, sizeof *values, compare_values);
	for (size_t i = 0; i < n; i++)
		store_le(bytes + i * size, size,
			 encode_linked_record(img, format, addr + i * size, values[i]));
	for (size_t i = 0; i < nrelocs; i++) {
		size_t k = relocs[i].rela.r_offset / size;

		has_reloc[k] = true;
		relocate_slot(img, rs, &relocs[i], values[k]);
	}
	for (size_t i = 0; i < n; i++)
		if (loader_relocates(img, format) && values[i] && !has_reloc[i])
			scan_fail(img, "%s+0x%zx: record without REL/RELA relocation "
				  "(packed DT_RELR is not supported)", img->secs[rs].name,
				  i * size);
	for (size_t i = 0; i < nrelocs; i++)
		if (!i || relocs[i].rsec != relocs[i - 1].rsec)
			shrink_relative_count(img, relocs[i].rsec);
	return zeroed;
}

size_t sort_image(struct image *img, const struct record_spec *spec, size_t *nrecords)
{
	size_t *rs, nrs = record_sections(img, spec->section, &rs), zeroed = 0;

	*nrecords = 0;
	for (size_t i = 0; i < nrs; i++) {
		*nrecords += img->secs[rs[i]].sh.sh_size / record_size(img, spec->format);
		zeroed += img->relocatable ? sort_object_records(img, spec->format, rs[i])
					   : sort_linked_records(img, spec->format, rs[i]);
	}
	return zeroed;
}
