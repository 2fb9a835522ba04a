/* pfe-scan-verify.c: `pfe-scan verify`: check a file against the layout
 * it should have: M,N entry NOPs (--entry), the entry call after them and
 * its call-site records (--fentry), the 8-byte ops slot before each entry
 * (--ops-slot), the kCFI type hash before it (--cfi).
 *
 * One way through: the records (pfe-scan-elf.c), then what sits at each
 * (pfe-scan-site.c, on arch-hooks/layout.c's reader), then the checks
 * here, which read nothing of the file themselves but symbols' addresses.
 * Each problem is printed as FUNCTION+0xOFFSET: WHAT.
 * Debug: `pfe-scan list --json --ops-slot --cfi FILE` shows every field
 * verify compares; `--section=__mcount_loc` lists the call-site records.
 */
#include "pfe-scan.h"

#include <stdarg.h>
#include <string.h>

#define SLOT_SIZE PFE_SLOT_SIZE

/* What verify knows of each function (indexed like img->funcs). */
struct verify_state {
	bool *has_record;        /* an entry record (--section) */
	uint64_t *entry_pre;     /* the NOP bytes before the entry it says */
	bool *has_call_record;   /* a call-site record (--call-section) */
	struct location *call_record; /* where that points */
	bool sym_known;          /* linked: the fentry symbol's address */
	uint64_t sym_addr;
	bool ops_sym_known;      /* linked: the ops slot symbol's address */
	uint64_t ops_sym_addr;
};

/* Print one verify problem as NAME+0xOFFSET: WHAT; returns 1 to count it. */
__attribute__((format(printf, 4, 5)))
static unsigned problem(FILE *out, const char *name, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "%s+0x%llx: ", name, (unsigned long long)off);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	putc('\n', out);
	return 1;
}

/* A record (WHAT: "record" or "call record") that leads to no function
 * entry, or to no entry call. */
static unsigned report_stray(struct image *img, const struct record *rec, const char *what,
			     const char *where, FILE *out)
{
	const struct func *f = func_containing(img, rec->target);

	unsigned long long addr = location_addr(img, rec->target);

	if (f)
		return problem(out, f->name, rec->target.off - f->off,
			       "%s (0x%llx) does not point at %s", what, addr, where);
	return problem(out, img->secs[rec->target.sec].name, rec->target.off,
		       "%s (0x%llx) points into no function", what, addr);
}

/* GCC 13+ links each record section to its function's section and puts it
 * in the function's COMDAT group; GCC 11/12 link all to the first function
 * (PR 99889), which --gc-sections turns into lost records.  pfe's call-site
 * records are placed the same way.  WHAT: "record" or "call record". */
static unsigned check_placement(struct image *img, const struct record *rec,
				const struct func *f, const char *what, FILE *out)
{
	const struct section *rs = &img->secs[rec->rec_sec], *text = &img->secs[f->sec];
	const char *linked = linked_section(img, rec->rec_sec);
	unsigned p = 0;

	if (!img->relocatable)
		return 0;
	if (*linked && rs->sh.sh_link != f->sec)
		p += problem(out, f->name, 0, "%s section is linked to %s, not to %s", what,
			     linked, text->name);
	if (strcmp(rs->group, text->group))
		p += problem(out, f->name, 0, "%s is in COMDAT group \"%s\", function in \"%s\"",
			     what, rs->group, text->group);
	return p;
}

/* The NOP form of F's entry call: where its call record says, else after
 * the M-N entry NOPs (--entry).  *UNITS: the NOP units before it. */
static bool locate_nop_call(struct image *img, const struct verify_opts *opts,
			    const struct verify_state *st, const struct func *f,
			    struct location *at, unsigned *units)
{
	size_t i = f - img->funcs;

	return find_nop_call(img, f, st->has_call_record[i] ? &st->call_record[i] : NULL,
			     opts->have_entry ? (int)(opts->m - opts->n) : -1, at, units);
}

static unsigned check_record(struct image *img, const struct verify_opts *opts,
			     struct verify_state *st, const struct record *rec, FILE *out)
{
	struct site site;
	const struct func *f;
	struct location at;
	unsigned p = 0, post;

