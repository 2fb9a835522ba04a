/* pfe.c: plugin entry point: arguments, checks, and the GCC events used.
 *
 * Load with -fplugin=pfe (after make install) or -fplugin=PATH/pfe.so;
 * arguments are -fplugin-arg-pfe-KEY[=VALUE]; -fplugin-arg-pfe-help lists
 * them.  Arguments are parsed strictly: an unknown key, a missing or
 * malformed value is a GCC error naming it; of a key given twice the
 * last wins, as with GCC's options.
 *
 * Debugging: gcc -v shows the cc1 command line with the plugin arguments;
 * errors from here start with "pfe:".
 */
#include "pfe.h"
#include "plugin-version.h"
#include <sys/mman.h>

int plugin_is_GPL_compatible;

struct pfe_options pfe_opts = {
	.has_entry = false,
	.entry_size = 0,
	.entry_pre = 0,
	.section = NULL,
	.record = PFE_RECORD_ABS,
	.clobbers = PFE_CLOBBERS_ABI,
	.fentry = NULL,
	.fentry_nop = false,
	.call_section = PFE_SECTION_CALLS,
	.ops_slot = false,
	.ops_slot_value = NULL,
	.cfi = PFE_CFI_NONE,
	.cfi_layout = PFE_CFI_LAYOUT_CLANG,
	.cfi_layout_given = false,
	.cfi_arity = false,
	.cfi_normalize_integers = false,
	.min_function_align = 0,
	.exits = false,
	.vector_args = false,
};
const struct pfe_backend *pfe_backend;

static struct plugin_info pfe_info = {
	.version = "0.1",
	.help = "patchable function entries on any GCC; -fplugin-arg-pfe-help",
};

/* A key with a usage takes a value ("=NAME"), or may ("[=SYM]"); one
 * with a FLAG takes none and sets it. */
struct pfe_key {
	const char *name;
	const char *usage;
	const char *help;
	bool (*parse)(const char *arg, const char *value);
	bool *flag;
};

static bool value_optional(const struct pfe_key *key)
{
	return key->usage && key->usage[0] == '[';
}

/* A decimal count 0..PFE_MAX_NOPS, the whole of [S, END). */
static bool parse_count(const char *s, const char *end, unsigned int *out)
{
	unsigned long v = 0;

	if (s == end)
		return false;
	for (; s < end; s++) {
		if (!ISDIGIT(*s))
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > PFE_MAX_NOPS)
			return false;
	}
	*out = (unsigned int)v;
	return true;
}

/* M[,N] into SIZE and PRE; false if malformed or out of range. */
static bool parse_m_n(const char *value, unsigned int *size, unsigned int *pre)
{
	const char *comma = strchr(value, ',');
	const char *end = value + strlen(value);

	*pre = 0;
	return parse_count(value, comma ? comma : end, size) &&
	       (!comma || parse_count(comma + 1, end, pre)) && *pre <= *size;
}

/* The key that gave the padding: the same key again replaces it (the last
 * wins, as with GCC's options); the other spelling contradicts it. */
static const char *entry_key;

static bool set_entry(const char *arg, unsigned int size, unsigned int pre)
{
	if (entry_key && strcmp(entry_key, arg)) {
		error("pfe: %<-fplugin-arg-pfe-%s%>: padding given twice "
		      "(%<entry=%> and %<patchable-function-entry=%>)", arg);
		return false;
	}
	entry_key = arg;
	pfe_opts.has_entry = true;
	pfe_opts.entry_size = size;
	pfe_opts.entry_pre = pre;
	return true;
}

static bool parse_entry(const char *arg, const char *value)
{
	unsigned int size = 0, pre = 0;

	if (!parse_m_n(value, &size, &pre)) {
		if (pre > size)
			error("pfe: %<-fplugin-arg-pfe-%s=%s%>: N (%u) exceeds "
			      "M (%u)", arg, value, pre, size);
		else
			error("pfe: %<-fplugin-arg-pfe-%s=%s%>: expected M or "
			      "M,N, counts from 0 to %u", arg, value,
			      PFE_MAX_NOPS);
		return false;
	}
	return set_entry(arg, size, pre);
}

