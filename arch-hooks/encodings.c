/* arch-hooks/encodings.c: the bytes of each target (see encodings.h): one
 * table per target, its decoders (is this exactly that instruction) and
 * the encoders of the run-time library's patch sequences and veneers.
 *
 * Symbolic entries (the fentry call, the veneer) are given for SYM at
 * address 0 and the sequence at address 0: what the target's assembler
 * and linker give for "SYM: <spelling>" linked at 0, which is how
 * testsuite/pfe.runtime checks them.
 *
 * Not a disassembler: each decoder recognises a few encodings exactly.
 * Debugging: enc-check (testsuite/pfe.runtime/enc-check.c) prints the
 * tables and decodes bytes given in hex.
 */
#include "encodings.h"

#include <string.h>

/* ELF relocation types of the records (<elf.h>'s R_*). */
enum {
	R_X86_64_64_ = 1, R_X86_64_RELATIVE_ = 8,
	R_386_32_ = 1, R_386_RELATIVE_ = 8,
	R_AARCH64_ABS64_ = 257, R_AARCH64_RELATIVE_ = 1027,
	R_RISCV_64_ = 2, R_RISCV_RELATIVE_ = 3,
};

uint64_t pfe_enc_load(const uint8_t *p, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = size; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

void pfe_enc_store(uint8_t *p, unsigned size, uint64_t v)
{
	for (unsigned i = 0; i < size; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)pfe_enc_load(p, 4);
}

static int64_t sign_extend(uint64_t v, unsigned bits)
{
	uint64_t sign = 1ull << (bits - 1);

	return (int64_t)((v & ((sign << 1) - 1)) ^ sign) - (int64_t)sign;
}

/* Whether P starts with the LEN bytes of I. */
static bool insn_matches(const struct pfe_enc_insn *i, const uint8_t *p, size_t avail)
{
	return i->len <= avail && memcmp(i->bytes, p, i->len) == 0;
}

/* ---- x86 ---- */

/* The NOP pfe pads x86 entries with, the padding forms gas uses
 * (`.nops N`, `.p2align` in code: 0f 1f /0 with 66 and 2e prefixes on
 * x86_64; lea forms with --32), and the fentry call's NOP form. */
static const struct pfe_enc_insn x86_64_nops[] = {
	{ "nop", 1, { 0x90 }, "nop", "" },
	{ "nop2", 2, { 0x66, 0x90 }, ".nops 2", "" },
	{ "nop3", 3, { 0x0f, 0x1f, 0x00 }, ".nops 3", "" },
	{ "nop4", 4, { 0x0f, 0x1f, 0x40, 0x00 }, ".nops 4", "" },
	{ "nop5", 5, { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, ".nops 5", "" },
	{ "nop6", 6, { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 }, ".nops 6", "" },
	{ "nop7", 7, { 0x0f, 0x1f, 0x80, 0, 0, 0, 0 }, ".nops 7", "" },
	{ "nop8", 8, { 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 }, ".nops 8", "" },
	{ "nop9", 9, { 0x66, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 }, ".nops 9", "" },
	{ "nop10", 10, { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 }, ".nops 10", "" },
	{ "nop11", 11, { 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 }, ".nops 11", "" },
};

static const struct pfe_enc_insn i386_nops[] = {
	{ "nop", 1, { 0x90 }, "nop", "" },
	{ "nop2", 2, { 0x66, 0x90 }, ".nops 2", "" },
	{ "lea3", 3, { 0x8d, 0x76, 0x00 }, ".nops 3", "" },
	{ "lea4", 4, { 0x8d, 0x74, 0x26, 0x00 }, ".nops 4", "" },
	{ "lea6", 6, { 0x8d, 0xb6, 0, 0, 0, 0 }, ".nops 6", "" },
	{ "lea7", 7, { 0x8d, 0xb4, 0x26, 0, 0, 0, 0 }, ".nops 7", "" },
	{ "nop5", 5, { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, ".byte\t0x0f, 0x1f, 0x44, 0x00, 0x00", "" },
};

static const struct pfe_enc_insn x86_pads[] = {
	{ "endbr64", 4, { 0xf3, 0x0f, 0x1e, 0xfa }, "endbr64", "" },
	{ "endbr32", 4, { 0xf3, 0x0f, 0x1e, 0xfb }, "endbr32", "" },
};

/* arch-hooks/i386.c: "call SYM" (PIC: through the GOT or the PLT), the
 * NOP form as .byte, the ops slot. */
static const struct pfe_enc_insn x86_fentry_call = {
	"fentry-call", 5, { 0xe8, 0xfb, 0xff, 0xff, 0xff }, "call\tSYM", ""
};
static const struct pfe_enc_insn x86_fentry_nop = {
	"fentry-nop", 5, { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	".byte\t0x0f, 0x1f, 0x44, 0x00, 0x00", ""
};
static const struct pfe_enc_insn x86_64_ops_slot = {
	"ops-slot", 8, { 0 }, ".quad\t0", ""
};
static const struct pfe_enc_insn i386_ops_slot = {
	"ops-slot", 8, { 0 }, ".long\t0, 0", ""
};

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

/* 90 and 66 90, and 0f 1f /0 with any 66 and 2e prefixes: every x86 NOP
 * the assembler pads with on x86_64.  It counts as its length in bytes,
 * as GCC's x86 patch NOP is one byte. */
static size_t x86_generic_nop(const uint8_t *p, size_t avail)
{
	size_t i = 0;
	bool only_66 = true;

	if (avail > PFE_ENC_MAX_INSN)
		avail = PFE_ENC_MAX_INSN;
	for (; i < avail && (p[i] == 0x66 || p[i] == 0x2e); i++)
		only_66 = only_66 && p[i] == 0x66;
	if (i < avail && p[i] == 0x90 && only_66 && i <= 1)
		return i + 1;
	if (i + 2 < avail && p[i] == 0x0f && p[i + 1] == 0x1f && ((p[i + 2] >> 3) & 7) == 0) {
		size_t modrm = x86_modrm_len(p + i + 2, avail - i - 2);

		return modrm ? i + 2 + modrm : 0;
	}
	return 0;
}

static size_t x86_64_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	size_t len = x86_generic_nop(p, avail);

	*units = (unsigned)len;
	return len;
}

/* i386 adds gas's lea forms (lea 0(%esi),%esi...), NOPs only there. */
static size_t i386_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	size_t len = x86_generic_nop(p, avail);

	for (size_t i = 0; !len && i < sizeof i386_nops / sizeof i386_nops[0]; i++)
		if (insn_matches(&i386_nops[i], p, avail))
			len = i386_nops[i].len;
	*units = (unsigned)len;
	return len;
}

static size_t x86_landing_pad(const uint8_t *p, size_t avail, const char **name)
{
	for (size_t i = 0; i < sizeof x86_pads / sizeof x86_pads[0]; i++) {
		if (insn_matches(&x86_pads[i], p, avail)) {
			*name = x86_pads[i].name;
			return x86_pads[i].len;
		}
	}
	return 0;
}

/* e8 rel32; 67 e8 rel32 (what ld makes of `call *sym@GOTPCREL(%rip)` when
 * sym is local); ff 15 disp32 (`call *sym@GOTPCREL(%rip)`, i386: an
 * absolute pointer); -mcmodel=large's movabsq $sym, %r10; call *%r10. */
static size_t x86_call_common(const uint8_t *p, size_t avail, uint64_t pc,
			      struct pfe_enc_call *out, bool is64)
{
	size_t prefix = avail > 0 && p[0] == 0x67;

	if (avail >= prefix + 5 && p[prefix] == 0xe8) {
		out->kind = PFE_CALL_DIRECT;
		out->target = pc + prefix + 5 + (uint64_t)sign_extend(pfe_enc_load(p + prefix + 1, 4), 32);
		if (!is64)
			out->target = (uint32_t)out->target;
		out->reloc_off = prefix + 1;
		return prefix + 5;
	}
	if (!prefix && avail >= 6 && p[0] == 0xff && p[1] == 0x15) {
		uint64_t disp = (uint64_t)sign_extend(pfe_enc_load(p + 2, 4), 32);

		out->kind = PFE_CALL_INDIRECT_MEM;
		out->target = is64 ? pc + 6 + disp : (uint32_t)disp;
		out->reloc_off = 2;
		return 6;
	}
	if (is64 && avail >= 13 && p[0] == 0x49 && p[1] == 0xba &&
	    p[10] == 0x41 && p[11] == 0xff && p[12] == 0xd2) {
		out->kind = PFE_CALL_DIRECT;
		out->target = pfe_enc_load(p + 2, 8);
		out->reloc_off = 2;
		return 13;
	}
	return 0;
}

static size_t x86_64_call(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out)
{
	return x86_call_common(p, avail, pc, out, true);
}

static size_t i386_call(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out)
{
	return x86_call_common(p, avail, pc, out, false);
}

/* The int3 protocol rewrites one x86 instruction: a NOP of 5 or 6 bytes
 * (disabled) or a call of the same length (enabled: e8 rel32, 67 e8
 * rel32), so that no thread can ever be inside it. */
static void x86_put_rel32(uint8_t *buf, uint64_t pc, uint64_t target, size_t len)
{
	buf[len - 5] = 0xe8;
	pfe_enc_store(buf + len - 4, 4, target - (pc + len));
}

static void x86_put_patch5(uint8_t *buf, uint64_t pc, uint64_t target, bool enabled)
{
	if (enabled)
		x86_put_rel32(buf, pc, target, 5);
	else
		memcpy(buf, x86_64_nops[4].bytes, 5);
}

static void x86_put_patch6(uint8_t *buf, uint64_t pc, uint64_t target, bool enabled)
{
	if (enabled) {
		buf[0] = 0x67;
		x86_put_rel32(buf, pc, target, 6);
	} else {
		memcpy(buf, x86_64_nops[5].bytes, 6);
	}
}

static const struct pfe_enc_patch x86_64_patches[] = {
	{ 5, 0, 5, 5, 1, 1ull << 31, x86_put_patch5 },
	{ 6, 0, 6, 6, 1, 1ull << 31, x86_put_patch6 },
};

/* i386: rel32 wraps around the 4 GB address space: every target is in
 * reach (0: no limit). */
static const struct pfe_enc_patch i386_patches[] = {
	{ 5, 0, 5, 5, 1, 0, x86_put_patch5 },
};

/* jmp *0(%rip); .quad target */
static const struct pfe_enc_insn x86_64_veneer = {
	"veneer", 14, { 0xff, 0x25, 0, 0, 0, 0 }, "jmp\t*0(%rip)\n.quad\tSYM", ""
};

static void x86_64_put_veneer(uint8_t *buf, uint64_t at, uint64_t target)
{
	(void)at;
	memcpy(buf, x86_64_veneer.bytes, 6);
	pfe_enc_store(buf + 6, 8, target);
}

/* jmp rel32: anywhere on i386 (spelt as bytes: gas would relax a jmp to
 * a near label to jmp rel8). */
static const struct pfe_enc_insn i386_veneer = {
	"veneer", 5, { 0xe9, 0xfb, 0xff, 0xff, 0xff }, ".byte\t0xe9\n.long\tSYM - . - 4", ""
};

static void i386_put_veneer(uint8_t *buf, uint64_t at, uint64_t target)
{
	buf[0] = 0xe9;
	pfe_enc_store(buf + 1, 4, target - (at + 5));
}

/* ---- aarch64 ---- */

#define A64_NOP 0xd503201fu
#define A64_BTI_C 0xd503245fu
#define A64_MOV_X9_X30 0xaa1e03e9u
#define A64_BL 0x94000000u
#define A64_LDR_X16_PC8 0x58000050u	/* ldr x16, .+8 */
#define A64_BR_X16 0xd61f0200u

#define W32(w) { (uint8_t)(w), (uint8_t)((w) >> 8), (uint8_t)((w) >> 16), (uint8_t)((w) >> 24) }
#define W32X2(a, b) { (uint8_t)(a), (uint8_t)((a) >> 8), (uint8_t)((a) >> 16), (uint8_t)((a) >> 24), \
		      (uint8_t)(b), (uint8_t)((b) >> 8), (uint8_t)((b) >> 16), (uint8_t)((b) >> 24) }

static const struct pfe_enc_insn aarch64_nops[] = {
	{ "nop", 4, W32(A64_NOP), "nop", "" },
};

/* GCC prints BTI C as "hint 34 // bti c" (any assembler takes hint 34). */
static const struct pfe_enc_insn aarch64_pads[] = {
	{ "bti c", 4, W32(A64_BTI_C), "hint\t34 // bti c", "" },
};

/* The arm64 kernel's sequence: x9 keeps the caller's return address. */
static const struct pfe_enc_insn aarch64_fentry_call = {
	"fentry-call", 8, W32X2(A64_MOV_X9_X30, A64_BL | 0x3ffffffu), "mov\tx9, x30\nbl\tSYM", ""
};
static const struct pfe_enc_insn aarch64_fentry_nop = {
	"fentry-nop", 8, W32X2(A64_NOP, A64_NOP), "nop\nnop", ""
};
static const struct pfe_enc_insn a64_rv_ops_slot = {
	"ops-slot", 8, { 0 }, ".8byte\t0", ""
};

static size_t aarch64_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	*units = 1;
	return avail >= 4 && le32(p) == A64_NOP ? 4 : 0;
}

