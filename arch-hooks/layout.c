/* arch-hooks/layout.c: the one reader of an entry's layout (layout.h),
 * for pfe-scan and libpfe alike.
 *
 * A record points at the first NOP of a patch area: N NOPs before the
 * function's label ("pre"), then the function's landing pad if it has one,
 * then M-N NOPs ("post").  The function is the first symbol at or after
 * the record such that only NOPs lie between (alignment padding sits
 * before the record, not after it), or NOPs and then the fixed layout's
 * kCFI hash; but with N = 0 and a landing pad GCC points the record past
 * the pad, so a record where a function's pad ends means that function,
 * with pre = 0.  A call-site record (__mcount_loc) points at the call that
 * follows the pad, the post NOPs and x86's pushes, or at its NOP form.
 *
 * The kCFI hash (4 bytes; x86_64: the immediate of `movl $HASH, %eax`
 * in the __cfi_<name> preamble, aarch64 and riscv64: a `.word`) ends
 * 4 + N NOP bytes before the entry in Clang's layout, right at the entry
 * in the fixed one (gcc-plugin/README.md, kCFI).  What counts as a hash:
 * its bytes are not NOPs (aarch64, riscv) or follow the opcode (x86_64),
 * and lie in no other function's code but the __cfi_<name> preamble's.
 *
 * Not a disassembler: the decoders of encodings.c say "is this exactly
 * that instruction".  Debugging: `pfe-scan list --json --ops-slot --cfi`
 * prints what this file reads; compare with `objdump -d` there.
 */
#include "layout.h"

#include <string.h>

/* At most this many pushes between the NOPs and the call: the struct value
 * and the static chain registers (GCC's final.c, profile_function). */
#define MAX_PUSHES 2

/* ---- Per-target facts of the layout --------------------------------
 * Not in encodings.c's tables yet (pfe-scan/pfe-scan-arch.c holds the
 * same for pfe-scan's own use; they belong to each target's plain-C layer
 * of arch-hooks/, where issue 21 item 1 moves them):
 * - i386 counts NOPs with x86_64's decoder: the i386 table adds gas's `lea`
 *   padding forms, never an entry's NOPs (GCC's `nop`s); counting them
 *   would change the pre count of a function after alignment padding;
 * - a call through memory (`call *disp(%rip)`, ff 15) is an entry call on
 *   x86_64 only (i386's `ff 15 abs32` is a call through a global pointer);
 * - aarch64's fentry call starts with `mov x9, x30` (4 bytes);
 * - x86 saves the static chain around the entry call, as -pg does;
 * - kCFI: i386 has none; x86_64's hash follows `movl` (b8). */
struct layout_target {
	enum pfe_arch_id nops_id;
	bool calls_via_memory;
	unsigned call_lead;
	size_t (*push)(const uint8_t *p, size_t avail);
	bool kcfi;
	uint8_t kcfi_opcode;
	unsigned kcfi_opcode_len;
};

/* push %reg (50+r); on x86_64 also push %r8..%r15 (41 50+r). */
static size_t x86_push(const uint8_t *p, size_t avail)
{
	return avail >= 1 && (p[0] & 0xf8) == 0x50 ? 1 : 0;
}

static size_t x86_64_push(const uint8_t *p, size_t avail)
{
	if (avail >= 2 && p[0] == 0x41 && (p[1] & 0xf8) == 0x50)
		return 2;
	return x86_push(p, avail);
}

static const struct layout_target targets[PFE_ARCH_COUNT] = {
	[PFE_ARCH_X86_64] = { .nops_id = PFE_ARCH_X86_64, .calls_via_memory = true,
			      .push = x86_64_push, .kcfi = true, .kcfi_opcode = 0xb8,
			      .kcfi_opcode_len = 1 },
	[PFE_ARCH_I386] = { .nops_id = PFE_ARCH_X86_64, .push = x86_push },
	[PFE_ARCH_AARCH64] = { .nops_id = PFE_ARCH_AARCH64, .call_lead = 4, .kcfi = true },
	[PFE_ARCH_RISCV64] = { .nops_id = PFE_ARCH_RISCV64, .kcfi = true },
};
/* ---- end of the per-target facts ---- */

