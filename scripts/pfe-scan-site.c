/* pfe-scan-site.c: say what sits at a record's target.
 *
 * A record points at the first NOP of a patch area: N NOPs before the
 * function's label ("pre"), then the function's landing pad if it has one
 * (endbr64/endbr32, bti c), then M-N NOPs ("post").  The function is the
 * first STT_FUNC symbol at or after the target such that only NOPs lie
 * between (alignment padding sits before the target, not after it); but
 * with N = 0 and a landing pad GCC points the record past the pad, so a
 * target where a function's pad ends means that function, with pre = 0.
 * Debug: `pfe-scan list --json FILE` prints every field computed here;
 * compare with `objdump -d` at the same address.
 */
#include "pfe-scan.h"

#include <stdio.h>
#include <string.h>

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
	while (off < limit && (len = img->arch->nop(b + off, limit - off, &u))) {
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

	return off < size ? img->arch->landing_pad(b + off, size - off, name) : 0;
}

/* With N = 0 and a landing pad, the record points at the first NOP after
 * the pad: the function is the one whose pad ends at LOC. */
static const struct func *function_behind_pad(struct image *img, struct location loc)
{
	const struct func *f = func_before(img, loc);
	const char *name;

	if (f && f->off < loc.off && f->off + landing_pad_at(img, f->sec, f->off, &name) == loc.off)
		return f;
	return NULL;
}

/* The function reached from LOC over NOPs only, or NULL. */
static const struct func *function_after_nops(struct image *img, struct location loc,
					      struct site *site)
{
	uint64_t size;
	const uint8_t *b = section_bytes(img, loc.sec, &size);
	uint64_t off = loc.off;
	const struct func *f;
	unsigned u;
	size_t len;

	while (!(f = func_at(img, (struct location){ loc.sec, off }))) {
		if (off >= size || !(len = img->arch->nop(b + off, size - off, &u)))
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

/* Name of what a call at OFF in section SEC goes to. */
static const char *call_target(struct image *img, size_t sec, uint64_t off,
			       const struct call *call)
{
	const struct reloc *r = reloc_at(img, sec, off + call->reloc_off);
	struct location loc = { sec, call->target };
	const struct func *f = NULL;
	char *hex;

	if (r)
		return r->symbol;
	if (img->relocatable || find_section_by_addr(img, call->target, &loc.sec)) {
		if (!img->relocatable)
			loc.off -= img->secs[loc.sec].sh.sh_addr;
		f = func_at(img, loc);
	}
	if (f)
		return f->name;
	hex = scan_alloc(img, 24, 1);
	snprintf(hex, 24, "0x%llx", (unsigned long long)call->target);
	return hex;
}

/* What the patch area holds: NOPs if it has any, else maybe a call. */
static void classify(struct image *img, const struct func *f, struct site *site)
{
	struct location at = { f->sec, f->off + site->landing_len };
	uint64_t size, off = at.off;
	const uint8_t *b = section_bytes(img, f->sec, &size);
	struct call call;

	if (site->pre || site->post)
		site->kind = KIND_NOPS;
	else if (off < size && img->arch->call(b + off, size - off, location_addr(img, at), &call)) {
		site->kind = KIND_CALL;
		site->call_target = call_target(img, f->sec, off, &call);
	}
}

void describe_site(struct image *img, const struct record *rec, struct site *site)
{
	const struct func *f;
	uint64_t off;
	const char *pad;

	*site = (struct site){ .landing = "", .kind = KIND_UNKNOWN };
	if (rec->zero || !(f = site->func = find_function(img, rec->target, site)))
		return;
	site->landing_len = landing_pad_at(img, f->sec, f->off, &site->landing);
	if (!site->landing_len)
		site->landing = "";
	off = f->off + site->landing_len;
	count_nops(img, f->sec, off, next_func_off(img, f), &site->post, &site->post_nops);
	site->at_pad = site->landing_len && rec->target.off == f->off && site->post;
	/* GCC 9/10 on x86 put the NOPs before ENDBR, which breaks IBT. */
	if (!site->landing_len && site->post &&
	    landing_pad_at(img, f->sec, off + site->post, &pad))
		site->pad_after_nops = pad;
	classify(img, f, site);
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
