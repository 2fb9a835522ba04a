/* pfe-scan-site.c: say what sits at a record's target, and around a
 * function's entry, for list and verify: arch-hooks/layout.c reads the
 * layout (which function, NOPs, landing pad, the call after the NOPs, the
 * kCFI hash, the ops slot) in one section of the file; this file gives it
 * the section's bytes and function symbols, and adds what only the file
 * says: where a call goes (its relocation, the GOT entry of a PLT entry),
 * whether an object's ops slot will be 8-aligned once linked, and what it
 * is relocated to.
 *
 * Debug: `pfe-scan list --json [--ops-slot] [--cfi] FILE` prints every
 * field computed here; compare with `objdump -dr` at the same address.
 */
#include "pfe-scan.h"

#include <stdio.h>
#include <string.h>

#define SLOT_SIZE PFE_SLOT_SIZE

/* Of aliases at one address, the one func_at names (records are counted
 * against that one). */
const struct func *canonical_func(const struct image *img, const struct func *f)
{
	return f ? func_at(img, (struct location){ f->sec, f->off }) : NULL;
}

/* A section as the layout reader sees it: its bytes and its functions. */
struct section_code {
	struct image *img;
	size_t sec;
	struct pfe_layout_code code;
};

static bool layout_func(const struct func *f, struct pfe_layout_func *out)
{
	if (f)
		*out = (struct pfe_layout_func){ f, f->name, f->off, f->size };
	return f != NULL;
}

static bool lookup_at(void *ctx, uint64_t off, struct pfe_layout_func *out)
{
	struct section_code *sc = ctx;

	return layout_func(func_at(sc->img, (struct location){ sc->sec, off }), out);
}

static bool lookup_before(void *ctx, uint64_t off, struct pfe_layout_func *out)
{
	struct section_code *sc = ctx;

	return layout_func(canonical_func(sc->img, func_before(sc->img, (struct location){ sc->sec, off })),
			   out);
}

static bool lookup_containing(void *ctx, uint64_t off, struct pfe_layout_func *out)
{
	struct section_code *sc = ctx;

	return layout_func(func_containing(sc->img, (struct location){ sc->sec, off }), out);
}

static uint64_t lookup_next(void *ctx, const struct pfe_layout_func *f)
{
	struct section_code *sc = ctx;

	return next_func_off(sc->img, f->id);
}

/* Section SEC for the reader (SC lives as long as the reading). */
static const struct pfe_layout_code *section_code(struct image *img, size_t sec,
						  struct section_code *sc)
{
	uint64_t size;
	const uint8_t *b = section_bytes(img, sec, &size);

	*sc = (struct section_code){ img, sec, {
		.arch = img->arch, .bytes = b, .size = b ? size : 0,
		.addr = location_addr(img, (struct location){ sec, 0 }), .ctx = sc,
		.at = lookup_at, .before = lookup_before, .containing = lookup_containing,
		.next = lookup_next } };
	return &sc->code;
}

/* A call through a pointer in memory (x86_64 GOT entry) of a linked file:
 * the entry's dynamic relocation says where it goes (RELATIVE: an address;
 * GLOB_DAT and the like: a symbol), else the address written in place. */
static void resolve_slot(struct image *img, uint64_t slot, struct call_dest *d)
{
	const struct dyn_reloc *r = dyn_reloc_at(img, slot);
	uint64_t avail;
	const uint8_t *b = bytes_at_addr(img, slot, &avail);

	if (avail < img->ptr_size)
		b = NULL;
	if (r && r->type == img->arch->relative_reloc && (r->rela || b)) {
		d->known = true;
		d->addr = r->rela ? (uint64_t)r->addend : load_le(b, img->ptr_size);
	} else if (r && r->symbol) {
		d->symbol = r->symbol;
		d->known = r->sym_defined;
		d->addr = r->sym_value;
	} else if (!r && b) {
		d->known = true;
		d->addr = load_le(b, img->ptr_size);
	}
}