	describe_site(img, rec, &site);
	if (!(f = site.func) || site.in_body)
		return report_stray(img, rec, "record", "a function entry", out);
	if (!opts->m)
		return problem(out, f->name, 0, "has a record, expected none");
	if (st->has_record[f - img->funcs])
		p += problem(out, f->name, 0, "more than one record");
	st->has_record[f - img->funcs] = true;
	st->entry_pre[f - img->funcs] = site.pre;
	if (site.pre_nops != opts->n)
		p += problem(out, f->name, 0, "%u NOPs before the entry, expected %u",
			     site.pre_nops, opts->n);
	if (site.at_pad)
		p += problem(out, f->name, 0, "record points at the landing pad %s, not at a NOP",
			     site.landing);
	if (site.pad_after_nops)
		p += problem(out, f->name, 0, "NOPs before the landing pad %s", site.pad_after_nops);
	/* With fentry-nop the call's NOP form follows the M-N NOPs. */
	if (!opts->fentry_nop || !locate_nop_call(img, opts, st, f, &at, &post))
		post = site.post_nops;
	if (post != opts->m - opts->n)
		p += problem(out, f->name, site.landing_len, "%u NOPs after the entry, expected %u",
			     post, opts->m - opts->n);
	return p + check_placement(img, rec, f, "record", out);
}

/* Entry records (--section, --record): each leads to a function entry
 * with N NOPs before it and M-N after its landing pad, one per function.
 * QUIET: only note which functions have one and their NOPs (for
 * --ops-slot). */
static unsigned check_entry_records(struct image *img, const struct verify_opts *opts,
				    struct verify_state *st, bool quiet, FILE *out)
{
	struct record *recs;
	size_t nrs, n = named_records(img, &opts->entries, &recs, &nrs);
	unsigned p = 0;

	if (!nrs && opts->m && !quiet)
		p += problem(out, img->path, 0, "no %s section", opts->entries.section);
	for (size_t r = 0; r < n; r++) {
		struct site site;

		if (!quiet) {
			p += check_record(img, opts, st, &recs[r], out);
			continue;
		}
		describe_site(img, &recs[r], &site);
		if (site.func && !site.in_body) {
			st->has_record[site.func - img->funcs] = true;
			st->entry_pre[site.func - img->funcs] = site.pre;
		}
	}
	return p;
}

/* The function a call-site record's target lies in (an entry call is in
 * its function), or NULL. */
static const struct func *call_record_function(struct image *img, const struct record *rec)
{
	const struct func *f = func_containing(img, rec->target);

	if (!f && (f = func_before(img, rec->target)) && f->size)
		f = NULL;	/* past the end of a sized function */
	return canonical_func(img, f);
}

/* Call-site records (--call-section): which function each is for, one per
 * function, placed like the entry records.  Whether it points at the call
 * is check_fentry's.  They are addresses whatever format the entry
 * records have (the plugin's record=rel32 changes those only). */
static unsigned check_call_records(struct image *img, const struct verify_opts *opts,
				   struct verify_state *st, FILE *out)
{
	const struct record_spec calls = { opts->call_section, RECORD_ABS };
	struct record *recs;
	size_t nrs, n = named_records(img, &calls, &recs, &nrs);
	unsigned p = 0;

	if (!nrs)
		p += problem(out, img->path, 0, "no %s section", opts->call_section);
	for (size_t r = 0; r < n; r++) {
		const struct func *f = call_record_function(img, &recs[r]);

		if (!f) {
			p += report_stray(img, &recs[r], "call record", "an entry call", out);
			continue;
		}
		if (st->has_call_record[f - img->funcs])
			p += problem(out, f->name, 0, "more than one record in %s", opts->call_section);
		st->has_call_record[f - img->funcs] = true;
		st->call_record[f - img->funcs] = recs[r].target;
		p += check_placement(img, &recs[r], f, "call record", out);
	}
	return p;
}

/* Does the call SITE describes go to SYM?  Objects: by the relocation's
 * symbol (or the local function it reaches); linked files: by address. */
static bool calls_symbol(struct image *img, const struct verify_state *st,
			 const struct site *site, const char *sym)
{
	const struct call_dest *d = &site->call_dest;

	if (d->symbol && !strcmp(d->symbol, sym))
		return true;
	if (!img->relocatable && st->sym_known)
		return d->known && d->addr == st->sym_addr;
	return !d->symbol && !strcmp(site->call, sym);
}

