/* arch-hooks/riscv.c: target facts for GCC's riscv back end (riscv64).
 *
 * "nop" is 4 bytes; under RVC (-march=rv64gc) the assembler turns it into
 * the 2-byte c.nop, as it does for GCC's own -fpatchable-function-entry.
 * Records are .8byte.  No landing pad.  Scratch (clobbers=scratch): t0
 * (and t1), which the riscv kernel's patched call (auipc t0 / jalr t0)
 * uses.  (GCC 12's riscv back end does not use IPA-RA's call-clobber
 * information; the clobbers keep pfe right where a GCC does.)
 *
 * Debugging: riscv64-linux-gnu-gcc -S -march=rv64gc / -march=rv64g.
 */
#include "../gcc-plugin/pfe.h"

static const char *const riscv_landing_pads[] = { NULL };

static const struct pfe_arch riscv64_arch = {
	"\tnop\n",
	"\t.8byte\t",
	3,
	"@progbits",
	NULL,
	riscv_landing_pads,
	NULL, NULL,
	2, { T0_REGNUM, T1_REGNUM },
};

const struct pfe_arch *pfe_arch_select(const char **why)
{
	if (!TARGET_64BIT) {
		*why = "riscv32 (only riscv64 is supported)";
		return NULL;
	}
	return &riscv64_arch;
}