/* Only BTI C: GCC puts the NOPs before PACIASP, so that is no pad. */
static size_t aarch64_landing_pad(const uint8_t *p, size_t avail, const char **name)
{
	*name = "bti c";
	return avail >= 4 && le32(p) == A64_BTI_C ? 4 : 0;
}

static size_t aarch64_call(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out)
{
	uint32_t w;

	if (avail < 4 || ((w = le32(p)) & 0xfc000000u) != A64_BL)
		return 0;
	out->kind = PFE_CALL_DIRECT;
	out->target = pc + (uint64_t)(sign_extend(w & 0x3ffffff, 26) * 4);
	out->reloc_off = 0;
	return 4;
}

static uint32_t a64_bl(uint64_t pc, uint64_t target)
{
	return A64_BL | (uint32_t)(((target - pc) >> 2) & 0x3ffffff);
}

/* mov x9, x30 stays (written once, when nothing runs the entry: it is
 * not an instruction the ARM ARM lets be modified while executed); the
 * second word is NOP or BL, both of which may be (B2.2.5). */
static void aarch64_put_patch(uint8_t *buf, uint64_t pc, uint64_t target, bool enabled)
{
	pfe_enc_store(buf, 4, A64_MOV_X9_X30);
	pfe_enc_store(buf + 4, 4, enabled ? a64_bl(pc + 4, target) : A64_NOP);
}

