/* emit.c: put a function's plan into the assembly.
 *
 *   before the label  debug_hooks->begin_function, wrapped: GCC calls it in
 *                     assemble_start_function after the section switch and
 *                     the alignment, before .globl/.type/label, on every GCC;
 *                     the area follows GCC's own begin_function (which picks
 *                     the function's line table), with a line row at the
 *                     first NOP (GCC's first is at the label).
 *   after the label   the RTL pass "pfe_entry" (before "shorten", after the
 *                     targets' ENDBR/BTI passes) finds where the area goes:
 *                     after the landing pad insn (final prints it from the
 *                     wrapped targetm.asm_out.final_postscan_insn), or, with
 *                     none, before the first insn, from the wrapped
 *                     targetm.profile_before_prologue, which final calls
 *                     after .cfi_startproc and before -pg's call (so the
 *                     NOPs come first, as GCC 13+ put them).  Plain text,
 *                     as GCC prints its own: no #APP.
 *                     The pass also inserts (clobber (reg)) insns that tell
 *                     IPA-RA what a patched entry may write (plan->clobbers).
 *   C++ asm thunks    have no RTL: targetm.asm_out.output_mi_thunk is
 *                     wrapped and its landing pad kept first.
 *   the record        .pushsection NAME,"awo",@progbits,.LPFEn (G + comdat
 *                     group when the function has one), text, not a GCC
 *                     section object (GCC 13+ asserts on those).
 *                     record=rel32: "ao", .4byte .LPFEn - . (the call-site
 *                     records of fentry stay addresses: __mcount_loc's
 *                     readers want them).
 *   exit sleds        exits: an asm insn before each return and sibling
 *                     call, inserted by pfe_entry: .LPFXn, a NOP of the
 *                     patched call's size, its record in __pfe_exit_sleds.
 *   vector-args       a record in __pfe_vector_args, with the site's own:
 *                     the site and how much of the vector registers the
 *                     arguments use, when the target's hook knows and it
 *                     is at most their low 16 bytes.
 *   keeps-all         a record in __pfe_keeps_all, with the site's own, of
 *                     a function whose callers keep every register
 *                     (no_caller_saved_registers, interrupt): the site.
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
static bool (*gcc_profile_before_prologue)(void);
static void (*gcc_final_postscan_insn)(FILE *, pfe_insn, rtx *, int);
/* A DECL_IGNORED_P function whose flag pfe cleared so that GCC calls
 * begin_function for it; the flag is restored there. */
static tree ignored_fndecl;

/* The area after the label of the function final prints next: after the
 * insn AFTER (its landing pad), or, when AFTER is NULL, in front of its
 * first insn, with PAD (the target's landing pad text) first.  Set by the
 * pfe_entry pass, printed once, by the decl it was set for. */
static struct {
	const struct pfe_plan *plan;
	pfe_insn after;
	const char *pad;
} pending_post_area;

static void put_nops(FILE *out, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++)
		fputs(pfe_backend->nop, out);
}

/* Switch to record section SECTION, linked to LABEL's section (kept
 * and dropped with it) and in the function's COMDAT group; WRITABLE where
 * its records are addresses (relocated at load). */
static void push_record_section(FILE *out, const struct pfe_plan *plan,
				const char *section, const char *label,
				bool writable)
{
	tree group = DECL_COMDAT_GROUP(plan->decl);

	fprintf(out, "\t.pushsection\t%s,\"a%so%s\",%s,%s", section,
		writable ? "w" : "", group ? "G" : "", pfe_backend->section_type,
		label);
	if (group)
		fprintf(out, ",%s,comdat", IDENTIFIER_POINTER(group));
}

/* The N pointer-sized WORDS of the record push_record_section began,
 * then the end of its section. */
static void put_record_words(FILE *out, const char *const *words, size_t n)
{
	fprintf(out, "\n\t.p2align\t%u\n", pfe_backend->pointer_log2);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s\n", pfe_backend->pointer_op, words[i]);
	fputs("\t.popsection", out);
}

/* A record in SECTION of LABEL: LABEL's address, or with REL32 its
 * distance from the record (the link resolves it: the section needs no
 * writing at load). */
static void put_record(FILE *out, const struct pfe_plan *plan,
		       const char *section, const char *label, bool rel32)
{
	push_record_section(out, plan, section, label, !rel32);
	if (rel32)
		fprintf(out, "\n\t.p2align\t2\n\t.4byte\t%s - .\n\t.popsection",
			label);
	else
		put_record_words(out, &label, 1);
	fputc('\n', out);
}