/* Is ADDR in a PLT section (.plt, .plt.sec, .plt.got) of a linked file? */
bool in_plt(struct image *img, uint64_t addr)
{
	size_t sec;

	return !img->relocatable && img->arch->plt_slot && find_section_by_addr(img, addr, &sec) &&
	       !strncmp(img->secs[sec].name, ".plt", 4);
}

/* A call into the PLT goes to the symbol the PLT entry's GOT entry is
 * relocated against: a shared object's import. */
static void resolve_plt(struct image *img, struct call_dest *d)
{
	uint64_t avail, slot;
	const uint8_t *b = bytes_at_addr(img, d->addr, &avail);
	struct call_dest via = { NULL, false, 0 };

	if (b && img->arch->plt_slot(b, avail, d->addr, &slot))
		resolve_slot(img, slot, &via);
	if (via.symbol)
		d->symbol = via.symbol;
}

/* Where the call at AT goes: its relocation's symbol in an object, else its
 * target address (through the GOT entry for x86_64's `call *slot`), and the
 * symbol the GOT entry of a PLT entry names. */
void resolve_call(struct image *img, struct location at, const struct call *call,
		  struct call_dest *dest)
{
	const struct reloc *r = reloc_at(img, at.sec, at.off + call->reloc_off);

	*dest = (struct call_dest){ NULL, false, 0 };
	if (r) {
		dest->symbol = r->symbol;
	} else if (!call->via_slot) {
		dest->known = true;
		dest->addr = call->target;
		if (in_plt(img, dest->addr))
			resolve_plt(img, dest);
	} else if (!img->relocatable) {
		resolve_slot(img, call->slot, dest);
	}
}

/* A name for a call's destination: the symbol, else the function there
 * (SEC: the call's section, for objects), else the address in hex. */
const char *call_dest_name(struct image *img, size_t sec, const struct call_dest *dest)
{
	struct location loc = { sec, dest->addr };
	const struct func *f = NULL;
	char *hex;

	if (dest->symbol)
		return dest->symbol;
	if (!dest->known)
		return "?";
	if (img->relocatable || find_section_by_addr(img, dest->addr, &loc.sec)) {
		if (!img->relocatable)
			loc.off -= img->secs[loc.sec].sh.sh_addr;
		f = func_at(img, loc);
	}
	if (f)
		return f->name;
	hex = scan_alloc(img, 24, 1);
	snprintf(hex, 24, "0x%llx", (unsigned long long)dest->addr);
	return hex;
}

/* The reader's decoded call as resolve_call takes it. */
static struct call scan_call(const struct pfe_enc_call *c)
{
	if (c->kind == PFE_CALL_INDIRECT_MEM)
		return (struct call){ .reloc_off = c->reloc_off, .via_slot = true, .slot = c->target };
	return (struct call){ .reloc_off = c->reloc_off, .target = c->target };
}

size_t decode_call(const struct image *img, const uint8_t *p, size_t avail, uint64_t pc,
		   struct call *out)
{
	struct pfe_enc_call c;
	size_t len = pfe_layout_decode_call(img->arch, p, avail, pc, &c);

	if (len)
		*out = scan_call(&c);
	return len;
}

/* SITE from the reader's layout L of section SEC: the function, the names
 * pfe-scan prints, where the call goes, and the kind: NOPs if there are
 * any, else a call right at START (after the pad, or an in-body record),
 * else unknown. */