static const struct pfe_enc_patch aarch64_patches[] = {
	{ 8, 4, 4, 8, 4, 1ull << 27, aarch64_put_patch },
};

/* ldr x16, 1f; br x16; 1: .8byte SYM (x16: IP0, what linker veneers use). */
static const struct pfe_enc_insn aarch64_veneer = {
	"veneer", 16, W32X2(A64_LDR_X16_PC8, A64_BR_X16),
	"ldr\tx16, 1f\nbr\tx16\n1:\n.8byte\tSYM", ""
};

static void aarch64_put_veneer(uint8_t *buf, uint64_t at, uint64_t target)
{
	(void)at;
	memcpy(buf, aarch64_veneer.bytes, 8);
	pfe_enc_store(buf + 8, 8, target);
}

/* ---- riscv64 ---- */

#define RV_NOP 0x00000013u	/* addi x0, x0, 0 */
#define RV_C_NOP 0x0001u
#define RV_AUIPC_T0 0x00000297u	/* auipc t0, 0 */
#define RV_JALR_T0_T0 0x000282e7u	/* jalr t0, 0(t0) */
#define RV_AUIPC_T1 0x00000317u	/* auipc t1, 0 */
#define RV_LD_T1_16_T1 0x01033303u	/* ld t1, 16(t1) */
#define RV_JR_T1 0x00030067u	/* jalr x0, 0(t1) */

