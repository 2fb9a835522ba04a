/* arch-hooks/aarch64/bytes.c: the aarch64 table of the plain-C layer
 * (arch.h): NOP, BTI C, the fentry call (`mov x9, x30; bl SYM`, the arm64
 * kernel's) and its NOP form, the ops slot, their decoders, the patch
 * sequence and the veneer, PLT entries.  The plugin spells the same
 * bytes in aarch64/gcc.c.
 *
 * Symbolic entries are given for SYM and the sequence at address 0 (see
 * x86/bytes.c).  Not a disassembler: each decoder recognises a few
 * encodings exactly.
 * Debugging: `enc-check table aarch64` (testsuite/pfe.runtime/enc-check.c);
 * compare with `aarch64-linux-gnu-objdump -d`.
 */
#include "../arch.h"

#include <string.h>

/* ELF e_machine and relocation types (<elf.h>'s EM_*, R_*). */
enum { EM_AARCH64_ = 183, R_AARCH64_ABS64_ = 257, R_AARCH64_PREL32_ = 261, R_AARCH64_RELATIVE_ = 1027 };

#define A64_NOP 0xd503201fu
#define A64_BTI_C 0xd503245fu
#define A64_MOV_X9_X30 0xaa1e03e9u
#define A64_BL 0x94000000u
#define A64_LDR_X16_PC8 0x58000050u	/* ldr x16, .+8 */
#define A64_BR_X16 0xd61f0200u

static const struct pfe_enc_insn aarch64_nops[] = {
	{ .name = "nop", .len = 4, .bytes = PFE_W32(A64_NOP), .spelling = "nop", .prologue = "" },
};

/* GCC prints BTI C as "hint 34 // bti c" (any assembler takes hint 34);
 * "bti" is what `pfe-scan list` prints as landing= (users and
 * pfe.target match it). */
static const struct pfe_enc_insn aarch64_pads[] = {
	{ .name = "bti", .len = 4, .bytes = PFE_W32(A64_BTI_C), .spelling = "hint\t34 // bti c",
	  .prologue = "" },
};

/* The arm64 kernel's sequence: x9 keeps the caller's return address. */
static const struct pfe_enc_insn aarch64_fentry_call = {
	.name = "fentry-call", .len = 8, .bytes = PFE_W32X2(A64_MOV_X9_X30, A64_BL | 0x3ffffffu),
	.spelling = "mov\tx9, x30\nbl\tSYM", .prologue = ""
};
static const struct pfe_enc_insn aarch64_fentry_nop = {
	.name = "fentry-nop", .len = 8, .bytes = PFE_W32X2(A64_NOP, A64_NOP), .spelling = "nop\nnop",
	.prologue = ""
};
static const struct pfe_enc_insn aarch64_ops_slot = {
	.name = "ops-slot", .len = 8, .bytes = { 0 }, .spelling = ".8byte\t0", .prologue = ""
};

static size_t aarch64_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	*units = 1;
	return avail >= 4 && pfe_enc_le32(p) == A64_NOP ? 4 : 0;
}

/* Only BTI C: GCC puts the NOPs before PACIASP, so that is no pad. */
static size_t aarch64_landing_pad(const uint8_t *p, size_t avail, const char **name)
{
	*name = aarch64_pads[0].name;
	return pfe_enc_insn_matches(&aarch64_pads[0], p, avail) ? 4 : 0;
}

static size_t aarch64_call(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out)
{
	uint32_t w;

	if (avail < 4 || ((w = pfe_enc_le32(p)) & 0xfc000000u) != A64_BL)
		return 0;
	out->kind = PFE_CALL_DIRECT;
	out->target = pc + (uint64_t)(pfe_enc_sign_extend(w & 0x3ffffff, 26) * 4);
	out->reloc_off = 0;
	return 4;
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
	adrp = pfe_enc_le32(p + i);
	ldr = pfe_enc_le32(p + i + 4);
	if ((adrp & 0x9f00001f) != 0x90000010 || (ldr & 0xffc003ff) != 0xf9400211)
		return false;
	page = ((pc + i) & ~0xfffull) +
	       (uint64_t)(pfe_enc_sign_extend((adrp >> 5 & 0x7ffff) << 2 | (adrp >> 29 & 3), 21) * 4096);
	*slot = page + ((ldr >> 10) & 0xfff) * 8;
	return true;
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
	{ .len = 8, .toggle_off = 4, .toggle_len = 4, .ret_off = 8, .align = 4,
	  .reach = 1ull << 27, .put = aarch64_put_patch },
};

/* ldr x16, 1f; br x16; 1: .8byte SYM (x16: IP0, what linker veneers use). */
static const struct pfe_enc_insn aarch64_veneer = {
	.name = "veneer", .len = 16, .bytes = PFE_W32X2(A64_LDR_X16_PC8, A64_BR_X16),
	.spelling = "ldr\tx16, 1f\nbr\tx16\n1:\n.8byte\tSYM", .prologue = ""
};

static void aarch64_put_veneer(uint8_t *buf, uint64_t at, uint64_t target)
{
	(void)at;
	memcpy(buf, aarch64_veneer.bytes, 8);
	pfe_enc_store(buf + 8, 8, target);
}

const struct pfe_arch pfe_arch_aarch64 = {
	.id = PFE_ARCH_AARCH64,
	.name = "aarch64",
	.gnu_triplet = "aarch64-linux-gnu",
	.as_flags = "",
	.e_machine = EM_AARCH64_,
	.elf_class = PFE_ELFCLASS64,
	.record_size = 8,
	.insn_align = 4,
	.abs_reloc = R_AARCH64_ABS64_,
	.relative_reloc = R_AARCH64_RELATIVE_,
	.rel32_reloc = R_AARCH64_PREL32_,
	.align_reloc = 0,
	.nops = aarch64_nops,
	.n_nops = PFE_COUNT_OF(aarch64_nops),
	.pads = aarch64_pads,
	.n_pads = PFE_COUNT_OF(aarch64_pads),
	.fentry_call = &aarch64_fentry_call,
	.fentry_nop = &aarch64_fentry_nop,
	.ops_slot = &aarch64_ops_slot,
	.call_lead = 4,		/* mov x9, x30 */
	.nop = aarch64_nop,
	.entry_nop = aarch64_nop,
	.landing_pad = aarch64_landing_pad,
	.call = aarch64_call,
	.calls_via_memory = false,
	.push = NULL,
	.plt_slot = aarch64_plt_slot,
	.patches = aarch64_patches,
	.n_patches = PFE_COUNT_OF(aarch64_patches),
	.exit_sled = NULL,
	.veneer_len = 16,
	.veneer = &aarch64_veneer,
	.put_veneer = aarch64_put_veneer,
	.trap_byte = 0,
	.kcfi = true,		/* a plain .word HASH */
	.kcfi_opcode = 0,
	.kcfi_opcode_mask = 0,
	.kcfi_opcode_len = 0,
	.kcfi_mask = NULL,
	.kcfi_trap_hash = NULL,	/* no .kcfi_traps: brk #0x8220+n, the kernel reads the ESR */
};
