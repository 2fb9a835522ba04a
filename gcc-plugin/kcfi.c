/* kcfi.c: kCFI (cfi=kcfi): type hashes before entries, checks before
 * indirect calls, as Clang 16's -fsanitize=kcfi does, on any GCC.
 *
 *   the hash     every function that may be called indirectly (address
 *                taken or visible outside the unit) carries the 32-bit hash
 *                of its type (kcfi-hash.c) before its entry, spelt by the
 *                target (arch-hooks/: x86 "__cfi_<name>:" NOPs and
 *                "movl $hash, %eax", else ".word hash").  Layout clang: the
 *                hash before the N pre-entry NOPs; fixed: after them, right
 *                before the entry.  Printed from emit.c's pre area.
 *   the check    a GIMPLE pass after "optimized" (the last one: what is
 *                still an indirect call now is one in the code) puts a
 *                volatile asm before each indirect call through a
 *                prototyped function type: it loads the word at the
 *                layout's offset before the target (the pointer is the
 *                asm's "r" input and the call's operand, one SSA name) and
 *                traps unless it is the hash of the call's type; the trap
 *                is recorded in .kcfi_traps where Clang records it.  Calls
 *                of known functions (direct, __builtin) are not checked,
 *                nor any call written in a function with no_sanitize_kcfi
 *                (a call inlined into one from a checked function is
 *                checked, as Clang keeps it).
 *   typeids      __kcfi_typeid_<name> = hash for each function declared,
 *                not defined, here whose address is taken (as Clang: for
 *                assembler functions called indirectly).
 *
 * Debugging: -S shows the preamble and the checks (asm statements: between
 * #APP and #NO_APP);
 * -fdump-tree-pfe_kcfi shows the asm statements; PFE_KCFI_DEBUG=1 prints
 * every mangled type string hashed.
 */
#define PFE_NEED_GIMPLE
#include "pfe.h"

#define PFE_NO_KCFI_ATTR "no_sanitize_kcfi"

static bool layout_fixed(void)
{
	return pfe_opts.cfi_layout == PFE_CFI_LAYOUT_FIXED;
}

/* How many bytes before its entry a function's hash ends, as the checks of
 * a function padded with PRE_BYTES before its entry expect it (Clang: the
 * caller's own pre-entry NOPs). */
static unsigned int hash_offset(unsigned int pre_bytes)
{
	return layout_fixed() ? 4 : 4 + pre_bytes;
}

/* Why PRE_BYTES of NOPs before the entry do not go with cfi=kcfi, or NULL:
 * the check's load cannot reach that far (aarch64 LDUR: 256 bytes). */
const char *pfe_kcfi_layout_refused(unsigned int pre_bytes)
{
	if (pfe_opts.cfi == PFE_CFI_NONE || !pfe_backend->put_kcfi_hash ||
	    hash_offset(pre_bytes) <= pfe_backend->kcfi_max_offset)
		return NULL;
	return "cfi=kcfi: the hash before that many NOPs is out of the "
	       "check's reach (use cfi-layout=fixed)";
}

/* C11's DR 423, which GCC applies from -std=c11/gnu11 on (the kernel's
 * gnu11 too): grokdeclarator takes the qualifiers but _Atomic off a
 * function's return type as it builds the function type, and GCC shares
 * that type with the unqualified one (const unsigned (unsigned) is the
 * node of unsigned (unsigned)).  No plugin event comes between, and no
 * trace stays: not in the type, its pointers, the decl or its
 * DECL_RESULT.  Clang keeps the qualifiers in the hash, so such a type
 * would hash unlike Clang's.  What GCC does give at that very point is
 * -Wignored-qualifiers, "type qualifiers ignored on function return type"
 * (the option's only use in GCC 12's C front end; it fires for _Atomic
 * alone too, which GCC keeps): pfe makes it an error there, as -Werror=
 * after every option would.  -w would silence it: refused.  Not seen: a
 * declaration where "#pragma GCC diagnostic" makes it a warning or
 * ignores it, and system headers, where GCC reports no warning. */
extern int flag_isoc11 __attribute__((weak));	/* c-family: not in lto1 */

static void refuse_dropped_return_qualifiers(void)
{
	if (!&flag_isoc11 || !flag_isoc11)
		return;
	if (inhibit_warnings)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi=kcfi%> does not go with "
			  "%<-w%> from C11 on: GCC drops the qualifiers of a "
			  "return type of a function (DR 423), which Clang hashes, "
			  "and %<-Wignored-qualifiers%> is how pfe refuses them");
	warn_ignored_qualifiers = 1;
	pfe_make_warning_error(OPT_Wignored_qualifiers);
}

