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
#include "../arch-hooks/names.h"

#define PFE_MAX_NOPS 65535u
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

/* cfi=: the control-flow integrity scheme whose type hashes pfe puts
 * before entries and checks before indirect calls (kcfi.c). */
enum pfe_cfi {
	PFE_CFI_NONE,
	PFE_CFI_KCFI,		/* Clang's kCFI: a 32-bit hash of the type */
};

/* cfi-layout=: where the hash goes: Clang's, before the N NOPs before the
 * entry (its offset moves with N), or right before the entry, after them
 * (fixed: the hash is always the 4 bytes before the entry). */
enum pfe_cfi_layout {
	PFE_CFI_LAYOUT_CLANG,
	PFE_CFI_LAYOUT_FIXED,
};

/* record=: what an entry record holds (arch-hooks/arch.h). */
enum pfe_record_format {
	PFE_RECORD_ABS,		/* the first NOP's address (GCC's) */
	PFE_RECORD_REL32,	/* its 32-bit distance from the record */
};

/* Plugin arguments, parsed once in plugin_init (pfe.c). */
struct pfe_options {
	bool has_entry;		/* entry= given: pad every function */
	unsigned int entry_size;	/* M */
	unsigned int entry_pre;	/* N */
	const char *section;	/* record section (pfe_default_section()) */
	enum pfe_record_format record;	/* record= */
	enum pfe_clobbers clobbers;	/* for padded functions */
	const char *fentry;	/* fentry[=SYM]: what every one calls, or NULL */
	bool fentry_nop;	/* fentry-nop: the call as NOPs of its size */
	const char *call_section;	/* record-section=: call-site records */
	bool ops_slot;		/* ops-slot[=SYM] */
	const char *ops_slot_value;	/* SYM, or NULL: the slot holds 0 */
	enum pfe_cfi cfi;	/* cfi= */
	enum pfe_cfi_layout cfi_layout;	/* cfi-layout= */
	bool cfi_layout_given;
	bool cfi_arity;		/* cfi-arity */
	bool cfi_normalize_integers;	/* cfi-normalize-integers */
	unsigned int min_function_align;	/* min-function-alignment=, bytes (0: none) */
	bool exits;		/* exits: a sled before each return */
	bool vector_args;	/* vector-args: what vector arguments use */
};
extern struct pfe_options pfe_opts;

/* What one target spells and clobbers: the plugin's layer of arch-hooks/,
 * one table per target, defined in arch-hooks/<target>/gcc.c (the bytes
 * these spellings give are the plain-C layer's, arch-hooks/arch.h). */
struct pfe_backend {
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
	/* kCFI, as Clang spells it on the target; put_kcfi_hash is NULL where
	 * pfe has no kCFI (i386: Clang has none).  The hash before an entry:
	 * x86 "movl $HASH, %eax", whose last 4 bytes are the hash, else a
	 * .word.  The preamble is aligned to 1 << kcfi_align_log2() and, where
	 * Clang pads it (x86), padded with NOPs so that the entry stays
	 * aligned; kcfi_symbol: __cfi_<name> labels it (x86).  ARITY (0 to
	 * 7, or -1: none) is kcfi-arity's, which kcfi_arity computes for the
	 * current function, told whether it calls va_start (NULL where Clang
	 * has no kcfi-arity: x86_64 only). */
	void (*put_kcfi_hash)(FILE *out, unsigned int hash, int arity);
	int (*kcfi_arity)(bool va_start);
	unsigned int kcfi_hash_size;
	unsigned int (*kcfi_align_log2)(void);
	bool kcfi_pad;
	bool kcfi_symbol;
	/* The check before an indirect call through asm operand %0, as asm
	 * template text: load the 32 bits OFFSET bytes before the target,
	 * branch to .Lkcfi_pass%= if they are HASH, else trap at
	 * .Lkcfi_trap%=.  The registers it writes (asm clobbers, NULL-ended);
	 * the directive of a .kcfi_traps entry (NULL: the target records no
	 * traps, as Clang on aarch64, where BRK's immediate says it all); the
	 * largest OFFSET the load reaches. */
	void (*put_kcfi_check)(FILE *out, unsigned int hash, unsigned int offset);
	const char *const *kcfi_clobbers;
	/* A register free before a call that the check does not write, for
	 * a target the check would (kcfi.c, fuse); kcfi_call_through_spare:
	 * every checked call goes through it (x86_64, as Clang: Linux finds
	 * each check at the call - 14 and rewrites it around %r11). */
	const char *kcfi_spare_reg;
	bool kcfi_call_through_spare;
	const char *kcfi_trap_word;
	unsigned int kcfi_max_offset;
	/* How Clang mangles the va_list record, where the ABI names it (aarch64:
	 * std::__va_list), or NULL. */
	const char *kcfi_va_list;
	/* exits: the exit sled, a NOP as long as the patched call (NULL
	 * where the target has none: the option is refused there); the kind
	 * of the current function's return sleds (names.h; NULL: always
	 * PFE_EXIT_RETURN). */
	const char *exit_sled;
	int (*exit_return_kind)(void);
	/* vector-args: how many low bytes of vector registers the current
	 * function's arguments use, PFE_VECTOR_ARGS_* (names.h), or -1: more,
	 * or unknown.  NULL where libpfe has no use for it: the option is
	 * refused there. */
	int (*vector_arg_bytes)(void);
	/* The attributes of a function whose callers keep every register
	 * across it (NULL-ended; NULL: none): it gets a record in
	 * PFE_SECTION_KEEPS_ALL. */
	const char *const *keeps_all_attributes;
};