static const struct pfe_enc_insn riscv_nops[] = {
	{ "nop", 4, W32(RV_NOP), "nop", ".option norvc" },
	{ "c.nop", 2, { 0x01, 0x00 }, "nop", ".option rvc" },
};

/* arch-hooks/riscv.c spells it with t0 alone (gas makes "call t0, SYM"
 * auipc t1; jalr t0, t1), norelax keeping the 8 bytes. */
static const struct pfe_enc_insn riscv_fentry_call = {
	"fentry-call", 8, W32X2(RV_AUIPC_T0, RV_JALR_T0_T0),
	".reloc\tSYM, R_RISCV_CALL_PLT, SYM\nauipc\tt0, 0\njalr\tt0, 0(t0)", ".option norelax"
};
static const struct pfe_enc_insn riscv_fentry_nop = {
	"fentry-nop", 8, W32X2(RV_NOP, RV_NOP), "nop\nnop", ".option norvc"
};

/* One unit each: GCC's M and N count `nop` instructions whatever their size. */
static size_t riscv_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	*units = 1;
	if (avail >= 2 && pfe_enc_load(p, 2) == RV_C_NOP)
		return 2;
	return avail >= 4 && le32(p) == RV_NOP ? 4 : 0;
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
static size_t riscv_jal(uint32_t w, uint64_t pc, struct pfe_enc_call *out)
{
	uint64_t imm = ((w >> 31) & 1) << 20 | ((w >> 21) & 0x3ff) << 1 |
		       ((w >> 20) & 1) << 11 | ((w >> 12) & 0xff) << 12;

	if ((w & 0x7f) != 0x6f || riscv_rd(w) == 0)
		return 0;
	out->kind = PFE_CALL_DIRECT;
	out->target = pc + (uint64_t)sign_extend(imm, 21);
	out->reloc_off = 0;
	return 4;
}

