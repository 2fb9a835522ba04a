/* pfe-scan-list.c: `pfe-scan list` and `pfe-scan verify`: print what
 * each record points at, or check it against an expected M,N.
 *
 * Both read the records (pfe-scan-elf.c) and what sits at each
 * (pfe-scan-site.c); verify prints each problem as FUNCTION+0xOFFSET: WHAT.
 * Debug: `pfe-scan list --json FILE` shows every field verify compares.
 */
#include "pfe-scan.h"

#include <stdarg.h>
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

static const char *linked_section(const struct image *img, size_t rs)
{
	const GElf_Shdr *sh = &img->secs[rs].sh;

	if (!(sh->sh_flags & SHF_LINK_ORDER) || sh->sh_link >= img->nsecs)
		return "";
	return img->secs[sh->sh_link].name;
}

static void print_json(struct image *img, const struct record *rec, const struct site *site,
		       FILE *out)
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
	fputs("}\n", out);
}

static void print_text(struct image *img, const struct record *rec, const struct site *site,
		       bool name_file, FILE *out)
{
	if (name_file)
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
	putc('\n', out);
}

void list_image(struct image *img, const char *section, bool json, bool name_file, FILE *out)
{
	size_t *rs, nrs = record_sections(img, section, &rs);

	for (size_t i = 0; i < nrs; i++) {
		struct record *recs;
		size_t n = read_records(img, rs[i], &recs);

		for (size_t r = 0; r < n; r++) {
			struct site site;

			if (recs[r].zero)
				continue;
			describe_site(img, &recs[r], &site);
			if (json)
				print_json(img, &recs[r], &site, out);
			else
				print_text(img, &recs[r], &site, name_file, out);
		}
	}
}

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

/* A record that leads to no function entry. */
static unsigned report_stray(struct image *img, const struct record *rec, FILE *out)
{
	const struct func *f = func_containing(img, rec->target);

	unsigned long long addr = location_addr(img, rec->target);

	if (f)
		return problem(out, f->name, rec->target.off - f->off,
			       "record (0x%llx) does not point at a function entry", addr);
	return problem(out, img->secs[rec->target.sec].name, rec->target.off,
		       "record (0x%llx) points into no function", addr);
}

/* GCC 13+ links each record section to its function's section and puts it
 * in the function's COMDAT group; GCC 11/12 link all to the first function
 * (PR 99889), which --gc-sections turns into lost records. */
static unsigned check_placement(struct image *img, const struct record *rec,
				const struct func *f, FILE *out)
{
	const struct section *rs = &img->secs[rec->rec_sec], *text = &img->secs[f->sec];
	const char *linked = linked_section(img, rec->rec_sec);
	unsigned p = 0;

	if (!img->relocatable)
		return 0;
	if (*linked && rs->sh.sh_link != f->sec)
		p += problem(out, f->name, 0, "record section is linked to %s, not to %s",
			     linked, text->name);
	if (strcmp(rs->group, text->group))
		p += problem(out, f->name, 0, "record is in COMDAT group \"%s\", function in \"%s\"",
			     rs->group, text->group);
	return p;
}

static unsigned check_record(struct image *img, const struct verify_opts *opts,
			     const struct record *rec, bool *has_record, FILE *out)
{
	struct site site;
	const struct func *f;
	unsigned p = 0;

	describe_site(img, rec, &site);
	if (!(f = site.func))
		return report_stray(img, rec, out);
	if (!opts->m)
		return problem(out, f->name, 0, "has a record, expected none");
	if (has_record[f - img->funcs])
		p += problem(out, f->name, 0, "more than one record");
	has_record[f - img->funcs] = true;
	if (site.pre_nops != opts->n)
		p += problem(out, f->name, 0, "%u NOPs before the entry, expected %u",
			     site.pre_nops, opts->n);
	if (site.at_pad)
		p += problem(out, f->name, 0, "record points at the landing pad %s, not at a NOP",
			     site.landing);
	if (site.pad_after_nops)
		p += problem(out, f->name, 0, "NOPs before the landing pad %s", site.pad_after_nops);
	if (site.post_nops != opts->m - opts->n)
		p += problem(out, f->name, site.landing_len, "%u NOPs after the entry, expected %u",
			     site.post_nops, opts->m - opts->n);
	return p + check_placement(img, rec, f, out);
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
	if (is_cold_part(name))
		return true;
	for (size_t i = 0; i < opts->nexclude; i++)
		if (!strcmp(opts->exclude[i], name))
			return true;
	return false;
}

/* --all: every function with code must have a record (an alias shares
 * the record of the symbol func_at names for its address). */
static unsigned check_all_recorded(struct image *img, const struct verify_opts *opts,
				   const bool *has_record, FILE *out)
{
	unsigned p = 0;

	for (size_t i = 0; i < img->nfuncs; i++) {
		const struct func *f = &img->funcs[i];
		const struct func *canon = func_at(img, (struct location){ f->sec, f->off });

		if (f->size && is_code(img, f->sec) && !excluded(opts, f->name) &&
		    !has_record[canon - img->funcs])
			p += problem(out, f->name, 0, "no record");
	}
	return p;
}

unsigned verify_image(struct image *img, const struct verify_opts *opts, FILE *out)
{
	bool *has_record = scan_alloc(img, img->nfuncs, sizeof *has_record);
	size_t *rs, nrs = record_sections(img, opts->section, &rs);
	unsigned p = 0;

	if (!nrs && opts->m)
		p += problem(out, img->path, 0, "no %s section", opts->section);
	for (size_t i = 0; i < nrs; i++) {
		struct record *recs;
		size_t n = read_records(img, rs[i], &recs);

		for (size_t r = 0; r < n; r++)
			if (!recs[r].zero)
				p += check_record(img, opts, &recs[r], has_record, out);
	}
	if (opts->all && opts->m)
		p += check_all_recorded(img, opts, has_record, out);
	return p;
}

