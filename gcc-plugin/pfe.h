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
#define PFE_DEFAULT_FENTRY "__fentry__"
#define PFE_DEFAULT_CALL_SECTION "__mcount_loc"
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
	const char *fentry;	/* fentry[=SYM]: what every one calls, or NULL */
	bool fentry_nop;	/* fentry-nop: the call as NOPs of its size */
	const char *call_section;	/* record-section=: call-site records */
	bool ops_slot;		/* ops-slot[=SYM] */
	const char *ops_slot_value;	/* SYM, or NULL: the slot holds 0 */
};
extern struct pfe_options pfe_opts;

/* What one target spells and clobbers; one table per target, defined in
 * arch-hooks/<gcc backend>.c. */
struct pfe_arch {
	const char *nop;		/* one NOP instruction as assembler text */
	unsigned int nop_size;	/* its bytes */
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
	/* The landing pad the target held back to print itself before -pg's
	 * call (x86 ENDBR with -mfentry), taken over: its text, or NULL. */
	const char *(*take_queued_landing_pad)(void);
	/* Call-clobbered registers the target's patch sequences and the
	 * linker's veneers may write: with clobbers=scratch, the only ones
	 * callers must not keep values in across a padded call (IPA-RA). */
	unsigned int n_scratch;
	unsigned int scratch_regs[PFE_MAX_SCRATCH];
	/* fentry: print "LABEL:" and the call of SYM, or its NOP form, in the
	 * target's established sequence (and what -pg saves around it). */
	void (*put_fentry_call)(FILE *out, const char *sym, const char *label,
				bool nop);
	/* Why this sub-target has no fentry call (i386 PIC: nothing sets up
	 * the GOT register at the entry); NULL where it always has. */
	const char *(*fentry_refused)(void);
	unsigned int call_align;	/* the call site's alignment (riscv: 4) */
	/* Whether a function with the fentry call stops being a leaf, as
	 * with GCC's -pg (x86: no red zone for locals, byte for byte what
	 * -pg -mfentry gives); elsewhere the call returns with every register
	 * the function uses intact (aarch64 restores x30 from x9). */
	bool fentry_not_leaf;
	/* The 8-byte ops slot holding VALUE (a symbol or "0"). */
	const char *slot_format;	/* printf format, %s = VALUE */
};

/* Defined by the arch-hooks file for this GCC's target.  Called once the
 * target options are final; returns NULL (and sets *why) when the
 * sub-target is not supported. */
const struct pfe_arch *pfe_arch_select(const char **why);
extern const struct pfe_arch *pfe_arch;

/* One function's plan.  A function is instrumented (active) when it has
 * NOPs or calls fentry; then it may have an ops slot too. */
struct pfe_plan {
	tree decl;
	bool active;
	unsigned int pre;		/* NOPs before the entry label */
	unsigned int post;		/* NOPs after the label and landing pad */
	bool fentry;		/* the fentry call after them */
	bool ops_slot;		/* an 8-byte slot right before the label */
	unsigned int label_no;	/* .LPFE<n> the first NOP, .LPFC<n> the call */
	enum pfe_clobbers clobbers;	/* what IPA-RA is told the entry clobbers */
	const char *section;	/* record section */
};

/* plan.c */
const struct pfe_plan *pfe_plan_for(tree fndecl);
const char *pfe_layout_refused(unsigned int pre, unsigned int post);
void pfe_register_attribute(void *event_data, void *data);

/* emit.c */
void pfe_emit_init(void);
void pfe_register_passes(const char *plugin_name);
int pfe_insn_code(pfe_insn insn);

#endif /* PFE_H */
