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

/* The attribute's (M, N), or false when FNDECL has none or it is bad. */
static bool attribute_entry(tree fndecl, unsigned int *size, unsigned int *pre)
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

static void pfe_plan_compute(struct pfe_plan *plan, tree fndecl)
{
	unsigned int size = 0, pre = 0;
	bool excluded = false;
	const char *why;

	memset(plan, 0, sizeof(*plan));
	plan->decl = fndecl;
	plan->section = pfe_opts.section;
	if (lookup_attribute(PFE_ATTR, DECL_ATTRIBUTES(fndecl))) {
		if (!attribute_entry(fndecl, &size, &pre))
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

/* GCC 4.9-7 only: check the attribute where it is written as GCC 8+'s own
 * handler does (the same warnings, under -Wattributes, and the attribute
 * dropped), so that code, and GCC's tests of the attribute, behave alike
 * on every GCC. */
static tree handle_pfe_attribute(tree *node, tree name, tree args, int flags,
				 bool *no_add_attrs)
{
	(void)flags;
	if (TREE_CODE(*node) != FUNCTION_DECL) {
		error("pfe: %qE attribute applies only to functions", name);
		*no_add_attrs = true;
		return NULL_TREE;
	}
	for (; args; args = TREE_CHAIN(args)) {
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
		if (*no_add_attrs)
			break;
	}
	return NULL_TREE;
}

static struct attribute_spec pfe_attribute_spec =
	PFE_ATTRIBUTE_SPEC(PFE_ATTR, 1, 2, handle_pfe_attribute);

/* PLUGIN_ATTRIBUTES: register the attribute where GCC lacks it. */
void pfe_register_attribute(void *event_data, void *data)
{
	(void)event_data;
	(void)data;
	if (!lookup_attribute_spec(get_identifier(PFE_ATTR)))
		register_attribute(&pfe_attribute_spec);
}