static const struct layout_target *target(const struct pfe_layout_code *c)
{
	return &targets[c->arch->id];
}

static uint64_t clip(const struct pfe_layout_code *c, uint64_t limit)
{
	return limit < c->size ? limit : c->size;
}

size_t pfe_layout_nop(const struct pfe_layout_code *c, uint64_t off, uint64_t limit, unsigned *units)
{
	limit = clip(c, limit);
	if (off >= limit)
		return 0;
	return pfe_arch_get(target(c)->nops_id)->nop(c->bytes + off, limit - off, units);
}

uint64_t pfe_layout_pad(const struct pfe_layout_code *c, uint64_t off, const char **name)
{
	return off < c->size ? c->arch->landing_pad(c->bytes + off, c->size - off, name) : 0;
}

/* The call at OFF: encodings.c's decoder, with the fentry call's leading
 * instructions taken as part of it, since that is where the call-site
 * record points. */
size_t pfe_layout_call(const struct pfe_layout_code *c, uint64_t off, uint64_t limit,
		       struct pfe_enc_call *out)
{
	const struct layout_target *t = target(c);
	const uint8_t *p;
	size_t skip = 0, len, avail;

	limit = clip(c, limit);
	if (off >= limit)
		return 0;
	p = c->bytes + off;
	avail = limit - off;
	if (t->call_lead && avail >= t->call_lead && !memcmp(p, c->arch->fentry_call->bytes, t->call_lead))
		skip = t->call_lead;
	len = c->arch->call(p + skip, avail - skip, c->addr + off + skip, out);
	if (!len && skip) {	/* the lead without its call: try from P itself */
		skip = 0;
		len = c->arch->call(p, avail, c->addr + off, out);
	}
	if (!len || (out->kind == PFE_CALL_INDIRECT_MEM && !t->calls_via_memory))
		return 0;
	out->reloc_off += skip;
	return skip + len;
}

/* Is the fentry call's NOP form at OFF? */
static bool nop_form_at(const struct pfe_layout_code *c, uint64_t off)
{
	const struct pfe_enc_insn *n = c->arch->fentry_nop;

	return off <= c->size && c->size - off >= n->len && !memcmp(c->bytes + off, n->bytes, n->len);
}

enum pfe_fentry_form pfe_layout_fentry_at(const struct pfe_layout_code *c, uint64_t off,
					  uint64_t *len)
{
	struct pfe_enc_call call;

	if (nop_form_at(c, off)) {
		*len = c->arch->fentry_nop->len;
		return PFE_FENTRY_NOP;
	}
	*len = pfe_layout_call(c, off, c->size, &call);
	return *len ? PFE_FENTRY_CALL : PFE_FENTRY_NONE;
}

/* Count the NOPs from OFF up to LIMIT: *BYTES bytes, *UNITS units. */
static void count_nops(const struct pfe_layout_code *c, uint64_t off, uint64_t limit,
		       uint64_t *bytes, unsigned *units)
{
	unsigned u;
	size_t len;

	*bytes = 0;
	*units = 0;
	for (; (len = pfe_layout_nop(c, off, limit, &u)); off += len) {
		*bytes += len;
		*units += u;
	}
}

/* Are the LEN bytes at OFF all NOPs (riscv: `nop` or two `c.nop`)? */
static bool all_nops(const struct pfe_layout_code *c, uint64_t off, uint64_t len)
{
	unsigned u;
	size_t n;

	for (uint64_t end = off + len; off < end; off += n)
		if (!(n = pfe_layout_nop(c, off, end, &u)))
			return false;
	return true;
}

/* Bytes of the register pushes (at most MAX_PUSHES) at OFF, up to LIMIT. */
static uint64_t pushes_at(const struct pfe_layout_code *c, uint64_t off, uint64_t limit)
{
	size_t (*push)(const uint8_t *, size_t) = target(c)->push;
	uint64_t start = off;
	size_t len;

	limit = clip(c, limit);
	for (int i = 0; push && i < MAX_PUSHES && off < limit &&
			(len = push(c->bytes + off, limit - off)); i++)
		off += len;
	return off - start;
}