/* The arguments that do not go with cfi=kcfi: fatal errors naming both. */
void pfe_kcfi_check_options(void)
{
	if (pfe_opts.cfi == PFE_CFI_NONE) {
		if (pfe_opts.cfi_layout_given)
			pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi-layout%> without "
				  "%<-fplugin-arg-pfe-cfi%>");
		if (pfe_opts.cfi_arity)
			pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi-arity%> without "
				  "%<-fplugin-arg-pfe-cfi%>");
		if (pfe_opts.cfi_normalize_integers)
			pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi-normalize-integers%> "
				  "without %<-fplugin-arg-pfe-cfi%>");
		return;
	}
	if (!pfe_backend->put_kcfi_hash)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi=kcfi%> is not supported "
			  "for i386 (Clang has kCFI for %s only)", "x86_64");
	/* The checks go in after "optimized", which an LTO compile never
	 * reaches, and the link has only GIMPLE types, not the C ones the
	 * hashes are of. */
	if (flag_lto)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi=kcfi%> does not go with "
			  "%<-flto%> (the hashes are of C types, which the link "
			  "no longer has): compile without %<-flto%>");
	if (strncmp(lang_hooks.name, "GNU C", 5) || lang_hooks.name[5] == '+')
		pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi=kcfi%> is for C, not %s "
			  "(its types would hash as C types, unlike those of Clang)",
			  lang_hooks.name);
	if (pfe_opts.cfi_arity && !pfe_backend->kcfi_arity)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi-arity%> is for %s only (as "
			  "%<-fsanitize-kcfi-arity%> of Clang 21)", "x86_64");
	/* The ops slot goes before the hash, which stays right before the
	 * entry (arm64's CALL_OPS with kCFI): the fixed layout, where the
	 * hash is a data word (x86's is the __cfi_ preamble's code). */
	if (pfe_opts.ops_slot && pfe_backend->kcfi_symbol)
		pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi=kcfi%> and "
			  "%<-fplugin-arg-pfe-ops-slot%> are for %s and %s only "
			  "(where the hash is a word that the slot can precede)",
			  "aarch64", "riscv64");
	if (pfe_opts.ops_slot && !layout_fixed())
		pfe_fatal("pfe: %<-fplugin-arg-pfe-cfi=kcfi%> and "
			  "%<-fplugin-arg-pfe-ops-slot%> want "
			  "%<-fplugin-arg-pfe-cfi-layout=fixed%> (the slot, then "
			  "the hash, then the entry)");
	refuse_dropped_return_qualifiers();
}

/* Report that TYPE (part of FNTYPE, the type of WHAT) has no Clang hash. */
static void report_unhashable(location_t loc, tree bad, tree fntype,
			      const char *what)
{
	error_at(loc, "pfe: cfi=kcfi: no Clang-compatible type hash for %qT "
		 "(in %qT, %s)", bad, fntype, what);
}

/* The type each function's definition declared, merged with the
 * declarations before it only: Clang hashes that type, while GCC's decl
 * takes the composite of every declaration, later ones too (int f() {...}
 * then int f(void); is FivE for the decl, FiE for Clang; so is an array
 * or a function pointer parameter a later declaration completes).  A
 * TREE_LIST (decl, type), a GC root: the type may be no one else's once a
 * later declaration has replaced it. */
static tree definition_types;

