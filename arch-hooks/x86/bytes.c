/* arch-hooks/x86/bytes.c: the x86_64 and i386 tables of the plain-C layer
 * (arch.h): NOPs, ENDBR, the fentry call and its NOP form, the ops slot,
 * their decoders, the int3 protocol's patch sequences and the veneers,
 * the register pushes around an entry call, PLT entries, kCFI's hash.
 * The plugin spells the same bytes in x86/gcc.c.
 *
 * Symbolic entries (the fentry call, the veneer) are given for SYM at
 * address 0 and the sequence at address 0: what the assembler and linker
 * give for "SYM: <spelling>" linked at 0, which is how
 * testsuite/pfe.runtime checks them.
 *
 * Not a disassembler: each decoder recognises a few encodings exactly.
 * Debugging: `enc-check table x86_64` (testsuite/pfe.runtime/enc-check.c);
 * compare with `objdump -d --show-raw-insn`.
 */
#include "../arch.h"
#include "x86.h"

#include <string.h>

/* ELF e_machine and relocation types (<elf.h>'s EM_*, R_*). */
enum {
	EM_386_ = 3, EM_X86_64_ = 62,
	R_X86_64_64_ = 1, R_X86_64_PC32_ = 2, R_X86_64_RELATIVE_ = 8,
	R_386_32_ = 1, R_386_PC32_ = 2, R_386_RELATIVE_ = 8,
};

/* The NOP pfe pads x86 entries with, the padding forms gas uses
 * (`.nops N`, `.p2align` in code: 0f 1f /0 with 66 and 2e prefixes on
 * x86_64; lea forms with --32), and the fentry call's NOP form. */