static void site_from_layout(struct image *img, size_t sec, const struct pfe_layout *l,
			     uint64_t start, struct site *site)
{
	struct call call;

	*site = (struct site){ .func = l->found ? l->func.id : NULL, .pre = l->pre, .post = l->post,
		.pre_nops = l->pre_nops, .post_nops = l->post_nops,
		.landing = l->landing, .landing_len = l->landing_len,
		.pad_after_nops = l->pad_after_nops, .at_pad = l->at_pad,
		.kind = KIND_UNKNOWN, .in_body = l->in_body, .cfi_between = l->cfi_between,
		.cfi = { l->hash_found, l->hash, { sec, l->hash_at } } };
	if (!l->found)
		return;
	site->call_at = (struct location){ sec, l->call_at };
	if (l->call_len) {
		call = scan_call(&l->call);
		resolve_call(img, site->call_at, &call, &site->call_dest);
		site->call = call_dest_name(img, sec, &site->call_dest);
		site->call_len = l->call_len;
	}
	if (site->pre || site->post)
		site->kind = KIND_NOPS;
	else if (site->call && site->call_at.off == start) {
		site->kind = KIND_CALL;
		site->call_target = site->call;
	}
}

void describe_site(struct image *img, const struct record *rec, struct site *site)
{
	struct section_code sc;
	struct pfe_layout l;
	uint64_t start;

	*site = (struct site){ .landing = "", .kind = KIND_UNKNOWN };
	if (rec->zero)
		return;
	pfe_layout_record(section_code(img, rec->target.sec, &sc), rec->target.off, &l);
	start = l.in_body ? rec->target.off : l.func.off + l.landing_len;
	site_from_layout(img, rec->target.sec, &l, start, site);
}

void describe_function(struct image *img, const struct func *f, struct site *site)
{
	struct section_code sc;
	struct pfe_layout_func lf;
	struct pfe_layout l;

	layout_func(f, &lf);
	pfe_layout_function(section_code(img, f->sec, &sc), &lf, &l);
	site_from_layout(img, f->sec, &l, f->off + l.landing_len, site);
}

/* The NOP form of F's entry call (fentry-nop, -mnop-mcount): the reader's
 * pfe_layout_find_nop_form, HINT (its record, or NULL) in F's section. */
bool find_nop_call(struct image *img, const struct func *f, const struct location *hint,
		   int want_units, struct location *at, unsigned *units)
{
	struct section_code sc;
	struct pfe_layout_func lf;
	uint64_t off;

	layout_func(f, &lf);
	if (!pfe_layout_find_nop_form(section_code(img, f->sec, &sc), &lf,
				      hint && hint->sec == f->sec ? hint->off : UINT64_MAX,
				      want_units, &off, units))
		return false;
	*at = (struct location){ f->sec, off };
	return true;
}

/* F's kCFI hash ending GAP bytes before its entry. */
bool cfi_hash_before(struct image *img, const struct func *f, uint64_t gap, struct cfi_hash *out)
{
	struct section_code sc;
	struct pfe_layout_func lf;
	uint64_t at = 0;

	layout_func(f, &lf);
	*out = (struct cfi_hash){ .found = false };
	out->found = pfe_layout_hash(section_code(img, f->sec, &sc), &lf, gap, &out->value, &at);
	out->at = (struct location){ f->sec, at };
	return out->found;
}

/* Has F the zero word of a function with no hash before its entry? */
bool cfi_hashless(struct image *img, const struct func *f)
{
	struct section_code sc;
	struct pfe_layout_func lf;

	layout_func(f, &lf);
	return pfe_layout_hashless(section_code(img, f->sec, &sc), &lf);
}

/* Will the slot at OFF of an object's code section SEC be 8-aligned once
 * linked?  Where the linker still aligns code (riscv's R_RISCV_ALIGN, whose
 * padding it trims), the last such padding before OFF must end exactly
 * there and be for 8 bytes or more; elsewhere the offset and the section's
 * alignment tell. */
static bool object_slot_aligned(struct image *img, size_t sec, uint64_t off)
{
	size_t n;
	const struct reloc *r = section_relocs(img, sec, &n);
	unsigned type = img->arch->align_reloc;

	for (size_t i = type ? reloc_index(img, sec, off + 1) : 0; i-- > 0;) {
		uint64_t end = r[i].offset + (uint64_t)r[i].addend, align = 1;

		if (r[i].type != type || end > off)
			continue;
		while (align && align <= (uint64_t)r[i].addend)	/* padding = alignment - min insn */
			align <<= 1;
		return end == off && align >= SLOT_SIZE;
	}
	return off % SLOT_SIZE == 0 && img->secs[sec].sh.sh_addralign >= SLOT_SIZE;
}

