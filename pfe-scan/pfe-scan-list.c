/* pfe-scan-list.c: `pfe-scan list`: print what each record points at, as
 * text or one JSON object a line, with the ops slot (--ops-slot) and the
 * kCFI hash (--cfi) of its function.
 *
 * It reads the records (pfe-scan-elf.c) and what sits at each
 * (pfe-scan-site.c) and prints them; `pfe-scan verify` is
 * pfe-scan-verify.c.
 * Debug: `pfe-scan list --json --ops-slot --cfi FILE` shows every field;
 * `--section=__mcount_loc` lists the call-site records.
 */
#include "pfe-scan.h"

#include <string.h>

static void json_string(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":\"", key);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

/* The ops slot of a record's function as list shows it in text: what it
 * holds, or why there is none. */
static const char *slot_summary(struct image *img, const struct ops_slot *slot)
{
	if (!slot->room)
		return "none";
	if (!slot->aligned)
		return "unaligned";
	return slot->nops ? "nops" : slot_text(img, slot);
}

/* --ops-slot's keys: "slot" is "" when there are no 8 aligned bytes. */
static void print_json_slot(struct image *img, const struct site *site, FILE *out)
{
	struct ops_slot slot = { 0 };

	if (site->func)
		find_slot(img, site->func, &slot);
	json_string(out, "slot", slot.room && slot.aligned ? slot_text(img, &slot) : "");
	fprintf(out, ",\"slot_nops\":%d,\"slot_aligned\":%d", slot.nops ? 1 : 0,
		slot.room && slot.aligned ? 1 : 0);
}

/* --cfi's keys: the hash as a number (-1: none) and its address (0: none). */
static void print_json_cfi(struct image *img, const struct site *site, FILE *out)
{
	const struct cfi_hash *h = &site->cfi;

	if (h->found)
		fprintf(out, ",\"cfi\":%lu,\"cfi_at\":%llu", (unsigned long)h->value,
			(unsigned long long)location_addr(img, h->at));
	else
		fputs(",\"cfi\":-1,\"cfi_at\":0", out);
}

static void print_json(struct image *img, const struct list_opts *opts, const struct record *rec,
		       const struct site *site, FILE *out)
{
	fprintf(out, "{\"address\":%llu", (unsigned long long)location_addr(img, rec->target));
	json_string(out, "file", img->path);
	json_string(out, "function", site->func ? site->func->name : "");
	json_string(out, "section", img->secs[rec->target.sec].name);
	fprintf(out, ",\"pre\":%llu,\"post\":%llu,\"pre_nops\":%u,\"post_nops\":%u",
		(unsigned long long)site->pre, (unsigned long long)site->post,
		site->pre_nops, site->post_nops);
	json_string(out, "kind", kind_name(site->kind));
	if (site->kind == KIND_CALL)
		json_string(out, "target", site->call_target);
	json_string(out, "landing", site->landing);
	json_string(out, "pad_after_nops", site->pad_after_nops ? site->pad_after_nops : "");
	fprintf(out, ",\"at_pad\":%d", site->at_pad ? 1 : 0);
	json_string(out, "record_section", img->secs[rec->rec_sec].name);
	json_string(out, "linked", linked_section(img, rec->rec_sec));
	json_string(out, "group", img->secs[rec->rec_sec].group);
	fprintf(out, ",\"after_entry\":%llu",
		(unsigned long long)(site->in_body ? rec->target.off - site->func->off : 0));
	json_string(out, "call", site->call ? site->call : "");
	fprintf(out, ",\"call_at\":%llu",
		(unsigned long long)(site->call ? location_addr(img, site->call_at) : 0));
	if (opts->ops_slot)
		print_json_slot(img, site, out);
	if (opts->cfi)
		print_json_cfi(img, site, out);
	fputs("}\n", out);
}

static void print_text(struct image *img, const struct list_opts *opts, const struct record *rec,
		       const struct site *site, FILE *out)
{
	if (opts->name_file)
		fprintf(out, "%s: ", img->path);
	fprintf(out, "%s ", site->func ? site->func->name : "?");
	if (img->relocatable)
		fprintf(out, "%s+", img->secs[rec->target.sec].name);
	fprintf(out, "0x%llx pre=%llu post=%llu %s", (unsigned long long)rec->value,
		(unsigned long long)site->pre, (unsigned long long)site->post,
		kind_name(site->kind));
	if (site->kind == KIND_CALL)
		fprintf(out, " target=%s", site->call_target);
	if (*site->landing)
		fprintf(out, " landing=%s", site->landing);
	if (site->kind == KIND_NOPS && site->call)
		fprintf(out, " call=%s", site->call);
	if (opts->ops_slot && site->func) {
		struct ops_slot slot;

		find_slot(img, site->func, &slot);
		fprintf(out, " slot=%s", slot_summary(img, &slot));
	}
	if (opts->cfi && site->cfi.found)
		fprintf(out, " cfi=0x%08lx", (unsigned long)site->cfi.value);
	else if (opts->cfi)
		fputs(" cfi=none", out);
	putc('\n', out);
}

void list_image(struct image *img, const struct list_opts *opts, FILE *out)
{
	struct record *recs;
	size_t n = named_records(img, &opts->records, &recs, NULL);

	for (size_t r = 0; r < n; r++) {
		struct site site;

		describe_site(img, &recs[r], &site);
		if (opts->json)
			print_json(img, opts, &recs[r], &site, out);
		else
			print_text(img, opts, &recs[r], &site, out);
	}
}
