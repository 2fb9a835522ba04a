/* gcc-compat.h: every GCC-version difference pfe meets, and nothing else.
 *
 * pfe's code above this header reads the same on GCC 4.9 and 16.  Each shim
 * names the GCC release that changed the interface it hides.  Like the
 * kernel's scripts/gcc-plugins/gcc-common.h, this is the only file with
 * BUILDING_GCC_VERSION tests.
 *
 * PFE_LEGACY (make LEGACY=1) builds the plugin with only what GCC 4.9-7
 * offer: where a shim has a GCC 8+ shortcut, the pre-8 way is taken, and the
 * identifiers of GCC's own patchable-entry machinery are poisoned at the end
 * of this file so that using them is a compile error.  The LEGACY build runs
 * the whole suite on GCC 9-16, which is how the pre-8 paths are proven.
 *
 * Debugging: build with "make V=1" to see the include path; a shim that
 * picks the wrong branch shows up as a compile error in this file, naming
 * the GCC interface.
 */
#ifndef PFE_GCC_COMPAT_H
#define PFE_GCC_COMPAT_H

#include "bversion.h"
#if BUILDING_GCC_VERSION < 4009
#error "pfe needs GCC 4.9 or newer"
#endif

#include "gcc-plugin.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "tm.h"
#include "tree.h"
#if BUILDING_GCC_VERSION >= 7000
#include "memmodel.h"		/* GCC 7: emit-rtl.h needs it first */
#endif
#include "rtl.h"
#include "hard-reg-set.h"
#include "regs.h"
#include "tree-pass.h"
#include "function.h"
#include "emit-rtl.h"
#include "output.h"
#include "debug.h"
#include "target.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "toplev.h"
#include "opts.h"
#include "insn-constants.h"
#if BUILDING_GCC_VERSION >= 5000
#include "context.h"
#endif
#if BUILDING_GCC_VERSION >= 10000
#include "function-abi.h"
#endif

/* Pass API: GCC 5 passes the function to execute() and gate() and
 * dropped pass_data's has_gate/has_execute. */
#if BUILDING_GCC_VERSION >= 5000
#define PFE_PASS_ARGS function *
#define PFE_PASS_DATA_GATE_EXECUTE
#else
#define PFE_PASS_ARGS void
#define PFE_PASS_DATA_GATE_EXECUTE false, true,
#endif

/* GCC 5 made fatal_error take a location. */
#if BUILDING_GCC_VERSION >= 5000
#define pfe_fatal(...) fatal_error(UNKNOWN_LOCATION, __VA_ARGS__)
#else
#define pfe_fatal(...) fatal_error(__VA_ARGS__)
#endif

/* GCC 4.9-7 attribute_spec: ..., handler, affects_type_identity.
 * GCC 8 moved affects_type_identity before the handler and added
 * the exclusions table. */
#if BUILDING_GCC_VERSION >= 8000
#define PFE_ATTRIBUTE_SPEC(name, min, max, handler) \
	{ name, min, max, true, false, false, false, handler, NULL }
#else
#define PFE_ATTRIBUTE_SPEC(name, min, max, handler) \
	{ name, min, max, true, false, false, handler, false }
#endif

/* GCC 5 turned insns into rtx_insn *. */
#if BUILDING_GCC_VERSION >= 5000
typedef rtx_insn *pfe_insn;
#else
typedef rtx pfe_insn;
#endif

/* recog_memoized without recog.h: the plugin headers of GCC 7, 9 and 10
 * lack insn-config.h, which recog.h needs.  recog() itself is exported by
 * cc1 on every version. */
extern int recog(rtx, pfe_insn, int *);
static inline int pfe_recog_memoized(pfe_insn insn)
{
	if (INSN_CODE(insn) < 0)
		INSN_CODE(insn) = recog(PATTERN(insn), insn, NULL);
	return INSN_CODE(insn);
}

/* Whether a call to the current function may clobber (some of) hard
 * register REGNO under its ABI.  GCC 10 gave each function an ABI object
 * that also knows partly clobbered registers (aarch64 v8-v15: the upper 64
 * bits); before, partial clobbers were a target hook that IPA-RA never
 * overrode, and the fully clobbered set was regs_invalidated_by_call. */
static inline bool pfe_call_clobbers_reg(unsigned int regno)
{
#if BUILDING_GCC_VERSION >= 10000
	return crtl->abi->clobbers_at_least_part_of_reg_p(regno);
#else
	return TEST_HARD_REG_BIT(regs_invalidated_by_call, regno);
#endif
}

/* x86 -pg -mfentry with -fcf-protection: the target holds ENDBR back and
 * prints it before the profiler call; GCC 11 turned the flag into a kind. */
#if BUILDING_GCC_VERSION >= 11000
#define PFE_X86_ENDBR_QUEUED(m) ((m)->insn_queued_at_entrance == TYPE_ENDBR)
#define PFE_X86_ENDBR_UNQUEUE(m) ((m)->insn_queued_at_entrance = TYPE_NONE)
#elif BUILDING_GCC_VERSION >= 9000
#define PFE_X86_ENDBR_QUEUED(m) ((m)->endbr_queued_at_entrance)
#define PFE_X86_ENDBR_UNQUEUE(m) ((m)->endbr_queued_at_entrance = 0)
#else
#define PFE_X86_ENDBR_QUEUED(m) false
#define PFE_X86_ENDBR_UNQUEUE(m) ((void)(m))
#endif

/* GCC 14 made x86's -pg -mfentry call go through the PLT under PIC (it went
 * through the GOT before); pfe's fentry call is spelt as GCC's own. */
#define PFE_PROFILER_PIC_CALL_VIA_PLT (BUILDING_GCC_VERSION >= 14000)

/* GCC 8 added -fpatchable-function-entry (kept in
 * function_entry_patch_area_size until GCC 11).  pfe never uses it to emit
 * anything; it only refuses to run beside it.  The legacy way reads the
 * command line, which GCC 4.9-7 keep too. */
static inline bool pfe_native_entry_option_given(void)
{
#if defined(PFE_LEGACY) || BUILDING_GCC_VERSION < 8000
	for (unsigned int i = 1; i < save_decoded_options_count; i++) {
		const char *text = save_decoded_options[i].orig_option_with_args_text;
		if (text && !strncmp(text, "-fpatchable-function-entry=", 27))
			return true;
	}
	return false;
#elif BUILDING_GCC_VERSION < 11000
	return function_entry_patch_area_size > 0;
#else
	return flag_patchable_function_entry != NULL;
#endif
}

/* GCC's own patchable-entry machinery: pfe must never set it, so it cannot
 * even name it (the LEGACY build also loses the GCC 8+ option flag). */
#pragma GCC poison patch_area_size patch_area_entry print_patchable_function_entry
#ifdef PFE_LEGACY
#pragma GCC poison x_flag_patchable_function_entry
#pragma GCC poison x_function_entry_patch_area_size x_function_entry_patch_area_start
#endif

#endif /* PFE_GCC_COMPAT_H */