/* The entry call of F (or its NOP form) right after the landing pad and
 * the post NOPs (and x86's pushes), and the call-site record of it. */
static unsigned check_fentry(struct image *img, const struct verify_opts *opts,
			     const struct verify_state *st, const struct func *f, FILE *out)
{
	size_t i = f - img->funcs;
	struct site site;
	struct location at;
	unsigned units, p = 0;

	describe_function(img, f, &site);
	if (opts->fentry_nop) {
		if (!locate_nop_call(img, opts, st, f, &at, &units))
			return problem(out, f->name, site.landing_len + site.post,
				       "no %u-byte NOP form of the entry call after the entry NOPs",
				       img->arch->fentry_nop->len);
	} else if (!site.call) {
		return problem(out, f->name, site.landing_len + site.post,
			       "no call to %s after the entry NOPs", opts->fentry_sym);
	} else {
		at = site.call_at;
		if (!calls_symbol(img, st, &site, opts->fentry_sym))
			p += problem(out, f->name, at.off - f->off,
				     "the entry call goes to %s, expected %s", site.call,
				     opts->fentry_sym);
		/* Shorter than its NOP form (a linker relaxed riscv's auipc+jalr
		 * to a jal, an aarch64 bl lost its mov x9, x30): the patcher's
		 * sequences do not fit it. */
		if (site.call_len < img->arch->fentry_nop->len)
			p += problem(out, f->name, at.off - f->off,
				     "the entry call is %llu bytes, its patchable form %u",
				     (unsigned long long)site.call_len,
				     (unsigned)img->arch->fentry_nop->len);
	}
	if (!st->has_call_record[i])
		p += problem(out, f->name, at.off - f->off, "no record of the entry call in %s",
			     opts->call_section);
	else if (st->call_record[i].sec != at.sec || st->call_record[i].off != at.off)
		p += problem(out, f->name, st->call_record[i].off - f->off,
			     "%s record points here, the entry call is at +0x%llx",
			     opts->call_section, (unsigned long long)(at.off - f->off));
	return p;
}

/* Does SLOT hold SYM's address: in an object, an absolute relocation at
 * its start naming SYM with no addend (i386: its upper word 0); in a
 * linked file, SYM's address. */
static bool slot_holds_symbol(struct image *img, const struct verify_state *st,
			      const struct ops_slot *slot, const char *sym)
{
	const struct reloc *r = slot->reloc;

	if (!img->relocatable)
		return st->ops_sym_known && slot->value == st->ops_sym_addr;
	return r && r->offset == slot->addr && r->type == img->arch->abs_reloc &&
	       !strcmp(r->symbol, sym) && !slot->addend &&
	       (img->ptr_size == SLOT_SIZE || slot->value >> 32 == 0);
}

/* Where the ops slot ends before the entry: right there, or, with --cfi=fixed
 * on a target whose hash is a word, before that word (slot, hash, entry: the
 * plugin's ops-slot with cfi=kcfi). */
static uint64_t slot_gap(const struct image *img, const struct verify_opts *opts)
{
	return opts->cfi == CFI_FIXED ? pfe_layout_slot_hash_gap(img->arch) : 0;
}

/* The 8 bytes before F's entry (or its hash: slot_gap): 8-aligned, holding
 * SYM (--ops-slot=SYM), or 0 or the patch area's 8 bytes of pre-entry NOPs
 * (--ops-slot). */
static unsigned check_slot(struct image *img, const struct verify_opts *opts,
			   const struct verify_state *st, const struct func *f, FILE *out)
{
	struct ops_slot slot;
	const char *held;

	describe_slot(img, f, slot_gap(img, opts), &slot);
	if (!slot.room)
		return problem(out, f->name, 0, "no room for the ops slot before the entry");
	if (!slot.aligned)
		return problem(out, f->name, 0, "the ops slot (0x%llx) is not 8-aligned",
			       (unsigned long long)slot.addr);
	held = slot.nops ? "NOPs" : slot_text(img, &slot);
	if (opts->ops_sym) {
		if (slot_holds_symbol(img, st, &slot, opts->ops_sym))
			return 0;
		return problem(out, f->name, 0, "the ops slot holds %s, expected %s", held,
			       opts->ops_sym);
	}
	if (slot.nops && st->entry_pre[f - img->funcs] == SLOT_SIZE)
		return 0;
	if (!slot.reloc && slot.value == 0)
		return 0;
	if (slot.nops)
		return problem(out, f->name, 0, "the ops slot holds NOPs, but the patch area has "
			       "%llu NOP bytes before the entry, not 8",
			       (unsigned long long)st->entry_pre[f - img->funcs]);
	return problem(out, f->name, 0, "the ops slot holds %s, expected 0 or the 8 bytes of "
		       "pre-entry NOPs", held);
}

