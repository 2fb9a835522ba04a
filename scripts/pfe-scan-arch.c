/* pfe-scan-arch.c: the instructions pfe-scan must recognise on each target:
 * NOPs (what fills a patch area), landing pads (what comes before the post
 * NOPs), calls (what `collect --symbol` looks for, kind "call" and the
 * fentry call after the NOPs), the register pushes x86 puts around an
 * entry call, and the NOP form of that call.
 *
 * This is not a disassembler: each decoder answers "is this exactly that
 * instruction" for a few encodings.  To debug one, compare with
 * `objdump -d --show-raw-insn` at the address pfe-scan list reports.
 * Adding a target = adding one struct arch and its decoders here.
 */
#include "pfe-scan.h"

#include <elf.h>
#include <string.h>

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
	*out = (struct call){ .reloc_off = prefix + 1 };
	out->target = pc + prefix + 5 + (uint64_t)sign_extend(load_le(p + prefix + 1, 4), 32);
	return prefix + 5;
}

/* x86_64 also calls through memory or a register where the target is not
 * a rel32 away: `call *SYM@GOTPCREL(%rip)` (ff 15 disp32: the fentry call
 * under -fpic on GCC <= 13, unless ld relaxed it) and -mcmodel=large's
 * `movabsq $SYM, %r10; call *%r10` (49 ba imm64 41 ff d2). */
static size_t x86_64_call(const uint8_t *p, size_t avail, uint64_t pc, struct call *out)
{
	static const uint8_t call_r10[] = { 0x41, 0xff, 0xd2 };

	if (avail >= 6 && p[0] == 0xff && p[1] == 0x15) {
		*out = (struct call){ .reloc_off = 2, .via_slot = true };
		out->slot = pc + 6 + (uint64_t)sign_extend(load_le(p + 2, 4), 32);
		return 6;
	}
	if (avail >= 13 && p[0] == 0x49 && p[1] == 0xba && !memcmp(p + 10, call_r10, 3)) {
		*out = (struct call){ .reloc_off = 2, .target = load_le(p + 2, 8) };
		return 13;
	}
	return x86_call(p, avail, pc, out);
}

/* push %reg (50+r); on x86_64 also push %r8..%r15 (41 50+r): what -pg and
 * fentry save around the entry call (the static chain, ecx or r10). */
static size_t x86_push(const uint8_t *p, size_t avail)
{
	return avail >= 1 && (p[0] & 0xf8) == 0x50 ? 1 : 0;
}

static size_t x86_64_push(const uint8_t *p, size_t avail)
{
	if (avail >= 2 && p[0] == 0x41 && (p[1] & 0xf8) == 0x50)
		return 2;
	return x86_push(p, avail);
}

/* An x86_64 PLT entry, `[endbr64] [bnd] jmp *disp32(%rip)` (.plt, .plt.sec,
 * .plt.got): the GOT entry it jumps through. */
static bool x86_64_plt_slot(const uint8_t *p, size_t avail, uint64_t pc, uint64_t *slot)
{
	const char *name;
	size_t i = x86_landing_pad(p, avail, &name);

	i += i < avail && p[i] == 0xf2;
	if (avail < i + 6 || p[i] != 0xff || p[i + 1] != 0x25)
		return false;
	*slot = pc + i + 6 + (uint64_t)sign_extend(load_le(p + i + 2, 4), 32);
	return true;
}

