/* emit.c: put a function's plan into the assembly.
 *
 *   before the label  debug_hooks->begin_function, wrapped: GCC calls it in
 *                     assemble_start_function after the section switch and
 *                     the alignment, before .globl/.type/label, on every GCC.
 *   after the label   the RTL pass "pfe_entry" (before "shorten", after the
 *                     targets' ENDBR/BTI passes) finds where the area goes:
 *                     after the landing pad insn (final prints it from the
 *                     wrapped targetm.asm_out.final_postscan_insn), or, with
 *                     none, before the first insn (from a function_prologue
 *                     hook installed for this function only: its presence
 *                     changes where GCC puts -pg's call).  Plain text, as
 *                     GCC prints its own: inside .cfi_startproc, no #APP.
 *                     The pass also inserts (clobber (reg)) insns that tell
 *                     IPA-RA what a patched entry may write (plan->clobbers).
 *   C++ asm thunks    have no RTL: targetm.asm_out.output_mi_thunk is
 *                     wrapped and its landing pad kept first.
 *   the record        .pushsection NAME,"awo",@progbits,.LPFEn (G + comdat
 *                     group when the function has one), text, not a GCC
 *                     section object (GCC 13+ asserts on those).
 *
 * Debugging: -S shows the text; -fdump-rtl-pfe_entry the insns; a missing
 * pre area on one function means begin_function was not reached for it, a
 * missing post area that final never printed the insn it follows.
 */
#include "pfe.h"

static void (*gcc_begin_function)(tree);
static struct gcc_debug_hooks pfe_debug_hooks;
static void (*gcc_output_mi_thunk)(FILE *, tree, HOST_WIDE_INT, HOST_WIDE_INT,
				   tree);
static void (*gcc_function_prologue)(FILE * PFE_PROLOGUE_PARAMS);
static void (*gcc_final_postscan_insn)(FILE *, pfe_insn, rtx *, int);
/* A DECL_IGNORED_P function whose flag pfe cleared so that GCC calls
 * begin_function for it; the flag is restored there. */
static tree ignored_fndecl;

/* The area after the label of the function final prints next: after the
 * insn AFTER (its landing pad), or, when AFTER is NULL, in front of its
 * first insn, with the target's landing pad first when ADD_PAD.  Set by
 * the pfe_entry pass, printed once, by the decl it was set for. */
static struct {
	const struct pfe_plan *plan;
	pfe_insn after;
	bool add_pad;
} pending_post_area;

static void put_nops(FILE *out, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++)
		fputs(pfe_arch->nop, out);
}

/* The record and the label it points to: the start of the NOP area. */
static void put_record_and_label(FILE *out, const struct pfe_plan *plan)
{
	tree group = DECL_COMDAT_GROUP(plan->decl);

	fprintf(out, "\t.pushsection\t%s,\"awo%s\",%s,.LPFE%u", plan->section,
		group ? "G" : "", pfe_arch->section_type, plan->label_no);
	if (group)
		fprintf(out, ",%s,comdat", IDENTIFIER_POINTER(group));
	fprintf(out, "\n\t.p2align\t%u\n%s.LPFE%u\n\t.popsection\n.LPFE%u:\n",
		pfe_arch->pointer_log2, pfe_arch->pointer_op, plan->label_no,
		plan->label_no);
}

/* The area after the label, as text (only called when plan->post > 0): a
 * landing pad if the target needs one in front of the NOPs, the record
 * when no NOPs precede the label, the NOPs. */
static void put_post_area(FILE *out, const struct pfe_plan *plan, bool pad)
{
	if (pad)
		fputs(pfe_arch->landing_pad_text, out);
	if (plan->pre == 0)
		put_record_and_label(out, plan);
	put_nops(out, plan->post);
}

static void pfe_begin_function(tree fndecl)
{
	const struct pfe_plan *plan = pfe_plan_for(fndecl);

	if (plan->pre > 0) {
		put_record_and_label(asm_out_file, plan);
		put_nops(asm_out_file, plan->pre);
	}
	if (fndecl == ignored_fndecl) {
		DECL_IGNORED_P(fndecl) = 1;
		ignored_fndecl = NULL_TREE;
		return;
	}
	gcc_begin_function(fndecl);
}

/* The insn code of INSN (recognizing it if need be), or -1 for anything
 * that is not a plain recognizable insn.  Arch hooks compare it with
 * CODE_FOR_* values.  (Reading an insn's output template instead is not
 * safe: many templates are C code that needs extracted operands.) */
