/* pfe-scan-arch.c: the instructions pfe-scan must recognise on each target:
 * NOPs (what fills a patch area), landing pads (what comes before the post
 * NOPs), and calls (what `collect --symbol` looks for, and kind "call").
 *
 * This is not a disassembler: each decoder answers "is this exactly that
 * instruction" for a few encodings.  To debug one, compare with
 * `objdump -d --show-raw-insn` at the address pfe-scan list reports.
 * Adding a target = adding one struct arch and its three decoders here.
 */
#include "pfe-scan.h"

#include <elf.h>

#define X86_MAX_INSN 15

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)load_le(p, 4);
}

static int64_t sign_extend(uint64_t v, unsigned bits)
{
	uint64_t sign = 1ull << (bits - 1);

	return (int64_t)((v & ((sign << 1) - 1)) ^ sign) - (int64_t)sign;
}

/* Bytes a ModRM operand takes (ModRM itself, SIB, displacement). */
static size_t x86_modrm_len(const uint8_t *p, size_t avail)
{
	unsigned mod = p[0] >> 6, rm = p[0] & 7;
	size_t len = 1;

	if (mod != 3 && rm == 4) {
		if (avail < 2)
			return 0;
		len++;
		if (mod == 0 && (p[1] & 7) == 5)
			len += 4;
	}
	if (mod == 0 && rm == 5)
		len += 4;
	len += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	return len <= avail ? len : 0;
}

/* x86 NOPs: 90, 66 90, and the 0f 1f /0 forms (with 66 and 2e prefixes)
 * the assembler uses for padding.  A NOP counts as its length in bytes,
 * as GCC's x86 patch NOP is one byte. */
static size_t x86_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	size_t i = 0, len = 0;
	bool only_66 = true;

	if (avail > X86_MAX_INSN)
		avail = X86_MAX_INSN;
	for (; i < avail && (p[i] == 0x66 || p[i] == 0x2e); i++)
		only_66 = only_66 && p[i] == 0x66;
	if (i < avail && p[i] == 0x90 && only_66 && i <= 1)
		len = i + 1;
	else if (i + 2 < avail && p[i] == 0x0f && p[i + 1] == 0x1f && ((p[i + 2] >> 3) & 7) == 0) {
		size_t modrm = x86_modrm_len(p + i + 2, avail - i - 2);

		len = modrm ? i + 2 + modrm : 0;
	}
	*units = (unsigned)len;
	return len;
}

static size_t x86_landing_pad(const uint8_t *p, size_t avail, const char **name)
{
	if (avail < 4 || p[0] != 0xf3 || p[1] != 0x0f || p[2] != 0x1e)
		return 0;
	if (p[3] == 0xfa)
		*name = "endbr64";
	else if (p[3] == 0xfb)
		*name = "endbr32";
	else
		return 0;
	return 4;
}

/* e8 rel32: the only x86 call that names its target directly; ld turns
 * `call *sym@GOTPCREL(%rip)` (-fpic -mfentry) into `addr32 call sym`. */
static size_t x86_call(const uint8_t *p, size_t avail, uint64_t pc, struct call *out)
{
	size_t prefix = avail > 0 && p[0] == 0x67;

	if (avail < prefix + 5 || p[prefix] != 0xe8)
		return 0;
	out->target = pc + prefix + 5 + (uint64_t)sign_extend(load_le(p + prefix + 1, 4), 32);
	out->reloc_off = prefix + 1;
	return prefix + 5;
}

static size_t aarch64_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	*units = 1;
	return avail >= 4 && le32(p) == 0xd503201f ? 4 : 0;
}

/* Only `bti c`: GCC puts the NOPs before PACIASP, so that is no pad. */
static size_t aarch64_landing_pad(const uint8_t *p, size_t avail, const char **name)
{
	*name = "bti";
	return avail >= 4 && le32(p) == 0xd503245f ? 4 : 0;
}

static size_t aarch64_call(const uint8_t *p, size_t avail, uint64_t pc, struct call *out)
{
	uint32_t w;

	if (avail < 4 || ((w = le32(p)) & 0xfc000000) != 0x94000000)	/* BL */
		return 0;
	out->target = pc + (uint64_t)(sign_extend(w & 0x3ffffff, 26) * 4);
	out->reloc_off = 0;
	return 4;
}

/* riscv: `nop` (addi x0, x0, 0) and, under RVC, `c.nop`: one unit each,
 * as GCC's M and N count `nop` instructions whatever their size. */
static size_t riscv_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	*units = 1;
	if (avail >= 2 && load_le(p, 2) == 0x0001)
		return 2;
	return avail >= 4 && le32(p) == 0x00000013 ? 4 : 0;
}

static size_t riscv_landing_pad(const uint8_t *p, size_t avail, const char **name)
{
	(void)p, (void)avail;
	*name = "";
	return 0;
}

static unsigned riscv_rd(uint32_t w)
{
	return (w >> 7) & 31;
}

/* jal rd, target with rd != x0 (x0 would be a jump, not a call). */
static size_t riscv_jal(uint32_t w, uint64_t pc, struct call *out)
{
	uint64_t imm = ((w >> 31) & 1) << 20 | ((w >> 21) & 0x3ff) << 1 |
		       ((w >> 20) & 1) << 11 | ((w >> 12) & 0xff) << 12;

	if ((w & 0x7f) != 0x6f || riscv_rd(w) == 0)
		return 0;
	out->target = pc + (uint64_t)sign_extend(imm, 21);
	out->reloc_off = 0;
	return 4;
}

/* auipc rX, hi; jalr rd, lo(rX) with rd != x0: `call` as assembled. */
static size_t riscv_auipc_jalr(const uint8_t *p, size_t avail, uint64_t pc, struct call *out)
{
	uint32_t hi, lo;

	if (avail < 8)
		return 0;
	hi = le32(p);
	lo = le32(p + 4);
	if ((hi & 0x7f) != 0x17 || (lo & 0x707f) != 0x67 || riscv_rd(lo) == 0 ||
	    ((lo >> 15) & 31) != riscv_rd(hi))
		return 0;
	out->target = pc + (uint64_t)sign_extend(hi & 0xfffff000, 32) +
		      (uint64_t)sign_extend(lo >> 20, 12);
	out->reloc_off = 0;
	return 8;
}

static size_t riscv_call(const uint8_t *p, size_t avail, uint64_t pc, struct call *out)
{
	if (avail < 4)
		return 0;
	if (riscv_jal(le32(p), pc, out))
		return 4;
	return riscv_auipc_jalr(p, avail, pc, out);
}

static const struct arch arches[] = {
	{ EM_X86_64, ELFCLASS64, 1, R_X86_64_64, R_X86_64_RELATIVE,
	  x86_nop, x86_landing_pad, x86_call },
	{ EM_386, ELFCLASS32, 1, R_386_32, R_386_RELATIVE,
	  x86_nop, x86_landing_pad, x86_call },
	{ EM_AARCH64, ELFCLASS64, 4, R_AARCH64_ABS64, R_AARCH64_RELATIVE,
	  aarch64_nop, aarch64_landing_pad, aarch64_call },
	{ EM_RISCV, ELFCLASS64, 2, R_RISCV_64, R_RISCV_RELATIVE,
	  riscv_nop, riscv_landing_pad, riscv_call },
};

const struct arch *arch_find(unsigned machine, unsigned elfclass)
{
	for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++)
		if (arches[i].machine == machine && arches[i].elfclass == elfclass)
			return &arches[i];
	return NULL;
}
