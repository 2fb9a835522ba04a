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
#include "diagnostic.h"		/* diagnostic_classify_diagnostic */
#include "toplev.h"
#include "opts.h"
#include "insn-constants.h"
#if BUILDING_GCC_VERSION >= 5000
#include "context.h"
#endif
#if BUILDING_GCC_VERSION >= 10000
#include "function-abi.h"
#endif

/* GCC 7 made DECL_ALIGN read-only, set through SET_DECL_ALIGN. */
#if BUILDING_GCC_VERSION < 7000
#define SET_DECL_ALIGN(decl, x) (DECL_ALIGN(decl) = (x))
#endif

/* GIMPLE and the symbol table, for the files that insert statements or
 * top-level asm (kcfi.c and lto.c define PFE_NEED_GIMPLE): the headers and their order changed over the releases;
 * this order works from 4.9 (as the kernel's gcc-common.h) to 16. */
#ifdef PFE_NEED_GIMPLE
#include "basic-block.h"
#include "tree-ssa-alias.h"
#include "internal-fn.h"
#include "gimple-expr.h"
#include "is-a.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#if BUILDING_GCC_VERSION >= 7000
#include "tree-vrp.h"
#endif
#include "tree-ssanames.h"
#include "cgraph.h"
#include "langhooks.h"

/* GCC 6 made gimple a class used through pointers (it was a pointer
 * typedef); GCC 5 gave asm statements their own type. */
#if BUILDING_GCC_VERSION >= 6000
typedef gimple *pfe_gimple;
#else
typedef gimple pfe_gimple;
#endif

/* Make CALL call FN (GCC 5 gave calls their own statement type). */
static inline void pfe_call_set_fn(pfe_gimple call, tree fn)
{
#if BUILDING_GCC_VERSION >= 5000
	gimple_call_set_fn(as_a<gcall *>(call), fn);
#else
	gimple_call_set_fn(call, fn);
#endif
}

/* A volatile asm statement of TEXT with INPUTS and CLOBBERS. */
static inline pfe_gimple pfe_build_volatile_asm(const char *text,
						vec<tree, va_gc> *inputs,
						vec<tree, va_gc> *clobbers)
{
	auto stmt = gimple_build_asm_vec(text, inputs, NULL, clobbers, NULL);
	gimple_asm_set_volatile(stmt, true);
	return stmt;
}

/* Whether a call to FNDECL may come through a pointer: its address is
 * taken or it is visible outside the unit.  GCC 5 made cgraph nodes
 * classes. */
static inline bool pfe_may_be_called_indirectly(tree fndecl)
{
#if BUILDING_GCC_VERSION >= 5000
	cgraph_node *node = cgraph_node::get(fndecl);
	return !node || !node->only_called_directly_p();
#else
	struct cgraph_node *node = cgraph_get_node(fndecl);
	return !node || !cgraph_only_called_directly_p(node);
#endif
}

/* A top-level asm statement of TEXT (asm("...") at file scope: LTO carries
 * it to the link).  GCC 5 made the symbol table an object. */
static inline void pfe_add_toplevel_asm(const char *text)
{
#if BUILDING_GCC_VERSION >= 5000
	symtab->finalize_toplevel_asm(build_string(strlen(text), text));
#else
	add_asm_node(build_string(strlen(text), text));
#endif
}

#endif /* PFE_NEED_GIMPLE */

/* The dataflow of the RTL passes, for the back ends that read it
 * (arch-hooks/x86/gcc.c's kcfi-arity: PFE_NEED_DF). */
#ifdef PFE_NEED_DF
#include "basic-block.h"
#include "df.h"

/* Whether the current function reads hard register REGNO before it writes
 * it (live into its first block).  Valid while the CFG and its dataflow
 * are (to pro_and_epilogue, where emit.c asks). */
static inline bool pfe_live_at_entry(unsigned int regno)
{
	return REGNO_REG_SET_P(df_get_live_out(ENTRY_BLOCK_PTR_FOR_FN(cfun)), regno);
}

/* Whether any argument of the current function comes on the stack (GCC 8
 * made the size a poly_int). */