/* Whether NAME is a section or symbol name the assembler takes unquoted:
 * letters, digits, _, . and $, not first a digit. */
bool pfe_plain_name(const char *name)
{
	size_t len = strlen(name);

	return len > 0 && !ISDIGIT(name[0]) &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.$") == len;
}

/* A name the assembler takes unquoted, copied to *OUT. */
static bool parse_name(const char *arg, const char *value, const char **out)
{
	if (!pfe_plain_name(value)) {
		error("pfe: %<-fplugin-arg-pfe-%s=%s%>: a name is letters, "
		      "digits, %<_%>, %<.%> and %<$%>, not first a digit",
		      arg, value);
		return false;
	}
	*out = xstrdup(value);
	return true;
}

/* What pfe-cc passes for -fpatchable-function-entry=M[,N[,SECTION]]:
 * entry= (and section=, Clang 21's third field), with GCC's own words for
 * a bad value (build systems and GCC's tests expect them). */
static bool parse_native_option(const char *arg, const char *value)
{
	const char *comma = strchr(value, ',');
	const char *third = comma ? strchr(comma + 1, ',') : NULL;
	char *m_n = xstrndup(value, third ? (size_t)(third - value) : strlen(value));
	unsigned int size, pre;
	bool ok = parse_m_n(m_n, &size, &pre);

	free(m_n);
	if (!ok) {
		error("invalid arguments for %<-fpatchable-function-entry%>");
		return false;
	}
	if (third && !parse_name(arg, third + 1, &pfe_opts.section))
		return false;
	return set_entry(arg, size, pre);
}

static bool parse_section(const char *arg, const char *value)
{
	return parse_name(arg, value, &pfe_opts.section);
}

/* VALUE as one of the words FIRST and SECOND: *SECOND_CHOSEN says which;
 * anything else is an error naming the argument and both words. */
static bool parse_one_of(const char *arg, const char *value, const char *first,
			 const char *second, bool *second_chosen)
{
	*second_chosen = !strcmp(value, second);
	if (*second_chosen || !strcmp(value, first))
		return true;
	error("pfe: %<-fplugin-arg-pfe-%s=%s%>: expected %<%s%> or %<%s%>", arg,
	      value, first, second);
	return false;
}

static bool parse_record(const char *arg, const char *value)
{
	bool rel32;

	if (!parse_one_of(arg, value, "abs", "rel32", &rel32))
		return false;
	pfe_opts.record = rel32 ? PFE_RECORD_REL32 : PFE_RECORD_ABS;
	return true;
}

const char *pfe_default_section(void)
{
	return pfe_opts.record == PFE_RECORD_REL32 ? PFE_SECTION_ENTRIES_REL32
						   : PFE_SECTION_ENTRIES;
}

static bool parse_fentry(const char *arg, const char *value)
{
	pfe_opts.fentry = PFE_FENTRY_SYMBOL;
	return !value || parse_name(arg, value, &pfe_opts.fentry);
}

static bool parse_call_section(const char *arg, const char *value)
{
	return parse_name(arg, value, &pfe_opts.call_section);
}

static bool parse_ops_slot(const char *arg, const char *value)
{
	pfe_opts.ops_slot = true;
	pfe_opts.ops_slot_value = NULL;
	return !value || parse_name(arg, value, &pfe_opts.ops_slot_value);
}

static bool parse_clobbers(const char *arg, const char *value)
{
	bool scratch;

	if (!parse_one_of(arg, value, "abi", "scratch", &scratch))
		return false;
	pfe_opts.clobbers = scratch ? PFE_CLOBBERS_SCRATCH : PFE_CLOBBERS_ABI;
	return true;
}