/* The label of the function's site, what libpfe's records name it by:
 * .LPFE<n>, its first NOP, else .LPFC<n>, its fentry call. */
static void site_label(const struct pfe_plan *plan, char *label, size_t size)
{
	snprintf(label, size, plan->pre + plan->post > 0 ? ".LPFE%u" : ".LPFC%u",
		 plan->label_no);
}

/* The records that say more of the site (names.h), printed with its own:
 * keeps_all's (the site), and vector-args' (the site and the low bytes of
 * vector registers the arguments use) when the target's hook knows them
 * and they are not more than 16, none when cfun is not the function's
 * (nothing to tell). */
static void put_site_records(FILE *out, const struct pfe_plan *plan)
{
	char label[32], bytes[16];
	const char *words[] = { label, bytes };
	int n;

	site_label(plan, label, sizeof(label));
	if (plan->keeps_all) {
		push_record_section(out, plan, PFE_SECTION_KEEPS_ALL, label, true);
		put_record_words(out, words, 1);
		fputc('\n', out);
	}
	if (!plan->vector_args || !cfun || cfun->decl != plan->decl)
		return;
	n = pfe_backend->vector_arg_bytes();
	if (n != PFE_VECTOR_ARGS_NONE && n != PFE_VECTOR_ARGS_LOW16)
		return;
	snprintf(bytes, sizeof(bytes), "%d", n);
	push_record_section(out, plan, PFE_SECTION_VECTOR_ARGS, label, true);
	put_record_words(out, words, 2);
	fputc('\n', out);
}

/* The record of the NOP area and its label, .LPFE<n>, at the first NOP. */
static void put_entry_record(FILE *out, const struct pfe_plan *plan)
{
	char label[32];

	snprintf(label, sizeof(label), ".LPFE%u", plan->label_no);
	put_record(out, plan, plan->section, label,
		   pfe_opts.record == PFE_RECORD_REL32);
	put_site_records(out, plan);
	fprintf(out, "%s:\n", label);
}

/* The fentry call site: its record (record-section=) of .LPFC<n>, then the
 * call, which the target labels at its first byte. */
static void put_fentry_call(FILE *out, const struct pfe_plan *plan)
{
	char label[32];

	snprintf(label, sizeof(label), ".LPFC%u", plan->label_no);
	put_record(out, plan, pfe_opts.call_section, label, false);
	if (plan->pre + plan->post == 0)
		put_site_records(out, plan);
	pfe_backend->put_fentry_call(out, pfe_opts.fentry, label, pfe_opts.fentry_nop);
}

/* The area after the label, as text: a landing pad if the target needs
 * one in front of the NOPs, the record when no NOPs precede the label, the
 * NOPs, the fentry call. */
static void put_post_area(FILE *out, const struct pfe_plan *plan,
			  const char *pad)
{
	if (pad)
		fputs(pad, out);
	if (plan->post > 0) {
		if (plan->pre == 0)
			put_entry_record(out, plan);
		put_nops(out, plan->post);
	}
	if (plan->fentry)
		put_fentry_call(out, plan);
}

/* The log2 of the alignment the area before the label needs: 8 bytes for
 * the ops slot, the call's on a target whose call site must be aligned;
 * 0 for none. */
static unsigned int area_align_log2(const struct pfe_plan *plan)
{
	unsigned int align = plan->ops_slot ? 8 : 1;

	if (plan->fentry && pfe_backend->call_align > align)
		align = pfe_backend->call_align;
	return exact_log2(align);
}

/* A line-table row at the first pre-entry NOP, where GCC's own output has
 * none (its first row is at the label): what maps the record's address to
 * a line (addr2line, perf, uftrace's argument lookup) finds the function's
 * opening line there.  Through GCC's own hook, which keeps the file
 * numbers and location views GCC's; after its begin_function, which
 * chose the function's line table. */
static void put_first_nop_row(void)
{
	location_t loc = cfun ? cfun->function_start_locus : UNKNOWN_LOCATION;

	if (LOCATION_LINE(loc) > 0)
		pfe_debug_source_line(LOCATION_LINE(loc), LOCATION_COLUMN(loc),
				      LOCATION_FILE(loc));
}

/* Before the label: the alignment, the ops slot (the pre-entry NOPs when
 * they are its 8 bytes, else data: SYM or 0), the pre-entry NOPs, with the
 * kCFI preamble before or after them (kcfi.c). */