bool pfe_layout_is_cfi_preamble(const char *name)
{
	return name && !strncmp(name, PFE_CFI_PREFIX, sizeof PFE_CFI_PREFIX - 1);
}

/* Is OWNER, a function whose code covers a hash, F's own preamble? */
static bool is_preamble_of(const struct pfe_layout_func *owner, const struct pfe_layout_func *f)
{
	return pfe_layout_is_cfi_preamble(owner->name) && f->name &&
	       !strcmp(owner->name + sizeof PFE_CFI_PREFIX - 1, f->name);
}

/* Does F's kCFI hash have its 4 bytes at OFF?  See the top of the file
 * for what counts. */
static bool hash_at(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
		    uint64_t off, uint32_t *value)
{
	const struct layout_target *t = target(c);
	struct pfe_layout_func owner;
	uint64_t start;

	if (!t->kcfi || off < t->kcfi_opcode_len || off > c->size ||
	    c->size - off < PFE_CFI_HASH_SIZE || off % c->arch->insn_align)
		return false;
	start = off - t->kcfi_opcode_len;
	if (t->kcfi_opcode_len ? c->bytes[start] != t->kcfi_opcode
			       : all_nops(c, off, PFE_CFI_HASH_SIZE))
		return false;
	if (c->containing(c->ctx, start, &owner) && !is_preamble_of(&owner, f))
		return false;
	*value = (uint32_t)pfe_enc_load(c->bytes + off, PFE_CFI_HASH_SIZE);
	return true;
}

bool pfe_layout_hash(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
		     uint64_t gap, uint32_t *value, uint64_t *at)
{
	if (f->off < gap + PFE_CFI_HASH_SIZE)
		return false;
	*at = f->off - gap - PFE_CFI_HASH_SIZE;
	return hash_at(c, f, *at, value);
}

/* The fixed layout puts the hash between the N NOPs and the entry: if a
 * hash sits at OFF (where the NOPs stopped) right before a function's
 * entry, that function in *F and the hash's bytes (x86_64 with its
 * opcode), else 0. */
static uint64_t hash_between(const struct pfe_layout_code *c, uint64_t off,
			     struct pfe_layout_func *f)
{
	const struct layout_target *t = target(c);
	uint64_t len = t->kcfi_opcode_len + PFE_CFI_HASH_SIZE;
	struct pfe_layout_func next;
	uint32_t value;

	if (!t->kcfi || !c->at(c->ctx, off + len, &next) || pfe_layout_is_cfi_preamble(next.name) ||
	    !hash_at(c, &next, off + t->kcfi_opcode_len, &value))
		return 0;
	*f = next;
	return len;
}

/* With N = 0 and a landing pad, the record points at the first NOP after
 * the pad: the function is the one whose pad ends at OFF. */
static bool function_behind_pad(const struct pfe_layout_code *c, uint64_t off,
				struct pfe_layout_func *f)
{
	const char *name;

	return c->before(c->ctx, off, f) && f->off < off && f->off + pfe_layout_pad(c, f->off, &name) == off;
}

/* The function reached from OFF over NOPs only; or over NOPs and then the
 * fixed layout's hash (x86_64: its __cfi_ preamble symbol is no function
 * entry to stop at). */
static bool function_after_nops(const struct pfe_layout_code *c, uint64_t off, struct pfe_layout *l)
{
	uint64_t start = off;
	unsigned u;
	size_t len;

	while (!c->at(c->ctx, off, &l->func) || pfe_layout_is_cfi_preamble(l->func.name)) {
		if ((l->cfi_between = hash_between(c, off, &l->func)))
			break;
		if (!(len = pfe_layout_nop(c, off, c->size, &u)))
			return false;
		off += len;
		l->pre_nops += u;
	}
	l->pre = off - start;
	return true;
}

/* A call-site record: the function whose landing pad, NOPs and pushes lead
 * exactly to OFF, past its entry. */
static bool function_before_call_site(const struct pfe_layout_code *c, uint64_t off,
				      struct pfe_layout_func *f)
{
	const char *name;
	uint64_t at, nops;
	unsigned units;

