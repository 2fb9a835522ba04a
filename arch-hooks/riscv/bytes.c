/* arch-hooks/riscv/bytes.c: the riscv64 table of the plain-C layer
 * (arch.h): NOP and c.nop, the fentry call (`auipc t0; jalr t0`, the riscv
 * kernel's) and its NOP form, the ops slot, their decoders, the patch
 * sequence and the veneer, PLT entries, R_RISCV_ALIGN.  No landing pad.
 * The plugin spells the same bytes in riscv/gcc.c.
 *
 * Symbolic entries are given for SYM and the sequence at address 0 (see
 * x86/bytes.c).  Not a disassembler: each decoder recognises a few
 * encodings exactly.
 * Debugging: `enc-check table riscv64` (testsuite/pfe.runtime/enc-check.c);
 * compare with `riscv64-linux-gnu-objdump -d`.
 */
#include "../arch.h"

/* ELF e_machine and relocation types (<elf.h>'s EM_*, R_*). */
enum {
	EM_RISCV_ = 243, R_RISCV_64_ = 2, R_RISCV_RELATIVE_ = 3, R_RISCV_ADD32_ = 35,
	R_RISCV_SUB32_ = 39, R_RISCV_ALIGN_ = 43, R_RISCV_32_PCREL_ = 57,
};

#define RV_NOP 0x00000013u	/* addi x0, x0, 0 */
#define RV_C_NOP 0x0001u
#define RV_AUIPC_T0 0x00000297u	/* auipc t0, 0 */
#define RV_JALR_T0_T0 0x000282e7u	/* jalr t0, 0(t0) */
#define RV_AUIPC_T1 0x00000317u	/* auipc t1, 0 */
#define RV_LD_T1_16_T1 0x01033303u	/* ld t1, 16(t1) */
#define RV_JR_T1 0x00030067u	/* jalr x0, 0(t1) */

static const struct pfe_enc_insn riscv_nops[] = {
	{ .name = "nop", .len = 4, .bytes = PFE_W32(RV_NOP), .spelling = "nop",
	  .prologue = ".option norvc" },
	{ .name = "c.nop", .len = 2, .bytes = { 0x01, 0x00 }, .spelling = "nop",
	  .prologue = ".option rvc" },
};

/* riscv/gcc.c spells it with t0 alone (gas makes "call t0, SYM"
 * auipc t1; jalr t0, t1), norelax keeping the 8 bytes. */
static const struct pfe_enc_insn riscv_fentry_call = {
	.name = "fentry-call", .len = 8, .bytes = PFE_W32X2(RV_AUIPC_T0, RV_JALR_T0_T0),
	.spelling = ".reloc\tSYM, R_RISCV_CALL_PLT, SYM\nauipc\tt0, 0\njalr\tt0, 0(t0)",
	.prologue = ".option norelax"
};
static const struct pfe_enc_insn riscv_fentry_nop = {
	.name = "fentry-nop", .len = 8, .bytes = PFE_W32X2(RV_NOP, RV_NOP), .spelling = "nop\nnop",
	.prologue = ".option norvc"
};
static const struct pfe_enc_insn riscv_ops_slot = {
	.name = "ops-slot", .len = 8, .bytes = { 0 }, .spelling = ".8byte\t0", .prologue = ""
};

/* One unit each: GCC's M and N count `nop` instructions whatever their size. */
static size_t riscv_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	*units = 1;
	if (avail >= 2 && pfe_enc_load(p, 2) == RV_C_NOP)
		return 2;
	return avail >= 4 && pfe_enc_le32(p) == RV_NOP ? 4 : 0;
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
	out->target = pc + (uint64_t)pfe_enc_sign_extend(imm, 21);
	out->reloc_off = 0;
	return 4;
}

/* pc + the offset of an auipc HI and the I-type LO after it. */
static uint64_t riscv_pcrel(uint64_t pc, uint32_t hi, uint32_t lo)
{
	return pc + (uint64_t)pfe_enc_sign_extend(hi & 0xfffff000u, 32) +
	       (uint64_t)pfe_enc_sign_extend(lo >> 20, 12);
}

