/* lto.c: an LTO link without pfe, or with other pfe arguments, fails and
 * says what to add; it never makes unpadded code silently.
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
 * its own arguments (a label in .pfe.lto: aarch64's gas relocates a
 * reference to an absolute symbol against no symbol).  A link whose code
 * pfe did not make, or made with other arguments, leaves the reference
 * undefined, and the linker names it: "undefined reference to `pfe: this LTO link needs ...'".
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

static const char *link_symbol(void)
{
	static struct obstack ob;
	static const char *name;
	char entry[32];

	if (name)
		return name;
	gcc_obstack_init(&ob);
	obstack_grow(&ob, "pfe: this LTO link needs -fplugin=pfe",
		     strlen("pfe: this LTO link needs -fplugin=pfe"));
	snprintf(entry, sizeof(entry), "%u,%u", pfe_opts.entry_size, pfe_opts.entry_pre);
	if (pfe_opts.has_entry)
		put_argument(&ob, "entry", entry);
	if (strcmp(pfe_opts.section, PFE_SECTION_ENTRIES))
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
	obstack_1grow(&ob, '\0');
	name = (const char *)obstack_finish(&ob);
	return name;
}

/* Whether this unit of code may meet the reference: an LTO partition, or
 * the code of a -ffat-lto-objects compile (a plain compile has none, and
 * IR only gets its code at the link). */
static bool defines_link_symbol(void)
{
	return in_lto_p ? !flag_wpa : flag_lto && flag_fat_lto_objects;
}

/* PLUGIN_START_UNIT: the reference, into the IR (and the code of a fat
 * object, which defines it too). */
void pfe_lto_start_unit(void)
{
	char *text;

	if (!flag_lto || in_lto_p)
		return;
	text = xasprintf("\t.pushsection .pfe.lto,\"\",%s\n\t%s \"%s\"\n\t.popsection",
			 pfe_backend->section_type, pfe_backend->pointer_op, link_symbol());
	pfe_add_toplevel_asm(text);
	free(text);
}

/* PLUGIN_FINISH_UNIT: the definition, in every unit of code pfe made. */
static void lto_finish_unit(void *event_data, void *data)
{
	(void)event_data;
	(void)data;
	if (!defines_link_symbol() || !asm_out_file)
		return;
	fprintf(asm_out_file, "\t.pushsection .pfe.lto,\"\",%s\n\t.weak \"%s\"\n\"%s\":\n\t.popsection\n",
		pfe_backend->section_type, link_symbol(), link_symbol());
}

void pfe_lto_register(const char *plugin_name)
{
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, lto_finish_unit, NULL);
}