static const struct ggc_root_tab kcfi_roots[] = {
	{ &definition_types, 1, sizeof(definition_types), &gt_ggc_mx_tree_node,
	  &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

/* PLUGIN_FINISH_PARSE_FUNCTION: the type the definition declared. */
static void kcfi_finish_parse_function(void *event_data, void *data)
{
	tree decl = (tree)event_data;

	(void)data;
	if (decl && TREE_CODE(decl) == FUNCTION_DECL)
		definition_types = tree_cons(decl, TREE_TYPE(decl), definition_types);
}

/* The type DECL's definition declared, or its type if not seen. */
static tree definition_type(tree decl)
{
	for (tree t = definition_types; t; t = TREE_CHAIN(t))
		if (TREE_PURPOSE(t) == decl)
			return TREE_VALUE(t);
	return TREE_TYPE(decl);
}

/* The type Clang hashes for function DECL, defined here: the one its
 * definition declared (above), but for a K&R definition with parameters
 * (int f(a) char a; {...}), which Clang hashes as the prototype it
 * implies: each parameter's promoted type (GCC's DECL_ARG_TYPE: char and
 * short int, float double; an enum of int's size or more, which GCC
 * keeps, the integer type Clang promotes it to: the one of its size and
 * signedness), no "v" nor "z" (FiiE).  int f() {...} stays unprototyped
 * (FiE), as in Clang. */
static tree hashed_type(tree decl)
{
	tree fntype = definition_type(decl), args = NULL_TREE, *tail = &args;

	if (TYPE_ARG_TYPES(fntype) || pfe_no_named_args_stdarg_p(fntype) ||
	    !DECL_ARGUMENTS(decl))
		return fntype;
	for (tree parm = DECL_ARGUMENTS(decl); parm; parm = DECL_CHAIN(parm)) {
		tree type = DECL_ARG_TYPE(parm);

		if (TREE_CODE(type) == ENUMERAL_TYPE)
			type = lang_hooks.types.type_for_size(TYPE_PRECISION(type),
							      TYPE_UNSIGNED(type));
		*tail = build_tree_list(NULL_TREE, type);
		tail = &TREE_CHAIN(*tail);
	}
	*tail = void_list_node;
	return build_function_type(TREE_TYPE(fntype), args);
}

/* plan.c: the preamble of PLAN's function, and its hash when it may be
 * called indirectly. */
void pfe_kcfi_plan(struct pfe_plan *plan)
{
	tree bad;

	if (pfe_opts.cfi == PFE_CFI_NONE)
		return;
	plan->kcfi = true;
	plan->kcfi_hashed = pfe_may_be_called_indirectly(plan->decl);
	/* A pointer to a GNU C nested function that uses its parent's frame
	 * points at a trampoline, which has no hash: every checked call of
	 * it would trap.  (Clang has no nested functions.) */
	if (plan->kcfi_hashed && DECL_STATIC_CHAIN(plan->decl))
		error_at(DECL_SOURCE_LOCATION(plan->decl), "pfe: cfi=kcfi: the "
			 "address of nested function %qD is taken: calls through "
			 "its trampoline would find no type hash and trap",
			 plan->decl);
	if (plan->kcfi_hashed &&
	    !pfe_kcfi_type_hash(hashed_type(plan->decl), &plan->kcfi_hash, &bad))
		report_unhashable(DECL_SOURCE_LOCATION(plan->decl), bad,
				  TREE_TYPE(plan->decl), "the type of a function "
				  "that may be called indirectly");
}

/* NOPs filling BYTES. */
static void put_pad(FILE *out, unsigned int bytes)
{
	for (unsigned int i = 0; i < bytes / pfe_backend->nop_size; i++)
		fputs(pfe_backend->nop, out);
}

/* The function's name, as the assembler sees it. */
static const char *function_name(tree decl)
{
	return targetm.strip_name_encoding(
		IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl)));
}

/* __cfi_<name>: with the function's binding (Clang: its linkage only). */
static void put_cfi_symbol(FILE *out, tree decl)
{
	const char *name = function_name(decl);

	if (DECL_WEAK(decl))
		fprintf(out, "\t.weak\t" PFE_KCFI_PREAMBLE_PREFIX "%s\n", name);
	else if (TREE_PUBLIC(decl))
		fprintf(out, "\t.globl\t" PFE_KCFI_PREAMBLE_PREFIX "%s\n", name);
	fprintf(out, "\t.type\t" PFE_KCFI_PREAMBLE_PREFIX "%s, %s\n"
		PFE_KCFI_PREAMBLE_PREFIX "%s:\n", name,
		strcmp(pfe_backend->section_type, "@progbits") ? "%function"
							   : "@function", name);
}

/* kcfi-arity, of the function being compiled: whether it calls va_start
 * (seen by the checks' GIMPLE pass), then its arity, computed before
 * pro_and_epilogue (the dataflow is the final one for its arguments, and
 * still there), for put_hash, which runs after the RTL passes. */
static struct {
	tree decl;
	bool va_start;
	int arity;
} arity_seen;

/* Before pro_and_epilogue: the arity of the function being compiled. */
static void note_arity(void)
{
	tree decl = current_function_decl;

	if (!pfe_plan_for(decl)->kcfi_hashed)
		return;
	if (arity_seen.decl != decl)
		arity_seen.va_start = false;
	arity_seen.decl = decl;
	arity_seen.arity = pfe_backend->kcfi_arity(arity_seen.va_start);
}

/* The arity put_hash encodes for PLAN's function: -1 without kcfi-arity;
 * 7 (any register may hold an argument) if it had no RTL passes. */
static int arity_of(const struct pfe_plan *plan)
{
	if (!pfe_opts.cfi_arity)
		return -1;
	return arity_seen.decl == plan->decl ? arity_seen.arity : 7;
}