/* GCC's hot/cold splitting makes FOO.cold (FOO.cold.N before GCC 9)
 * STT_FUNC symbols for parts of FOO: no entry, so no record. */
static bool is_cold_part(const char *name)
{
	const char *cold = strstr(name, ".cold");

	return cold && (cold[5] == '\0' || cold[5] == '.');
}

static bool excluded(const struct verify_opts *opts, const char *name)
{
	/* kCFI's __cfi_FOO (x86_64) is FOO's preamble, before its patch area. */
	if (is_cold_part(name) || pfe_layout_is_cfi_preamble(name))
		return true;
	for (size_t i = 0; i < opts->nexclude; i++)
		if (!strcmp(opts->exclude[i], name))
			return true;
	return false;
}

/* What --all asks a record of: every function with code. */
static bool wants_record(const struct image *img, const struct verify_opts *opts,
			 const struct func *f)
{
	return f->size && is_code(img, f->sec) && !excluded(opts, f->name);
}

/* --all: every function with code must have a record (an alias shares
 * the record of the symbol func_at names for its address). */
static unsigned check_all_recorded(struct image *img, const struct verify_opts *opts,
				   const bool *has_record, FILE *out)
{
	unsigned p = 0;

	for (size_t i = 0; i < img->nfuncs; i++) {
		const struct func *f = &img->funcs[i];

		if (wants_record(img, opts, f) && !has_record[canonical_func(img, f) - img->funcs])
			p += problem(out, f->name, 0, "no record");
	}
	return p;
}

/* --fentry, --ops-slot: each function checked (one with a record, or any
 * with code under --all) has its entry call and record, its slot; with
 * --entry=M,N (M > 0) it has an entry record too. */
static unsigned check_functions(struct image *img, const struct verify_opts *opts,
				const struct verify_state *st, FILE *out)
{
	bool want_entry = opts->have_entry && opts->m;
	unsigned p = 0;

	for (size_t i = 0; i < img->nfuncs; i++) {
		const struct func *f = &img->funcs[i];
		bool all = opts->all && wants_record(img, opts, f);

		if (canonical_func(img, f) != f ||
		    !((want_entry && st->has_record[i]) || st->has_call_record[i] || all))
			continue;
		if (want_entry && !st->has_record[i] && !opts->all)	/* --all says it */
			p += problem(out, f->name, 0, "no record");
		if (opts->fentry)
			p += check_fentry(img, opts, st, f, out);
		if (opts->ops_slot)
			p += check_slot(img, opts, st, f, out);
	}
	return p;
}

/* Is F one verify --cfi checks: a function with a __cfi_ preamble symbol
 * (x86_64) or an entry record (aarch64, riscv: their hash has no symbol),
 * or with --all any function with code? */
static bool wants_cfi(struct image *img, const struct verify_opts *opts,
		      const struct verify_state *st, const struct func *f)
{
	if (canonical_func(img, f) != f || excluded(opts, f->name))
		return false;
	if (opts->all && wants_record(img, opts, f))
		return true;
	if (img->arch->kcfi_opcode_len)
		return has_cfi_preamble(img, f);
	return st->has_record[f - img->funcs];
}

/* F's kCFI hash where --cfi's layout puts it (GAP: the bytes between it
 * and the entry, the N pre-entry NOP bytes its entry record counts in the
 * clang layout, none in the fixed one); where the other layout would put
 * it, if it is there instead; and equal to __kcfi_typeid_F if the file has
 * that symbol (x86_64: masked as Clang does). */
