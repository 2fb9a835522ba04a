/* pfe-scan-fuzz.c: libFuzzer entry point for pfe-scan (built by `make fuzz`
 * as build/pfe-scan-fuzz, with AddressSanitizer and UBSan).
 *
 * Each input is read as an ELF file from memory and put through what every
 * subcommand does to a file: list (entry records of both formats and
 * call-site records, with the ops slot and the kCFI hash), verify (--all;
 * and with every entry mode: fentry, its NOP form, the ops slot; the kCFI
 * hash in both layouts, where the target has kCFI: else verify --cfi fails
 * the input), collect (records of both formats and calls to the first
 * function), and sort (both formats, in memory; nothing is written).  Bad
 * input must end in scan_fail()'s longjmp, never in a crash or a leak.
 * Run: build/pfe-scan-fuzz -max_total_time=60 CORPUS_DIR SEED_DIR
 * Debug a crash: build/pfe-scan-fuzz crash-<hash> (prints the stack), or
 * build/pfe-scan list crash-<hash> for the plain tool's view of it.
 */
#include "pfe-scan.h"

#include <stdlib.h>
#include <string.h>

#define CALL_RECORDS PFE_SECTION_CALLS
#define FENTRY PFE_FENTRY_SYMBOL

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	elf_version(EV_CURRENT);
	return 0;
}

static void exercise(struct image *img, FILE *sink)
{
	const struct record_spec abs = { PFE_SECTION_ENTRIES, RECORD_ABS };
	const struct record_spec rel32 = { PFE_SECTION_ENTRIES_REL32, RECORD_REL32 };
	struct verify_opts v = { .have_entry = true, .m = 2, .n = 1, .entries = abs,
				 .all = true };
	struct verify_opts modes = { .have_entry = true, .m = 4, .n = 2, .entries = abs,
				     .fentry = true, .fentry_sym = FENTRY,
				     .call_section = CALL_RECORDS, .ops_slot = true };
	struct verify_opts cfi = { .have_entry = true, .m = 4, .n = 2, .entries = abs,
				   .cfi = CFI_CLANG };
	struct list_opts l = { .records = abs, .json = true, .ops_slot = true, .cfi = true };
	struct list_opts l32 = { .records = rel32, .json = true };
	struct list_opts calls = { .records = { CALL_RECORDS, RECORD_ABS }, .ops_slot = true,
				   .cfi = true };
	uint64_t *addrs;
	size_t nrecords;

	list_image(img, &l, sink);
	list_image(img, &calls, sink);
	verify_image(img, &v, sink);
	verify_image(img, &modes, sink);
	modes.fentry_nop = modes.all = true;
	modes.have_entry = false;
	modes.ops_sym = FENTRY;
	verify_image(img, &modes, sink);
	if (img->arch->kcfi) {	/* verify --cfi on i386 is bad input: scan_fail */
		verify_image(img, &cfi, sink);
		cfi.cfi = CFI_FIXED;
		cfi.all = true;
		verify_image(img, &cfi, sink);
	}
	if (!img->relocatable)
		collect_addresses(img, NULL, &abs, &addrs);
	sort_image(img, &abs, &nrecords);
	if (!img->relocatable && img->nfuncs)
		collect_addresses(img, img->funcs[0].name, &abs, &addrs);
	/* Last: a file of abs records has no rel32 section, and the other way
	 * round; what fails here stops nothing above. */
	list_image(img, &l32, sink);
	if (!img->relocatable)
		collect_addresses(img, NULL, &rel32, &addrs);
	sort_image(img, &rel32, &nrecords);
}

/* IMG lives in the caller: it must not be a local of the setjmp caller. */
static void run(struct image *img, char *buf, size_t size, FILE *sink)
{
	jmp_buf on_error;

	*img = (struct image){ .fd = -1, .on_error = &on_error };
	if (!setjmp(on_error)) {
		image_open_memory(img, buf, size);
		exercise(img, sink);
	}
	image_close(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct image img;
	char *buf = malloc(size ? size : 1);

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!buf || !sink)
		abort();
	memcpy(buf, data, size);
	run(&img, buf, size, sink);
	free(buf);
	return 0;
}
