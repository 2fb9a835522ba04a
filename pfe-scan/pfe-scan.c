/* pfe-scan.c: command line of pfe-scan, the tool that reads, verifies,
 * collects and sorts patchable-function-entry records (see README.md for
 * usage and pfe-scan.h for how the other files divide the work).
 *
 *   pfe-scan list [--json] [--section=NAME] [--record=abs|rel32] [--ops-slot] [--cfi] FILE...
 *   pfe-scan verify FILE [--entry=M[,N]] [--section=NAME] [--record=abs|rel32]
 *                   [--fentry[=SYM]] [--fentry-nop] [--call-section=NAME]
 *                   [--ops-slot[=SYM]] [--cfi=clang|fixed] [--all] [--exclude=SYMBOL]...
 *   pfe-scan collect LINKED_FILE -o TABLE.o [--symbol=SYM] [--section=NAME] [--records=NAME]
 *                    [--record=abs|rel32]
 *   pfe-scan sort [--section=NAME] [--record=abs|rel32] FILE
 *   pfe-scan traps FILE...
 *
 * --record says the entry records' format (struct record_spec): it picks
 * the default entry section; the call-site records are always addresses.
 *
 * Exit status: 0 fine, 1 verify found problems, 2 bad usage or bad input
 * (one line `pfe-scan: FILE: what is wrong` on stderr).
 * Debug: `pfe-scan list --json FILE` shows everything the checks look at.
 */
#include "pfe-scan.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_TABLE PFE_SECTION_CALLS
#define DEFAULT_CALL_RECORDS PFE_SECTION_CALLS
#define DEFAULT_FENTRY PFE_FENTRY_SYMBOL

struct options {
	const char *cmd;
	const char **files;
	size_t nfiles;
	const char *section;	/* record section; collect: the table's section */
	const char *records;	/* collect: record section read */
	enum record_format format; /* --record: of the entry records */
	struct record_spec entries; /* the entry records read (collect: --records) */
	const char *output;
	const char *symbol;
	bool json;
	bool list_cfi;		/* list --cfi (verify's is --cfi=LAYOUT) */
	struct verify_opts verify;
};

static _Noreturn void usage(const char *why)
{
	fprintf(stderr, "pfe-scan: %s\n"
		"usage: pfe-scan list [--json] [--section=NAME] [--record=abs|rel32] [--ops-slot] [--cfi]\n"
		"                     FILE...\n"
		"       pfe-scan verify FILE [--entry=M[,N]] [--section=NAME] [--record=abs|rel32]\n"
		"                       [--fentry[=SYM]] [--fentry-nop] [--call-section=NAME]\n"
		"                       [--ops-slot[=SYM]] [--cfi=clang|fixed] [--all] [--exclude=SYMBOL]...\n"
		"       pfe-scan collect LINKED_FILE -o TABLE.o [--symbol=SYM] [--section=NAME] [--records=NAME]\n"
		"                        [--record=abs|rel32]\n"
		"       pfe-scan sort [--section=NAME] [--record=abs|rel32] FILE\n"
		"       pfe-scan traps FILE...\n", why);
	exit(2);
}

static bool parse_entry(const char *s, struct verify_opts *v)
{
	char *end;
	unsigned long m = strtoul(s, &end, 10), n = 0;

	if (end == s)
		return false;
	if (*end == ',') {
		s = end + 1;
		n = strtoul(s, &end, 10);
		if (end == s)
			return false;
	}
	if (*end || m > 65535 || n > m)
		return false;
	v->m = (unsigned)m;
	v->n = (unsigned)n;
	return true;
}

/* The value of ARG if it is --NAME=VALUE, else NULL. */
static const char *value_of(const char *arg, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(arg, name, len) && arg[len] == '=' ? arg + len + 1 : NULL;
}

/* NAME or NAME=VALUE: true, *VALUE the value or NULL; NAME= is an error. */
static bool optional_value(const char *arg, const char *name, const char **value)
{
	*value = value_of(arg, name);
	if (*value && !**value)
		usage("--fentry= and --ops-slot= want a symbol");
	return *value || !strcmp(arg, name);
}

/* --cfi=LAYOUT: where verify wants the kCFI hash. */
static enum cfi_layout parse_cfi_layout(const char *s)
{
	if (!strcmp(s, "clang"))
		return CFI_CLANG;
	if (!strcmp(s, "fixed"))
		return CFI_FIXED;
	usage("--cfi wants clang or fixed");
}

/* --record=FORMAT: the entry records' format; a bad one is named. */
static enum record_format parse_record_format(const char *s)
{
	char why[96];

	if (!strcmp(s, "abs"))
		return RECORD_ABS;
	if (!strcmp(s, "rel32"))
		return RECORD_REL32;
	snprintf(why, sizeof why, "--record wants abs or rel32, not \"%.40s\"", s);
	usage(why);
}

/* The entry-mode options of verify (--ops-slot also of list). */
static bool parse_mode_option(struct verify_opts *v, const char *a)
{
	const char *value;

	if (optional_value(a, "--fentry", &value)) {
		v->fentry = true;
		v->fentry_sym = value;
	} else if (!strcmp(a, "--fentry-nop")) {
		v->fentry = v->fentry_nop = true;
	} else if ((value = value_of(a, "--call-section"))) {
		v->call_section = value;
	} else if (optional_value(a, "--ops-slot", &value)) {
		v->ops_slot = true;
		v->ops_sym = value;
	} else if ((value = value_of(a, "--cfi"))) {
		v->cfi = parse_cfi_layout(value);
	} else {
		return false;
	}
	return true;
}

