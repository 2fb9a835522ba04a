/* pfe-scan-traps.c: `pfe-scan traps FILE...`, the kCFI checks of a file as
 * a kernel finds them: each entry of .kcfi_traps (a 32-bit `.long trap - .`,
 * Clang's and pfe's alike) gives a trap; pfe-scan prints, one line per
 * check, the function it is in, the trap's offset there and the hash the
 * check expects, decoded from the check's code before the trap:
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
 * Debug: objdump -d around the address the error names; objdump -s -j
 * .kcfi_traps shows the raw words (linked: each plus its own address).
 */
#include "pfe-scan.h"

#include <string.h>

#define TRAPS_SECTION ".kcfi_traps"

/* x86_64: the check ending right before the ud2 at P (BEFORE bytes of
 * code before it); its hash in *HASH. */
static bool x86_64_check_hash(const uint8_t *p, uint64_t before, uint32_t *hash)
{
	for (uint64_t k = 10; k <= 24 && k <= before; k++) {
		const uint8_t *c = p - k, *add = c + 6;
		unsigned mod = add[2] >> 6, len = 3;

		/* movl $imm32, %r10d; addl disp(%reg), %r10d (REX.R) */
		if (c[0] != 0x41 || c[1] != 0xba || (add[0] & 0xfe) != 0x44 ||
		    add[1] != 0x03 || ((add[2] >> 3) & 7) != 2 || (add[2] & 7) == 4 ||
		    mod == 3)
			continue;
		len += mod == 1 ? 1 : mod == 2 ? 4 : 0;
		/* je rel8 or je rel32, ending at the trap */
		if ((add[len] == 0x74 && add + len + 2 == p) ||
		    (add[len] == 0x0f && add[len + 1] == 0x84 && add + len + 6 == p)) {
			*hash = -(uint32_t)load_le(c + 2, 4);
			return true;
		}
	}
	return false;
}

/* riscv64: sign-extended bits LO..HI of X. */
static int64_t rv_bits(uint32_t x, unsigned lo, unsigned hi)
{
	return (int64_t)((uint64_t)x << (63 - hi)) >> (63 - hi + lo);
}

/* riscv64: apply the instruction at P (LEN: 2 or 4 bytes) to *T2 if it
 * writes t2 (x7) as `li` does; false if it is anything else. */
static bool rv_li_step(const uint8_t *p, unsigned len, int64_t *t2)
{
	uint32_t i = (uint32_t)load_le(p, len);

	if (len == 4 && (i & 0xfff) == (0x37 | 7 << 7)) {		/* lui t2 */
		*t2 = rv_bits(i, 12, 31) << 12;
	} else if (len == 4 && (i & 0xfffff) == (0x1b | 7 << 7 | 7 << 15)) {
		*t2 = (int32_t)(*t2 + rv_bits(i, 20, 31));		/* addiw t2, t2 */
	} else if (len == 4 && (i & 0xfffff) == (0x13 | 7 << 7 | 7 << 15)) {
		*t2 += rv_bits(i, 20, 31);				/* addi t2, t2 */
	} else if (len == 4 && (i & 0xfffff) == (0x13 | 7 << 7)) {
		*t2 = rv_bits(i, 20, 31);				/* addi t2, zero */
	} else if (len == 2 && (i & 0xef83) == 0x6381) {		/* c.lui t2 */
		*t2 = (rv_bits(i, 12, 12) << 17) | ((i >> 2 & 0x1f) << 12);
	} else if (len == 2 && (i & 0xef83) == 0x2381) {		/* c.addiw t2 */
		*t2 = (int32_t)(*t2 + ((rv_bits(i, 12, 12) << 5) | (i >> 2 & 0x1f)));
	} else if (len == 2 && (i & 0xef83) == 0x4381) {		/* c.li t2 */
		*t2 = (rv_bits(i, 12, 12) << 5) | (i >> 2 & 0x1f);
	} else {
		return false;
	}
	return true;
}

/* riscv64: the check ending right before the ebreak at P. */
static bool riscv64_check_hash(const uint8_t *p, uint64_t before, uint32_t *hash)
{
	uint32_t beq;

	if (before < 12)
		return false;
	beq = (uint32_t)load_le(p - 4, 4);
	/* beq t1, t2 or beq t2, t1 */
	if ((beq & 0x707f) != 0x63 || !(((beq >> 15 & 0x3ff) == (6 | 7 << 5)) ||
					  ((beq >> 15 & 0x3ff) == (7 | 6 << 5))))
		return false;
	for (uint64_t k = 6; k <= 16 && k + 4 <= before; k += 2) {
		const uint8_t *q = p - 4 - k;
		int64_t t2 = 0;
		bool ok = true;

		if ((load_le(q, 4) & 0x7fff) != (0x03 | 6 << 7 | 2 << 12))	/* lw t1 */
			continue;
		for (q += 4; ok && q < p - 4; q += (*q & 3) == 3 ? 4 : 2)
			ok = rv_li_step(q, (*q & 3) == 3 ? 4 : 2, &t2);
		if (ok && q == p - 4) {
			*hash = (uint32_t)t2;
			return true;
		}
	}
	return false;
}

/* The hash of the check whose trap is at LOC; false if none is there. */
static bool check_hash(struct image *img, struct location loc, uint32_t *hash)
{
	uint64_t size;
	const uint8_t *code = section_bytes(img, loc.sec, &size);

	if (!code || loc.off >= size)
		return false;
	if (img->eh.e_machine == EM_X86_64)
		return size - loc.off >= 2 && code[loc.off] == 0x0f && code[loc.off + 1] == 0x0b &&
		       x86_64_check_hash(code + loc.off, loc.off, hash);
	return img->eh.e_machine == EM_RISCV &&
	       riscv64_check_hash(code + loc.off, loc.off, hash);
}

/* Where entry I of traps section RS points: in an object, its relocation
 * (against the section the entry is linked to, or a symbol in it) says;
 * in a linked file, the word plus the entry's own address. */
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
		size_t text = s->sh.sh_link;

		if (!r || !(s->sh.sh_flags & SHF_LINK_ORDER) || !text || text >= img->nsecs)
			scan_fail(img, "%s+0x%llx: no relocation to a linked section", s->name,
				  (unsigned long long)at);
		return (struct location){ text, r->sym_value + (uint64_t)r->addend };
	}
	addr = s->sh.sh_addr + at + (uint64_t)(int64_t)(int32_t)load_le(bytes + at, 4);
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

void list_traps(struct image *img, bool name_file, FILE *out)
{
	size_t *rs, nrs = record_sections(img, TRAPS_SECTION, &rs);

	if (img->eh.e_machine == EM_AARCH64) {
		fprintf(stderr, "pfe-scan: %s: no %s on this target: its kCFI checks trap "
			"with brk #0x8220+n (aarch64), found by the kernel from the ESR\n",
			img->path, TRAPS_SECTION);
		return;
	}
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