/* The hash, after PAD bytes of NOPs, labelled __cfi_<name> on x86. */
static void put_hash(FILE *out, const struct pfe_plan *plan, unsigned int pad)
{
	if (pfe_backend->kcfi_symbol)
		put_cfi_symbol(out, plan->decl);
	put_pad(out, pad);
	pfe_backend->put_kcfi_hash(out, plan->kcfi_hash, arity_of(plan));
	if (pfe_backend->kcfi_symbol)
		fprintf(out, "\t.size\t" PFE_KCFI_PREAMBLE_PREFIX "%s, .-"
			PFE_KCFI_PREAMBLE_PREFIX "%s\n",
			function_name(plan->decl), function_name(plan->decl));
}

/* The NOP bytes that keep the entry aligned after the hash (if any) and
 * PLAN's pre-entry NOPs, and where Clang has them (x86; the fixed layout
 * everywhere, for the hash). */
static unsigned int pad_bytes(const struct pfe_plan *plan)
{
	unsigned int align = 1u << pfe_backend->kcfi_align_log2();
	unsigned int used = plan->pre * pfe_backend->nop_size +
			    (plan->kcfi_hashed ? pfe_backend->kcfi_hash_size : 0);

	if (!pfe_backend->kcfi_pad && !(plan->kcfi_hashed && layout_fixed()))
		return 0;
	return (align - used % align) % align;
}

/* emit.c, before the pre-entry NOPs: the alignment, then the padding and,
 * in the clang layout, the hash. */
void pfe_kcfi_put_before_nops(FILE *out, const struct pfe_plan *plan)
{
	if (!plan->kcfi || (!plan->kcfi_hashed && !pfe_backend->kcfi_pad))
		return;
	/* The ops slot's alignment is the hash's too (and a second one
	 * would be a second padding in a riscv object, trimmed only when
	 * linked: slot and hash apart until then). */
	if (pfe_backend->kcfi_align_log2() && !plan->ops_slot)
		fprintf(out, "\t.p2align\t%u\n", pfe_backend->kcfi_align_log2());
	if (plan->kcfi_hashed && !layout_fixed())
		put_hash(out, plan, pad_bytes(plan));
	else
		put_pad(out, pad_bytes(plan));
}

/* emit.c, after the pre-entry NOPs: the hash in the fixed layout; with the
 * ops slot, a zero word in place of a hash (a function no pointer may
 * reach), so that every slot is at the same distance before its entry. */
void pfe_kcfi_put_after_nops(FILE *out, const struct pfe_plan *plan)
{
	if (!plan->kcfi || !layout_fixed())
		return;
	if (plan->kcfi_hashed)
		put_hash(out, plan, 0);
	else if (plan->ops_slot)
		pfe_backend->put_kcfi_hash(out, 0, -1);
}

/* The .kcfi_traps entry of the trap at .Lkcfi_trap%=: its offset from the
 * entry, in a section linked to the function's, in its COMDAT group. */
static void put_trap_record(FILE *out)
{
	tree group = DECL_COMDAT_GROUP(current_function_decl);

	fprintf(out, "\t.pushsection\t" PFE_SECTION_KCFI_TRAPS ",\"ao%s\",%s,.Lkcfi_trap%%=",
		group ? "G" : "", pfe_backend->section_type);
	if (group)
		fprintf(out, ",%s,comdat", IDENTIFIER_POINTER(group));
	fprintf(out, "\n.Lkcfi_entry%%=:\n%s.Lkcfi_trap%%=-.Lkcfi_entry%%=\n"
		"\t.popsection\n", pfe_backend->kcfi_trap_word);
}

/* The asm template of a check against HASH at OFFSET; free it. */
static char *check_template(unsigned int hash, unsigned int offset)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		pfe_fatal("pfe: out of memory");
	pfe_backend->put_kcfi_check(out, hash, offset);
	if (pfe_backend->kcfi_trap_word)
		put_trap_record(out);
	fputs(".Lkcfi_pass%=:", out);
	fclose(out);
	/* GCC prints a tab before the template: the first line has its own. */
	if (text[0] == '\t')
		memmove(text, text + 1, strlen(text));
	return text;
}

static tree string_tree(const char *s)
{
	return build_string(strlen(s) + 1, s);
}

/* Before CALL (at GSI): the check of its target against HASH, the target
 * in one SSA name that the asm reads and the call calls. */
