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
 * With the ops slot (aarch64, riscv64: slot, hash, entry) a function with
 * no hash has a zero word in its place: no hash, but a record still leads
 * over it to the entry, and the slot is before it.
 *
 * Every per-target fact comes from the target's struct pfe_arch
 * (arch-hooks/<target>/bytes.c): its entry NOPs (i386: no `lea` padding
 * forms), landing pads, the fentry call's lead (aarch64's `mov x9, x30`),
 * whether an entry call may go through memory (x86_64), the pushes x86
 * saves the static chain with, kCFI's opcode (x86_64's `movl`, b8).
 * Not a disassembler: those decoders say "is this exactly that
 * instruction".  Debugging: `pfe-scan list --json --ops-slot --cfi`
 * prints what this file reads; compare with `objdump -d` there.
 */
#include "layout.h"

#include <string.h>

/* At most this many pushes between the NOPs and the call: the struct value
 * and the static chain registers (GCC's final.c, profile_function). */
#define MAX_PUSHES 2

static uint64_t clip(const struct pfe_layout_code *c, uint64_t limit)
{
	return limit < c->size ? limit : c->size;
}

/* Length of the NOP at OFF (0 if none), *UNITS what it counts as in M,N. */
static size_t pfe_layout_nop(const struct pfe_layout_code *c, uint64_t off, uint64_t limit, unsigned *units)
{
	limit = clip(c, limit);
	if (off >= limit)
		return 0;
	return c->arch->entry_nop(c->bytes + off, limit - off, units);
}

/* Length of the landing pad at OFF (0 if none) and its name. */
static uint64_t pfe_layout_pad(const struct pfe_layout_code *c, uint64_t off, const char **name)
{
	return off < c->size ? c->arch->landing_pad(c->bytes + off, c->size - off, name) : 0;
}

/* The call at P: the target's decoder, from the fentry call's lead on,
 * since that is where the call-site record points. */
size_t pfe_layout_decode_call(const struct pfe_arch *a, const uint8_t *p, size_t avail, uint64_t pc,
			      struct pfe_enc_call *out)
{
	size_t skip = 0, len;

	if (a->call_lead && avail >= a->call_lead && !memcmp(p, a->fentry_call->bytes, a->call_lead))
		skip = a->call_lead;
	len = a->call(p + skip, avail - skip, pc + skip, out);
	if (!len && skip) {	/* the lead without its call: try from P itself */
		skip = 0;
		len = a->call(p, avail, pc, out);
	}
	if (!len || (out->kind == PFE_CALL_INDIRECT_MEM && !a->calls_via_memory))
		return 0;
	out->reloc_off += skip;
	return skip + len;
}

/* The entry call at OFF of the window, up to LIMIT (pfe_layout_decode_call). */
static size_t pfe_layout_call(const struct pfe_layout_code *c, uint64_t off, uint64_t limit,
		       struct pfe_enc_call *out)
{
	limit = clip(c, limit);
	if (off >= limit)
		return 0;
	return pfe_layout_decode_call(c->arch, c->bytes + off, limit - off, c->addr + off, out);
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

/* Bytes of the register pushes (at most MAX_PUSHES) at OFF, up to LIMIT. */
static uint64_t pushes_at(const struct pfe_layout_code *c, uint64_t off, uint64_t limit)
{
	size_t (*push)(const uint8_t *, size_t) = c->arch->push;
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
	return name && !strncmp(name, PFE_KCFI_PREAMBLE_PREFIX, sizeof PFE_KCFI_PREAMBLE_PREFIX - 1);
}

/* Is OWNER, a function whose code covers a hash, F's own preamble? */
static bool is_preamble_of(const struct pfe_layout_func *owner, const struct pfe_layout_func *f)
{
	return pfe_layout_is_cfi_preamble(owner->name) && f->name &&
	       !strcmp(owner->name + sizeof PFE_KCFI_PREAMBLE_PREFIX - 1, f->name);
}

unsigned pfe_layout_slot_hash_gap(const struct pfe_arch *a)
{
	return a->kcfi && !a->kcfi_opcode_len ? PFE_KCFI_HASH_SIZE : 0;
}

/* Is the word at OFF (in the window) zero: where a function with no hash
 * has its hash on a target whose hash is a word? */
static bool is_zero_word(const struct pfe_layout_code *c, uint64_t off)
{
	return pfe_layout_slot_hash_gap(c->arch) && off <= c->size && c->size - off >= PFE_KCFI_HASH_SIZE &&
	       pfe_enc_load(c->bytes + off, PFE_KCFI_HASH_SIZE) == 0;
}

/* Does F's kCFI hash have its 4 bytes at OFF?  See the top of the file
 * for what counts. */
static bool hash_at(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
		    uint64_t off, uint32_t *value)
{
	const struct pfe_arch *a = c->arch;
	struct pfe_layout_func owner;
	uint64_t start;

	if (!a->kcfi || off < a->kcfi_opcode_len || off > c->size ||
	    c->size - off < PFE_KCFI_HASH_SIZE || off % a->insn_align)
		return false;
	start = off - a->kcfi_opcode_len;
	if (a->kcfi_opcode_len ? (c->bytes[start] & a->kcfi_opcode_mask) != a->kcfi_opcode
			       : (pfe_enc_all_entry_nops(a, c->bytes + off, PFE_KCFI_HASH_SIZE) ||
				  is_zero_word(c, off)))
		return false;
	if (c->containing(c->ctx, start, &owner) && !is_preamble_of(&owner, f))
		return false;
	*value = (uint32_t)pfe_enc_load(c->bytes + off, PFE_KCFI_HASH_SIZE);
	return true;
}

bool pfe_layout_hash(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
		     uint64_t gap, uint32_t *value, uint64_t *at)
{
	if (f->off < gap + PFE_KCFI_HASH_SIZE)
		return false;
	*at = f->off - gap - PFE_KCFI_HASH_SIZE;
	return hash_at(c, f, *at, value);
}

bool pfe_layout_hashless(const struct pfe_layout_code *c, const struct pfe_layout_func *f)
{
	return f->off >= PFE_KCFI_HASH_SIZE && is_zero_word(c, f->off - PFE_KCFI_HASH_SIZE);
}

/* The fixed layout puts the hash between the N NOPs and the entry: if a
 * hash (or, with the ops slot, the zero word of a function without one)
 * sits at OFF (where the NOPs stopped) right before a function's entry,
 * that function in *F and the hash's bytes (x86_64 with its opcode),
 * else 0. */
static uint64_t hash_between(const struct pfe_layout_code *c, uint64_t off,
			     struct pfe_layout_func *f)
{
	const struct pfe_arch *a = c->arch;
	uint64_t len = a->kcfi_opcode_len + PFE_KCFI_HASH_SIZE;
	struct pfe_layout_func next;
	uint32_t value;

	if (!a->kcfi || !c->at(c->ctx, off + len, &next) || pfe_layout_is_cfi_preamble(next.name) ||
	    (!hash_at(c, &next, off + a->kcfi_opcode_len, &value) && !is_zero_word(c, off)))
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
		     uint64_t gap, struct pfe_layout_slot *out)
{
	*out = (struct pfe_layout_slot){ .room = false };
	if (f->off < gap + PFE_SLOT_SIZE || f->off > c->size)
		return;
	out->room = true;
	out->off = f->off - gap - PFE_SLOT_SIZE;
	out->value = pfe_enc_load(c->bytes + out->off, PFE_SLOT_SIZE);
	out->nops = pfe_enc_all_entry_nops(c->arch, c->bytes + out->off, PFE_SLOT_SIZE);
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