/* auipc rX, hi; jalr rd, lo(rX) with rd != x0: `call` as assembled. */
static size_t riscv_auipc_jalr(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out)
{
	uint32_t hi, lo;

	if (avail < 8)
		return 0;
	hi = le32(p);
	lo = le32(p + 4);
	if ((hi & 0x7f) != 0x17 || (lo & 0x707f) != 0x67 || riscv_rd(lo) == 0 ||
	    ((lo >> 15) & 31) != riscv_rd(hi))
		return 0;
	out->kind = PFE_CALL_DIRECT;
	out->target = pc + (uint64_t)sign_extend(hi & 0xfffff000u, 32) +
		      (uint64_t)sign_extend(lo >> 20, 12);
	out->reloc_off = 0;
	return 8;
}

static size_t riscv_call(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out)
{
	if (avail < 4)
		return 0;
	if (riscv_jal(le32(p), pc, out))
		return 4;
	return riscv_auipc_jalr(p, avail, pc, out);
}

/* auipc t0, hi stays (written once, when nothing runs the entry); the
 * second word is NOP or jalr t0, lo(t0): one aligned 4-byte store, which
 * a hart fetches whole (Ziccif, RVA20/22 profiles). */
static void riscv_put_patch(uint8_t *buf, uint64_t pc, uint64_t target, bool enabled)
{
	uint64_t off = target - pc;
	uint32_t lo = (uint32_t)off & 0xfff;
	uint32_t hi = (uint32_t)(off + 0x800) & 0xfffff000u;

	pfe_enc_store(buf, 4, RV_AUIPC_T0 | hi);
	pfe_enc_store(buf + 4, 4, enabled ? RV_JALR_T0_T0 | lo << 20 : RV_NOP);
}

static const struct pfe_enc_patch riscv_patches[] = {
	{ 8, 4, 4, 8, 4, (1ull << 31) - 4096, riscv_put_patch },
};

/* auipc t1, 0; ld t1, 16(t1); jr t1; nop; .8byte SYM (t1: a scratch
 * register of the patched call, arch-hooks/riscv.c). */
static const struct pfe_enc_insn riscv_veneer = {
	"veneer", 24,
	{ 0x17, 0x03, 0x00, 0x00, 0x03, 0x33, 0x03, 0x01, 0x67, 0x00, 0x03, 0x00,
	  0x13, 0x00, 0x00, 0x00 },
	"auipc\tt1, 0\nld\tt1, 16(t1)\njr\tt1\nnop\n.8byte\tSYM", ".option norvc"
};

static void riscv_put_veneer(uint8_t *buf, uint64_t at, uint64_t target)
{
	(void)at;
	pfe_enc_store(buf, 4, RV_AUIPC_T1);
	pfe_enc_store(buf + 4, 4, RV_LD_T1_16_T1);
	pfe_enc_store(buf + 8, 4, RV_JR_T1);
	pfe_enc_store(buf + 12, 4, RV_NOP);
	pfe_enc_store(buf + 16, 8, target);
}