static const struct pfe_enc_insn x86_64_nops[] = {
	{ .name = "nop", .len = 1, .bytes = { 0x90 }, .spelling = "nop", .prologue = "" },
	{ .name = "nop2", .len = 2, .bytes = { 0x66, 0x90 }, .spelling = ".nops 2", .prologue = "" },
	{ .name = "nop3", .len = 3, .bytes = { 0x0f, 0x1f, 0x00 }, .spelling = ".nops 3", .prologue = "" },
	{ .name = "nop4", .len = 4, .bytes = { 0x0f, 0x1f, 0x40, 0x00 }, .spelling = ".nops 4",
	  .prologue = "" },
	{ .name = "nop5", .len = 5, .bytes = { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, .spelling = ".nops 5",
	  .prologue = "" },
	{ .name = "nop6", .len = 6, .bytes = { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	  .spelling = ".nops 6", .prologue = "" },
	{ .name = "nop7", .len = 7, .bytes = { 0x0f, 0x1f, 0x80, 0, 0, 0, 0 }, .spelling = ".nops 7",
	  .prologue = "" },
	{ .name = "nop8", .len = 8, .bytes = { 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 },
	  .spelling = ".nops 8", .prologue = "" },
	{ .name = "nop9", .len = 9, .bytes = { 0x66, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 },
	  .spelling = ".nops 9", .prologue = "" },
	{ .name = "nop10", .len = 10, .bytes = { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 },
	  .spelling = ".nops 10", .prologue = "" },
	{ .name = "nop11", .len = 11, .bytes = { 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 },
	  .spelling = ".nops 11", .prologue = "" },
};

static const struct pfe_enc_insn i386_nops[] = {
	{ .name = "nop", .len = 1, .bytes = { 0x90 }, .spelling = "nop", .prologue = "" },
	{ .name = "nop2", .len = 2, .bytes = { 0x66, 0x90 }, .spelling = ".nops 2", .prologue = "" },
	{ .name = "lea3", .len = 3, .bytes = { 0x8d, 0x76, 0x00 }, .spelling = ".nops 3", .prologue = "" },
	{ .name = "lea4", .len = 4, .bytes = { 0x8d, 0x74, 0x26, 0x00 }, .spelling = ".nops 4",
	  .prologue = "" },
	{ .name = "lea6", .len = 6, .bytes = { 0x8d, 0xb6, 0, 0, 0, 0 }, .spelling = ".nops 6",
	  .prologue = "" },
	{ .name = "lea7", .len = 7, .bytes = { 0x8d, 0xb4, 0x26, 0, 0, 0, 0 }, .spelling = ".nops 7",
	  .prologue = "" },
	{ .name = "nop5", .len = 5, .bytes = { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	  .spelling = ".byte\t0x0f, 0x1f, 0x44, 0x00, 0x00", .prologue = "" },
};

static const struct pfe_enc_insn x86_pads[] = {
	{ .name = "endbr64", .len = 4, .bytes = PFE_W32(PFE_X86_ENDBR64), .spelling = "endbr64",
	  .prologue = "" },
	{ .name = "endbr32", .len = 4, .bytes = PFE_W32(PFE_X86_ENDBR32), .spelling = "endbr32",
	  .prologue = "" },
};

/* x86/gcc.c: "call SYM" (PIC: through the GOT or the PLT), the NOP form
 * as .byte, the ops slot. */
static const struct pfe_enc_insn x86_fentry_call = {
	.name = "fentry-call", .len = 5, .bytes = { 0xe8, 0xfb, 0xff, 0xff, 0xff },
	.spelling = "call\tSYM", .prologue = ""
};
static const struct pfe_enc_insn x86_fentry_nop = {
	.name = "fentry-nop", .len = 5, .bytes = { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	.spelling = ".byte\t0x0f, 0x1f, 0x44, 0x00, 0x00", .prologue = ""
};
static const struct pfe_enc_insn x86_64_ops_slot = {
	.name = "ops-slot", .len = 8, .bytes = { 0 }, .spelling = ".quad\t0", .prologue = ""
};
static const struct pfe_enc_insn i386_ops_slot = {
	.name = "ops-slot", .len = 8, .bytes = { 0 }, .spelling = ".long\t0, 0", .prologue = ""
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
 * as GCC's x86 patch NOP is one byte.  An entry's NOPs on i386 too. */
static size_t x86_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	size_t i = 0, len = 0;
	bool only_66 = true;

	if (avail > PFE_ENC_MAX_INSN)
		avail = PFE_ENC_MAX_INSN;
	for (; i < avail && (p[i] == 0x66 || p[i] == 0x2e); i++)
		only_66 = only_66 && p[i] == 0x66;
	if (i < avail && p[i] == 0x90 && only_66 && i <= 1) {
		len = i + 1;
	} else if (i + 2 < avail && p[i] == 0x0f && p[i + 1] == 0x1f && ((p[i + 2] >> 3) & 7) == 0) {
		size_t modrm = x86_modrm_len(p + i + 2, avail - i - 2);

		len = modrm ? i + 2 + modrm : 0;
	}
	*units = (unsigned)len;
	return len;
}

/* i386 adds gas's lea forms (lea 0(%esi),%esi...), NOPs only there. */
static size_t i386_nop(const uint8_t *p, size_t avail, unsigned *units)
{
	size_t len = x86_nop(p, avail, units);

	for (size_t i = 0; !len && i < PFE_COUNT_OF(i386_nops); i++)
		if (pfe_enc_insn_matches(&i386_nops[i], p, avail))
			len = i386_nops[i].len;
	*units = (unsigned)len;
	return len;
}

static size_t x86_landing_pad(const uint8_t *p, size_t avail, const char **name)
{
	for (size_t i = 0; i < PFE_COUNT_OF(x86_pads); i++) {
		if (pfe_enc_insn_matches(&x86_pads[i], p, avail)) {
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
		out->target = pc + prefix + 5 + (uint64_t)pfe_enc_sign_extend(pfe_enc_load(p + prefix + 1, 4), 32);
		if (!is64)
			out->target = (uint32_t)out->target;
		out->reloc_off = prefix + 1;
		return prefix + 5;
	}
	if (!prefix && avail >= 6 && p[0] == 0xff && p[1] == 0x15) {
		uint64_t disp = (uint64_t)pfe_enc_sign_extend(pfe_enc_load(p + 2, 4), 32);

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

/* push %reg (50+r); on x86_64 also push %r8..%r15 (41 50+r): what -pg and
 * fentry save around the entry call (the static chain, ecx or r10). */
static size_t i386_push(const uint8_t *p, size_t avail)
{
	return avail >= 1 && (p[0] & 0xf8) == 0x50 ? 1 : 0;
}

static size_t x86_64_push(const uint8_t *p, size_t avail)
{
	if (avail >= 2 && p[0] == 0x41 && (p[1] & 0xf8) == 0x50)
		return 2;
	return i386_push(p, avail);
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
	*slot = pc + i + 6 + (uint64_t)pfe_enc_sign_extend(pfe_enc_load(p + i + 2, 4), 32);
	return true;
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
	{ .len = 5, .toggle_off = 0, .toggle_len = 5, .ret_off = 5, .align = 1,
	  .reach = 1ull << 31, .put = x86_put_patch5 },
	{ .len = 6, .toggle_off = 0, .toggle_len = 6, .ret_off = 6, .align = 1,
	  .reach = 1ull << 31, .put = x86_put_patch6 },
};

/* i386: rel32 wraps around the 4 GB address space: every target is in
 * reach (0: no limit). */
static const struct pfe_enc_patch i386_patches[] = {
	{ .len = 5, .toggle_off = 0, .toggle_len = 5, .ret_off = 5, .align = 1,
	  .reach = 0, .put = x86_put_patch5 },
};

/* jmp *0(%rip); .quad target */
static const struct pfe_enc_insn x86_64_veneer = {
	.name = "veneer", .len = 14, .bytes = { 0xff, 0x25, 0, 0, 0, 0 },
	.spelling = "jmp\t*0(%rip)\n.quad\tSYM", .prologue = ""
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
	.name = "veneer", .len = 5, .bytes = { 0xe9, 0xfb, 0xff, 0xff, 0xff },
	.spelling = ".byte\t0xe9\n.long\tSYM - . - 4", .prologue = ""
};

static void i386_put_veneer(uint8_t *buf, uint64_t at, uint64_t target)
{
	buf[0] = 0xe9;
	pfe_enc_store(buf + 1, 4, target - (at + 5));
}

/* kCFI: the hash the check ending at the ud2 at P (AFTER bytes from P on,
 * BEFORE bytes of code before it) expects: `movl $-HASH, %r10d; addl
 * -D(%reg), %r10d; je 1f` (rel8 or rel32), as Clang and pfe emit it. */
static bool x86_64_kcfi_trap_hash(const uint8_t *p, size_t after, size_t before, uint32_t *hash)
{
	if (after < 2 || p[0] != 0x0f || p[1] != 0x0b)	/* ud2 */
		return false;
	for (size_t k = 10; k <= 24 && k <= before; k++) {
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
			*hash = -(uint32_t)pfe_enc_le32(c + 2);
			return true;
		}
	}
	return false;
}

const struct pfe_arch pfe_arch_x86_64 = {
	.id = PFE_ARCH_X86_64,
	.name = "x86_64",
	.gnu_triplet = "x86_64-linux-gnu",
	.as_flags = "--64",
	.e_machine = EM_X86_64_,
	.elf_class = PFE_ELFCLASS64,
	.record_size = 8,
	.insn_align = 1,
	.abs_reloc = R_X86_64_64_,
	.relative_reloc = R_X86_64_RELATIVE_,
	.rel32_reloc = R_X86_64_PC32_,
	.align_reloc = 0,
	.nops = x86_64_nops,
	.n_nops = PFE_COUNT_OF(x86_64_nops),
	.pads = x86_pads,
	.n_pads = PFE_COUNT_OF(x86_pads),
	.fentry_call = &x86_fentry_call,
	.fentry_nop = &x86_fentry_nop,
	.ops_slot = &x86_64_ops_slot,
	.call_lead = 0,
	.nop = x86_nop,
	.entry_nop = x86_nop,
	.landing_pad = x86_landing_pad,
	.call = x86_64_call,
	.calls_via_memory = true,
	.push = x86_64_push,
	.plt_slot = x86_64_plt_slot,
	.patches = x86_64_patches,
	.n_patches = PFE_COUNT_OF(x86_64_patches),
	.exit_sled = &x86_64_patches[0],
	.veneer_len = 14,
	.veneer = &x86_64_veneer,
	.put_veneer = x86_64_put_veneer,
	.trap_byte = 0xcc,
	.kcfi = true,
	.kcfi_opcode = 0xb8,	/* movl $HASH, %eax */
	.kcfi_opcode_mask = 0xf8,	/* %eax to %edi: kcfi-arity */
	.kcfi_opcode_len = 1,
	.kcfi_mask = pfe_x86_kcfi_mask,
	.kcfi_trap_hash = x86_64_kcfi_trap_hash,
};

/* i386 counts an entry's NOPs with x86_64's decoder: gas's `lea` padding
 * forms are no entry NOPs (counting the padding before a function would
 * change its pre count).  No kCFI: Clang has none for i386. */
const struct pfe_arch pfe_arch_i386 = {
	.id = PFE_ARCH_I386,
	.name = "i386",
	.gnu_triplet = "i686-linux-gnu",
	.as_flags = "--32",
	.e_machine = EM_386_,
	.elf_class = PFE_ELFCLASS32,
	.record_size = 4,
	.insn_align = 1,
	.abs_reloc = R_386_32_,
	.relative_reloc = R_386_RELATIVE_,
	.rel32_reloc = R_386_PC32_,
	.align_reloc = 0,
	.nops = i386_nops,
	.n_nops = PFE_COUNT_OF(i386_nops),
	.pads = x86_pads,
	.n_pads = PFE_COUNT_OF(x86_pads),
	.fentry_call = &x86_fentry_call,
	.fentry_nop = &x86_fentry_nop,
	.ops_slot = &i386_ops_slot,
	.call_lead = 0,
	.nop = i386_nop,
	.entry_nop = x86_nop,
	.landing_pad = x86_landing_pad,
	.call = i386_call,
	.calls_via_memory = false,
	.push = i386_push,
	.plt_slot = NULL,
	.patches = i386_patches,
	.n_patches = PFE_COUNT_OF(i386_patches),
	.exit_sled = NULL,
	.veneer_len = 5,
	.veneer = &i386_veneer,
	.put_veneer = i386_put_veneer,
	.trap_byte = 0xcc,
	.kcfi = false,
	.kcfi_opcode = 0,
	.kcfi_opcode_mask = 0,
	.kcfi_opcode_len = 0,
	.kcfi_mask = NULL,
	.kcfi_trap_hash = NULL,
};