static unsigned check_cfi(struct image *img, const struct verify_opts *opts,
			  const struct verify_state *st, const struct func *f, FILE *out)
{
	uint64_t pre = st->has_record[f - img->funcs] ? st->entry_pre[f - img->funcs] : 0;
	bool fixed = opts->cfi == CFI_FIXED;
	uint64_t gap = fixed ? 0 : pre, other = fixed ? pre : 0;
	struct cfi_hash h;
	uint32_t typeid;

	if (!cfi_hash_before(img, f, gap, &h)) {
		/* A local function whose address is not taken: none, as Clang,
		 * but with the ops slot its zero word keeps the slot in place. */
		if (fixed && f->local && cfi_hashless(img, f))
			return 0;
		if (other != gap && cfi_hash_before(img, f, other, &h))
			return problem(out, f->name, 0, "kCFI hash 0x%08lx %llu bytes before the "
				       "entry, where the %s layout puts it; the %s layout wants it "
				       "%llu bytes before", (unsigned long)h.value,
				       (unsigned long long)(other + 4),
				       cfi_layout_name(fixed ? CFI_CLANG : CFI_FIXED),
				       cfi_layout_name(opts->cfi), (unsigned long long)(gap + 4));
		return problem(out, f->name, 0, "no kCFI hash %llu bytes before the entry (%s layout)",
			       (unsigned long long)(gap + 4), cfi_layout_name(opts->cfi));
	}
	if (kcfi_typeid(img, f->name, &typeid) && h.value != kcfi_masked(img, typeid))
		return problem(out, f->name, 0, "kCFI hash 0x%08lx, but __kcfi_typeid_%s is 0x%08lx",
			       (unsigned long)h.value, f->name, (unsigned long)typeid);
	return 0;
}

/* --cfi: each function wants_cfi() names has its hash; a file where it
 * names none is a problem too (no kCFI at all, or nothing to find it by). */
static unsigned check_cfi_functions(struct image *img, const struct verify_opts *opts,
				    const struct verify_state *st, FILE *out)
{
	unsigned p = 0;
	size_t checked = 0;

	for (size_t i = 0; i < img->nfuncs; i++) {
		if (!wants_cfi(img, opts, st, &img->funcs[i]))
			continue;
		checked++;
		p += check_cfi(img, opts, st, &img->funcs[i], out);
	}
	if (!checked)
		p += problem(out, img->path, 0, "no function to check for a kCFI hash (%s; --all "
			     "checks every function)", img->arch->kcfi_opcode_len ?
			     "no __cfi_ preamble symbol" : "no entry record");
	return p;
}

/* In a linked file the symbols are compared by address, when defined
 * there (a shared object may only import the fentry symbol). */
static void find_symbol(struct image *img, const char *sym, bool *known, uint64_t *addr)
{
	if (sym && !img->relocatable)
		*known = find_symbol_addr(img, sym, addr);
}

unsigned verify_image(struct image *img, const struct verify_opts *opts, FILE *out)
{
	struct verify_state st = {
		.has_record = scan_alloc(img, img->nfuncs, sizeof *st.has_record),
		.entry_pre = scan_alloc(img, img->nfuncs, sizeof *st.entry_pre),
		.has_call_record = scan_alloc(img, img->nfuncs, sizeof *st.has_call_record),
		.call_record = scan_alloc(img, img->nfuncs, sizeof *st.call_record),
	};
	unsigned p = 0;

	/* Before any other check prints a problem: this is bad usage. */
	if (opts->cfi && !img->arch->kcfi)
		scan_fail(img, "no kCFI on this target (machine %u): Clang has none on i386",
			  img->arch->e_machine);
	if (opts->fentry && !opts->fentry_nop)
		find_symbol(img, opts->fentry_sym, &st.sym_known, &st.sym_addr);
	if (opts->ops_slot)
		find_symbol(img, opts->ops_sym, &st.ops_sym_known, &st.ops_sym_addr);
	if (opts->fentry)
		p += check_call_records(img, opts, &st, out);
	if (opts->have_entry || opts->ops_slot || opts->cfi)
		p += check_entry_records(img, opts, &st, !opts->have_entry, out);
	if (opts->all && opts->have_entry && opts->m)
		p += check_all_recorded(img, opts, st.has_record, out);
	if (opts->fentry || opts->ops_slot)
		p += check_functions(img, opts, &st, out);
	if (opts->cfi)
		p += check_cfi_functions(img, opts, &st, out);
	return p;
}
