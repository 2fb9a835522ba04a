/* pfe-scan-site.c: say what sits at a record's target, and around a
 * function's entry.
 *
 * A record points at the first NOP of a patch area: N NOPs before the
 * function's label ("pre"), then the function's landing pad if it has one
 * (endbr64/endbr32, bti c), then M-N NOPs ("post").  The function is the
 * first STT_FUNC symbol at or after the target such that only NOPs lie
 * between (alignment padding sits before the target, not after it); but
 * with N = 0 and a landing pad GCC points the record past the pad, so a
 * target where a function's pad ends means that function, with pre = 0.
 *
 * A call-site record (__mcount_loc: x86's -mrecord-mcount, pfe's fentry)
 * points at the call that follows the pad and the post NOPs (and, on x86,
 * the pushes that save the static chain around it), or at its NOP form:
 * such a record past the entry NOPs is "in_body", and its "post" counts the
 * NOPs from the record on.  Whatever the record, the call after the NOPs is
 * described too (site.call), and describe_slot() reads the 8 bytes before
 * the entry (the ops slot).
 *
 * Debug: `pfe-scan list --json [--ops-slot] FILE` prints every field
 * computed here; compare with `objdump -dr` at the same address.
 */
#include "pfe-scan.h"

#include <stdio.h>
#include <string.h>

#define SLOT_SIZE 8
/* At most this many pushes between the NOPs and the call: the struct value
 * and the static chain registers (final's profile_function). */
#define MAX_PUSHES 2

/* Count the NOPs from OFF up to LIMIT in section SEC: *BYTES bytes, *UNITS units. */
static void count_nops(struct image *img, size_t sec, uint64_t off, uint64_t limit,
		       uint64_t *bytes, unsigned *units)
{
	uint64_t size;
	const uint8_t *b = section_bytes(img, sec, &size);
	unsigned u;
	size_t len;

	if (limit > size)
		limit = size;
	*bytes = 0;
	*units = 0;
	while (off < limit && (len = arch_nop(img->arch, b + off, limit - off, &u))) {
		off += len;
		*bytes += len;
		*units += u;
	}
}

/* Length of the landing pad at OFF in SEC (0 if none), and its name. */
static uint64_t landing_pad_at(struct image *img, size_t sec, uint64_t off, const char **name)
{
	uint64_t size;
	const uint8_t *b = section_bytes(img, sec, &size);

	return off < size ? arch_landing_pad(img->arch, b + off, size - off, name) : 0;
}

/* Bytes of the register pushes (at most MAX_PUSHES) at OFF in SEC, up to LIMIT. */
static uint64_t pushes_at(struct image *img, size_t sec, uint64_t off, uint64_t limit)
{
	uint64_t size, start = off;
	const uint8_t *b = section_bytes(img, sec, &size);
	size_t len;

	if (!img->arch->push)
		return 0;
	if (limit > size)
		limit = size;
	for (int i = 0; i < MAX_PUSHES && off < limit &&
			(len = img->arch->push(b + off, limit - off)); i++)
		off += len;
	return off - start;
}

/* Of aliases at one address, the one func_at names (records are counted
 * against that one). */
const struct func *canonical_func(const struct image *img, const struct func *f)
{
	return f ? func_at(img, (struct location){ f->sec, f->off }) : NULL;
}

/* With N = 0 and a landing pad, the record points at the first NOP after
 * the pad: the function is the one whose pad ends at LOC. */
static const struct func *function_behind_pad(struct image *img, struct location loc)
{
	const struct func *f = func_before(img, loc);
	const char *name;

	if (f && f->off < loc.off && f->off + landing_pad_at(img, f->sec, f->off, &name) == loc.off)
		return canonical_func(img, f);
	return NULL;
}

/* The function reached from LOC over NOPs only, or NULL; or over NOPs and
 * then the kCFI hash of the `fixed` layout (x86_64: its __cfi_ preamble
 * symbol is no function entry to stop at). */
