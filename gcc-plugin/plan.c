/* plan.c: decide, once per function, what pfe emits for it.
 *
 * Inputs: the plugin arguments (pfe_opts: entry=, fentry, ops-slot, cfi=), the
 * function's patchable_function_entry(M,N) attribute.
 * Output: a struct pfe_plan that every emitter reads.
 *
 * The attribute: GCC 8+ knows it and would pad the function itself, so the
 * plan takes its values and removes it from the function's attribute list
 * before GCC reads it (cfgexpand on GCC 11+, varasm on 8-10): exactly one
 * emitter.  GCC 4.9-7 do not know it: pfe registers it (same syntax).
 *
 * Debugging: a wrong layout for one function is decided here; break on
 * pfe_plan_compute in cc1 (gcc -wrapper gdb,--args).
 */
#include "pfe.h"

#define PFE_ATTR "patchable_function_entry"

static struct pfe_plan current_plan;
static unsigned int next_label_no;

/* A copy of LIST without NAME; the tail after it is shared, the nodes before
 * it are new, so IPA clones that share the list keep their own copy. */
static tree list_without_attribute(tree list, const char *name)
{
	if (!list)
		return NULL_TREE;
	if (is_attribute_p(name, get_attribute_name(list)))
		return TREE_CHAIN(list);
	tree rest = list_without_attribute(TREE_CHAIN(list), name);
	if (rest == TREE_CHAIN(list))
		return list;
	return tree_cons(TREE_PURPOSE(list), TREE_VALUE(list), rest);
}

/* Read attribute argument ARG as a count, or report it and return false. */
static bool attribute_count(tree fndecl, tree arg, unsigned int *out)
{
	if (TREE_CODE(arg) != INTEGER_CST || !tree_fits_uhwi_p(arg) ||
	    tree_to_uhwi(arg) > PFE_MAX_NOPS) {
		error_at(DECL_SOURCE_LOCATION(fndecl),
			 "pfe: %qs attribute of %qD: argument %qE is not a "
			 "count from 0 to %u", PFE_ATTR, fndecl, arg,
			 PFE_MAX_NOPS);
		return false;
	}
	*out = (unsigned int)tree_to_uhwi(arg);
	return true;
}

/* The attribute's (M, N[, SECTION]), or false when FNDECL has none or it is
 * bad; *SECTION is left alone without a third argument (the handler checked
 * that it is a string that is not empty). */
static bool attribute_entry(tree fndecl, unsigned int *size, unsigned int *pre,
			    const char **section)
{
	tree attr = lookup_attribute(PFE_ATTR, DECL_ATTRIBUTES(fndecl));
	if (!attr)
		return false;
	tree args = TREE_VALUE(attr);
	*pre = 0;
	if (!args || !attribute_count(fndecl, TREE_VALUE(args), size))
		return false;
	if (TREE_CHAIN(args) &&
	    !attribute_count(fndecl, TREE_VALUE(TREE_CHAIN(args)), pre))
		return false;
	if (TREE_CHAIN(args) && TREE_CHAIN(TREE_CHAIN(args)))
		*section = TREE_STRING_POINTER(TREE_VALUE(TREE_CHAIN(TREE_CHAIN(args))));
	if (*pre > *size) {
		error_at(DECL_SOURCE_LOCATION(fndecl),
			 "pfe: %qs attribute of %qD: %u NOPs before the "
			 "entry exceed the %u in all", PFE_ATTR, fndecl,
			 *pre, *size);
		return false;
	}
	return true;
}

/* Why PRE NOPs before and POST after the entry do not go with the entry
 * modes asked for, or NULL: the ops slot is the 8 bytes right before the
 * entry, so the pre-entry NOPs are those 8 bytes or there are none (and
 * then the slot holds SYM or 0); the fentry call must sit where the target
 * can patch it atomically (riscv under RVC: a 4-byte boundary, after the
 * aligned slot or pre-entry area). */
const char *pfe_layout_refused(unsigned int pre, unsigned int post)
{
	unsigned int pre_bytes = pre * pfe_backend->nop_size;

	if (pfe_opts.ops_slot && pre_bytes != 0 && pre_bytes != 8)
		return "ops-slot: the NOPs before the entry must be the 8-byte "
		       "slot or none";
	if (pfe_opts.ops_slot && pfe_opts.ops_slot_value && pre_bytes)
		return "ops-slot=SYM: the slot holds SYM, so no NOP may go "
		       "before the entry";
	if (pfe_opts.fentry &&
	    ((pfe_opts.ops_slot ? 8 : pre_bytes) + post * pfe_backend->nop_size) %
		    pfe_backend->call_align)
		return "fentry: the call would not be aligned for patching "
		       "(an even number of 2-byte NOPs before and after the "
		       "entry)";
	return pfe_kcfi_layout_refused(pre_bytes);
}

/* Whether FNDECL's callers keep every register across it: its type has
 * one of the target's keeps_all_attributes (type attributes on x86 and
 * riscv, GCC 7 to 16). */
static bool callers_keep_all(tree fndecl)
{
	for (const char *const *a = pfe_backend->keeps_all_attributes; a && *a; a++)
		if (lookup_attribute(*a, TYPE_ATTRIBUTES(TREE_TYPE(fndecl))))
			return true;
	return false;
}