static void insert_check(gimple_stmt_iterator *gsi, pfe_gimple call,
			 unsigned int hash, unsigned int offset)
{
	tree fn = gimple_call_fn(call);
	vec<tree, va_gc> *inputs = NULL, *clobbers = NULL;

	if (TREE_CODE(fn) != SSA_NAME) {
		tree tmp = make_ssa_name(TREE_TYPE(fn), NULL);
		gsi_insert_before(gsi, gimple_build_assign(tmp, fn), GSI_SAME_STMT);
		pfe_call_set_fn(call, tmp);
		update_stmt(call);
		fn = tmp;
	}
	vec_safe_push(inputs, build_tree_list(build_tree_list(NULL_TREE,
							      string_tree("r")), fn));
	for (const char *const *reg = pfe_backend->kcfi_clobbers; *reg; reg++)
		vec_safe_push(clobbers, build_tree_list(NULL_TREE, string_tree(*reg)));
	char *text = check_template(hash, offset);
	pfe_gimple check = pfe_build_volatile_asm(text, inputs, clobbers);
	free(text);
	gimple_set_location(check, gimple_location(call));
	gsi_insert_before(gsi, check, GSI_SAME_STMT);
	update_stmt(check);
}

/* An indirect call Clang checks: not of a known function, nor internal,
 * through a prototyped function type (Clang checks no call of an
 * unprototyped one, int (*)()). */

/* --- Each check fused with its call (RTL) ---------------------------------
 *
 * The check goes in as an asm before the call (above), but the register
 * allocator may spill the target after it and reload it before the call
 * (seen across the memcpy of a struct argument, aarch64 and x86_64): an
 * attacker who can write that stack slot would pass the check with one
 * function and call another.  Clang emits check and call as one bundle.
 * pfe pairs each check with its call before register allocation (the call
 * goes through the very pseudo the check read), and after it moves the
 * check right before the call, onto the register the call goes through:
 * nothing but a register move may come between them.  Where the call's
 * target is in a register the check writes, it is checked in the target's
 * spare register (kcfi_spare_reg) and moved back; where the call reads it
 * from memory (x86 call *mem), or the target wants every checked call in
 * the spare register (x86_64, kcfi_call_through_spare), it is loaded into
 * the spare register, checked, and the call goes through that register. */

/* The first part of PATTERN (an asm with clobbers, a call, is a PARALLEL
 * of it and the rest). */
static rtx first_part(rtx pattern)
{
	return GET_CODE(pattern) == PARALLEL ? XVECEXP(pattern, 0, 0) : pattern;
}

/* The check asm of INSN (its ASM_OPERANDS), or NULL_RTX. */
static rtx check_of(pfe_insn insn)
{
	rtx x = NONJUMP_INSN_P(insn) ? first_part(PATTERN(insn)) : NULL_RTX;

	if (!x || GET_CODE(x) != ASM_OPERANDS || ASM_OPERANDS_INPUT_LENGTH(x) != 1 ||
	    !strstr(ASM_OPERANDS_TEMPLATE(x), ".Lkcfi_pass%="))
		return NULL_RTX;
	return x;
}

/* Where in INSN, an indirect call, its target is (a register or memory);
 * NULL if INSN is not an indirect call. */
static rtx *indirect_target(pfe_insn insn)
{
	rtx x;

	if (!CALL_P(insn))
		return NULL;
	x = first_part(PATTERN(insn));
	if (GET_CODE(x) == SET)
		x = SET_SRC(x);
	if (GET_CODE(x) != CALL || !MEM_P(XEXP(x, 0)) ||
	    GET_CODE(XEXP(XEXP(x, 0), 0)) == SYMBOL_REF)
		return NULL;
	return &XEXP(XEXP(x, 0), 0);
}

/* The checks of the function being compiled and their calls, by insn
 * uid (insns may be deleted in between; uids are never reused). */
struct check_pair {
	int check, call;
};

static struct {
	tree decl;
	size_t n, cap;
	struct check_pair *pairs;
} paired;

static void add_pair(pfe_insn check, pfe_insn call)
{
	if (paired.n == paired.cap) {
		paired.cap = paired.cap ? 2 * paired.cap : 16;
		paired.pairs = XRESIZEVEC(struct check_pair, paired.pairs, paired.cap);
	}
	paired.pairs[paired.n].check = INSN_UID(check);
	paired.pairs[paired.n].call = INSN_UID(call);
	paired.n++;
}

/* Before register allocation: each check and the first indirect call
 * after it through the register the check reads. */
static void pair_checks(void)
{
	paired.decl = current_function_decl;
	paired.n = 0;
	for (pfe_insn insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
		rtx check = check_of(insn);

		for (pfe_insn call = insn; check && (call = NEXT_INSN(call)) && !check_of(call);) {
			rtx *target = indirect_target(call);

			if (target && rtx_equal_p(*target, ASM_OPERANDS_INPUT(check, 0))) {
				add_pair(insn, call);
				break;
			}
		}
	}
}

/* The check CHECK makes, on register REG, before INSN. */
static void emit_check_before(pfe_insn check, rtx reg, pfe_insn insn)
{
	rtx pattern = copy_rtx(PATTERN(check));
	ASM_OPERANDS_INPUT(first_part(pattern), 0) = reg;
	INSN_LOCATION(emit_insn_before(pattern, insn)) = INSN_LOCATION(check);
}

