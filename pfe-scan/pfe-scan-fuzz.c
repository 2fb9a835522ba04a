/* pfe-scan-fuzz.c: libFuzzer entry point for pfe-scan (built by `make fuzz`
 * as build/pfe-scan-fuzz, with AddressSanitizer and UBSan).
 *
 * Each input is read as an ELF file from memory and put through what every
 * subcommand does to a file: list (entry and call-site records, with the
 * ops slot and the kCFI hash), verify (--all; and with every entry mode:
 * fentry, its NOP form, the ops slot; the kCFI hash in both layouts, where
 * the target has kCFI: else verify --cfi fails the input), collect (records and calls to the first function),
 * and sort (in memory; nothing is written).  Bad input must end in
 * scan_fail()'s longjmp, never in a crash or a leak.
 * Run: build/pfe-scan-fuzz -max_total_time=60 CORPUS_DIR SEED_DIR
 * Debug a crash: build/pfe-scan-fuzz crash-<hash> (prints the stack), or
 * build/pfe-scan list crash-<hash> for the plain tool's view of it.
 */
#include "pfe-scan.h"

#include <stdlib.h>
#include <string.h>

#define RECORDS PFE_SECTION_ENTRIES
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
	struct verify_opts v = { .have_entry = true, .m = 2, .n = 1, .section = RECORDS,
				 .all = true };
	struct verify_opts modes = { .have_entry = true, .m = 4, .n = 2, .section = RECORDS,
				     .fentry = true, .fentry_sym = FENTRY,
				     .call_section = CALL_RECORDS, .ops_slot = true };
	struct verify_opts cfi = { .have_entry = true, .m = 4, .n = 2, .section = RECORDS,
				   .cfi = CFI_CLANG };
	struct list_opts l = { .section = RECORDS, .json = true, .ops_slot = true, .cfi = true };
	struct list_opts calls = { .section = CALL_RECORDS, .ops_slot = true, .cfi = true };
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
		collect_addresses(img, NULL, RECORDS, &addrs);
	sort_image(img, RECORDS, &nrecords);
	if (!img->relocatable && img->nfuncs)
		collect_addresses(img, img->funcs[0].name, RECORDS, &addrs);
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