/* -mnop-mcount's and fentry-nop's 5-byte NOP, `nopl 0x0(%rax,%rax,1)`. */
static const uint8_t x86_nop_call[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

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

static size_t aarch64_bl(const uint8_t *p, size_t avail, uint64_t pc, struct call *out)
{
	uint32_t w;

	if (avail < 4 || ((w = le32(p)) & 0xfc000000) != 0x94000000)	/* BL */
		return 0;
	*out = (struct call){ .reloc_off = 0 };
	out->target = pc + (uint64_t)(sign_extend(w & 0x3ffffff, 26) * 4);
	return 4;
}

/* `mov x9, x30; bl SYM` (the arm64 kernel's ftrace call, fentry's) is one
 * call site starting at the mov: that is where its record points. */
static size_t aarch64_call(const uint8_t *p, size_t avail, uint64_t pc, struct call *out)
{
	if (avail >= 8 && le32(p) == 0xaa1e03e9 && aarch64_bl(p + 4, avail - 4, pc + 4, out)) {
		out->reloc_off = 4;
		return 8;
	}
	return aarch64_bl(p, avail, pc, out);
}

/* An aarch64 PLT entry, `[bti c] adrp x16, PAGE; ldr x17, [x16, #OFF]; ...`:
 * the GOT entry PAGE + OFF it jumps through. */
static bool aarch64_plt_slot(const uint8_t *p, size_t avail, uint64_t pc, uint64_t *slot)
{
	const char *name;
	size_t i = aarch64_landing_pad(p, avail, &name);
	uint32_t adrp, ldr;
	uint64_t page;

	if (avail < i + 8)
		return false;
	adrp = le32(p + i);
	ldr = le32(p + i + 4);
	if ((adrp & 0x9f00001f) != 0x90000010 || (ldr & 0xffc003ff) != 0xf9400211)
		return false;
	page = ((pc + i) & ~0xfffull) +
	       (uint64_t)(sign_extend((adrp >> 5 & 0x7ffff) << 2 | (adrp >> 29 & 3), 21) * 4096);
	*slot = page + ((ldr >> 10) & 0xfff) * 8;
	return true;
}

/* fentry-nop on aarch64: two NOPs in place of the mov and the bl. */
static const uint8_t aarch64_nop_call[] = { 0x1f, 0x20, 0x03, 0xd5, 0x1f, 0x20, 0x03, 0xd5 };

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
	*out = (struct call){ .reloc_off = 0 };
	out->target = pc + (uint64_t)sign_extend(imm, 21);
	return 4;
}

/* auipc rX, hi; jalr rd, lo(rX) with rd != x0: `call` as assembled (fentry's
 * `call t0, SYM` comes out as auipc t1; jalr t0, lo(t1)). */
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
	*out = (struct call){ .reloc_off = 0 };
	out->target = pc + (uint64_t)sign_extend(hi & 0xfffff000, 32) +
		      (uint64_t)sign_extend(lo >> 20, 12);
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

/* A riscv PLT entry, `auipc t3, hi; ld t3, lo(t3); jalr t1, t3; nop`: the
 * GOT entry pc + hi + lo it jumps through. */
static bool riscv_plt_slot(const uint8_t *p, size_t avail, uint64_t pc, uint64_t *slot)
{
	uint32_t hi, lo;

	if (avail < 8)
		return false;
	hi = le32(p);
	lo = le32(p + 4);
	if ((hi & 0xfff) != 0xe17 || (lo & 0xfffff) != 0xe3e03)	/* auipc t3; ld t3, (t3) */
		return false;
	*slot = pc + (uint64_t)sign_extend(hi & 0xfffff000, 32) + (uint64_t)sign_extend(lo >> 20, 12);
	return true;
}

/* fentry-nop on riscv: two 4-byte NOPs, even under RVC (each half of the
 * auipc/jalr pair is patched on its own). */
static const uint8_t riscv_nop_call[] = { 0x13, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00 };

#define NOP_CALL(bytes, units) bytes, sizeof bytes, units

/* The last fields: kCFI (Clang has none on i386), and what holds the hash:
 * x86_64's `movl $HASH, %eax` (b8), else a `.word`. */

static const struct arch arches[] = {
	{ EM_X86_64, ELFCLASS64, 1, R_X86_64_64, R_X86_64_RELATIVE,
	  x86_nop, x86_landing_pad, x86_64_call, x86_64_push, x86_64_plt_slot,
	  NOP_CALL(x86_nop_call, 5), 0, true, 0xb8, 1 },
	{ EM_386, ELFCLASS32, 1, R_386_32, R_386_RELATIVE,
	  x86_nop, x86_landing_pad, x86_call, x86_push, NULL,
	  NOP_CALL(x86_nop_call, 5), 0, false, 0, 0 },
	{ EM_AARCH64, ELFCLASS64, 4, R_AARCH64_ABS64, R_AARCH64_RELATIVE,
	  aarch64_nop, aarch64_landing_pad, aarch64_call, NULL, aarch64_plt_slot,
	  NOP_CALL(aarch64_nop_call, 2), 0, true, 0, 0 },
	{ EM_RISCV, ELFCLASS64, 2, R_RISCV_64, R_RISCV_RELATIVE,
	  riscv_nop, riscv_landing_pad, riscv_call, NULL, riscv_plt_slot,
	  NOP_CALL(riscv_nop_call, 2), R_RISCV_ALIGN, true, 0, 0 },
};

const struct arch *arch_find(unsigned machine, unsigned elfclass)
{
	for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++)
		if (arches[i].machine == machine && arches[i].elfclass == elfclass)
			return &arches[i];
	return NULL;
}