static void parse_option(struct options *o, char **argv, int *i)
{
	const char *a = argv[*i], *v;

	if (!strcmp(a, "--json"))
		o->json = true;
	else if (!strcmp(a, "--cfi"))
		o->list_cfi = true;
	else if (!strcmp(a, "--all"))
		o->verify.all = true;
	else if (parse_mode_option(&o->verify, a))
		return;
	else if (!strcmp(a, "-o") && argv[*i + 1])
		o->output = argv[++*i];
	else if ((v = value_of(a, "--section")))
		o->section = v;
	else if ((v = value_of(a, "--records")))
		o->records = v;
	else if ((v = value_of(a, "--record")))
		o->format = parse_record_format(v);
	else if ((v = value_of(a, "--symbol")))
		o->symbol = v;
	else if ((v = value_of(a, "--exclude")))
		o->verify.exclude[o->verify.nexclude++] = v;
	else if ((v = value_of(a, "--entry"))) {
		if (!parse_entry(v, &o->verify))
			usage("--entry wants M or M,N with N <= M <= 65535");
		o->verify.have_entry = true;
	} else
		usage("unknown option");
}

/* The entry records the command reads (--section, collect's --records;
 * by default --record's section) and collect's table section. */
static void set_sections(struct options *o)
{
	bool collect = !strcmp(o->cmd, "collect");
	const char *records = collect ? o->records : o->section;

	o->entries = (struct record_spec){ records ? records : default_record_section(o->format),
					   o->format };
	o->verify.entries = o->entries;
	if (!o->section)
		o->section = collect ? DEFAULT_TABLE : o->entries.section;
}

static void parse_args(struct options *o, int argc, char **argv)
{
	if (argc < 2)
		usage("no subcommand");
	o->cmd = argv[1];
	o->files = calloc((size_t)argc, sizeof *o->files);
	o->verify.exclude = calloc((size_t)argc, sizeof *o->verify.exclude);
	if (!o->files || !o->verify.exclude)
		usage("out of memory");
	for (int i = 2; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			parse_option(o, argv, &i);
		else
			o->files[o->nfiles++] = argv[i];
	set_sections(o);
	if (!o->verify.call_section)
		o->verify.call_section = DEFAULT_CALL_RECORDS;
	if (o->verify.fentry && !o->verify.fentry_sym)
		o->verify.fentry_sym = DEFAULT_FENTRY;
}

/* list shows the hash wherever it is (--cfi); verify checks it where a
 * layout puts it (--cfi=LAYOUT).  Either elsewhere is a mistake to say. */
static void check_cfi_args(const struct options *o)
{
	bool list = !strcmp(o->cmd, "list"), verify = !strcmp(o->cmd, "verify");

	if (o->list_cfi && !list)
		usage(verify ? "verify wants --cfi=clang or --cfi=fixed" : "--cfi is for list and verify");
	if (o->verify.cfi && !verify)
		usage(list ? "list takes --cfi without a layout" : "--cfi= is for verify");
}

static void check_args(const struct options *o)
{
	if (!o->nfiles)
		usage("no FILE");
	check_cfi_args(o);
	if (!strcmp(o->cmd, "list") || !strcmp(o->cmd, "traps"))
		return;
	if (o->nfiles > 1)
		usage("one FILE only");
	if (!strcmp(o->cmd, "verify") && !o->verify.have_entry && !o->verify.fentry &&
	    !o->verify.cfi)
		usage("verify needs --entry=M,N, --fentry or --cfi=LAYOUT");
	else if (!strcmp(o->cmd, "collect") && !o->output)
		usage("collect needs -o TABLE.o");
	else if (strcmp(o->cmd, "verify") && strcmp(o->cmd, "collect") && strcmp(o->cmd, "sort"))
		usage("unknown subcommand");
}

static int run_command(const struct options *o, struct image *img, bool name_file)
{
	if (!strcmp(o->cmd, "list")) {
		struct list_opts l = { o->entries, o->json, name_file, o->verify.ops_slot,
				       o->list_cfi };

		list_image(img, &l, stdout);
	} else if (!strcmp(o->cmd, "traps")) {
		list_traps(img, name_file, stdout);
	} else if (!strcmp(o->cmd, "verify")) {
		return verify_image(img, &o->verify, stdout) ? 1 : 0;
	} else if (!strcmp(o->cmd, "collect")) {
		uint64_t *addrs;
		size_t n = collect_addresses(img, o->symbol, &o->entries, &addrs);

		write_table(img, o->output, o->section, addrs, n);
		printf("%s: %zu addresses in %s\n", o->output, n, o->section);
	} else {
		size_t nrecords, zeroed = sort_image(img, &o->entries, &nrecords);

		image_write(img);
		printf("%s: sorted %zu records, zeroed %zu\n", img->path, nrecords, zeroed);
	}
	return 0;
}

/* Run the command on one file; IMG lives in the caller so that it is not
 * a local of the function that calls setjmp. */
static int run_file(const struct options *o, const char *path, bool name_file, struct image *img)
{
	jmp_buf on_error;
	int status;

	*img = (struct image){ .fd = -1, .on_error = &on_error };
	if (setjmp(on_error)) {
		fflush(stdout);
		fprintf(stderr, "pfe-scan: %s: %s\n", path, img->error);
		image_close(img);
		return 2;
	}
	image_open(img, path, !strcmp(o->cmd, "sort"));
	status = run_command(o, img, name_file);
	image_close(img);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int status = 0;

	parse_args(&o, argc, argv);
	check_args(&o);
	if (elf_version(EV_CURRENT) == EV_NONE)
		usage("libelf is too old");
	for (size_t i = 0; i < o.nfiles; i++) {
		struct image img;
		int s = run_file(&o, o.files[i], o.nfiles > 1, &img);

		if (s > status)
			status = s;
	}
	free(o.files);
	free(o.verify.exclude);
	return status;
}