/* Whether CHECK writes REG (one of its clobbers). */
static bool check_writes(pfe_insn check, rtx reg)
{
	rtx pattern = PATTERN(check);

	for (int i = 1; GET_CODE(pattern) == PARALLEL && i < XVECLEN(pattern, 0); i++) {
		rtx x = XVECEXP(pattern, 0, i);

		if (GET_CODE(x) == CLOBBER && reg_overlap_mentioned_p(XEXP(x, 0), reg))
			return true;
	}
	return false;
}

/* CALL, whose target is at TARGET (memory or another register), made to
 * load it into REG first and go through REG; false if the target has no
 * such call. */
static bool call_through(pfe_insn call, rtx *target, rtx reg)
{
	rtx mem = *target;

	*target = reg;
	INSN_CODE(call) = -1;
	if (pfe_recog_memoized(call) < 0) {
		*target = mem;
		INSN_CODE(call) = -1;
		pfe_recog_memoized(call);
		return false;
	}
	emit_insn_before(pfe_gen_set(reg, mem), call);
	return true;
}

/* After register allocation: CHECK moved right before CALL (above). */
static void fuse(pfe_insn check, pfe_insn call)
{
	rtx *target = indirect_target(call);
	rtx spare = gen_rtx_REG(Pmode, decode_reg_name(pfe_backend->kcfi_spare_reg));

	if (!target)
		return;
	if (!REG_P(*target) || (pfe_backend->kcfi_call_through_spare &&
				REGNO(*target) != REGNO(spare))) {
		if (!call_through(call, target, spare)) {
			error("pfe: cfi=kcfi: the indirect call in %qD cannot go "
			      "through %s, where its checked target would be",
			      current_function_decl, pfe_backend->kcfi_spare_reg);
			return;
		}
		emit_check_before(check, spare, call);
	} else if (check_writes(check, *target)) {
		emit_insn_before(pfe_gen_set(spare, *target), call);
		emit_check_before(check, spare, call);
		emit_insn_before(pfe_gen_set(*target, spare), call);
	} else {
		emit_check_before(check, *target, call);
	}
	delete_insn(check);
}

/* The insn of uid UID from INSN on, or NULL. */
static pfe_insn insn_by_uid(pfe_insn insn, int uid)
{
	while (insn && INSN_UID(insn) != uid)
		insn = NEXT_INSN(insn);
	return insn;
}

/* emit.c, after register allocation (pfe_entry): every check paired
 * before it fused with its call. */
void pfe_kcfi_fuse_checks(void)
{
	if (pfe_opts.cfi == PFE_CFI_NONE || paired.decl != current_function_decl)
		return;
	for (size_t i = 0; i < paired.n; i++) {
		pfe_insn check = insn_by_uid(get_insns(), paired.pairs[i].check);
		pfe_insn call = check ? insn_by_uid(check, paired.pairs[i].call) : NULL;

		if (call)
			fuse(check, call);
	}
	paired.decl = NULL_TREE;
}

/* emit.c: the pass PASS_NAME is about to run on the current function. */
void pfe_kcfi_before_pass(const char *pass_name)
{
	if (pfe_opts.cfi == PFE_CFI_NONE || !current_function_decl)
		return;
	if (!strcmp(pass_name, "ira"))
		pair_checks();
	if (pfe_opts.cfi_arity && !strcmp(pass_name, "pro_and_epilogue"))
		note_arity();
}
static bool is_checked_call(pfe_gimple stmt)
{
	tree fntype;

	if (!is_gimple_call(stmt) || gimple_call_internal_p(stmt) ||
	    gimple_call_fndecl(stmt))
		return false;
	fntype = gimple_call_fntype(stmt);
	return fntype && (TYPE_ARG_TYPES(fntype) ||
			  pfe_no_named_args_stdarg_p(fntype));
}

/* The function whose source holds STMT: the innermost function inlined
 * there (the blocks of an inlined body, or the blocks they were copied
 * from, lead up to it), else the one being compiled.  A block that holds
 * a statement survives -g0. */
static tree source_function(pfe_gimple stmt)
{
	tree b = gimple_block(stmt);

	while (b && TREE_CODE(b) == BLOCK) {
		tree origin = block_ultimate_origin(b);

		b = origin && origin != b ? origin : BLOCK_SUPERCONTEXT(b);
	}
	return b && TREE_CODE(b) == FUNCTION_DECL ? b : current_function_decl;
}

/* Whether the call STMT is checked: as with Clang, the function whose
 * source holds the call decides, not the one it was inlined into. */
