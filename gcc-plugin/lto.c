/* lto.c: an LTO link without pfe, or with other pfe arguments, or with pfe
 * but objects compiled without it, fails and says what to add; it never
 * makes unpadded code silently, nor code native GCC would not pad.
 *
 * With -flto a compile writes GCC's IR and the link makes the code (lto1):
 * a plugin given to the compile only is gone by then, so the program would
 * have no padding and no records, and no error.  So a compile with -flto
 * puts into the IR (a top-level asm, which LTO carries to the link) a
 * reference to a symbol whose name is what the link needs:
 *
 *     pfe: this LTO link needs -fplugin=pfe -fplugin-arg-pfe-entry=4,2
 *
 * and every unit of code pfe makes that may meet it (each LTO partition,
 * the code of a -ffat-lto-objects compile) defines that symbol, weak, for
 * its own arguments (by .set in .pfe.lto: aarch64's gas relocates a
 * reference to an absolute symbol against no symbol).  A link whose code
 * pfe did not make, or made with other arguments, leaves the reference
 * undefined, and the linker names it: "undefined reference to `pfe: this
 * LTO link needs ...'".  The other way round, each LTO partition refers
 * to "pfe: the objects of this LTO link need -fplugin=pfe ... at their
 * compile", which the IR of a compile with pfe defines: pfe at the link
 * only is an error too (native GCC 13-16 pads nothing when
 * -fpatchable-function-entry is given to an LTO link only).
 * Both are in a section that is not loaded (.pfe.lto): nothing of them is
 * in the program's memory.  (Each unit's arguments must be the link's: pfe
 * does not carry arguments per function through LTO.)
 *
 * Debugging: readelf -s shows the symbol; -save-temps keeps the ltrans .s.
 */
#define PFE_NEED_GIMPLE		/* the symbol table: top-level asm */
#include "pfe.h"

/* " -fplugin-arg-pfe-KEY[=VALUE]" for what the arguments chose, in one
 * order (equal choices give equal names whatever the order or spelling). */
static void put_argument(struct obstack *ob, const char *key, const char *value)
{
	obstack_grow(ob, " -fplugin-arg-pfe-", 18);
	obstack_grow(ob, key, strlen(key));
	if (value) {
		obstack_1grow(ob, '=');
		obstack_grow(ob, value, strlen(value));
	}
}

/* "-fplugin=pfe -fplugin-arg-pfe-..." for what the arguments chose. */
static const char *plugin_arguments(void)
{
	static struct obstack ob;
	static const char *args;
	char entry[32];

	if (args)
		return args;
	gcc_obstack_init(&ob);
	obstack_grow(&ob, "-fplugin=pfe", strlen("-fplugin=pfe"));
	snprintf(entry, sizeof(entry), "%u,%u", pfe_opts.entry_size, pfe_opts.entry_pre);
	if (pfe_opts.has_entry)
		put_argument(&ob, "entry", entry);
	if (pfe_opts.record == PFE_RECORD_REL32)
		put_argument(&ob, "record", "rel32");
	if (strcmp(pfe_opts.section, pfe_default_section()))
		put_argument(&ob, "section", pfe_opts.section);
	if (pfe_opts.fentry)
		put_argument(&ob, "fentry", pfe_opts.fentry);
	if (pfe_opts.fentry_nop)
		put_argument(&ob, "fentry-nop", NULL);
	if (strcmp(pfe_opts.call_section, PFE_SECTION_CALLS))
		put_argument(&ob, "record-section", pfe_opts.call_section);
	if (pfe_opts.ops_slot)
		put_argument(&ob, "ops-slot", pfe_opts.ops_slot_value);
	if (pfe_opts.clobbers == PFE_CLOBBERS_SCRATCH)
		put_argument(&ob, "clobbers", "scratch");
	if (pfe_opts.cfi == PFE_CFI_KCFI)
		put_argument(&ob, "cfi", "kcfi");
	if (pfe_opts.cfi_layout == PFE_CFI_LAYOUT_FIXED)
		put_argument(&ob, "cfi-layout", "fixed");
	if (pfe_opts.cfi_normalize_integers)
		put_argument(&ob, "cfi-normalize-integers", NULL);
	snprintf(entry, sizeof(entry), "%u", pfe_opts.min_function_align);
	if (pfe_opts.min_function_align)
		put_argument(&ob, "min-function-alignment", entry);
	obstack_1grow(&ob, '\0');
	args = (const char *)obstack_finish(&ob);
	return args;
}

/* The symbol IR of a compile with pfe refers to and code pfe made at the
 * link defines: its name is what a link without pfe must add. */
static const char *link_symbol(void)
{
	static char *name;

	if (!name)
		name = xasprintf("pfe: this LTO link needs %s", plugin_arguments());
	return name;
}

/* The symbol code pfe made at the link refers to and IR of a compile with
 * pfe defines: its name is what a compile for a link with pfe must add
 * (native GCC pads nothing when -fpatchable-function-entry is given to
 * the link only). */
static const char *compile_symbol(void)
{
	static char *name;

	if (!name)
		name = xasprintf("pfe: the objects of this LTO link need %s at their compile",
				 plugin_arguments());
	return name;
}

/* Whether this unit of code may meet the reference: an LTO partition, or
 * the code of a -ffat-lto-objects compile (a plain compile has none, and
 * IR only gets its code at the link). */
static bool defines_link_symbol(void)
{
	return in_lto_p ? !flag_wpa : flag_lto && flag_fat_lto_objects;
}

/* Assembler text referring to SYM, in .pfe.lto. */
static char *reference(const char *sym)
{
	return xasprintf("\t.pushsection .pfe.lto,\"\",%s\n\t%s \"%s\"\n\t.popsection\n",
			 pfe_backend->section_type, pfe_backend->pointer_op, sym);
}

/* Assembler text defining SYM, weak, in .pfe.lto: by .set, since an LTO
 * partition gets the top-level asm of every object, each defining it. */
static char *definition(const char *sym)
{
	return xasprintf("\t.pushsection .pfe.lto,\"\",%s\n\t.weak \"%s\"\n\t.set \"%s\", .\n\t.popsection\n",
			 pfe_backend->section_type, sym, sym);
}

/* PLUGIN_START_UNIT: into the IR (and the code of a fat object), the
 * reference the link must define and the definition it refers to. */
void pfe_lto_start_unit(void)
{
	char *ref, *def, *text;

	if (!flag_lto || in_lto_p)
		return;
	ref = reference(link_symbol());
	def = definition(compile_symbol());
	text = concat(ref, def, NULL);
	pfe_add_toplevel_asm(text);
	free(text);
	free(def);
	free(ref);
}

/* PLUGIN_FINISH_UNIT: in every unit of code pfe made, the definition the
 * IR refers to; in each LTO partition, the reference the IR defines (first:
 * a linker names the symbol before a reference as the function it is in). */
static void lto_finish_unit(void *event_data, void *data)
{
	char *text;

	(void)event_data;
	(void)data;
	if (!asm_out_file)
		return;
	if (in_lto_p && !flag_wpa) {
		text = reference(compile_symbol());
		fputs(text, asm_out_file);
		free(text);
	}
	if (defines_link_symbol()) {
		text = definition(link_symbol());
		fputs(text, asm_out_file);
		free(text);
	}
}

void pfe_lto_register(const char *plugin_name)
{
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, lto_finish_unit, NULL);
}