static const struct func *function_after_nops(struct image *img, struct location loc,
					      struct site *site)
{
	uint64_t size;
	const uint8_t *b = section_bytes(img, loc.sec, &size);
	uint64_t off = loc.off;
	const struct func *f;
	unsigned u;
	size_t len;

	while (!(f = func_at(img, (struct location){ loc.sec, off })) || is_cfi_preamble(f->name)) {
		if ((site->cfi_between = cfi_hash_between(img, (struct location){ loc.sec, off }, &f)))
			break;
		if (off >= size || !(len = arch_nop(img->arch, b + off, size - off, &u)))
			return NULL;
		off += len;
		site->pre_nops += u;
	}
	site->pre = off - loc.off;
	return f;
}

static const struct func *find_function(struct image *img, struct location loc,
					struct site *site)
{
	const struct func *f = function_behind_pad(img, loc);

	return f ? f : function_after_nops(img, loc, site);
}

/* A call-site record: the function whose landing pad, NOPs and pushes lead
 * exactly to LOC, past its entry, or NULL. */
static const struct func *function_before_call_site(struct image *img, struct location loc)
{
	const struct func *f = canonical_func(img, func_before(img, loc));
	const char *name;
	uint64_t off, nops;
	unsigned units;

	if (!f || f->off == loc.off)
		return NULL;
	off = f->off + landing_pad_at(img, f->sec, f->off, &name);
	count_nops(img, f->sec, off, loc.off, &nops, &units);
	off += nops;
	off += pushes_at(img, f->sec, off, loc.off);
	return off == loc.off ? f : NULL;
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

/* The call at OFF of F's section, after at most MAX_PUSHES pushes. */
static void find_call(struct image *img, const struct func *f, uint64_t off, struct site *site)
{
	uint64_t size, end = next_func_off(img, f);
	const uint8_t *b = section_bytes(img, f->sec, &size);
	struct call call;
	size_t len;

	off += pushes_at(img, f->sec, off, end);
	if (end > size)
		end = size;
	if (off >= end)
		return;
	site->call_at = (struct location){ f->sec, off };
	len = arch_call(img->arch, b + off, end - off, location_addr(img, site->call_at), &call);
	if (!len)
		return;
	resolve_call(img, site->call_at, &call, &site->call_dest);
	site->call = call_dest_name(img, f->sec, &site->call_dest);
	site->call_len = len;
}

/* Fill the NOP count from START (after the pad, or an in-body record), the
 * call after those NOPs, and the kind: NOPs if there are any, else a call
 * right at START, else unknown. */
static void describe_area(struct image *img, const struct func *f, uint64_t start,
			  struct site *site)
{
	const char *pad;

	count_nops(img, f->sec, start, next_func_off(img, f), &site->post, &site->post_nops);
	/* GCC 9/10 on x86 put the NOPs before ENDBR, which breaks IBT. */
	if (!site->landing_len && site->post &&
	    landing_pad_at(img, f->sec, start + site->post, &pad))
		site->pad_after_nops = pad;
	find_call(img, f, start + site->post, site);
	if (site->pre || site->post)
		site->kind = KIND_NOPS;
	else if (site->call && site->call_at.off == start) {
		site->kind = KIND_CALL;
		site->call_target = site->call;
	}
}

static void describe_landing(struct image *img, const struct func *f, struct site *site)
{
	site->landing_len = landing_pad_at(img, f->sec, f->off, &site->landing);
	if (!site->landing_len)
		site->landing = "";
}

void describe_site(struct image *img, const struct record *rec, struct site *site)
{
	const struct func *f;

	*site = (struct site){ .landing = "", .kind = KIND_UNKNOWN };
	if (rec->zero)
		return;
	f = find_function(img, rec->target, site);
	if (!f && (f = function_before_call_site(img, rec->target))) {
		site->in_body = true;
		site->pre = site->pre_nops = 0;	/* counted on the way to no entry */
	}
	if (!(site->func = f))
		return;
	describe_landing(img, f, site);
	if (site->in_body) {
		describe_area(img, f, rec->target.off, site);
		return;
	}
	describe_area(img, f, f->off + site->landing_len, site);
	site->at_pad = site->landing_len && rec->target.off == f->off && site->post;
}

void describe_function(struct image *img, const struct func *f, struct site *site)
{
	*site = (struct site){ .func = f, .landing = "", .kind = KIND_UNKNOWN };
	describe_landing(img, f, site);
	describe_area(img, f, f->off + site->landing_len, site);
}

/* Is the NOP form of the entry call at OFF of section SEC? */
static bool nop_call_at(struct image *img, size_t sec, uint64_t off)
{
	const struct pfe_enc_insn *n = img->arch->fentry_nop;
	uint64_t size;
	const uint8_t *b = section_bytes(img, sec, &size);

	return off <= size && size - off >= n->len &&
	       !memcmp(b + off, n->bytes, n->len);
}

/* The NOP form of F's entry call (fentry-nop, -mnop-mcount) among the NOPs
 * after its landing pad, at a NOP boundary, or right after them and x86's
 * pushes: at HINT (its record) if it is there, else after WANT_UNITS
 * entry NOPs (-1: unknown), else the last place it could be (aarch64's
 * and rv64g's entry NOPs look just like it).  *UNITS: the NOPs before it. */
bool find_nop_call(struct image *img, const struct func *f, const struct location *hint,
		   int want_units, struct location *at, unsigned *units)
{
	struct site site;
	uint64_t size, off, end, pushes;
	const uint8_t *b = section_bytes(img, f->sec, &size);
	unsigned u = 0, len_units = 0;
	int best = 0;

	describe_function(img, f, &site);
	off = f->off + site.landing_len;
	end = off + site.post;
	/* Each NOP boundary, then past the pushes that may follow the NOPs
	 * (x86 saves the static chain around the form as around the call). */
	pushes = pushes_at(img, f->sec, end, next_func_off(img, f));
	for (size_t len = 1; len; off += len, u += len_units) {
		bool is_hint = hint && hint->sec == f->sec && hint->off == off;
		int rank = is_hint ? 3 : (int)u == want_units ? 2 : 1;

		if (nop_call_at(img, f->sec, off) && rank >= best) {
			best = rank;
			*at = (struct location){ f->sec, off };
			*units = u;
		}
		if (off < end)
			len = arch_nop(img->arch, b + off, end - off, &len_units);
		else
			len = off == end ? pushes : 0, len_units = 0;
	}
	return best > 0;
}

/* Whether LEN bytes at P are NOPs, exactly. */
static bool all_nops(struct image *img, const uint8_t *p, size_t len)
{
	unsigned u;
	size_t n;

	for (size_t off = 0; off < len; off += n)
		if (!(n = arch_nop(img->arch, p + off, len - off, &u)))
			return false;
	return true;
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

void describe_slot(struct image *img, const struct func *f, struct ops_slot *slot)
{
	uint64_t size, off;
	const uint8_t *b = section_bytes(img, f->sec, &size);
	const struct reloc *r;

	*slot = (struct ops_slot){ 0 };
	if (f->off < SLOT_SIZE || f->off > size)
		return;
	off = f->off - SLOT_SIZE;
	slot->room = true;
	slot->addr = location_addr(img, (struct location){ f->sec, off });
	slot->value = load_le(b + off, SLOT_SIZE);
	slot->nops = all_nops(img, b + off, SLOT_SIZE);
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
	struct site site = { 0 };

	if (rec->zero)
		return false;
	return find_function(img, rec->target, &site) || func_containing(img, rec->target);
}

const char *kind_name(enum site_kind kind)
{
	static const char *const names[] = { "nops", "call", "unknown" };

	return names[kind];
}