static bool wants_check(pfe_gimple stmt)
{
	return is_checked_call(stmt) &&
	       !lookup_attribute(PFE_NO_KCFI_ATTR,
				 DECL_ATTRIBUTES(source_function(stmt)));
}

static unsigned int kcfi_checks_execute(void)
{
	const struct pfe_plan *plan = pfe_plan_for(current_function_decl);
	unsigned int offset = hash_offset(plan->pre * pfe_backend->nop_size);
	basic_block bb;
	bool va_start = false;

	FOR_EACH_BB_FN(bb, cfun) {
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
		     gsi_next(&gsi)) {
			pfe_gimple stmt = gsi_stmt(gsi);
			unsigned int hash;
			tree bad;

			va_start |= gimple_call_builtin_p(stmt, BUILT_IN_VA_START);
			if (!wants_check(stmt))
				continue;
			if (!pfe_kcfi_type_hash(gimple_call_fntype(stmt), &hash, &bad))
				report_unhashable(gimple_location(stmt), bad,
						  gimple_call_fntype(stmt),
						  "an indirect call's type");
			else
				insert_check(&gsi, stmt, hash, offset);
		}
	}
	arity_seen.decl = current_function_decl;
	arity_seen.va_start = va_start;
	return 0;
}

static const pass_data kcfi_pass_data = {
	.type = GIMPLE_PASS,
	.name = "pfe_kcfi",
	.optinfo_flags = OPTGROUP_NONE,
	PFE_PASS_DATA_GATE_EXECUTE
	.tv_id = TV_NONE,
	.properties_required = PROP_ssa,
	.properties_provided = 0,
	.properties_destroyed = 0,
	.todo_flags_start = 0,
	.todo_flags_finish = 0,
};

class pfe_kcfi_pass : public gimple_opt_pass {
public:
	pfe_kcfi_pass() : gimple_opt_pass(kcfi_pass_data, g) {}
	unsigned int execute(PFE_PASS_ARGS) { return kcfi_checks_execute(); }
};

/* The symbol Clang gives an extern function whose address is taken:
 * assembler code defining it reads its expected hash from there. */
static void put_typeid(FILE *out, tree decl)
{
	const char *name = function_name(decl);
	unsigned int hash;
	tree bad;

	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_.") != strlen(name) ||
	    !pfe_kcfi_type_hash(TREE_TYPE(decl), &hash, &bad))
		return;
	fprintf(out, "\t.weak\t" PFE_KCFI_TYPEID_PREFIX "%s\n\t.set\t" PFE_KCFI_TYPEID_PREFIX "%s, %u\n",
		name, name, hash);
}

/* PLUGIN_FINISH_UNIT: the typeids, before the target ends the file. */
static void kcfi_finish_unit(void *event_data, void *data)
{
	cgraph_node *node;

	(void)event_data;
	(void)data;
	if (pfe_opts.cfi == PFE_CFI_NONE || !asm_out_file || seen_error())
		return;
	FOR_EACH_FUNCTION(node)
		if (!node->definition && node->address_taken)
			put_typeid(asm_out_file, node->decl);
}

/* PLUGIN_FINISH_DECL: typedefs that name anonymous tags. */
static void kcfi_finish_decl(void *event_data, void *data)
{
	(void)data;
	if (pfe_opts.cfi != PFE_CFI_NONE)
		pfe_kcfi_note_typedef((tree)event_data);
}

/* no_sanitize_kcfi: the function's indirect calls are not checked (its
 * own hash stays).  GCC 8+'s no_sanitize("kcfi") only warns that it does
 * not know kcfi; this name is free on every GCC.  Such a function is not
 * inlined: its calls would be checked in its caller. */
static tree handle_no_kcfi_attribute(tree *node, tree name, tree args,
				     int flags, bool *no_add_attrs)
{
	(void)args;
	(void)flags;
	if (TREE_CODE(*node) != FUNCTION_DECL) {
		warning(OPT_Wattributes, "%qE attribute applies only to functions",
			name);
		*no_add_attrs = true;
		return NULL_TREE;
	}
	DECL_UNINLINABLE(*node) = 1;
	return NULL_TREE;
}

static struct attribute_spec no_kcfi_attribute_spec =
	PFE_ATTRIBUTE_SPEC(PFE_NO_KCFI_ATTR, 0, 0, handle_no_kcfi_attribute);

/* GCC 8+'s own handler of no_sanitize; NULL on GCC 4.9-7, which have none. */
static pfe_attribute_handler gcc_no_sanitize;