static inline bool pfe_has_stack_args(void)
{
#if BUILDING_GCC_VERSION >= 8000
	return maybe_ne(crtl->args.size, 0);
#else
	return crtl->args.size != 0;
#endif
}
#endif /* PFE_NEED_DF */

/* GCC 7 added _Float16 (float16_type_node, NULL where the target lacks
 * it). */
static inline tree pfe_float16_type_node(void)
{
#if BUILDING_GCC_VERSION >= 7000
	return float16_type_node;
#else
	return NULL_TREE;
#endif
}

/* A line-table row for LINE:COLUMN of FILE through the debug hooks: GCC 7
 * gave source_line its column. */
static inline void pfe_debug_source_line(unsigned int line, unsigned int column,
					 const char *file)
{
#if BUILDING_GCC_VERSION >= 7000
	debug_hooks->source_line(line, column, file, 0, true);
#else
	(void)column;
	debug_hooks->source_line(line, file, 0, true);
#endif
}

/* The mode of scalar type T: GCC 8 added TYPE_MODE_RAW; GCC 7's TYPE_MODE
 * needs a declaration its plugin headers lack. */
#if BUILDING_GCC_VERSION >= 8000
#define PFE_SCALAR_TYPE_MODE(t) TYPE_MODE_RAW(t)
#else
#define PFE_SCALAR_TYPE_MODE(t) ((machine_mode)(t)->type_common.mode)
#endif

/* GCC 8 made the number of vector elements a poly_int. */
static inline unsigned HOST_WIDE_INT pfe_vector_subparts(const_tree t)
{
#if BUILDING_GCC_VERSION >= 8000
	return TYPE_VECTOR_SUBPARTS(t).to_constant();
#else
	return TYPE_VECTOR_SUBPARTS(t);
#endif
}

/* C23's int f(...): GCC 13 marks a prototype without named arguments,
 * whose argument list is empty as an unprototyped one's. */
static inline bool pfe_no_named_args_stdarg_p(const_tree fntype)
{
#if BUILDING_GCC_VERSION >= 13000
	return TYPE_NO_NAMED_ARGS_STDARG_P(fntype);
#else
	(void)fntype;
	return false;
#endif
}

/* Pass API: GCC 5 passes the function to execute() and gate() and
 * dropped pass_data's has_gate/has_execute. */
#if BUILDING_GCC_VERSION >= 5000
#define PFE_PASS_ARGS function *
#define PFE_PASS_DATA_GATE_EXECUTE
#else
#define PFE_PASS_ARGS void
#define PFE_PASS_DATA_GATE_EXECUTE .has_gate = false, .has_execute = true,
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

/* (set DST SRC): GCC 6 dropped the mode argument. */
static inline rtx pfe_gen_set(rtx dst, rtx src)
{
#if BUILDING_GCC_VERSION >= 6000
	return gen_rtx_SET(dst, src);
#else
	return gen_rtx_SET(VOIDmode, dst, src);
#endif
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

/* Make the diagnostics of warning option OPT errors, as -Werror=OPT
 * after every other option would (kcfi.c).  GCC 16 moved the diagnostic
 * kinds into enum class diagnostics::kind (DK_ERROR is gone). */
static inline void pfe_make_warning_error(int opt)
{
#if BUILDING_GCC_VERSION >= 16000
	diagnostic_classify_diagnostic(global_dc, opt, diagnostics::kind::error,
				       UNKNOWN_LOCATION);
#else
	diagnostic_classify_diagnostic(global_dc, opt, DK_ERROR, UNKNOWN_LOCATION);
#endif
}

/* GCC 5 added PLUGIN_FINISH_PARSE_FUNCTION (kcfi.c: the type a definition
 * declares).  On 4.9 nothing is registered: a definition's hash is then
 * that of its decl's type, which later declarations may have completed. */
static inline void pfe_on_finish_parse_function(const char *plugin_name,
						plugin_callback_func callback)
{
#if BUILDING_GCC_VERSION >= 5000
	register_callback(plugin_name, PLUGIN_FINISH_PARSE_FUNCTION, callback, NULL);
#else
	(void)plugin_name;
	(void)callback;
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