static bool parse_cfi(const char *arg, const char *value)
{
	if (strcmp(value, "kcfi")) {
		error("pfe: %<-fplugin-arg-pfe-%s=%s%>: expected %<kcfi%>", arg,
		      value);
		return false;
	}
	pfe_opts.cfi = PFE_CFI_KCFI;
	return true;
}

static bool parse_cfi_layout(const char *arg, const char *value)
{
	bool fixed;

	if (!parse_one_of(arg, value, "clang", "fixed", &fixed))
		return false;
	pfe_opts.cfi_layout = fixed ? PFE_CFI_LAYOUT_FIXED : PFE_CFI_LAYOUT_CLANG;
	pfe_opts.cfi_layout_given = true;
	return true;
}

/* N: the alignment, rounded up to a power of two, as GCC 14's
 * -fmin-function-alignment=N. */
static bool parse_min_function_alignment(const char *arg, const char *value)
{
	unsigned int n;

	if (!parse_count(value, value + strlen(value), &n) || n == 0) {
		error("pfe: %<-fplugin-arg-pfe-%s=%s%>: expected a count of "
		      "bytes from 1 to %u", arg, value, PFE_MAX_NOPS);
		return false;
	}
	pfe_opts.min_function_align = 1u << ceil_log2(n);
	return true;
}

static bool print_help(const char *arg, const char *value);

static const struct pfe_key pfe_keys[] = {
	{ "entry", "M[,N]", "pad every function with M NOPs, N before its "
	  "label (like -fpatchable-function-entry=M,N)", parse_entry, NULL },
	{ "patchable-function-entry", "M[,N[,SECTION]]", "entry=M[,N] (and section=) as "
	  "pfe-cc passes -fpatchable-function-entry=M[,N[,SECTION]], with "
	  "GCC's error message",
	  parse_native_option, NULL },
	{ "section", "NAME", "record section (default " PFE_SECTION_ENTRIES
	  ", with record=rel32 " PFE_SECTION_ENTRIES_REL32 ")", parse_section, NULL },
	{ "record", "abs|rel32", "what an entry record holds: the first NOP's "
	  "address (abs, the default, as GCC), or its 32-bit distance from "
	  "the record (rel32: 4 bytes, no run-time relocation)", parse_record, NULL },
	{ "fentry", "[=SYM]", "every instrumented function calls SYM (default "
	  PFE_FENTRY_SYMBOL ") first, after its landing pad and NOPs; "
	  "without entry=, every function but (0,0) ones", parse_fentry, NULL },
	{ "fentry-nop", NULL, "the fentry call as NOPs of its size (as "
	  "-mnop-mcount)", NULL, &pfe_opts.fentry_nop },
	{ "record-section", "NAME", "section of the fentry call-site records "
	  "(default " PFE_SECTION_CALLS ")", parse_call_section, NULL },
	{ "ops-slot", "[=SYM]", "an 8-byte, 8-aligned slot right before each "
	  "instrumented entry, holding SYM's address (0 without SYM; the N "
	  "NOPs when they are 8 bytes)", parse_ops_slot, NULL },
	{ "clobbers", "abi|scratch", "what callers assume a padded function "
	  "clobbers: every call-clobbered register (abi, the default), or "
	  "only the target's patch scratch registers (scratch: the "
	  "trampoline saves all others)", parse_clobbers, NULL },
	{ "cfi", "kcfi", "Clang's kCFI: each function that may be called "
	  "indirectly carries its type hash before its entry, each indirect "
	  "call checks it (C; x86_64, aarch64, riscv64)", parse_cfi, NULL },
	{ "cfi-layout", "clang|fixed", "where the hash goes: before the NOPs "
	  "before the entry (clang, the default, as Clang 16), or right before "
	  "the entry (fixed: the same offset whatever the NOPs)",
	  parse_cfi_layout, NULL },
	{ "cfi-arity", NULL, "with cfi=kcfi, the hash's mov names how many "
	  "integer registers bring the function its arguments (x86_64; Clang "
	  "21's -fsanitize-kcfi-arity)", NULL, &pfe_opts.cfi_arity },
	{ "cfi-normalize-integers", NULL, "with cfi=kcfi, integer types hash "
	  "by size and signedness only, as Clang's -fsanitize-cfi-icall-"
	  "experimental-normalize-integers (the kernel's with Rust)",
	  NULL, &pfe_opts.cfi_normalize_integers },
	{ "min-function-alignment", "N", "every function starts N-aligned "
	  "(a power of two), cold ones too, which -falign-functions leaves "
	  "out (GCC 14's -fmin-function-alignment=N, on every GCC)",
	  parse_min_function_alignment, NULL },
	{ "exits", NULL, "an exit sled, a NOP of a call's size, before each "
	  "return and sibling call of every instrumented function, recorded "
	  "in " PFE_SECTION_EXITS " (x86_64: libpfe's exit handlers)",
	  NULL, &pfe_opts.exits },
	{ "vector-args", NULL, "a record in " PFE_SECTION_VECTOR_ARGS
	  " of each instrumented function whose arguments use no vector "
	  "register or only their low 16 bytes (x86_64: libpfe's entry "
	  "trampoline saves that much of them, not the full width)",
	  NULL, &pfe_opts.vector_args },
	{ "help", NULL, "print this list", print_help, NULL },
};