/* ---- the tables ---- */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct pfe_arch arches[PFE_ARCH_COUNT] = {
	[PFE_ARCH_X86_64] = {
		PFE_ARCH_X86_64, "x86_64", "x86_64-linux-gnu", "--64",
		PFE_EM_X86_64, PFE_ELFCLASS64, 8, 1, R_X86_64_64_, R_X86_64_RELATIVE_,
		x86_64_nops, COUNT(x86_64_nops), x86_pads, COUNT(x86_pads),
		&x86_fentry_call, &x86_fentry_nop, &x86_64_ops_slot,
		x86_64_nop, x86_landing_pad, x86_64_call,
		x86_64_patches, COUNT(x86_64_patches),
		14, &x86_64_veneer, x86_64_put_veneer, 0xcc,
	},
	[PFE_ARCH_I386] = {
		PFE_ARCH_I386, "i386", "i686-linux-gnu", "--32",
		PFE_EM_386, PFE_ELFCLASS32, 4, 1, R_386_32_, R_386_RELATIVE_,
		i386_nops, COUNT(i386_nops), x86_pads, COUNT(x86_pads),
		&x86_fentry_call, &x86_fentry_nop, &i386_ops_slot,
		i386_nop, x86_landing_pad, i386_call,
		i386_patches, COUNT(i386_patches),
		5, &i386_veneer, i386_put_veneer, 0xcc,
	},
	[PFE_ARCH_AARCH64] = {
		PFE_ARCH_AARCH64, "aarch64", "aarch64-linux-gnu", "",
		PFE_EM_AARCH64, PFE_ELFCLASS64, 8, 4, R_AARCH64_ABS64_, R_AARCH64_RELATIVE_,
		aarch64_nops, COUNT(aarch64_nops), aarch64_pads, COUNT(aarch64_pads),
		&aarch64_fentry_call, &aarch64_fentry_nop, &a64_rv_ops_slot,
		aarch64_nop, aarch64_landing_pad, aarch64_call,
		aarch64_patches, COUNT(aarch64_patches),
		16, &aarch64_veneer, aarch64_put_veneer, 0,
	},
	[PFE_ARCH_RISCV64] = {
		PFE_ARCH_RISCV64, "riscv64", "riscv64-linux-gnu", "",
		PFE_EM_RISCV, PFE_ELFCLASS64, 8, 2, R_RISCV_64_, R_RISCV_RELATIVE_,
		riscv_nops, COUNT(riscv_nops), NULL, 0,
		&riscv_fentry_call, &riscv_fentry_nop, &a64_rv_ops_slot,
		riscv_nop, riscv_landing_pad, riscv_call,
		riscv_patches, COUNT(riscv_patches),
		24, &riscv_veneer, riscv_put_veneer, 0,
	},
};

const struct pfe_arch *pfe_arch_get(enum pfe_arch_id id)
{
	return (unsigned)id < PFE_ARCH_COUNT ? &arches[id] : NULL;
}

const struct pfe_arch *pfe_arch_by_machine(unsigned e_machine, unsigned elf_class)
{
	for (size_t i = 0; i < PFE_ARCH_COUNT; i++)
		if (arches[i].e_machine == e_machine && arches[i].elf_class == elf_class)
			return &arches[i];
	return NULL;
}

const struct pfe_arch *pfe_arch_by_name(const char *name)
{
	for (size_t i = 0; i < PFE_ARCH_COUNT; i++)
		if (strcmp(arches[i].name, name) == 0)
			return &arches[i];
	return NULL;
}

const struct pfe_arch *pfe_enc_this_arch(void)
{
#if defined(__x86_64__) && defined(__LP64__)
	return &arches[PFE_ARCH_X86_64];
#elif defined(__i386__)
	return &arches[PFE_ARCH_I386];
#elif defined(__aarch64__) && defined(__LP64__)
	return &arches[PFE_ARCH_AARCH64];
#elif defined(__riscv) && __riscv_xlen == 64
	return &arches[PFE_ARCH_RISCV64];
#else
	return NULL;
#endif
}

const struct pfe_enc_patch *pfe_enc_patch_of_len(const struct pfe_arch *a, size_t len)
{
	for (size_t i = 0; i < a->n_patches; i++)
		if (a->patches[i].len == len)
			return &a->patches[i];
	return NULL;
}

size_t pfe_enc_nop_run(const struct pfe_arch *a, const uint8_t *p, size_t avail)
{
	size_t total = 0, len;
	unsigned units;

	while (total < avail && (len = a->nop(p + total, avail - total, &units)) != 0)
		total += len;
	return total;
}