/* Defined by the arch-hooks file for this GCC's target.  Called once the
 * target options are final; returns NULL (and sets *why) when the
 * sub-target is not supported. */
const struct pfe_backend *pfe_backend_select(const char **why);
extern const struct pfe_backend *pfe_backend;

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
	/* cfi=kcfi: the preamble before the entry (kcfi), with the function's
	 * type hash when it may be called indirectly (kcfi_hashed). */
	bool kcfi;
	bool kcfi_hashed;
	unsigned int kcfi_hash;
	/* exits: a sled before each return and sibling call (emit.c). */
	bool exits;
	/* vector-args: a record of what its arguments use of the vector
	 * registers, when that is known and at most their low 16 bytes. */
	bool vector_args;
	/* Its callers keep every register across it (keeps_all_attributes). */
	bool keeps_all;
};

/* plan.c */
const struct pfe_plan *pfe_plan_for(tree fndecl);
const char *pfe_layout_refused(unsigned int pre, unsigned int post);
/* pfe.c: the record section when section= names none (by record=). */
const char *pfe_default_section(void);
/* pfe.c: whether NAME is a section or symbol name gas takes unquoted. */
bool pfe_plain_name(const char *name);
/* pfe.c: GCC's own spec of an attribute taken over (its handler after
 * ours, MAX_LENGTH arguments); GCC's handler, or NULL if it cannot be. */
typedef tree (*pfe_attribute_handler)(tree *node, tree name, tree args,
				      int flags, bool *no_add_attrs);
pfe_attribute_handler pfe_take_over_attribute(const struct attribute_spec *spec,
					      int max_length,
					      pfe_attribute_handler handler);
void pfe_register_attribute(void *event_data, void *data);

/* kcfi.c, kcfi-hash.c */
void pfe_kcfi_plan(struct pfe_plan *plan);
void pfe_kcfi_put_before_nops(FILE *out, const struct pfe_plan *plan);
void pfe_kcfi_put_after_nops(FILE *out, const struct pfe_plan *plan);
const char *pfe_kcfi_layout_refused(unsigned int pre_bytes);
void pfe_kcfi_check_options(void);
void pfe_kcfi_register(const char *plugin_name);
void pfe_kcfi_before_pass(const char *pass_name);
void pfe_kcfi_fuse_checks(void);
bool pfe_kcfi_type_hash(tree fntype, unsigned int *hash, tree *bad);
void pfe_kcfi_note_typedef(tree decl);

/* emit.c */
void pfe_emit_init(void);

/* lto.c */
void pfe_lto_start_unit(void);
void pfe_lto_register(const char *plugin_name);
void pfe_register_passes(const char *plugin_name);
int pfe_insn_code(pfe_insn insn);

#endif /* PFE_H */
