/* pfe-scan-collect.c: `pfe-scan collect`, the post-link collector.
 *
 * Addresses taken from the final code are right whatever the linker did to
 * it (riscv relaxation shrinks code between the offsets a .o records), so
 * this reads an executable or shared object and writes a relocatable object
 * holding the sorted, de-duplicated table of link-time addresses (of the
 * records' targets, in either record format, or of the calls to a symbol)
 * in one section, bracketed by global symbols __pfe_start_<section> and
 * __pfe_stop_<section>.  It is meant for a kernel-style two-step link: link
 * once, collect, link again non-PIE with the table, and the code does not
 * move because the table lands after it.
 * Debug: `readelf -sx __mcount_loc TABLE.o` shows what was written; compare
 * with `pfe-scan list LINKED_FILE` (records) or `objdump -d` (calls).
 */
#include "pfe-scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Table section index and the others, in the order write_table makes them. */
enum { TABLE = 1, NOTE, SYMTAB, STRTAB, SHSTRTAB };

static int compare_addrs(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

static size_t record_addresses(struct image *img, const struct record_spec *records,
			       uint64_t **out)
{
	struct record *recs;
	size_t n = named_records(img, records, &recs, NULL);

	*out = scan_alloc(img, n + 1, sizeof **out);
	for (size_t r = 0; r < n; r++)
		(*out)[r] = recs[r].value;
	return n;
}

/* What collect --symbol looks for: SYMBOL, at TARGET if defined here. */
struct wanted {
	const char *symbol;
	bool defined;
	uint64_t target;
};

/* Does CALL, at AT, go to W?  A call through a GOT entry (x86_64
 * `call *SYM@GOTPCREL(%rip)` that ld did not relax) or a PLT entry (a
 * shared object's import) goes where the entry's relocation or contents
 * say. */
static bool call_goes_to(struct image *img, struct location at, const struct call *call,
			 const struct wanted *w)
{
	struct call_dest d;

	if (!call->via_slot && w->defined && call->target == w->target)
		return true;
	if (!call->via_slot && !in_plt(img, call->target))
		return false;
	resolve_call(img, at, call, &d);
	return (w->defined && d.known && d.addr == w->target) ||
	       (d.symbol && !strcmp(d.symbol, w->symbol));
}

/* Calls to W in code section SEC, stored in OUT if not NULL.
 * A call sequence counts at its first byte (aarch64's `mov x9, x30; bl`). */
static size_t calls_in(struct image *img, size_t sec, const struct wanted *w, uint64_t *out)
{
	uint64_t size, addr = img->secs[sec].sh.sh_addr;
	const uint8_t *b = section_bytes(img, sec, &size);
	unsigned step = img->arch->insn_align;
	size_t n = 0;
	struct call call;

	size_t len;

	for (uint64_t off = 0; off < size; off += len) {
		len = decode_call(img, b + off, size - off, addr + off, &call);
		if (!len || !call_goes_to(img, (struct location){ sec, off }, &call, w)) {
			len = step;	/* not a call: try the next instruction start */
			continue;
		}
		if (out)
			out[n] = addr + off;
		n++;
	}
	return n;
}

/* Only real calls count: other references to SYMBOL (an address taken, a
 * jump) are not patch sites.  On x86, where instructions have no alignment,
 * an e8 byte inside another instruction followed by exactly the right
 * displacement would also match; that needs 4 specific bytes in a row. */
static size_t call_sites(struct image *img, const char *symbol, uint64_t **out)
{
	struct wanted w = { symbol, false, 0 };
	size_t n = 0;

	w.defined = find_symbol_addr(img, symbol, &w.target);
	if (!w.defined && !imports_symbol(img, symbol))
		scan_fail(img, "symbol %s is neither defined nor imported here", symbol);
	for (size_t s = 1; s < img->nsecs; s++)
		if (is_code(img, s))
			n += calls_in(img, s, &w, NULL);
	*out = scan_alloc(img, n, sizeof **out);
	n = 0;
	for (size_t s = 1; s < img->nsecs; s++)
		if (is_code(img, s))
			n += calls_in(img, s, &w, *out + n);
	return n;
}

size_t collect_addresses(struct image *img, const char *symbol,
			 const struct record_spec *records, uint64_t **out)
{
	size_t n, kept = 0;

	if (img->relocatable)
		scan_fail(img, "not linked: collect reads an executable or shared object");
	n = symbol ? call_sites(img, symbol, out) : record_addresses(img, records, out);
	qsort(*out, n, sizeof **out, compare_addrs);
	for (size_t i = 0; i < n; i++)
		if (!kept || (*out)[kept - 1] != (*out)[i])
			(*out)[kept++] = (*out)[i];
	return kept;
}

static Elf_Scn *new_section(Elf *out, size_t name, unsigned type, uint64_t flags,
			    Elf_Type dtype, void *buf, size_t size, size_t align)
{
	Elf_Scn *scn = elf_newscn(out);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;

	if (!d || !gelf_getshdr(scn, &sh))
		return NULL;
	*d = (Elf_Data){ .d_buf = buf, .d_type = dtype, .d_size = size, .d_align = align,
			 .d_version = EV_CURRENT };
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = align;
	return gelf_update_shdr(scn, &sh) ? scn : NULL;
}

/* Append S (with its NUL) to string table BUF at *LEN; returns its offset. */
static size_t add_string(char *buf, size_t *len, const char *s)
{
	size_t at = *len;

	strcpy(buf + at, s);
	*len += strlen(s) + 1;
	return at;
}

/* The table's contents in the output's memory representation. */
static void *table_bytes(struct image *img, const uint64_t *addrs, size_t n)
{
	uint32_t *w32;

	if (img->ptr_size == 8)
		return (void *)addrs;
	w32 = scan_alloc(img, n, sizeof *w32);
	for (size_t i = 0; i < n; i++)
		w32[i] = (uint32_t)addrs[i];
	return w32;
}

static bool add_symbols(Elf *out, Elf_Scn *symtab, size_t start_name, size_t stop_name,
			uint64_t table_size)
{
	Elf_Data *d = elf_getdata(symtab, NULL);
	unsigned char info = GELF_ST_INFO(STB_GLOBAL, STT_NOTYPE);
	GElf_Sym start = { .st_name = (Elf64_Word)start_name, .st_info = info, .st_shndx = TABLE };
	GElf_Sym stop = start;
	GElf_Shdr sh;

	stop.st_name = (Elf64_Word)stop_name;
	stop.st_value = table_size;
	if (!d || !gelf_update_sym(d, 1, &start) || !gelf_update_sym(d, 2, &stop) ||
	    !gelf_getshdr(symtab, &sh))
		return false;
	sh.sh_link = STRTAB;
	sh.sh_info = 1;	/* first global symbol */
	sh.sh_entsize = gelf_fsize(out, ELF_T_SYM, 1, EV_CURRENT);
	return gelf_update_shdr(symtab, &sh);
}

static bool set_header(struct image *img, Elf *out)
{
	GElf_Ehdr eh;

	if (!gelf_newehdr(out, img->eh.e_ident[EI_CLASS]) || !gelf_getehdr(out, &eh))
		return false;
	eh.e_ident[EI_DATA] = img->eh.e_ident[EI_DATA];
	eh.e_ident[EI_OSABI] = img->eh.e_ident[EI_OSABI];
	eh.e_type = ET_REL;
	eh.e_machine = img->eh.e_machine;
	eh.e_version = EV_CURRENT;
	eh.e_flags = img->eh.e_flags;	/* riscv: float ABI and RVC must match */
	eh.e_shstrndx = SHSTRTAB;
	return gelf_update_ehdr(out, &eh);
}

/* Section names (in section order from TABLE on) and symbol names. */
struct table_strings {
	char *shstr, *str;
	size_t shlen, slen;
	size_t names[SHSTRTAB + 1];
	size_t start, stop;
};

static void make_strings(struct image *img, const char *section, struct table_strings *t)
{
	static const char *const fixed[] = { ".note.GNU-stack", ".symtab", ".strtab", ".shstrtab" };
	size_t len = strlen(section);
	char *sym = scan_alloc(img, len + 16, 1);

	t->shstr = scan_alloc(img, len + 64, 1);
	t->str = scan_alloc(img, 2 * len + 32, 1);
	t->shlen = t->slen = 1;
	t->names[TABLE] = add_string(t->shstr, &t->shlen, section);
	for (size_t i = 0; i < 4; i++)
		t->names[NOTE + i] = add_string(t->shstr, &t->shlen, fixed[i]);
	sprintf(sym, "__pfe_start_%s", section);
	t->start = add_string(t->str, &t->slen, sym);
	sprintf(sym, "__pfe_stop_%s", section);
	t->stop = add_string(t->str, &t->slen, sym);
}

static bool build_table(struct image *img, Elf *out, const struct table_strings *t,
			const uint64_t *addrs, size_t n)
{
	size_t symsize = gelf_fsize(img->elf, ELF_T_SYM, 3, EV_CURRENT);
	void *table = table_bytes(img, addrs, n), *syms = scan_alloc(img, symsize, 1);
	Elf_Scn *symtab;

	return set_header(img, out) &&
	       new_section(out, t->names[TABLE], SHT_PROGBITS, SHF_ALLOC, ELF_T_ADDR, table,
			   n * img->ptr_size, img->ptr_size) &&
	       new_section(out, t->names[NOTE], SHT_PROGBITS, 0, ELF_T_BYTE, NULL, 0, 1) &&
	       (symtab = new_section(out, t->names[SYMTAB], SHT_SYMTAB, 0, ELF_T_SYM, syms,
				     symsize, img->ptr_size)) &&
	       new_section(out, t->names[STRTAB], SHT_STRTAB, 0, ELF_T_BYTE, t->str, t->slen, 1) &&
	       new_section(out, t->names[SHSTRTAB], SHT_STRTAB, 0, ELF_T_BYTE, t->shstr,
			   t->shlen, 1) &&
	       add_symbols(out, symtab, t->start, t->stop, n * img->ptr_size);
}

void write_table(struct image *img, const char *path, const char *section,
		 const uint64_t *addrs, size_t n)
{
	struct table_strings t;
	char err[160] = "";
	Elf *out;
	bool ok;
	int fd;

	make_strings(img, section, &t);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		scan_fail(img, "cannot create %s: %s", path, strerror(errno));
	out = elf_begin(fd, ELF_C_WRITE, NULL);
	ok = out && build_table(img, out, &t, addrs, n) && elf_update(out, ELF_C_WRITE) >= 0;
	if (!ok)
		snprintf(err, sizeof err, "%s", elf_errmsg(-1));
	elf_end(out);
	close(fd);
	if (!ok) {
		unlink(path);
		scan_fail(img, "cannot write %s: %s", path, err);
	}
}