/* ARGS without the strings "kcfi" (a new list); *KCFI: whether there was one. */
static tree without_kcfi(tree args, bool *kcfi)
{
	tree rest = NULL_TREE, *tail = &rest;

	*kcfi = false;
	for (; args; args = TREE_CHAIN(args)) {
		tree v = TREE_VALUE(args);

		if (TREE_CODE(v) == STRING_CST && !strcmp(TREE_STRING_POINTER(v), "kcfi")) {
			*kcfi = true;
			continue;
		}
		*tail = build_tree_list(NULL_TREE, v);
		tail = &TREE_CHAIN(*tail);
	}
	return rest;
}

/* no_sanitize("kcfi", ...), Clang's spelling (the kernel's __nocfi): "kcfi"
 * is no_sanitize_kcfi (nothing without cfi=kcfi, as in Clang without
 * -fsanitize=kcfi), the other names go to GCC's own handler (GCC 8+),
 * which would warn that it does not know kcfi; GCC 4.9-7 have no
 * no_sanitize: there the other names are ignored, with GCC 8's warning. */
static tree handle_no_sanitize(tree *node, tree name, tree args, int flags,
			       bool *no_add_attrs)
{
	bool kcfi;
	tree rest = without_kcfi(args, &kcfi);

	*no_add_attrs = true;
	if (kcfi && pfe_opts.cfi != PFE_CFI_NONE) {
		bool bad = false;

		handle_no_kcfi_attribute(node, name, NULL_TREE, flags, &bad);
		if (!bad)
			DECL_ATTRIBUTES(*node) = tree_cons(get_identifier(PFE_NO_KCFI_ATTR),
							   NULL_TREE, DECL_ATTRIBUTES(*node));
	}
	if (rest && gcc_no_sanitize)
		return gcc_no_sanitize(node, name, rest, flags, no_add_attrs);
	for (; rest; rest = TREE_CHAIN(rest))
		warning(OPT_Wattributes, "%qE attribute: %qE ignored (this GCC has no "
			"%qE of its own; pfe takes %<kcfi%> only)", name,
			TREE_VALUE(rest), name);
	return NULL_TREE;
}

static struct attribute_spec no_sanitize_spec =
	PFE_ATTRIBUTE_SPEC("no_sanitize", 1, -1, handle_no_sanitize);

/* PLUGIN_ATTRIBUTES: no_sanitize_kcfi; no_sanitize("kcfi"), GCC's
 * no_sanitize taken over (GCC 8+) or registered (GCC 4.9-7). */
static void kcfi_register_attribute(void *event_data, void *data)
{
	const struct attribute_spec *spec = lookup_attribute_spec(get_identifier("no_sanitize"));

	(void)event_data;
	(void)data;
	if (!lookup_attribute_spec(get_identifier(PFE_NO_KCFI_ATTR)))
		register_attribute(&no_kcfi_attribute_spec);
	if (!spec)
		register_attribute(&no_sanitize_spec);
	else if (!(gcc_no_sanitize = pfe_take_over_attribute(spec, spec->max_length,
							      handle_no_sanitize)))
		warning(0, "pfe: the %qs attribute of GCC not taken over: "
			"%<no_sanitize(\"kcfi\")%> is not known", "no_sanitize");
}

/* The pass, when cfi= is given (the plugin arguments are parsed by now),
 * and the events. */
/* PLUGIN_ALL_PASSES_START: no RTL cross-jumping in a function with checks.
 * A check is an asm statement before its call, not part of it as Clang's:
 * cross-jumping merged the tails of two calls of different types (their
 * argument moves, one check, the call), and one path ran the other's
 * check, a false trap (Linux 7.2's irq_find_matching_fwspec at -Os;
 * kcfi-fused.c's fused_tails).  The function's own options are in force
 * here and until its last RTL pass. */
static void kcfi_function_start(void *event_data, void *data)
{
	(void)event_data;
	(void)data;
	flag_crossjumping = 0;
}

void pfe_kcfi_register(const char *plugin_name)
{
	register_callback(plugin_name, PLUGIN_ATTRIBUTES,
			  kcfi_register_attribute, NULL);
	if (pfe_opts.cfi == PFE_CFI_NONE)
		return;

	struct register_pass_info info;

	info.pass = new pfe_kcfi_pass();
	info.reference_pass_name = "optimized";
	info.ref_pass_instance_number = 1;
	info.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
	register_callback(plugin_name, PLUGIN_FINISH_DECL, kcfi_finish_decl, NULL);
	pfe_on_finish_parse_function(plugin_name, kcfi_finish_parse_function);
	register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
			  (void *)kcfi_roots);
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, kcfi_finish_unit, NULL);
	register_callback(plugin_name, PLUGIN_ALL_PASSES_START, kcfi_function_start, NULL);
}
