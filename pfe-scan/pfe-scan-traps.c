/* pfe-scan-traps.c: `pfe-scan traps FILE...`, the kCFI checks of a file as
 * a kernel finds them: each entry of .kcfi_traps (a 32-bit `.long trap - .`,
 * Clang's and pfe's alike) gives a trap; pfe-scan prints, one line per
 * check, the function it is in, the trap's offset there and the hash the
 * check expects, decoded from the check's code before the trap (by the
 * target's kcfi_trap_hash, arch-hooks/<target>/bytes.c):
 *
 *   x86_64    movl $-HASH, %r10d; addl -D(%reg), %r10d; je 1f; ud2 (trap)
 *   riscv64   lw t1, -D(reg); li t2, HASH (lui, addiw, compressed or not);
 *             beq t1, t2, 1f; ebreak or c.ebreak (trap)
 *
 * aarch64 has no .kcfi_traps (neither Clang nor pfe emit one): its checks
 * trap with `brk #0x8220+n`, the kernel reads the registers from the ESR;
 * there `traps` prints nothing and says so on stderr.  A record that does
 * not point at a trap after such a check is an error naming it.
 *
 * Linux's vmlinux has them in __kcfi_traps, which is read too.
 *
 * Debug: objdump -d around the address the error names; objdump -s -j
 * .kcfi_traps shows the raw words (linked: each plus its own address).
 */
#include "pfe-scan.h"

#include <string.h>

/* The hash of the check whose trap is at LOC; false if none is there. */
static bool check_hash(struct image *img, struct location loc, uint32_t *hash)
{
	uint64_t size;
	const uint8_t *code = section_bytes(img, loc.sec, &size);

	if (!code || loc.off >= size)
		return false;
	return img->arch->kcfi_trap_hash(code + loc.off, size - loc.off, loc.off, hash);
}

/* Where entry I of traps section RS points: in an object, its relocation
 * says, as for a record (pfe-scan-elf.c, resolve_object_record): its
 * symbol's section, which need not be the one the traps section is
 * linked to (ld -r merges those of several text sections into one, linked
 * to one of them: vmlinux.o's .text, .init.text, ...); in a linked file,
 * the word plus the entry's own address. */
static struct location trap_location(struct image *img, size_t rs, uint64_t i)
{
	uint64_t size, at = 4 * i, addr;
	const uint8_t *bytes = section_bytes(img, rs, &size);
	const struct section *s = &img->secs[rs];
	size_t sec;

	if (img->relocatable) {
		/* The first relocation there: x86_64's PC32, riscv64's ADD32
		 * (its SUB32, the entry's own address, follows). */
		const struct reloc *r = reloc_at(img, rs, at);

		if (!r || !r->sym_section)
			scan_fail(img, "%s+0x%llx: no relocation against a defined section", s->name,
				  (unsigned long long)at);
		return (struct location){ r->sym_section, r->sym_value + (uint64_t)r->addend };
	}
	addr = pfe_rel32_target(s->sh.sh_addr + at, (uint32_t)load_le(bytes + at, 4));
	if (!find_section_by_addr(img, addr, &sec))
		scan_fail(img, "%s+0x%llx: points to 0x%llx, outside every section", s->name,
			  (unsigned long long)at, (unsigned long long)addr);
	return (struct location){ sec, addr - img->secs[sec].sh.sh_addr };
}

/* One line for the check of entry I of RS. */
static void print_trap(struct image *img, size_t rs, uint64_t i, bool name_file, FILE *out)
{
	struct location loc = trap_location(img, rs, i);
	const struct func *f = func_containing(img, loc);
	uint32_t hash;

	if (!check_hash(img, loc, &hash))
		scan_fail(img, "%s+0x%llx: %s+0x%llx is no trap after a kCFI check",
			  img->secs[rs].name, (unsigned long long)(4 * i),
			  img->secs[loc.sec].name, (unsigned long long)loc.off);
	if (name_file)
		fprintf(out, "%s: ", img->path);
	fprintf(out, "%s+0x%llx 0x%08x\n", f ? f->name : img->secs[loc.sec].name,
		(unsigned long long)(f ? loc.off - f->off : loc.off), hash);
}

/* Every entry of the traps sections named NAME. */
static void list_traps_in(struct image *img, const char *name, bool name_file, FILE *out)
{
	size_t *rs, nrs = record_sections(img, name, &rs);

	for (size_t k = 0; k < nrs; k++) {
		uint64_t size;

		section_bytes(img, rs[k], &size);
		if (size % 4)
			scan_fail(img, "%s: size %llu is not a multiple of 4", img->secs[rs[k]].name,
				  (unsigned long long)size);
		for (uint64_t i = 0; i < size / 4; i++)
			print_trap(img, rs[k], i, name_file, out);
	}
}

void list_traps(struct image *img, bool name_file, FILE *out)
{
	if (!img->arch->kcfi_trap_hash) {
		fprintf(stderr, "pfe-scan: %s: no %s on this target (%s): %s\n", img->path,
			PFE_SECTION_KCFI_TRAPS, img->arch->name, img->arch->kcfi ?
			"its kCFI checks trap with brk #0x8220+n, which the kernel decodes" :
			"no kCFI");
		return;
	}
	list_traps_in(img, PFE_SECTION_KCFI_TRAPS, name_file, out);
	list_traps_in(img, PFE_SECTION_KCFI_TRAPS_LINUX, name_file, out);
}
