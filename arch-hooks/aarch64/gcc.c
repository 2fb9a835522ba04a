/* arch-hooks/aarch64/gcc.c: the plugin's hooks for GCC's aarch64 back end.
 *
 * NOPs are 4 bytes; records are .8byte.  With -mbranch-protection the
 * entry starts with BTI C (GCC prints it as "hint 34 // bti c"): the NOPs
 * after the label follow it, as GCC 13+ place them.
 * A function that starts with PACIASP/PACIBSP has no BTI C: the PAC
 * instruction is an implicit one, but only at the entry.  With NOPs in
 * front of it, a BTI C goes before the NOPs when the function may be
 * called indirectly (GCC 13+ do the same).
 * Scratch (clobbers=scratch): x9 holds the return address across the
 * patched call (mov x9, x30; bl ftrace_caller, the arm64 kernel's
 * sequence), x30 is what the bl writes, and x16/x17 (IP0/IP1) are what a
 * linker veneer between the bl and a far trampoline may write (AAPCS64).
 *
 * fentry: "mov x9, x30; bl SYM", the arm64 kernel's patched sequence (SYM
 * must return with x30 restored from x9); NOP form: two NOPs.  The ops slot
 * is an .8byte.
 *
 * The bytes these spellings give are aarch64/bytes.c's (plain C,
 * arch-hooks/arch.h); testsuite/pfe.runtime/encodings.exp checks that the
 * two agree.
 *
 * Debugging: aarch64-linux-gnu-gcc -S -mbranch-protection=standard.
 */
#include "../../gcc-plugin/pfe.h"
#include "tm_p.h"
#include "cgraph.h"
#include "insn-flags.h"
#include "insn-codes.h"

static const char *const aarch64_landing_pads[] = {
	"hint\t34", "hint #34", "bti\tc", "bti c", NULL
};

/* BTI C (GCC 10+). */
static bool aarch64_is_landing_pad(pfe_insn insn)
{
#ifdef HAVE_bti_c
	return pfe_insn_code(insn) == CODE_FOR_bti_c;
#else
	return false;
#endif
}

/* PACIASP or PACIBSP first, under BTI, in a function that may be reached
 * by an indirect call. */
static bool aarch64_displaced_landing_pad(pfe_insn first)
{
#if defined(HAVE_bti_c) && defined(HAVE_paciasp) && defined(HAVE_pacibsp)
	int code = pfe_insn_code(first);

	return (code == CODE_FOR_paciasp || code == CODE_FOR_pacibsp) &&
	       aarch64_bti_enabled() &&
	       !cgraph_node::get(current_function_decl)->only_called_directly_p();
#else
	return false;
#endif
}

static void aarch64_put_fentry_call(FILE *out, const char *sym,
				    const char *label, bool nop)
{
	fprintf(out, "%s:\n", label);
	if (nop)
		fputs("\tnop\n\tnop\n", out);
	else
		fprintf(out, "\tmov\tx9, x30\n\tbl\t%s\n", sym);
}

/* kCFI, as Clang 16 spells it: the hash is a .word before the entry. */
static void aarch64_put_kcfi_hash(FILE *out, unsigned int hash, int arity)
{
	(void)arity;
	fprintf(out, "\t.word\t%u\n", hash);
}

/* Clang's AArch64 KCFI_CHECK: w16 = the target's word, w17 = the hash
 * (two MOVKs: both halves are written), BRK #0x8000 | 17 << 5 | the
 * target's register number: the kernel's handler reads both registers
 * from the immediate.  The number comes from the register's name, which
 * only the assembler sees: .irp/.ifc pick the one BRK that matches. */
static void aarch64_put_kcfi_check(FILE *out, unsigned int hash,
				   unsigned int offset)
{
	fprintf(out, "\tldur\tw16, [%%x0, #-%u]\n\tmovk\tw17, #%u\n"
		"\tmovk\tw17, #%u, lsl #16\n\tcmp\tw16, w17\n"
		"\tb.eq\t.Lkcfi_pass%%=\n.Lkcfi_trap%%=:\n"
		"\t.irp\tpfe_r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,"
		"19,20,21,22,23,24,25,26,27,28,29,30\n"
		"\t.ifc\t%%x0,x\\pfe_r\n\tbrk\t#(0x8220 + \\pfe_r)\n\t.endif\n"
		"\t.endr\n", offset, hash & 0xffff, hash >> 16);
}

static unsigned int aarch64_kcfi_align_log2(void)
{
	return 2;
}

static const char *const aarch64_kcfi_clobbers[] = { "x16", "x17", "cc", NULL };

static const struct pfe_backend aarch64_arch = {
	.nop = "\tnop\n",
	.nop_size = 4,
	.pointer_op = "\t.8byte\t",
	.pointer_log2 = 3,
	.section_type = "@progbits",
	.is_landing_pad = aarch64_is_landing_pad,
	.landing_pads = aarch64_landing_pads,
	.displaced_landing_pad = aarch64_displaced_landing_pad,
	.landing_pad_text = "\thint\t34 // bti c\n",
	.take_queued_landing_pad = NULL,
	.n_scratch = 4,
	.scratch_regs = { R9_REGNUM, R16_REGNUM, R17_REGNUM, R30_REGNUM },
	.put_fentry_call = aarch64_put_fentry_call,
	.fentry_refused = NULL,
	.call_align = 1,
	.fentry_not_leaf = false,
	.slot_format = "\t.8byte\t%s\n",
	.put_kcfi_hash = aarch64_put_kcfi_hash,
	.kcfi_arity = NULL,
	.kcfi_hash_size = 4,
	.kcfi_align_log2 = aarch64_kcfi_align_log2,
	.kcfi_pad = false,
	.kcfi_symbol = false,
	.put_kcfi_check = aarch64_put_kcfi_check,
	.kcfi_clobbers = aarch64_kcfi_clobbers,
	.kcfi_spare_reg = "x9",
	.kcfi_call_through_spare = false,
	.kcfi_trap_word = NULL,
	.kcfi_max_offset = 256,
	.kcfi_va_list = "St9__va_list",	/* AAPCS64: va_list mangles as std::__va_list */
	.exit_sled = NULL,
	.exit_return_kind = NULL,
	.vector_arg_bytes = NULL,
	.keeps_all_attributes = NULL,
};

const struct pfe_backend *pfe_backend_select(const char **why)
{
	if (TARGET_ILP32) {
		*why = "aarch64 -mabi=ilp32";
		return NULL;
	}
	return &aarch64_arch;
}
