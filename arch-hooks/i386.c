/* arch-hooks/i386.c: target facts for GCC's i386 back end: x86_64 and i386.
 *
 * One GCC back end serves -m64 and -m32, so this file holds two tables and
 * picks one once the target options are final.  -mx32 is refused (its
 * records would need 4-byte pointers to 8-byte addresses; nobody asked).
 *
 * Debugging: compile with -S and -m64/-m32; the NOP spelling, the record
 * directive and the ENDBR handling all come from here.
 */
#include "../gcc-plugin/pfe.h"
#include "insn-flags.h"
#include "insn-codes.h"

static const char *const x86_landing_pads[] = { "endbr64", "endbr32", NULL };

/* ENDBR64/ENDBR32 (GCC 8+; older GCCs have no CET). */
static bool x86_is_landing_pad(pfe_insn insn)
{
#ifdef HAVE_nop_endbr
	return pfe_insn_code(insn) == CODE_FOR_nop_endbr;
#else
	return false;
#endif
}

static const struct pfe_arch x86_64_arch = {
	"\tnop\n",
	"\t.quad\t",
	3,
	"@progbits",
	x86_is_landing_pad,
	x86_landing_pads,
	NULL, NULL,
	/* Scratch (clobbers=scratch) r11: call-clobbered and not used for
	 * arguments; r10 is the static chain of nested functions, so a patch
	 * must preserve it. */
	1, { R11_REG },
};

static const struct pfe_arch i386_arch = {
	"\tnop\n",
	"\t.long\t",
	2,
	"@progbits",
	x86_is_landing_pad,
	x86_landing_pads,
	NULL, NULL,
	/* No register is free at an i386 entry: all may carry arguments
	 * (regparm, fastcall) or the static chain. */
	0, { 0 },
};

const struct pfe_arch *pfe_arch_select(const char **why)
{
	if (TARGET_X32) {
		*why = "x86 -mx32";
		return NULL;
	}
	return TARGET_64BIT ? &x86_64_arch : &i386_arch;
}