static bool print_help(const char *arg, const char *value)
{
	(void)arg;
	(void)value;
	fprintf(stderr, "pfe: patchable function entries; arguments:\n");
	for (size_t i = 0; i < ARRAY_SIZE(pfe_keys); i++) {
		const struct pfe_key *k = &pfe_keys[i];
		char arg[64];
		snprintf(arg, sizeof(arg), "%s%s%s", k->name,
			 k->usage && !value_optional(k) ? "=" : "",
			 k->usage ? k->usage : "");
		fprintf(stderr, "  -fplugin-arg-pfe-%-24s %s\n", arg, k->help);
	}
	fprintf(stderr, "  attribute patchable_function_entry(M,N) overrides "
		"entry= per function; (0,0) excludes one\n");
	return true;
}

static const struct pfe_key *find_key(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(pfe_keys); i++)
		if (!strcmp(pfe_keys[i].name, name))
			return &pfe_keys[i];
	return NULL;
}

/* In order, every one checked: a key given again replaces what it gave
 * before (the last wins, as with GCC's own options, so that a build that
 * passes its CFLAGS twice builds); every bad argument is reported, not
 * just the first. */
static bool parse_arguments(const struct plugin_name_args *info)
{
	bool ok = true;

	for (int i = 0; i < info->argc; i++) {
		const struct plugin_argument *a = &info->argv[i];
		const struct pfe_key *key = find_key(a->key);

		if (!key) {
			error("pfe: unknown argument %<-fplugin-arg-pfe-%s%> "
			      "(%<-fplugin-arg-pfe-help%> lists them)", a->key);
			ok = false;
		} else if (key->usage && !value_optional(key) &&
			   (!a->value || !*a->value)) {
			error("pfe: %<-fplugin-arg-pfe-%s%> needs a value: %s=%s",
			      a->key, a->key, key->usage);
			ok = false;
		} else if (!key->usage && a->value) {
			error("pfe: %<-fplugin-arg-pfe-%s%> takes no value",
			      a->key);
			ok = false;
		} else if (key->flag) {
			*key->flag = true;
		} else if (!key->parse(a->key, a->value)) {
			ok = false;
		}
	}
	return ok;
}

/* The arguments that only mean something together, and the entry modes
 * against GCC's options and the target: each bad pair is a fatal error
 * naming both sides. */
/* An option of GIVEN that only libpfe's trampolines use, where the
 * backend has no SUPPORTED hook for it: refused, naming the targets
 * WHERE it is (names.h). */
static void refuse_for_target(bool given, bool supported, const char *name,
			      const char *where)
{
	if (given && !supported)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-%s%> is not supported for "
			  "this target (only for %s)", name, where);
}