/* The first relocation in [OFF, OFF + SLOT_SIZE) of an object's SEC. */
static const struct reloc *reloc_in_slot(struct image *img, size_t sec, uint64_t off)
{
	size_t n;
	const struct reloc *r = section_relocs(img, sec, &n);

	for (size_t i = reloc_index(img, sec, off); i < n && r[i].offset < off + SLOT_SIZE; i++)
		if (r[i].symbol)
			return &r[i];
	return NULL;
}

void describe_slot(struct image *img, const struct func *f, uint64_t gap, struct ops_slot *slot)
{
	struct section_code sc;
	struct pfe_layout_func lf;
	struct pfe_layout_slot ls;
	const uint8_t *b;
	const struct reloc *r;
	uint64_t off;

	layout_func(f, &lf);
	pfe_layout_slot(section_code(img, f->sec, &sc), &lf, gap, &ls);
	*slot = (struct ops_slot){ 0 };
	if (!ls.room)
		return;
	b = sc.code.bytes;
	off = ls.off;
	slot->room = true;
	slot->addr = location_addr(img, (struct location){ f->sec, off });
	slot->value = ls.value;
	slot->nops = ls.nops;
	if (!img->relocatable) {
		slot->aligned = slot->addr % SLOT_SIZE == 0;
		return;
	}
	slot->aligned = object_slot_aligned(img, f->sec, off);
	slot->reloc = r = reloc_in_slot(img, f->sec, off);
	if (r && r->rela)
		slot->addend = r->addend;
	else if (r && r->offset + img->ptr_size <= f->off)	/* REL: in place */
		slot->addend = (int64_t)load_le(b + r->offset, img->ptr_size);
}

/* F's slot wherever it is: right before the entry, or, where that is not
 * 8-aligned and a word hash (or the zero word of none) is right before
 * the entry, before that word (slot, hash, entry), if that one is. */
void find_slot(struct image *img, const struct func *f, struct ops_slot *slot)
{
	unsigned gap = pfe_layout_slot_hash_gap(img->arch);
	struct ops_slot after_hash;
	struct cfi_hash h;

	describe_slot(img, f, 0, slot);
	if (slot->aligned || !gap || !(cfi_hash_before(img, f, 0, &h) || cfi_hashless(img, f)))
		return;
	describe_slot(img, f, gap, &after_hash);
	if (after_hash.aligned)
		*slot = after_hash;
}

/* What the slot holds as text: SYM[+-0xADDEND] (a relocation), else its
 * value in hex. */
const char *slot_text(struct image *img, const struct ops_slot *slot)
{
	size_t len = 40 + (slot->reloc ? strlen(slot->reloc->symbol) : 0);
	char *s = scan_alloc(img, len, 1);

	if (!slot->reloc)
		snprintf(s, len, "0x%llx", (unsigned long long)slot->value);
	else if (slot->addend)
		snprintf(s, len, "%s%c0x%llx", slot->reloc->symbol, slot->addend < 0 ? '-' : '+',
			 slot->addend < 0 ? -(unsigned long long)slot->addend
					  : (unsigned long long)slot->addend);
	else
		snprintf(s, len, "%s", slot->reloc->symbol);
	return s;
}

bool points_into_function(struct image *img, const struct record *rec)
{
	struct section_code sc;

	if (rec->zero)
		return false;
	return pfe_layout_leads_to_entry(section_code(img, rec->target.sec, &sc), rec->target.off) ||
	       func_containing(img, rec->target);
}

const char *kind_name(enum site_kind kind)
{
	static const char *const names[] = { "nops", "call", "unknown" };

	return names[kind];
}
