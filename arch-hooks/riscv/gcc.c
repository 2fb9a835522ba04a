/* arch-hooks/riscv/gcc.c: the plugin's hooks for GCC's riscv back end (riscv64).
 *
 * "nop" is 4 bytes; under RVC (-march=rv64gc) the assembler turns it into
 * the 2-byte c.nop, as it does for GCC's own -fpatchable-function-entry.
 * Records are .8byte.  No landing pad.  Scratch (clobbers=scratch): t0
 * (and t1), which the riscv kernel's patched call (auipc t0 / jalr t0)
 * uses.  (GCC 12's riscv back end does not use IPA-RA's call-clobber
 * information; the clobbers keep pfe right where a GCC does.)
 *
 * fentry: "auipc t0, hi; jalr t0, lo(t0)" to SYM, the riscv kernel's
 * sequence, spelt out with an R_RISCV_CALL_PLT .reloc: binutils 2.40 turns
 * "call t0, SYM" into "auipc t1; jalr t0, lo(t1)", which clobbers t1 too.
 * Kept 8 bytes: no R_RISCV_RELAX goes with the .reloc, so the linker
 * cannot shrink it to a jal that could not be patched back; at a
 * 4-byte boundary so that each half can be swapped atomically; NOP form:
 * two 4-byte NOPs, even under RVC.  The ops slot is an .8byte.
 *
 * The bytes these spellings give are riscv/bytes.c's (plain C,
 * arch-hooks/arch.h); testsuite/pfe.runtime/encodings.exp checks that the
 * two agree.
 *
 * Debugging: riscv64-linux-gnu-gcc -S -march=rv64gc / -march=rv64g.
 */
#include "../../gcc-plugin/pfe.h"

static const char *const riscv_landing_pads[] = { NULL };

static void riscv_put_fentry_call(FILE *out, const char *sym,
				  const char *label, bool nop)
{
	fprintf(out, "%s:\n", label);
	if (nop)
		fputs("\t.option\tpush\n\t.option\tnorvc\n\tnop\n\tnop\n"
		      "\t.option\tpop\n", out);
	else
		fprintf(out, "\t.reloc\t%s, R_RISCV_CALL_PLT, %s\n"
			"\tauipc\tt0, 0\n\tjalr\tt0, 0(t0)\n",
			label, sym);
}

/* kCFI, as Clang spells it (Clang 17+: Clang 16 has no riscv kCFI): the
 * hash is a .word before the entry, which is 4-aligned for it. */
static void riscv_put_kcfi_hash(FILE *out, unsigned int hash, int arity)
{
	(void)arity;
	fprintf(out, "\t.word\t%u\n", hash);
}

/* Clang's RISCV KCFI_CHECK: t1 = the target's word (sign-extended), t2 =
 * the hash (li: lui+addiw, as Clang's), ebreak unless equal. */
static void riscv_put_kcfi_check(FILE *out, unsigned int hash,
				 unsigned int offset)
{
	fprintf(out, "\tlw\tt1, -%u(%%0)\n\tli\tt2, %d\n"
		"\tbeq\tt1, t2, .Lkcfi_pass%%=\n.Lkcfi_trap%%=:\n\tebreak\n",
		offset, (int)hash);
}

static unsigned int riscv_kcfi_align_log2(void)
{
	return 2;
}

static const char *const riscv_kcfi_clobbers[] = { "t1", "t2", NULL };

/* An interrupt handler: the interrupted code keeps every register. */
static const char *const riscv_keeps_all[] = { "interrupt", NULL };

static const struct pfe_backend riscv64_arch = {
	.nop = "\tnop\n",
	.nop_size = 4,
	.pointer_op = "\t.8byte\t",
	.pointer_log2 = 3,
	.section_type = "@progbits",
	.is_landing_pad = NULL,
	.landing_pads = riscv_landing_pads,
	.displaced_landing_pad = NULL,
	.landing_pad_text = NULL,
	.take_queued_landing_pad = NULL,
	.n_scratch = 2,
	.scratch_regs = { T0_REGNUM, T1_REGNUM },
	.put_fentry_call = riscv_put_fentry_call,
	.fentry_refused = NULL,
	.call_align = 4,
	.fentry_not_leaf = false,
	.slot_format = "\t.8byte\t%s\n",
	.put_kcfi_hash = riscv_put_kcfi_hash,
	.kcfi_arity = NULL,
	.kcfi_hash_size = 4,
	.kcfi_align_log2 = riscv_kcfi_align_log2,
	.kcfi_pad = false,
	.kcfi_symbol = false,
	.put_kcfi_check = riscv_put_kcfi_check,
	.kcfi_clobbers = riscv_kcfi_clobbers,
	.kcfi_spare_reg = "t3",
	.kcfi_call_through_spare = false,
	.kcfi_trap_word = "\t.word\t",
	.kcfi_max_offset = 2048,
	.kcfi_va_list = NULL,
	.exit_sled = NULL,
	.exit_return_kind = NULL,
	.vector_arg_bytes = NULL,
	.keeps_all_attributes = riscv_keeps_all,
};

const struct pfe_backend *pfe_backend_select(const char **why)
{
	if (!TARGET_64BIT) {
		*why = "riscv32 (only riscv64 is supported)";
		return NULL;
	}
	/* Under RVC the assembler turns "nop" into the 2-byte c.nop. */
	static struct pfe_backend riscv64_rvc_arch;
	if (!TARGET_RVC)
		return &riscv64_arch;
	riscv64_rvc_arch = riscv64_arch;
	riscv64_rvc_arch.nop_size = 2;
	return &riscv64_rvc_arch;
}