static void check_entry_modes(void)
{
	const char *why;

	if (!pfe_opts.fentry && pfe_opts.fentry_nop)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-fentry-nop%> without "
			  "%<-fplugin-arg-pfe-fentry%>");
	if (!pfe_opts.fentry && strcmp(pfe_opts.call_section, PFE_SECTION_CALLS))
		pfe_fatal("pfe: %<-fplugin-arg-pfe-record-section%> without "
			  "%<-fplugin-arg-pfe-fentry%>");
	if (pfe_opts.record == PFE_RECORD_REL32 &&
	    !strcmp(pfe_opts.section, PFE_SECTION_ENTRIES))
		pfe_fatal("pfe: %<-fplugin-arg-pfe-record=rel32%> in "
			  "%<" PFE_SECTION_ENTRIES "%>: its readers (uftrace, "
			  "kernels, what reads the records GCC makes) take them "
			  "for addresses; leave %<section=%> out");
	if (pfe_opts.fentry && profile_flag)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-fentry%> and %<-pg%> both "
			  "call at the entry; use one of them");
	if (pfe_opts.fentry && pfe_backend->fentry_refused &&
	    (why = pfe_backend->fentry_refused()))
		pfe_fatal("pfe: %<-fplugin-arg-pfe-fentry%> is not supported "
			  "for %s", why);
	if (pfe_opts.ops_slot_value && flag_pic)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-ops-slot=%s%> with "
			  "%<-fpic%>/%<-fpie%>: an address in code needs a text "
			  "relocation; fill the slot at run time "
			  "(%<-fplugin-arg-pfe-ops-slot%>)", pfe_opts.ops_slot_value);
	refuse_for_target(pfe_opts.exits, pfe_backend->exit_sled != NULL,
			  "exits", PFE_EXITS_TARGETS);
	refuse_for_target(pfe_opts.vector_args,
			  pfe_backend->vector_arg_bytes != NULL, "vector-args",
			  PFE_VECTOR_ARGS_TARGETS);
	pfe_kcfi_check_options();
	if (pfe_opts.has_entry && pfe_opts.entry_size &&
	    (why = pfe_layout_refused(pfe_opts.entry_pre,
				      pfe_opts.entry_size - pfe_opts.entry_pre)))
		pfe_fatal("pfe: %<-fplugin-arg-pfe-entry=%u,%u%> with %s",
			  pfe_opts.entry_size, pfe_opts.entry_pre, why);
}

/* The protection of the page holding ADDR (/proc/self/maps), or -1. */
static int page_protection(uintptr_t addr)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512], perms[5];
	unsigned long lo, hi;
	int prot = -1;

	if (!maps)
		return -1;
	while (prot < 0 && fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 &&
		    addr >= lo && addr < hi)
			prot = (perms[0] == 'r' ? PROT_READ : 0) |
			       (perms[1] == 'w' ? PROT_WRITE : 0) |
			       (perms[2] == 'x' ? PROT_EXEC : 0);
	fclose(maps);
	return prot;
}

/* GCC's own spec of an attribute: HANDLER in front of GCC's, which it
 * returns (NULL if that cannot be done), and at most MAX_LENGTH arguments.
 * The spec lives in a const table of GCC's: its pages are made writable
 * for the stores and given their protection back. */
pfe_attribute_handler pfe_take_over_attribute(const struct attribute_spec *spec,
					      int max_length,
					      pfe_attribute_handler handler)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)spec & ~(page - 1);
	size_t len = (uintptr_t)(spec + 1) - start;
	int prot = page_protection(start);
	struct attribute_spec *writable = const_cast<struct attribute_spec *>(spec);
	pfe_attribute_handler gcc = spec->handler;

	if (prot < 0 || page_protection((uintptr_t)(spec + 1) - 1) != prot ||
	    mprotect((void *)start, len, prot | PROT_WRITE))
		return NULL;
	writable->max_length = max_length;
	writable->handler = handler;
	return mprotect((void *)start, len, prot) == 0 ? gcc : NULL;
}