int pfe_insn_code(pfe_insn insn)
{
	if (!NONJUMP_INSN_P(insn) || GET_CODE(PATTERN(insn)) == ASM_INPUT ||
	    GET_CODE(PATTERN(insn)) == USE || GET_CODE(PATTERN(insn)) == CLOBBER)
		return -1;
	return pfe_recog_memoized(insn);
}

static bool insn_is_landing_pad(pfe_insn insn)
{
	return pfe_arch->is_landing_pad && pfe_insn_code(insn) >= 0 &&
	       pfe_arch->is_landing_pad(insn);
}

/* The first insn that will produce code or a label, or NULL (a body
 * that is only __builtin_unreachable ()). */
static pfe_insn first_code_insn(void)
{
	pfe_insn insn;

	for (insn = get_insns(); insn; insn = NEXT_INSN(insn))
		if (NONDEBUG_INSN_P(insn) || LABEL_P(insn))
			break;
	return insn;
}

/* Where the entry's insns go: before the first code insn, else before the
 * function's notes. */
static pfe_insn entry_insertion_point(void)
{
	pfe_insn first = first_code_insn();

	return first ? first : get_insns();
}

/* Print the pending area if final is at the place it was planned for. */
static void put_pending_post_area(FILE *out, pfe_insn after)
{
	const struct pfe_plan *plan = pending_post_area.plan;

	if (!plan || plan->decl != current_function_decl ||
	    pending_post_area.after != after)
		return;
	pending_post_area.plan = NULL;
	put_post_area(out, plan, pending_post_area.add_pad);
}

static void pfe_function_prologue(FILE *out PFE_PROLOGUE_PARAMS)
{
	targetm.asm_out.function_prologue = gcc_function_prologue;
	put_pending_post_area(out, NULL);
	gcc_function_prologue(out PFE_PROLOGUE_ARGS);
}

static void pfe_final_postscan_insn(FILE *out, pfe_insn insn, rtx *ops,
				    int n_ops)
{
	if (gcc_final_postscan_insn)
		gcc_final_postscan_insn(out, insn, ops, n_ops);
	put_pending_post_area(out, insn);
}

/* Plan where final prints the area after the label. */
static void plan_post_area(const struct pfe_plan *plan)
{
	pfe_insn first = first_code_insn();
	bool after_pad = first && insn_is_landing_pad(first);

	pending_post_area.plan = plan;
	pending_post_area.after = after_pad ? first : NULL;
	pending_post_area.add_pad = !after_pad && first &&
				    pfe_arch->displaced_landing_pad &&
				    pfe_arch->displaced_landing_pad(first);
	if (!after_pad)
		targetm.asm_out.function_prologue = pfe_function_prologue;
}

static void clobber_reg_before(pfe_insn where, unsigned int regno)
{
	rtx reg = gen_rtx_REG(reg_raw_mode[regno], regno);

	emit_insn_before(gen_rtx_CLOBBER(VOIDmode, reg), where);
}

/* IPA-RA: the registers a patched entry may write, as (clobber (reg))
 * insns.  Inserted after reload's DCE, so they survive to the end of final,
 * where collect_fn_hard_reg_usage counts them with the body's own writes
 * (GCC 4.9 to 16).  With the whole ABI set the function records no usage
 * of its own, and callers assume the ABI's clobbers, as for a call they
 * cannot see.  Fixed registers (x86 and aarch64 flags, the stack
 * pointer) are counted as used by GCC itself; a register without a raw mode
 * holds nothing a caller could keep. */
static void insert_entry_clobbers(const struct pfe_plan *plan)
{
	pfe_insn first = entry_insertion_point();

	if (plan->clobbers == PFE_CLOBBERS_SCRATCH) {
		for (unsigned int i = 0; i < pfe_arch->n_scratch; i++)
			clobber_reg_before(first, pfe_arch->scratch_regs[i]);
		return;
	}
	for (unsigned int regno = 0; regno < FIRST_PSEUDO_REGISTER; regno++)
		if (pfe_call_clobbers_reg(regno) && !fixed_regs[regno] &&
		    reg_raw_mode[regno] != VOIDmode)
			clobber_reg_before(first, regno);
}

static unsigned int pfe_entry_execute(void)
{
	const struct pfe_plan *plan = pfe_plan_for(current_function_decl);

	if (plan->pre + plan->post == 0)
		return 0;
	if (plan->post > 0)
		plan_post_area(plan);
	insert_entry_clobbers(plan);
	if (plan->pre > 0 && DECL_IGNORED_P(current_function_decl)) {
		DECL_IGNORED_P(current_function_decl) = 0;
		ignored_fndecl = current_function_decl;
	}
	return 0;
}