static void put_pre_area(FILE *out, const struct pfe_plan *plan, bool line_row)
{
	if (area_align_log2(plan))
		fprintf(out, "\t.p2align\t%u\n", area_align_log2(plan));
	if (plan->ops_slot && plan->pre == 0)
		fprintf(out, pfe_backend->slot_format,
			pfe_opts.ops_slot_value ? pfe_opts.ops_slot_value : "0");
	pfe_kcfi_put_before_nops(out, plan);
	if (plan->pre > 0) {
		if (line_row)
			put_first_nop_row();
		put_entry_record(out, plan);
		put_nops(out, plan->pre);
	}
	pfe_kcfi_put_after_nops(out, plan);
}

/* Whether GCC must call begin_function for the plan's function. */
static bool has_pre_area(const struct pfe_plan *plan)
{
	return plan->pre > 0 || area_align_log2(plan) > 0 || plan->kcfi;
}

static void pfe_begin_function(tree fndecl)
{
	const struct pfe_plan *plan = pfe_plan_for(fndecl);
	bool ignored = fndecl == ignored_fndecl;

	if (ignored) {
		DECL_IGNORED_P(fndecl) = 1;
		ignored_fndecl = NULL_TREE;
	} else {
		gcc_begin_function(fndecl);
	}
	put_pre_area(asm_out_file, plan, !ignored);
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
	return pfe_backend->is_landing_pad && pfe_insn_code(insn) >= 0 &&
	       pfe_backend->is_landing_pad(insn);
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
	/* x86 -pg -mfentry with CET: GCC holds ENDBR back to print it before
	 * its call; it goes before the NOPs instead. */
	const char *pad = pending_post_area.pad;
	if (!pad && !after && pfe_backend->take_queued_landing_pad)
		pad = pfe_backend->take_queued_landing_pad();
	put_post_area(out, plan, pad);
}

/* Final calls it (and earlier passes, with nothing pending) after
 * .cfi_startproc, before -pg's call and the first insn. */
static bool pfe_profile_before_prologue(void)
{
	put_pending_post_area(asm_out_file, NULL);
	return gcc_profile_before_prologue();
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
	pending_post_area.pad = !after_pad && first &&
				pfe_backend->displaced_landing_pad &&
				pfe_backend->displaced_landing_pad(first)
				? pfe_backend->landing_pad_text : NULL;
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
		for (unsigned int i = 0; i < pfe_backend->n_scratch; i++)
			clobber_reg_before(first, pfe_backend->scratch_regs[i]);
		return;
	}
	for (unsigned int regno = 0; regno < FIRST_PSEUDO_REGISTER; regno++)
		if (pfe_call_clobbers_reg(regno) && !fixed_regs[regno] &&
		    reg_raw_mode[regno] != VOIDmode)
			clobber_reg_before(first, regno);
}

/* exits: the sleds (names.h).  Each is an asm insn that final prints as
 * it is: the label .LPFX<n>, the target's sled NOP, its record (the
 * sled, the function's site: the label of its first NOP, else of its
 * fentry call; the kind).  Inserted by pfe_entry, after every pass that
 * moves, copies or deletes insns: each return and sibling call final
 * prints has its sled right before it. */
static unsigned int next_sled_no;

static void insert_exit_sled(const struct pfe_plan *plan, pfe_insn before,
			     int kind)
{
	char label[32], site[32], kind_word[16], *text = NULL;
	const char *words[] = { label, site, kind_word };
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	/* final prints an asm's file and line, and reads its file name
	 * unchecked: never UNKNOWN_LOCATION. */
	location_t loc = DECL_SOURCE_LOCATION(plan->decl);

	if (!out)
		pfe_fatal("pfe: %qD: out of memory", plan->decl);
	snprintf(label, sizeof(label), ".LPFX%u", next_sled_no++);
	site_label(plan, site, sizeof(site));
	snprintf(kind_word, sizeof(kind_word), "%d", kind);
	fprintf(out, "%s:\n%s", label, pfe_backend->exit_sled);
	push_record_section(out, plan, PFE_SECTION_EXITS, label, true);
	put_record_words(out, words, 3);
	fclose(out);
	if (loc == UNKNOWN_LOCATION)
		loc = BUILTINS_LOCATION;
	emit_insn_before(gen_rtx_ASM_INPUT_loc(VOIDmode, ggc_strdup(text), loc),
			 before);
	free(text);
}

