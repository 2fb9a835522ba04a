/* pfe.h: the pieces of the pfe plugin and the one structure they share.
 *
 * The flow:  options + attributes + decl  ->  plan (plan.c, once per function)
 *            plan + target table (arch-hooks/)  ->  text (emit.c)
 * Everything that emits reads the plan; nothing re-derives a decision.
 *
 * Debugging: -fplugin-arg-pfe-help lists the options; compile with -S and
 * look for the .LPFE labels; -fdump-rtl-pfe_entry shows the inserted insns.
 */
#ifndef PFE_H
#define PFE_H

#include "gcc-compat.h"

#define PFE_MAX_NOPS 65535u
#define PFE_DEFAULT_SECTION "__patchable_function_entries"
#define PFE_MAX_SCRATCH 4

/* What a padded function tells its callers it clobbers (clobbers=).  A
 * patched entry calls code the compiler never sees, so by default a padded
 * function is, to every caller, a call that clobbers all the ABI lets a
 * call clobber, whatever its body uses (IPA-RA then gains nothing from it,
 * as with native -fpatchable-function-entry, but only for padded
 * functions).  The scratch set is an opt-in for trampolines that save
 * every other register. */
enum pfe_clobbers {
	PFE_CLOBBERS_NONE,	/* unpadded: IPA-RA sees the body only */
	PFE_CLOBBERS_ABI,	/* every call-clobbered register (default) */
	PFE_CLOBBERS_SCRATCH,	/* the target's patch scratch registers */
};

/* Plugin arguments, parsed once in plugin_init (pfe.c). */
struct pfe_options {
	bool has_entry;		/* entry= given: pad every function */
	unsigned int entry_size;	/* M */
	unsigned int entry_pre;	/* N */
	const char *section;	/* record section */
	enum pfe_clobbers clobbers;	/* for padded functions */
};
extern struct pfe_options pfe_opts;

/* What one target spells and clobbers; one table per target, defined in
 * arch-hooks/<gcc backend>.c. */
struct pfe_arch {
	const char *nop;		/* one NOP instruction as assembler text */
	const char *pointer_op;	/* directive for a pointer-sized record */
	unsigned int pointer_log2;	/* record alignment */
	const char *section_type;	/* "@progbits" or "%progbits" */
	/* Instructions that must stay first at the entry (IBT/BTI landing
	 * pads): the NOPs after the label follow them.  As insns (a
	 * recognized insn: pfe_insn_code() is valid), and as the assembler
	 * text C++ thunks are printed in (NULL-terminated prefixes). */
	bool (*is_landing_pad)(pfe_insn insn);
	const char *const *landing_pads;
	/* Where an entry instruction is also an implicit landing pad (aarch64
	 * PACIASP under BTI): true when FIRST, the entry's first insn, is one
	 * that the NOPs would displace; landing_pad_text then goes before
	 * them.  NULL where there is no such instruction. */
	bool (*displaced_landing_pad)(pfe_insn first);
	const char *landing_pad_text;
	/* Call-clobbered registers the target's patch sequences and the
	 * linker's veneers may write: with clobbers=scratch, the only ones
	 * callers must not keep values in across a padded call (IPA-RA). */
	unsigned int n_scratch;
	unsigned int scratch_regs[PFE_MAX_SCRATCH];
};

/* Defined by the arch-hooks file for this GCC's target.  Called once the
 * target options are final; returns NULL (and sets *why) when the
 * sub-target is not supported. */
const struct pfe_arch *pfe_arch_select(const char **why);
extern const struct pfe_arch *pfe_arch;

/* One function's plan. */
struct pfe_plan {
	tree decl;
	unsigned int pre;		/* NOPs before the entry label */
	unsigned int post;		/* NOPs after the label and landing pad */
	unsigned int label_no;	/* .LPFE<n> marks the first NOP */
	enum pfe_clobbers clobbers;	/* what IPA-RA is told the entry clobbers */
	const char *section;	/* record section */
};

/* plan.c */
const struct pfe_plan *pfe_plan_for(tree fndecl);
void pfe_register_attribute(void *event_data, void *data);

/* emit.c */
void pfe_emit_init(void);
void pfe_register_entry_pass(const char *plugin_name);
int pfe_insn_code(pfe_insn insn);

#endif /* PFE_H */