/* A line of thunk text that starts with a landing pad. */
static bool text_is_landing_pad(const char *asm_text)
{
	asm_text += strspn(asm_text, " \t");
	for (const char *const *pad = pfe_arch->landing_pads; *pad; pad++)
		if (!strncmp(asm_text, *pad, strlen(*pad)))
			return true;
	return false;
}

/* The text just after the line "NAME:" in TEXT, or TEXT itself.  Since
 * GCC 4.9 (at least up to 16) the target's output_mi_thunk prints the
 * function's start, pre area included, itself. */
static const char *after_label(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *line = text; *line;) {
		const char *eol = strchrnul(line, '\n');
		if ((size_t)(eol - line) == n + 1 && !strncmp(line, name, n) &&
		    line[n] == ':')
			return *eol ? eol + 1 : eol;
		line = *eol ? eol + 1 : eol;
	}
	return text;
}

/* Where the area goes in a thunk's text: after its label and the
 * directives and labels that follow it (.LFB, .cfi_startproc), and after
 * a landing pad. */
static const char *thunk_area_position(const char *text, const char *name)
{
	const char *line = after_label(text, name);

	while (*line) {
		const char *eol = strchrnul(line, '\n');
		const char *s = line + strspn(line, " \t");
		bool is_label = eol > s && eol[-1] == ':';
		if (*s != '.' && *s != '#' && s != eol && !is_label) {
			if (text_is_landing_pad(s))
				return *eol ? eol + 1 : eol;
			return line;
		}
		line = *eol ? eol + 1 : eol;
	}
	return line;
}

/* C++ thunks printed by the target (no RTL passes run for them): capture
 * the text and put the area in as for any other function. */
static void pfe_output_mi_thunk(FILE *out, tree thunk, HOST_WIDE_INT delta,
				HOST_WIDE_INT vcall_offset, tree function)
{
	const struct pfe_plan *plan = pfe_plan_for(thunk);
	char *text = NULL;
	size_t len = 0;
	FILE *buf;

	if (plan->post == 0) {
		gcc_output_mi_thunk(out, thunk, delta, vcall_offset, function);
		return;
	}
	if (!(buf = open_memstream(&text, &len)))
		pfe_fatal("pfe: %qD: out of memory", thunk);
	/* The target runs final() on the thunk's insns, which prints to
	 * asm_out_file, not only to its FILE argument. */
	asm_out_file = buf;
	gcc_output_mi_thunk(buf, thunk, delta, vcall_offset, function);
	asm_out_file = out;
	fclose(buf);

	const char *name = targetm.strip_name_encoding(
		IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(thunk)));
	const char *pos = thunk_area_position(text, name);
	fwrite(text, 1, pos - text, out);
	put_post_area(out, plan, false);
	fputs(pos, out);
	free(text);
}

/* PLUGIN_START_UNIT: process_options has chosen debug_hooks by now. */
void pfe_emit_init(void)
{
	if (debug_hooks->begin_function != pfe_begin_function) {
		pfe_debug_hooks = *debug_hooks;
		gcc_begin_function = debug_hooks->begin_function;
		pfe_debug_hooks.begin_function = pfe_begin_function;
		debug_hooks = &pfe_debug_hooks;
	}
	if (targetm.asm_out.output_mi_thunk != pfe_output_mi_thunk) {
		gcc_output_mi_thunk = targetm.asm_out.output_mi_thunk;
		targetm.asm_out.output_mi_thunk = pfe_output_mi_thunk;
	}
	if (targetm.asm_out.final_postscan_insn != pfe_final_postscan_insn) {
		gcc_final_postscan_insn = targetm.asm_out.final_postscan_insn;
		targetm.asm_out.final_postscan_insn = pfe_final_postscan_insn;
	}
	if (targetm.asm_out.function_prologue != pfe_function_prologue)
		gcc_function_prologue = targetm.asm_out.function_prologue;
}

static const pass_data pfe_entry_pass_data = {
	RTL_PASS,		/* type */
	"pfe_entry",		/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	PFE_PASS_DATA_GATE_EXECUTE
	TV_NONE,		/* tv_id */
	0,			/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	0,			/* todo_flags_finish */
};

class pfe_entry_pass : public rtl_opt_pass {
public:
	pfe_entry_pass() : rtl_opt_pass(pfe_entry_pass_data, g) {}
	unsigned int execute(PFE_PASS_ARGS) { return pfe_entry_execute(); }
};

void pfe_register_entry_pass(const char *plugin_name)
{
	struct register_pass_info info;

	info.pass = new pfe_entry_pass();
	info.reference_pass_name = "shorten";
	info.ref_pass_instance_number = 1;
	info.pos_op = PASS_POS_INSERT_BEFORE;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