	if (!c->before(c->ctx, off, f) || f->off == off)
		return false;
	at = f->off + pfe_layout_pad(c, f->off, &name);
	count_nops(c, at, off, &nops, &units);
	at += nops;
	at += pushes_at(c, at, off);
	return at == off;
}

/* The NOPs from START (after the pad, or an in-body record) up to the next
 * function, the call after them and x86's pushes. */
static void describe_area(const struct pfe_layout_code *c, uint64_t start, struct pfe_layout *l)
{
	uint64_t end = c->next(c->ctx, &l->func);
	const char *pad;

	count_nops(c, start, end, &l->post, &l->post_nops);
	/* GCC 9/10 on x86 put the NOPs before ENDBR, which breaks IBT. */
	if (!l->landing_len && l->post && pfe_layout_pad(c, start + l->post, &pad))
		l->pad_after_nops = pad;
	l->call_at = start + l->post;
	l->call_at += pushes_at(c, l->call_at, end);
	l->call_len = pfe_layout_call(c, l->call_at, end, &l->call);
}

static void describe_entry(const struct pfe_layout_code *c, struct pfe_layout *l)
{
	l->landing_len = pfe_layout_pad(c, l->func.off, &l->landing);
	if (!l->landing_len)
		l->landing = "";
	l->hash_found = pfe_layout_hash(c, &l->func, l->cfi_between ? 0 : l->pre, &l->hash,
					&l->hash_at);
}

void pfe_layout_record(const struct pfe_layout_code *c, uint64_t off, struct pfe_layout *out)
{
	*out = (struct pfe_layout){ .landing = "" };
	out->found = function_behind_pad(c, off, &out->func) || function_after_nops(c, off, out);
	if (!out->found && (out->found = function_before_call_site(c, off, &out->func))) {
		out->in_body = true;
		out->pre = out->pre_nops = 0;	/* counted on the way to no entry */
	}
	if (!out->found)
		return;
	describe_entry(c, out);
	if (out->in_body) {
		describe_area(c, off, out);
		return;
	}
	describe_area(c, out->func.off + out->landing_len, out);
	out->at_pad = out->landing_len && off == out->func.off && out->post;
}

void pfe_layout_function(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
			 struct pfe_layout *out)
{
	*out = (struct pfe_layout){ .found = true, .func = *f, .landing = "" };
	describe_entry(c, out);
	describe_area(c, f->off + out->landing_len, out);
}

bool pfe_layout_leads_to_entry(const struct pfe_layout_code *c, uint64_t off)
{
	struct pfe_layout l = { .landing = "" };

	return function_behind_pad(c, off, &l.func) || function_after_nops(c, off, &l);
}

void pfe_layout_slot(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
		     struct pfe_layout_slot *out)
{
	*out = (struct pfe_layout_slot){ .room = false };
	if (f->off < PFE_SLOT_SIZE || f->off > c->size)
		return;
	out->room = true;
	out->off = f->off - PFE_SLOT_SIZE;
	out->value = pfe_enc_load(c->bytes + out->off, PFE_SLOT_SIZE);
	out->nops = all_nops(c, out->off, PFE_SLOT_SIZE);
}

bool pfe_layout_find_nop_form(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
			      uint64_t hint, int want_units, uint64_t *at, unsigned *units)
{
	struct pfe_layout l;
	uint64_t off, end, pushes;
	unsigned u = 0, len_units = 0;
	int best = 0;

	pfe_layout_function(c, f, &l);
	off = f->off + l.landing_len;
	end = off + l.post;
	/* Each NOP boundary, then past the pushes that may follow the NOPs
	 * (x86 saves the static chain around the form as around the call). */
	pushes = pushes_at(c, end, c->next(c->ctx, f));
	for (size_t len = 1; len; off += len, u += len_units) {
		int rank = off == hint ? 3 : (int)u == want_units ? 2 : 1;

		if (nop_form_at(c, off) && rank >= best) {
			best = rank;
			*at = off;
			*units = u;
		}
		if (off < end)
			len = pfe_layout_nop(c, off, end, &len_units);
		else
			len = off == end ? pushes : 0, len_units = 0;
	}
	return best > 0;
}