/* PLUGIN_START_UNIT: target options are final now. */
static void pfe_start_unit(void *event_data, void *data)
{
	const char *why = NULL;

	(void)event_data;
	(void)data;
	if (pfe_native_entry_option_given())
		pfe_fatal("pfe: %<-fpatchable-function-entry%> and the pfe "
			  "plugin both pad functions; use one of them");
	pfe_backend = pfe_backend_select(&why);
	if (!pfe_backend)
		pfe_fatal("pfe: unsupported target: %s", why);
	check_entry_modes();
	pfe_emit_init();
	pfe_lto_start_unit();
}

/* min-function-alignment=: DECL's alignment, which GCC emits before the
 * function whether it is hot or cold (the -falign-functions alignment it
 * adds is for hot ones only, GCC PR 88345: the kernel's CALL_OPS literal
 * needs every function's). */
static void raise_function_alignment(tree decl)
{
	unsigned int bits = pfe_opts.min_function_align * BITS_PER_UNIT;

	if (DECL_ALIGN(decl) < bits)
		SET_DECL_ALIGN(decl, bits);
}

/* PLUGIN_ALL_PASSES_START: plan each function before GCC expands it (the
 * plan takes the attribute away from GCC's own reader). */
static void pfe_function_start(void *event_data, void *data)
{
	(void)event_data;
	(void)data;
	pfe_plan_for(current_function_decl);
	raise_function_alignment(current_function_decl);
}

/* Why plugin_default_version_check refuses the plugin: the first of the
 * fields it compares that differs, with both values (the configure
 * arguments too long to print).  A GCC rebuilt or reinstalled with
 * another configuration says "GCC 7.5.0" on both sides. */
static void report_version_mismatch(const char *plugin,
				    const struct plugin_gcc_version *here)
{
	const struct {
		const char *what, *built, *here;
	} fields[] = {
		{ "versions", gcc_version.basever, here->basever },
		{ "date stamps", gcc_version.datestamp, here->datestamp },
		{ "development phases", gcc_version.devphase, here->devphase },
		{ "revisions", gcc_version.revision, here->revision },
	};

	for (unsigned i = 0; i < ARRAY_SIZE(fields); i++) {
		if (strcmp(fields[i].built, fields[i].here) == 0)
			continue;
		error("pfe: %s was built for GCC %s, this is GCC %s (their %s "
		      "differ: %qs, here %qs); rebuild it with "
		      "%<make CC=this-compiler%>", plugin, gcc_version.basever,
		      here->basever, fields[i].what, fields[i].built,
		      fields[i].here);
		return;
	}
	error("pfe: %s was built for GCC %s, this is GCC %s (their configure "
	      "arguments differ); rebuild it with %<make CC=this-compiler%>",
	      plugin, gcc_version.basever, here->basever);
}

/* On bad input pfe reports it and registers nothing: the compile fails
 * (errorcount), with pfe's message alone, not GCC's "failed to initialize
 * plugin" after it. */
int plugin_init(struct plugin_name_args *info,
		struct plugin_gcc_version *version)
{
	if (!plugin_default_version_check(version, &gcc_version)) {
		report_version_mismatch(info->full_name, version);
		return 0;
	}
	if (!parse_arguments(info))
		return 0;
	if (!pfe_opts.section)
		pfe_opts.section = pfe_default_section();
	register_callback(info->base_name, PLUGIN_INFO, NULL, &pfe_info);
	register_callback(info->base_name, PLUGIN_ATTRIBUTES,
			  pfe_register_attribute, NULL);
	register_callback(info->base_name, PLUGIN_START_UNIT, pfe_start_unit,
			  NULL);
	register_callback(info->base_name, PLUGIN_ALL_PASSES_START,
			  pfe_function_start, NULL);
	pfe_register_passes(info->base_name);
	pfe_kcfi_register(info->base_name);
	pfe_lto_register(info->base_name);
	return 0;
}