static void insert_exit_sleds(const struct pfe_plan *plan)
{
	for (pfe_insn insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
		if (JUMP_P(insn) && returnjump_p(insn))
			insert_exit_sled(plan, insn, pfe_backend->exit_return_kind ?
					 pfe_backend->exit_return_kind() :
					 PFE_EXIT_RETURN);
		else if (CALL_P(insn) && SIBLING_CALL_P(insn))
			insert_exit_sled(plan, insn, PFE_EXIT_TAIL);
	}
}

static unsigned int pfe_entry_execute(void)
{
	const struct pfe_plan *plan = pfe_plan_for(current_function_decl);

	pfe_kcfi_fuse_checks();
	if (has_pre_area(plan) && DECL_IGNORED_P(current_function_decl)) {
		DECL_IGNORED_P(current_function_decl) = 0;
		ignored_fndecl = current_function_decl;
	}
	if (!plan->active)
		return 0;
	if (plan->post > 0 || plan->fentry)
		plan_post_area(plan);
	insert_entry_clobbers(plan);
	if (plan->exits)
		insert_exit_sleds(plan);
	return 0;
}

/* A line of thunk text that starts with a landing pad. */
static bool text_is_landing_pad(const char *asm_text)
{
	asm_text += strspn(asm_text, " \t");
	for (const char *const *pad = pfe_backend->landing_pads; *pad; pad++)
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

	if (plan->post == 0 && !plan->fentry) {
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
	put_post_area(out, plan, NULL);
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
	if (targetm.profile_before_prologue != pfe_profile_before_prologue) {
		gcc_profile_before_prologue = targetm.profile_before_prologue;
		targetm.profile_before_prologue = pfe_profile_before_prologue;
	}
}

/* fentry on a target where the call makes the function no leaf
 * (pfe_backend->fentry_not_leaf), as GCC's -pg does (leaf_function_p): on
 * x86 no red zone for locals, so the code is byte for byte -pg -mfentry's.
 * IRA computes crtl->is_leaf; this corrects it as reload starts, before
 * it lays out the frame.  Not as a pass of our own after "ira": the pass
 * manager may collect garbage after any pass, and IRA leaves data for
 * reload that no GC root holds (GCC 13+ marks "ira" TODO_do_not_ggc_collect;
 * a pass between them crashed GCC 12 to 16 in reload when a collection
 * ran there: pfe.compile's GC-stress test). */
static void pfe_before_pass(void *gcc_data, void *user_data ATTRIBUTE_UNUSED)
{
	const opt_pass *pass = (const opt_pass *)gcc_data;

	if (pass && pass->name)
		pfe_kcfi_before_pass(pass->name);
	if (pfe_backend->fentry_not_leaf && pass && pass->name &&
	    !strcmp(pass->name, "reload") && current_function_decl &&
	    pfe_plan_for(current_function_decl)->fentry)
		crtl->is_leaf = false;
}

static const pass_data pfe_entry_pass_data = {
	.type = RTL_PASS,
	.name = "pfe_entry",
	.optinfo_flags = OPTGROUP_NONE,
	PFE_PASS_DATA_GATE_EXECUTE
	.tv_id = TV_NONE,
	.properties_required = 0,
	.properties_provided = 0,
	.properties_destroyed = 0,
	.todo_flags_start = 0,
	.todo_flags_finish = 0,
};

/* An RTL pass running FN. */
class pfe_rtl_pass : public rtl_opt_pass {
public:
	pfe_rtl_pass(const pass_data &data, unsigned int (*fn)(void))
		: rtl_opt_pass(data, g), fn(fn) {}
	unsigned int execute(PFE_PASS_ARGS) { return fn(); }
private:
	unsigned int (*fn)(void);
};

static void register_rtl_pass(const char *plugin_name, const pass_data &data,
			      unsigned int (*fn)(void), const char *reference,
			      enum pass_positioning_ops pos)
{
	struct register_pass_info info;

	info.pass = new pfe_rtl_pass(data, fn);
	info.reference_pass_name = reference;
	info.ref_pass_instance_number = 1;
	info.pos_op = pos;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}

void pfe_register_passes(const char *plugin_name)
{
	register_rtl_pass(plugin_name, pfe_entry_pass_data, pfe_entry_execute,
			  "shorten", PASS_POS_INSERT_BEFORE);
	register_callback(plugin_name, PLUGIN_PASS_EXECUTION, pfe_before_pass, NULL);
}