static void pfe_plan_compute(struct pfe_plan *plan, tree fndecl)
{
	unsigned int size = 0, pre = 0;
	bool excluded = false;
	const char *why;

	memset(plan, 0, sizeof(*plan));
	plan->decl = fndecl;
	plan->section = pfe_opts.section;
	if (lookup_attribute(PFE_ATTR, DECL_ATTRIBUTES(fndecl))) {
		if (!attribute_entry(fndecl, &size, &pre, &plan->section))
			size = pre = 0;
		excluded = size == 0;
		DECL_ATTRIBUTES(fndecl) =
			list_without_attribute(DECL_ATTRIBUTES(fndecl), PFE_ATTR);
		if (size && (why = pfe_layout_refused(pre, size - pre))) {
			error_at(DECL_SOURCE_LOCATION(fndecl), "pfe: %qs attribute "
				 "of %qD (%u,%u) with %s", PFE_ATTR, fndecl,
				 size, pre, why);
			return;
		}
	} else if (pfe_opts.has_entry) {
		size = pfe_opts.entry_size;
		pre = pfe_opts.entry_pre;
	}
	/* fentry calls from every function, as -pg does, but those the
	 * attribute excludes ((0,0): the kernel's notrace) and those -pg
	 * leaves out (no_instrument_function). */
	bool fentry = pfe_opts.fentry && !excluded &&
		      !lookup_attribute("no_instrument_function",
					DECL_ATTRIBUTES(fndecl));
	if (size > 0 || fentry) {
		plan->active = true;
		plan->pre = pre;
		plan->post = size - pre;
		plan->fentry = fentry;
		plan->ops_slot = pfe_opts.ops_slot;
		plan->label_no = next_label_no++;
		plan->clobbers = pfe_opts.clobbers;
		plan->exits = pfe_opts.exits;
		plan->vector_args = pfe_opts.vector_args;
		plan->keeps_all = callers_keep_all(fndecl);
	}
	pfe_kcfi_plan(plan);
}

/* The plan for FNDECL, computed on first use.  GCC emits one function at a
 * time (all passes, then assembly), so one slot is enough. */
const struct pfe_plan *pfe_plan_for(tree fndecl)
{
	if (current_plan.decl != fndecl)
		pfe_plan_compute(&current_plan, fndecl);
	return &current_plan;
}

/* GCC 8+'s own handler of the attribute's two counts; NULL on GCC 4.9-7. */
static pfe_attribute_handler gcc_handler;

/* The counts checked as GCC 8+'s own handler checks them (the same
 * warnings, under -Wattributes, and the attribute dropped), for GCC 4.9-7,
 * so that code, and GCC's tests of the attribute, behave alike on every
 * GCC. */
static void check_counts(tree name, tree args, bool *no_add_attrs)
{
	for (; args && !*no_add_attrs; args = TREE_CHAIN(args)) {
		tree val = TREE_VALUE(args);

		if (!tree_fits_uhwi_p(val)) {
			warning(OPT_Wattributes, "%qE attribute argument %qE is "
				"not an integer constant", name, val);
			*no_add_attrs = true;
		} else if (tree_to_uhwi(val) > PFE_MAX_NOPS) {
			warning(OPT_Wattributes, "%qE attribute argument %qE "
				"exceeds %u", name, val, PFE_MAX_NOPS);
			*no_add_attrs = true;
		}
	}
}

/* Whether SECTION, the third argument, names a record section: a string
 * that is not empty (as Clang 21 requires, the same errors) and a name gas
 * takes unquoted. */
static bool check_section(tree name, tree section)
{
	if (TREE_CODE(section) != STRING_CST) {
		error("pfe: %qE attribute: its third argument, the record "
		      "section, must be a string literal", name);
		return false;
	}
	if (TREE_STRING_LENGTH(section) <= 1) {
		error("pfe: %qE attribute: the record section must not be "
		      "empty", name);
		return false;
	}
	/* Clang quotes any other name; pfe writes it as it is. */
	if (!pfe_plain_name(TREE_STRING_POINTER(section))) {
		error("pfe: %qE attribute: record section %qs: a name is "
		      "letters, digits, %<_%>, %<.%> and %<$%>, not first a "
		      "digit", name, TREE_STRING_POINTER(section));
		return false;
	}
	return true;
}

/* patchable_function_entry(M[, N[, SECTION]]): the counts checked by GCC's
 * own handler where there is one (GCC 8+), else as it does; Clang 21's
 * record section checked here. */
static tree handle_pfe_attribute(tree *node, tree name, tree args, int flags,
				 bool *no_add_attrs)
{
	tree section = TREE_CHAIN(args) ? TREE_CHAIN(TREE_CHAIN(args)) : NULL_TREE;
	tree counts = args;

	if (TREE_CODE(*node) != FUNCTION_DECL) {
		error("pfe: %qE attribute applies only to functions", name);
		*no_add_attrs = true;
		return NULL_TREE;
	}
	if (section) {
		if (!check_section(name, TREE_VALUE(section))) {
			*no_add_attrs = true;
			return NULL_TREE;
		}
		counts = tree_cons(NULL_TREE, TREE_VALUE(args),
				   build_tree_list(NULL_TREE, TREE_VALUE(TREE_CHAIN(args))));
	}
	if (gcc_handler)
		return gcc_handler(node, name, counts, flags, no_add_attrs);
	check_counts(name, counts, no_add_attrs);
	return NULL_TREE;
}

static struct attribute_spec pfe_attribute_spec =
	PFE_ATTRIBUTE_SPEC(PFE_ATTR, 1, 3, handle_pfe_attribute);

/* PLUGIN_ATTRIBUTES: register the attribute where GCC lacks it, else take
 * GCC's over for its third argument. */
void pfe_register_attribute(void *event_data, void *data)
{
	const struct attribute_spec *spec = lookup_attribute_spec(get_identifier(PFE_ATTR));

	(void)event_data;
	(void)data;
	if (!spec)
		register_attribute(&pfe_attribute_spec);
	else if (!(gcc_handler = pfe_take_over_attribute(spec, 3, handle_pfe_attribute)))
		warning(0, "pfe: the %qs attribute of GCC not taken over: a third "
			"argument (the record section) is refused", PFE_ATTR);
}