/* auipc rX, hi; jalr rd, lo(rX) with rd != x0: `call` as assembled. */
static size_t riscv_auipc_jalr(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out)
{
	uint32_t hi, lo;

	if (avail < 8)
		return 0;
	hi = pfe_enc_le32(p);
	lo = pfe_enc_le32(p + 4);
	if ((hi & 0x7f) != 0x17 || (lo & 0x707f) != 0x67 || riscv_rd(lo) == 0 ||
	    ((lo >> 15) & 31) != riscv_rd(hi))
		return 0;
	out->kind = PFE_CALL_DIRECT;
	out->target = riscv_pcrel(pc, hi, lo);
	out->reloc_off = 0;
	return 8;
}

static size_t riscv_call(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out)
{
	if (avail < 4)
		return 0;
	if (riscv_jal(pfe_enc_le32(p), pc, out))
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
	hi = pfe_enc_le32(p);
	lo = pfe_enc_le32(p + 4);
	if ((hi & 0xfff) != 0xe17 || (lo & 0xfffff) != 0xe3e03)	/* auipc t3; ld t3, (t3) */
		return false;
	*slot = riscv_pcrel(pc, hi, lo);
	return true;
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

/* auipc t0 with any immediate, then NOP. */
static bool riscv_disabled_any(const uint8_t *buf)
{
	return (pfe_enc_load(buf, 4) & 0xfff) == RV_AUIPC_T0 && pfe_enc_load(buf + 4, 4) == RV_NOP;
}

static const struct pfe_enc_patch riscv_patches[] = {
	{ .len = 8, .toggle_off = 4, .toggle_len = 4, .ret_off = 8, .align = 4,
	  .reach = (1ull << 31) - 4096, .put = riscv_put_patch, .disabled_any = riscv_disabled_any },
};

/* auipc t1, 0; ld t1, 16(t1); jr t1; nop; .8byte SYM (t1: a scratch
 * register of the patched call, riscv/gcc.c). */
static const struct pfe_enc_insn riscv_veneer = {
	.name = "veneer", .len = 24,
	.bytes = { PFE_LE32_BYTES(RV_AUIPC_T1), PFE_LE32_BYTES(RV_LD_T1_16_T1),
		   PFE_LE32_BYTES(RV_JR_T1), PFE_LE32_BYTES(RV_NOP) },
	.spelling = "auipc\tt1, 0\nld\tt1, 16(t1)\njr\tt1\nnop\n.8byte\tSYM", .prologue = ".option norvc"
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

/* Sign-extended bits LO..HI of X. */
static int64_t riscv_bits(uint32_t x, unsigned lo, unsigned hi)
{
	return (int64_t)((uint64_t)x << (63 - hi)) >> (63 - hi + lo);
}

/* Apply the instruction at P (LEN: 2 or 4 bytes) to *T2 if it
 * writes t2 (x7) as `li` does; false if it is anything else. */
static bool riscv_li_step(const uint8_t *p, unsigned len, int64_t *t2)
{
	uint32_t i = (uint32_t)pfe_enc_load(p, len);

	if (len == 4 && (i & 0xfff) == (0x37 | 7 << 7)) {		/* lui t2 */
		*t2 = riscv_bits(i, 12, 31) << 12;
	} else if (len == 4 && (i & 0xfffff) == (0x1b | 7 << 7 | 7 << 15)) {
		*t2 = (int32_t)(*t2 + riscv_bits(i, 20, 31));		/* addiw t2, t2 */
	} else if (len == 4 && (i & 0xfffff) == (0x13 | 7 << 7 | 7 << 15)) {
		*t2 += riscv_bits(i, 20, 31);				/* addi t2, t2 */
	} else if (len == 4 && (i & 0xfffff) == (0x13 | 7 << 7)) {
		*t2 = riscv_bits(i, 20, 31);				/* addi t2, zero */
	} else if (len == 2 && (i & 0xef83) == 0x6381) {		/* c.lui t2 */
		*t2 = (riscv_bits(i, 12, 12) << 17) | ((i >> 2 & 0x1f) << 12);
	} else if (len == 2 && (i & 0xef83) == 0x2381) {		/* c.addiw t2 */
		*t2 = (int32_t)(*t2 + ((riscv_bits(i, 12, 12) << 5) | (i >> 2 & 0x1f)));
	} else if (len == 2 && (i & 0xef83) == 0x4381) {		/* c.li t2 */
		*t2 = (riscv_bits(i, 12, 12) << 5) | (i >> 2 & 0x1f);
	} else {
		return false;
	}
	return true;
}

/* kCFI: the hash the check ending at the trap at P (AFTER bytes from P
 * on, BEFORE bytes of code before it) expects: `lw t1, -D(reg); li t2,
 * HASH; beq t1, t2, 1f; ebreak` (or c.ebreak), the li as lui/addiw/addi,
 * compressed or not, as Clang and pfe emit it. */
static bool riscv_kcfi_trap_hash(const uint8_t *p, size_t after, size_t before, uint32_t *hash)
{
	uint32_t beq;

	/* ebreak or c.ebreak */
	if (!((after >= 4 && pfe_enc_le32(p) == 0x00100073) ||
	      (after >= 2 && pfe_enc_load(p, 2) == 0x9002)))
		return false;
	if (before < 12)
		return false;
	beq = pfe_enc_le32(p - 4);
	/* beq t1, t2 or beq t2, t1 */
	if ((beq & 0x707f) != 0x63 || !(((beq >> 15 & 0x3ff) == (6 | 7 << 5)) ||
					  ((beq >> 15 & 0x3ff) == (7 | 6 << 5))))
		return false;
	for (size_t k = 6; k <= 16 && k + 4 <= before; k += 2) {
		const uint8_t *q = p - 4 - k;
		int64_t t2 = 0;
		bool ok = true;

		if ((pfe_enc_le32(q) & 0x7fff) != (0x03 | 6 << 7 | 2 << 12))	/* lw t1 */
			continue;
		for (q += 4; ok && q < p - 4; q += (*q & 3) == 3 ? 4 : 2)
			ok = riscv_li_step(q, (*q & 3) == 3 ? 4 : 2, &t2);
		if (ok && q == p - 4) {
			*hash = (uint32_t)t2;
			return true;
		}
	}
	return false;
}

const struct pfe_arch pfe_arch_riscv64 = {
	.id = PFE_ARCH_RISCV64,
	.name = "riscv64",
	.gnu_triplet = "riscv64-linux-gnu",
	.as_flags = "",
	.e_machine = EM_RISCV_,
	.elf_class = PFE_ELFCLASS64,
	.record_size = 8,
	.insn_align = 2,
	.abs_reloc = R_RISCV_64_,
	.relative_reloc = R_RISCV_RELATIVE_,
	.rel32_reloc = R_RISCV_32_PCREL_,
	.rel32_add_reloc = R_RISCV_ADD32_,
	.rel32_sub_reloc = R_RISCV_SUB32_,
	.align_reloc = R_RISCV_ALIGN_,
	.nops = riscv_nops,
	.n_nops = PFE_COUNT_OF(riscv_nops),
	.pads = NULL,
	.n_pads = 0,
	.fentry_call = &riscv_fentry_call,
	.fentry_nop = &riscv_fentry_nop,
	.ops_slot = &riscv_ops_slot,
	.call_lead = 0,
	.nop = riscv_nop,
	.entry_nop = riscv_nop,
	.landing_pad = riscv_landing_pad,
	.call = riscv_call,
	.calls_via_memory = false,
	.push = NULL,
	.plt_slot = riscv_plt_slot,
	.patches = riscv_patches,
	.n_patches = PFE_COUNT_OF(riscv_patches),
	.exit_sled = NULL,
	.veneer_len = 24,
	.veneer = &riscv_veneer,
	.put_veneer = riscv_put_veneer,
	.trap_byte = 0,
	.kcfi = true,		/* a plain .word HASH */
	.kcfi_opcode = 0,
	.kcfi_opcode_mask = 0,
	.kcfi_opcode_len = 0,
	.kcfi_mask = NULL,
	.kcfi_trap_hash = riscv_kcfi_trap_hash,
};
