/* pfe-scan-elf.c: open an ELF file for pfe-scan and read, when it is
 * opened, everything the subcommands need from it: section headers and
 * contents, COMDAT groups, function symbols, relocations (an object's) or
 * dynamic relocations (a linked file's), the kCFI symbols' index; then
 * the records of a record section, resolved to (section, offset)
 * locations.  It is the one place that knows the record formats
 * (--record): an abs record is an address (an object's abs_reloc, a
 * PIE's R_*_RELATIVE), a rel32 record the 32-bit distance from itself to
 * its target (an object's rel32_reloc, or riscv's ADD32/SUB32 pair; none
 * in a linked file).  No table is filled on first use: after image_open
 * the image changes only where a subcommand edits the file (sort,
 * collect), so the flow is ELF -> image -> records -> layouts -> checks.
 *
 * All ELF structure parsing goes through libelf/gelf; this file only adds
 * the checks libelf leaves to its caller (indices in range, offsets inside
 * sections).  Every failed check ends in scan_fail(); to debug a rejected
 * file, break on scan_fail and compare with `readelf -SrsW FILE`.
 */
#include "pfe-scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* All memory of one image hangs off it, so a longjmp out of a half-read
 * file leaks nothing: image_close frees the lot. */
struct arena {
	struct arena *next;
	max_align_t data[];
};

void scan_fail(struct image *img, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(img->error, sizeof img->error, fmt, ap);
	va_end(ap);
	longjmp(*img->on_error, 1);
}

static _Noreturn void fail_libelf(struct image *img, const char *what)
{
	scan_fail(img, "%s: %s", what, elf_errmsg(-1));
}

void *scan_alloc(struct image *img, size_t count, size_t size)
{
	struct arena *a;

	if (size && count > (SIZE_MAX - sizeof *a) / size)
		scan_fail(img, "too large: %zu items of %zu bytes", count, size);
	a = calloc(1, sizeof *a + count * size);
	if (!a)
		scan_fail(img, "out of memory");
	a->next = img->arena;
	img->arena = a;
	return a->data;
}

/* libelf reads a file whose section headers or contents run past its end
 * as if they were not there; a truncated or corrupt file must be an error. */
static void check_in_file(struct image *img, const struct section *s, uint64_t filesize)
{
	if (s->sh.sh_type != SHT_NOBITS &&
	    (s->sh.sh_offset > filesize || filesize - s->sh.sh_offset < s->sh.sh_size))
		scan_fail(img, "section %s: contents past the end of the file", s->name);
}

static void load_sections(struct image *img)
{
	size_t shstrndx;

	if (elf_getshdrnum(img->elf, &img->nsecs) || elf_getshdrstrndx(img->elf, &shstrndx))
		fail_libelf(img, "section headers");
	if (img->eh.e_shoff && !img->nsecs)
		scan_fail(img, "section headers past the end of the file");
	img->secs = scan_alloc(img, img->nsecs, sizeof *img->secs);
	for (size_t i = 0; i < img->nsecs; i++) {
		struct section *s = &img->secs[i];

		s->scn = elf_getscn(img->elf, i);
		if (!s->scn || !gelf_getshdr(s->scn, &s->sh))
			fail_libelf(img, "section header");
		s->name = i ? elf_strptr(img->elf, shstrndx, s->sh.sh_name) : "";
		if (!s->name)
			scan_fail(img, "section %zu: bad name", i);
		s->group = "";
		check_in_file(img, s, img->filesize);
	}
}

/* The contents of section SEC as libelf converts them, or NULL if empty. */
Elf_Data *section_data(struct image *img, size_t sec)
{
	Elf_Data *d;

	elf_errno();	/* clear, to tell "empty" from "broken" below */
	d = elf_getdata(img->secs[sec].scn, NULL);
	if (!d && elf_errno())
		scan_fail(img, "section %s: %s", img->secs[sec].name, elf_errmsg(-1));
	if (d && d->d_size && !d->d_buf)
		scan_fail(img, "section %s: no contents", img->secs[sec].name);
	return d;
}

/* Entry count of a table section (symbols, relocations, group words). */
static size_t entry_count(struct image *img, Elf_Data *d, Elf_Type type)
{
	size_t size = gelf_fsize(img->elf, type, 1, EV_CURRENT);

	return d && size ? d->d_size / size : 0;
}

/* The bytes of every SHT_PROGBITS section (code, data, records, traps:
 * all pfe-scan reads as bytes; the tables go through section_data). */
static void load_contents(struct image *img)
{
	for (size_t i = 1; i < img->nsecs; i++) {
		struct section *s = &img->secs[i];
		Elf_Data *d;

		if (s->sh.sh_type != SHT_PROGBITS || !s->sh.sh_size)
			continue;
		d = section_data(img, i);
		if (!d || d->d_size != s->sh.sh_size)
			scan_fail(img, "section %s: contents do not match its size", s->name);
		s->bytes = d->d_buf;
	}
}

const uint8_t *section_bytes(const struct image *img, size_t sec, uint64_t *size)
{
	const struct section *s = &img->secs[sec];

	*size = s->bytes ? s->sh.sh_size : 0;
	return s->bytes;
}

bool is_code(const struct image *img, size_t sec)
{
	const GElf_Shdr *sh = &img->secs[sec].sh;

	return sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_EXECINSTR);
}

static bool is_regular_index(const struct image *img, size_t shndx)
{
	return shndx != SHN_UNDEF && shndx < SHN_LORESERVE && shndx < img->nsecs;
}

static void get_symbol(struct image *img, size_t symtab, size_t index, GElf_Sym *sym)
{
	Elf_Data *d = section_data(img, symtab);

	if (index >= entry_count(img, d, ELF_T_SYM) || !gelf_getsym(d, (int)index, sym))
		scan_fail(img, "symbol %zu: not in %s", index, img->secs[symtab].name);
}

static const char *name_in(struct image *img, size_t symtab, const GElf_Sym *sym)
{
	const char *name;

	if (GELF_ST_TYPE(sym->st_info) == STT_SECTION && is_regular_index(img, sym->st_shndx))
		return img->secs[sym->st_shndx].name;
	name = elf_strptr(img->elf, img->secs[symtab].sh.sh_link, sym->st_name);
	if (!name)
		scan_fail(img, "symbol in %s: bad name", img->secs[symtab].name);
	return name;
}

static const char *symbol_name(struct image *img, const GElf_Sym *sym)
{
	return name_in(img, img->symtab, sym);
}

/* COMDAT group signatures, so `list` can show which group a record is in. */
static void load_groups(struct image *img)
{
	for (size_t g = 1; g < img->nsecs; g++) {
		const GElf_Shdr *sh = &img->secs[g].sh;
		Elf_Data *d;
		const Elf32_Word *w;
		GElf_Sym sig;

		if (sh->sh_type != SHT_GROUP)
			continue;
		d = section_data(img, g);
		w = d ? d->d_buf : NULL;
		if (!entry_count(img, d, ELF_T_WORD) || !(w[0] & GRP_COMDAT))
			continue;
		if (!is_regular_index(img, sh->sh_link))
			scan_fail(img, "group %s: bad symbol table link", img->secs[g].name);
		get_symbol(img, sh->sh_link, sh->sh_info, &sig);
		for (size_t i = 1; i < entry_count(img, d, ELF_T_WORD); i++)
			if (is_regular_index(img, w[i]))
				img->secs[w[i]].group = name_in(img, sh->sh_link, &sig);
	}
}

static size_t find_symtab(const struct image *img)
{
	for (unsigned type = SHT_SYMTAB;; type = SHT_DYNSYM) {
		for (size_t i = 1; i < img->nsecs; i++)
			if (img->secs[i].sh.sh_type == type)
				return i;
		if (type == SHT_DYNSYM)
			return 0;
	}
}

static int compare_funcs(const void *pa, const void *pb)
{
	const struct func *a = pa, *b = pb;

	if (a->sec != b->sec)
		return a->sec < b->sec ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->local != b->local)	/* of aliases, name the global one */
		return a->local ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* The function a symbol defines, or false if it defines none we can place. */
static bool symbol_func(struct image *img, const GElf_Sym *sym, struct func *f)
{
	unsigned type = GELF_ST_TYPE(sym->st_info);
	const GElf_Shdr *sh;

	if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !is_regular_index(img, sym->st_shndx))
		return false;
	sh = &img->secs[sym->st_shndx].sh;
	f->sec = sym->st_shndx;
	f->off = sym->st_value;
	if (!img->relocatable) {
		if (sym->st_value < sh->sh_addr)
			return false;
		f->off -= sh->sh_addr;
	}
	if (f->off > sh->sh_size)
		return false;
	f->size = sym->st_size;
	f->local = GELF_ST_BIND(sym->st_info) == STB_LOCAL;
	f->name = symbol_name(img, sym);
	return true;
}

static void load_functions(struct image *img)
{
	Elf_Data *d;
	size_t n;

	img->symtab = find_symtab(img);
	if (!img->symtab)
		return;
	d = section_data(img, img->symtab);
	n = entry_count(img, d, ELF_T_SYM);
	img->funcs = scan_alloc(img, n, sizeof *img->funcs);
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;

		get_symbol(img, img->symtab, i, &sym);
		if (symbol_func(img, &sym, &img->funcs[img->nfuncs]))
			img->nfuncs++;
	}
	qsort(img->funcs, img->nfuncs, sizeof *img->funcs, compare_funcs);
}

/* Write back what the caller changed and flagged dirty, keeping the layout. */
void image_write(struct image *img)
{
	elf_flagelf(img->elf, ELF_C_SET, ELF_F_LAYOUT);
	if (elf_update(img->elf, ELF_C_WRITE) < 0)
		fail_libelf(img, "cannot write");
}

void image_close(struct image *img)
{
	elf_end(img->elf);
	if (img->fd >= 0)
		close(img->fd);
	while (img->arena) {
		struct arena *next = img->arena->next;

		free(img->arena);
		img->arena = next;
	}
	img->elf = NULL;
	img->fd = -1;
}

/* Whether the section with header SH holds link-time address ADDR. */
static bool section_holds(const GElf_Shdr *sh, uint64_t addr)
{
	return addr >= sh->sh_addr && addr - sh->sh_addr < sh->sh_size;
}

bool find_section_by_addr(const struct image *img, uint64_t addr, size_t *sec)
{
	/* Code first: TLS and other sections may overlap it in address. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 1; i < img->nsecs; i++) {
			const GElf_Shdr *sh = &img->secs[i].sh;

			if (!(sh->sh_flags & SHF_ALLOC) || (pass == 0 && !is_code(img, i)))
				continue;
			if (section_holds(sh, addr)) {
				*sec = i;
				return true;
			}
		}
	return false;
}

uint64_t location_addr(const struct image *img, struct location loc)
{
	return img->relocatable ? loc.off : img->secs[loc.sec].sh.sh_addr + loc.off;
}

/* Index of the first function at or after LOC in sorted img->funcs. */
static size_t lower_bound(const struct image *img, struct location loc)
{
	size_t lo = 0, hi = img->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct func *f = &img->funcs[mid];

		if (f->sec < loc.sec || (f->sec == loc.sec && f->off < loc.off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct func *func_at(const struct image *img, struct location loc)
{
	size_t i = lower_bound(img, loc);

	if (i < img->nfuncs && img->funcs[i].sec == loc.sec && img->funcs[i].off == loc.off)
		return &img->funcs[i];
	return NULL;
}

/* The last function starting at or before LOC in its section. */
const struct func *func_before(const struct image *img, struct location loc)
{
	size_t i = lower_bound(img, (struct location){ loc.sec, loc.off + 1 });

	return i > 0 && img->funcs[i - 1].sec == loc.sec ? &img->funcs[i - 1] : NULL;
}

const struct func *func_containing(const struct image *img, struct location loc)
{
	const struct func *last = func_before(img, loc);

	/* Functions do not nest; of aliases at one start, any with a size. */
	for (const struct func *f = last; f; f--) {
		if (loc.off - f->off < f->size)
			return f;
		if (f == img->funcs || f[-1].sec != loc.sec || f[-1].off != last->off)
			break;
	}
	return NULL;
}

/* The section a record section RS is linked to (SHF_LINK_ORDER, the "o"
 * flag), or "". */
const char *linked_section(const struct image *img, size_t rs)
{
	const GElf_Shdr *sh = &img->secs[rs].sh;

	if (!(sh->sh_flags & SHF_LINK_ORDER) || sh->sh_link >= img->nsecs)
		return "";
	return img->secs[sh->sh_link].name;
}

/* Where the next function after F starts (its section's end if none). */
uint64_t next_func_off(const struct image *img, const struct func *f)
{
	size_t i = lower_bound(img, (struct location){ f->sec, f->off + 1 });

	if (i < img->nfuncs && img->funcs[i].sec == f->sec)
		return img->funcs[i].off;
	return img->secs[f->sec].sh.sh_type == SHT_NOBITS ? 0 : img->secs[f->sec].sh.sh_size;
}

bool find_symbol_addr(struct image *img, const char *name, uint64_t *addr)
{
	for (size_t s = 1; s < img->nsecs; s++) {
		unsigned type = img->secs[s].sh.sh_type;
		Elf_Data *d;

		if (type != SHT_SYMTAB && type != SHT_DYNSYM)
			continue;
		d = section_data(img, s);
		for (size_t i = 1; i < entry_count(img, d, ELF_T_SYM); i++) {
			GElf_Sym sym;

			get_symbol(img, s, i, &sym);
			if (sym.st_shndx != SHN_UNDEF && !strcmp(name_in(img, s, &sym), name)) {
				*addr = sym.st_value;
				return true;
			}
		}
	}
	return false;
}

static int compare_relocs(const void *pa, const void *pb)
{
	const struct reloc *a = pa, *b = pb;

	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static bool is_reloc_section(const GElf_Shdr *sh)
{
	return sh->sh_type == SHT_RELA || sh->sh_type == SHT_REL;
}

/* Read relocation entry I of section RSEC as RELA (addend 0 for REL). */
static void get_reloc(struct image *img, size_t rsec, Elf_Data *d, size_t i, GElf_Rela *out)
{
	bool rela = img->secs[rsec].sh.sh_type == SHT_RELA;
	GElf_Rel rel;

	/* gelf checks I against the section's size. */
	if (rela ? !gelf_getrela(d, (int)i, out) : !gelf_getrel(d, (int)i, &rel))
		fail_libelf(img, img->secs[rsec].name);
	if (!rela)
		*out = (GElf_Rela){ rel.r_offset, rel.r_info, 0 };
}

static size_t reloc_count(struct image *img, size_t rsec)
{
	bool rela = img->secs[rsec].sh.sh_type == SHT_RELA;

	return entry_count(img, section_data(img, rsec), rela ? ELF_T_RELA : ELF_T_REL);
}

/* The symbol a relocation in section RSEC refers to. */
static void reloc_symbol(struct image *img, size_t rsec, const GElf_Rela *r, GElf_Sym *sym)
{
	if (img->secs[rsec].sh.sh_link != img->symtab || !img->symtab)
		scan_fail(img, "%s: not linked to the symbol table", img->secs[rsec].name);
	get_symbol(img, img->symtab, GELF_R_SYM(r->r_info), sym);
}

/* One relocation of section RSEC, with its symbol's name and value. */
static void read_reloc(struct image *img, size_t rsec, Elf_Data *d, size_t i, struct reloc *out)
{
	GElf_Rela rela;
	GElf_Sym sym;

	get_reloc(img, rsec, d, i, &rela);
	*out = (struct reloc){ rela.r_offset, NULL, 0, 0, GELF_R_TYPE(rela.r_info),
			       rela.r_addend, img->secs[rsec].sh.sh_type == SHT_RELA };
	if (GELF_R_SYM(rela.r_info)) {	/* none: e.g. R_RISCV_RELAX */
		reloc_symbol(img, rsec, &rela, &sym);
		out->symbol = symbol_name(img, &sym);
		out->sym_value = sym.st_value;
		out->sym_section = is_regular_index(img, sym.st_shndx) ? sym.st_shndx : 0;
	}
}

/* The section an object's relocation section RSEC applies to, when it is
 * one pfe-scan reads (allocated: code, records, data; not debug info);
 * else 0. */
static size_t relocated_section(struct image *img, size_t rsec)
{
	const GElf_Shdr *sh = &img->secs[rsec].sh;

	if (!is_reloc_section(sh))
		return 0;
	if (!is_regular_index(img, sh->sh_info))
		scan_fail(img, "%s: applies to no section (%u)", img->secs[rsec].name, (unsigned)sh->sh_info);
	return img->secs[sh->sh_info].sh.sh_flags & SHF_ALLOC ? sh->sh_info : 0;
}

/* The relocations of an object, each allocated section's sorted by
 * offset: what a call's target is before linking, what an ops slot
 * holds, and where the linker will still align code (R_RISCV_ALIGN, no
 * symbol).  Counted first, then read into each section's array. */
static void load_relocs(struct image *img)
{
	for (size_t r = 1; r < img->nsecs; r++) {
		size_t sec = relocated_section(img, r);

		if (sec)
			img->secs[sec].nrelocs += reloc_count(img, r);
	}
	for (size_t sec = 1; sec < img->nsecs; sec++) {
		struct section *s = &img->secs[sec];

		if (s->nrelocs)
			s->relocs = scan_alloc(img, s->nrelocs, sizeof *s->relocs);
		s->nrelocs = 0;
	}
	for (size_t r = 1; r < img->nsecs; r++) {
		size_t sec = relocated_section(img, r);
		struct section *s = &img->secs[sec];
		Elf_Data *d;

		if (!sec)
			continue;
		d = section_data(img, r);
		for (size_t i = 0, count = reloc_count(img, r); i < count; i++)
			read_reloc(img, r, d, i, &s->relocs[s->nrelocs++]);
	}
	for (size_t sec = 1; sec < img->nsecs; sec++)
		if (img->secs[sec].nrelocs)
			qsort(img->secs[sec].relocs, img->secs[sec].nrelocs, sizeof *img->secs[sec].relocs, compare_relocs);
}

const struct reloc *section_relocs(const struct image *img, size_t sec, size_t *n)
{
	*n = img->secs[sec].nrelocs;
	return img->secs[sec].relocs;
}

/* The index of the first relocation of section SEC at or after OFF. */
size_t reloc_index(const struct image *img, size_t sec, uint64_t off)
{
	size_t n, lo = 0, hi;
	const struct reloc *r = section_relocs(img, sec, &n);

	for (hi = n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The relocation naming a symbol at offset OFF of section SEC, or NULL. */
const struct reloc *reloc_at(const struct image *img, size_t sec, uint64_t off)
{
	size_t n, i = reloc_index(img, sec, off);
	const struct reloc *r = section_relocs(img, sec, &n);

	for (; i < n && r[i].offset == off; i++)
		if (r[i].symbol)
			return &r[i];
	return NULL;
}

static int compare_dyn_relocs(const void *pa, const void *pb)
{
	const struct dyn_reloc *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* One dynamic relocation RELA of section RSEC, with its symbol from the
 * table the section is linked to. */
static void read_dyn_reloc(struct image *img, size_t rsec, const GElf_Rela *rela, struct dyn_reloc *out)
{
	size_t link = img->secs[rsec].sh.sh_link;
	GElf_Sym sym;

	*out = (struct dyn_reloc){ rela->r_offset, GELF_R_TYPE(rela->r_info), rela->r_addend,
				   img->secs[rsec].sh.sh_type == SHT_RELA, NULL, 0, false };
	if (!GELF_R_SYM(rela->r_info))
		return;
	if (!is_regular_index(img, link) || (img->secs[link].sh.sh_type != SHT_DYNSYM &&
					     img->secs[link].sh.sh_type != SHT_SYMTAB))
		scan_fail(img, "%s: not linked to a symbol table", img->secs[rsec].name);
	get_symbol(img, link, GELF_R_SYM(rela->r_info), &sym);
	out->symbol = name_in(img, link, &sym);
	out->sym_defined = sym.st_shndx != SHN_UNDEF;
	out->sym_value = sym.st_value;
}

/* Whether ADDR is in one of the GOT sections GOTS (.got, .got.plt). */
static bool in_got(const struct image *img, const size_t *gots, size_t ngots, uint64_t addr)
{
	for (size_t k = 0; k < ngots; k++)
		if (section_holds(&img->secs[gots[k]].sh, addr))
			return true;
	return false;
}

/* The dynamic relocations of a linked file pfe-scan reads, sorted by
 * address: those naming a symbol (imports, GOT entries of symbols) and
 * the others of the GOT (the slots of calls through the GOT or the PLT).
 * Not the rest (a PIE's relative relocations of its records and data: one
 * a record, never asked for). */
static void load_dyn_relocs(struct image *img)
{
	size_t n = 0, gots[8], ngots = 0;

	for (size_t s = 1; s < img->nsecs; s++)
		if ((img->secs[s].sh.sh_flags & SHF_ALLOC) && !strncmp(img->secs[s].name, ".got", 4) &&
		    ngots < sizeof gots / sizeof gots[0])
			gots[ngots++] = s;
	for (size_t r = 1; r < img->nsecs; r++)
		if (is_reloc_section(&img->secs[r].sh) && (img->secs[r].sh.sh_flags & SHF_ALLOC))
			n += reloc_count(img, r);
	img->dyn_relocs = scan_alloc(img, n, sizeof *img->dyn_relocs);
	for (size_t r = 1; r < img->nsecs; r++) {
		Elf_Data *d;

		if (!is_reloc_section(&img->secs[r].sh) || !(img->secs[r].sh.sh_flags & SHF_ALLOC))
			continue;
		d = section_data(img, r);
		for (size_t i = 0, count = reloc_count(img, r); i < count; i++) {
			GElf_Rela rela;

			get_reloc(img, r, d, i, &rela);
			if (GELF_R_SYM(rela.r_info) || in_got(img, gots, ngots, rela.r_offset))
				read_dyn_reloc(img, r, &rela, &img->dyn_relocs[img->ndyn_relocs++]);
		}
	}
	if (img->ndyn_relocs)
		qsort(img->dyn_relocs, img->ndyn_relocs, sizeof *img->dyn_relocs, compare_dyn_relocs);
}

/* The dynamic relocation that writes ADDR (a GOT entry), or NULL. */
const struct dyn_reloc *dyn_reloc_at(const struct image *img, uint64_t addr)
{
	struct dyn_reloc key = { .addr = addr };

	if (!img->ndyn_relocs)
		return NULL;
	return bsearch(&key, img->dyn_relocs, img->ndyn_relocs, sizeof key, compare_dyn_relocs);
}

/* Does a dynamic relocation name SYMBOL (a shared object's import)? */
bool imports_symbol(const struct image *img, const char *symbol)
{
	for (size_t i = 0; i < img->ndyn_relocs; i++)
		if (img->dyn_relocs[i].symbol && !strcmp(img->dyn_relocs[i].symbol, symbol))
			return true;
	return false;
}

/* Open: everything pfe-scan reads, read here, once; the rest only reads
 * the image. */
static void image_init(struct image *img)
{
	if (!img->elf)
		fail_libelf(img, "cannot read");
	if (elf_kind(img->elf) != ELF_K_ELF)
		scan_fail(img, "not an ELF file");
	if (!gelf_getehdr(img->elf, &img->eh))
		fail_libelf(img, "ELF header");
	if (img->eh.e_ident[EI_DATA] != ELFDATA2LSB)
		scan_fail(img, "big-endian ELF is not supported");
	img->arch = pfe_arch_by_machine(img->eh.e_machine, img->eh.e_ident[EI_CLASS]);
	if (!img->arch)
		scan_fail(img, "unsupported machine %u for ELF class %u",
			  img->eh.e_machine, img->eh.e_ident[EI_CLASS]);
	img->ptr_size = (unsigned)gelf_fsize(img->elf, ELF_T_ADDR, 1, EV_CURRENT);
	if (img->eh.e_type != ET_REL && img->eh.e_type != ET_EXEC && img->eh.e_type != ET_DYN)
		scan_fail(img, "unsupported ELF type %u", img->eh.e_type);
	img->relocatable = img->eh.e_type == ET_REL;
	load_sections(img);
	load_contents(img);
	if (img->relocatable)
		load_groups(img);
	load_functions(img);
	if (img->relocatable)
		load_relocs(img);
	else
		load_dyn_relocs(img);
	index_kcfi_symbols(img);
}

void image_open(struct image *img, const char *path, bool writable)
{
	struct stat st;

	img->path = path;
	img->fd = open(path, writable ? O_RDWR : O_RDONLY);
	if (img->fd < 0 || fstat(img->fd, &st))
		scan_fail(img, "%s", strerror(errno));
	img->filesize = (uint64_t)st.st_size;
	img->elf = elf_begin(img->fd, writable ? ELF_C_RDWR : ELF_C_READ_MMAP, NULL);
	image_init(img);
}

void image_open_memory(struct image *img, char *buf, size_t size)
{
	img->path = "<memory>";
	img->fd = -1;
	img->filesize = size;
	img->elf = elf_memory(buf, size);
	image_init(img);
}

/* The bytes at link-time address ADDR of a linked file, *AVAIL of them up to
 * the end of their section, or NULL when no section has contents there. */
const uint8_t *bytes_at_addr(struct image *img, uint64_t addr, uint64_t *avail)
{
	size_t sec;
	uint64_t size, off;
	const uint8_t *b;

	*avail = 0;
	if (img->relocatable || !find_section_by_addr(img, addr, &sec))
		return NULL;
	b = section_bytes(img, sec, &size);
	off = addr - img->secs[sec].sh.sh_addr;
	if (!b || off >= size)
		return NULL;
	*avail = size - off;
	return b + off;
}

size_t record_sections(struct image *img, const char *name, size_t **out)
{
	size_t n = 0;

	*out = scan_alloc(img, img->nsecs, sizeof **out);
	for (size_t i = 1; i < img->nsecs; i++)
		if (img->secs[i].sh.sh_type == SHT_PROGBITS && !strcmp(img->secs[i].name, name))
			(*out)[n++] = i;
	return n;
}

const char *default_record_section(enum record_format format)
{
	return format == RECORD_REL32 ? PFE_SECTION_ENTRIES_REL32 : PFE_SECTION_ENTRIES;
}

unsigned record_size(const struct image *img, enum record_format format)
{
	return format == RECORD_REL32 ? PFE_REL32_RECORD_SIZE : img->arch->record_size;
}

/* rel32 records are resolved at the link: a PIE's loader relocates abs
 * ones only. */
bool loader_relocates(const struct image *img, enum record_format format)
{
	return format == RECORD_ABS && img->eh.e_type == ET_DYN;
}

uint64_t encode_linked_record(struct image *img, enum record_format format, uint64_t at,
			      uint64_t target)
{
	int64_t distance = (int64_t)(target - at);

	if (format == RECORD_ABS || !target)
		return target;
	if (distance != (int32_t)distance)
		scan_fail(img, "a rel32 record at 0x%llx cannot reach 0x%llx",
			  (unsigned long long)at, (unsigned long long)target);
	return (uint32_t)distance;
}

/* The relocation an object's record of FORMAT has against its target
 * (riscv's gas writes rel32 as a pair instead: rel32_pair_target). */
static unsigned target_reloc(const struct image *img, enum record_format format)
{
	return format == RECORD_REL32 ? img->arch->rel32_reloc : img->arch->abs_reloc;
}

static unsigned slot_reloc_type(const struct slot_reloc *r)
{
	return GELF_R_TYPE(r->rela.r_info);
}

bool reloc_of_slot(const struct image *img, enum record_format format,
		   const struct slot_reloc *r)
{
	return format == RECORD_REL32 && img->arch->rel32_sub_reloc &&
	       slot_reloc_type(r) == img->arch->rel32_sub_reloc;
}

/* Does relocation section R apply to record section RS?  In an object, the
 * ones whose sh_info says so; in a linked file, the dynamic ones. */
static bool applies_to(const struct image *img, size_t r, size_t rs)
{
	const GElf_Shdr *sh = &img->secs[r].sh;

	if (!is_reloc_section(sh))
		return false;
	return img->relocatable ? sh->sh_info == rs : (sh->sh_flags & SHF_ALLOC) != 0;
}

/* Turn a relocation's r_offset into an offset in record section RS (of
 * records of SIZE bytes), or return false if it does not fall in RS. */
static bool slot_offset(struct image *img, size_t rs, unsigned size, GElf_Rela *r)
{
	const GElf_Shdr *sh = &img->secs[rs].sh;

	if (!img->relocatable) {
		if (r->r_offset < sh->sh_addr || r->r_offset - sh->sh_addr >= sh->sh_size)
			return false;
		r->r_offset -= sh->sh_addr;
	}
	if (r->r_offset >= sh->sh_size || r->r_offset % size)
		scan_fail(img, "%s: relocation at 0x%llx is not on a record",
			  img->secs[rs].name, (unsigned long long)r->r_offset);
	return true;
}

size_t slot_relocs(struct image *img, size_t rs, enum record_format format,
		   struct slot_reloc **out)
{
	size_t n = 0, max = 0;
	unsigned size = record_size(img, format);

	for (size_t r = 1; r < img->nsecs; r++)
		if (applies_to(img, r, rs))
			max += reloc_count(img, r);
	*out = scan_alloc(img, max, sizeof **out);
	for (size_t r = 1; r < img->nsecs; r++) {
		Elf_Data *d;

		if (!applies_to(img, r, rs))
			continue;
		d = section_data(img, r);
		for (size_t i = 0, count = reloc_count(img, r); i < count; i++) {
			struct slot_reloc *s = &(*out)[n];

			get_reloc(img, r, d, i, &s->rela);
			s->rsec = r;
			s->index = i;
			s->is_rela = img->secs[r].sh.sh_type == SHT_RELA;
			if (slot_offset(img, rs, size, &s->rela))
				n++;
		}
	}
	return n;
}

/* Write back a slot_reloc, whose r_offset is relative to RS as
 * slot_relocs() left it, into its relocation section. */
void update_slot_reloc(struct image *img, size_t rs, const struct slot_reloc *s)
{
	Elf_Data *d = section_data(img, s->rsec);
	GElf_Rela r = s->rela;
	bool ok;

	if (!img->relocatable)
		r.r_offset += img->secs[rs].sh.sh_addr;
	if (s->is_rela)
		ok = gelf_update_rela(d, (int)s->index, &r);
	else
		ok = gelf_update_rel(d, (int)s->index, &(GElf_Rel){ r.r_offset, r.r_info });
	if (!ok)
		fail_libelf(img, img->secs[s->rsec].name);
	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
}

/* Point record REC (from an object) where relocation S says: its
 * symbol plus its addend (REL: the record's bytes; rel32: signed). */
static void resolve_object_record(struct image *img, enum record_format format,
				  struct record *rec, const struct slot_reloc *s)
{
	GElf_Sym sym;
	uint64_t in_place = rec->value, addend;

	if (format == RECORD_REL32)
		in_place = (uint64_t)pfe_enc_sign_extend(in_place, 32);
	addend = s->is_rela ? (uint64_t)s->rela.r_addend : in_place;

	reloc_symbol(img, s->rsec, &s->rela, &sym);
	if (!is_regular_index(img, sym.st_shndx))
		scan_fail(img, "%s+0x%llx: record relocated against %s, not a defined symbol",
			  img->secs[rec->rec_sec].name, (unsigned long long)rec->slot,
			  symbol_name(img, &sym));
	rec->target = (struct location){ sym.st_shndx, sym.st_value + addend };
	rec->value = rec->target.off;
	rec->zero = false;
}

static _Noreturn void fail_reloc_type(struct image *img, const struct record *rec, unsigned type)
{
	scan_fail(img, "%s+0x%llx: unexpected relocation type %u on a record",
		  img->secs[rec->rec_sec].name, (unsigned long long)rec->slot, type);
}

static void apply_reloc(struct image *img, enum record_format format, struct record *rec,
			const struct slot_reloc *s)
{
	unsigned type = slot_reloc_type(s);

	if (type == 0)	/* R_*_NONE: a record pfe-scan sort zeroed */
		return;
	if (img->relocatable && type == target_reloc(img, format))
		resolve_object_record(img, format, rec, s);
	else if (!img->relocatable && format == RECORD_REL32)
		scan_fail(img, "%s+0x%llx: dynamic relocation type %u on a rel32 record, "
			  "which needs none", img->secs[rec->rec_sec].name,
			  (unsigned long long)rec->slot, type);
	else if (!img->relocatable && type == img->arch->relative_reloc) {
		if (s->is_rela)	/* REL keeps the link-time address in place */
			rec->value = (uint64_t)s->rela.r_addend;
	}
	else
		fail_reloc_type(img, rec, type);
}

/* Is relocation S's symbol (plus addend) record REC itself? */
static bool reloc_at_record(struct image *img, const struct record *rec,
			    const struct slot_reloc *s)
{
	GElf_Sym sym;

	reloc_symbol(img, s->rsec, &s->rela, &sym);
	return sym.st_shndx == rec->rec_sec &&
	       sym.st_value + (uint64_t)s->rela.r_addend == rec->slot;
}

/* riscv's gas writes a rel32 record, `.4byte L - .`, as two relocations
 * at it: ADD32 of L and SUB32 of a label at the record itself.  Of the
 * relocations R[0..N) at REC, the ADD32 of such a pair; NULL if neither
 * half is there (one relocation of another type, or NONE: a record sort
 * zeroed).  A half without the other, or with more, is an error. */
static const struct slot_reloc *rel32_pair_target(struct image *img, const struct record *rec,
						  const struct slot_reloc *r, size_t n)
{
	const struct pfe_arch *a = img->arch;
	const struct slot_reloc *add = NULL, *sub = NULL, *odd = NULL;

	for (size_t i = 0; i < n; i++) {
		unsigned type = slot_reloc_type(&r[i]);

		if (type == a->rel32_add_reloc && !add)
			add = &r[i];
		else if (type == a->rel32_sub_reloc && !sub && reloc_at_record(img, rec, &r[i]))
			sub = &r[i];
		else
			odd = &r[i];
	}
	if (!add && !sub)
		return NULL;
	if (!add || !sub || odd)
		scan_fail(img, "%s+0x%llx: relocation type %u on a rel32 record, not the pair of "
			  "type %u (its target) and %u (the record itself)",
			  img->secs[rec->rec_sec].name, (unsigned long long)rec->slot,
			  slot_reloc_type(odd ? odd : add ? add : sub), a->rel32_add_reloc,
			  a->rel32_sub_reloc);
	return add;
}

/* The relocations R[0..N) at record REC: an object's give its target, a
 * linked file's (a PIE's abs record) its address. */
static void apply_relocs(struct image *img, enum record_format format, struct record *rec,
			 const struct slot_reloc *r, size_t n)
{
	const struct slot_reloc *add = NULL;

	if (img->relocatable && format == RECORD_REL32 && img->arch->rel32_sub_reloc)
		add = rel32_pair_target(img, rec, r, n);
	if (add)
		resolve_object_record(img, format, rec, add);
	else
		for (size_t i = 0; i < n; i++)
			apply_reloc(img, format, rec, &r[i]);
}

static int compare_slot_offsets(const void *pa, const void *pb)
{
	const struct slot_reloc *a = pa, *b = pb;

	return a->rela.r_offset < b->rela.r_offset ? -1 : a->rela.r_offset > b->rela.r_offset;
}

/* Apply relocations R[0..N) (of one record section) to its records
 * RECS, record by record. */
static void apply_slot_relocs(struct image *img, enum record_format format, struct record *recs,
			      struct slot_reloc *r, size_t n)
{
	unsigned size = record_size(img, format);

	qsort(r, n, sizeof *r, compare_slot_offsets);
	for (size_t i = 0, end; i < n; i = end) {
		for (end = i + 1; end < n && r[end].rela.r_offset == r[i].rela.r_offset; end++)
			;
		apply_relocs(img, format, &recs[r[i].rela.r_offset / size], &r[i], end - i);
	}
}

/* In a linked file a record gives an address (abs: its value, rel32: its
 * own address plus its value), 0 for none; find its section. */
static void resolve_linked_record(struct image *img, enum record_format format,
				  struct record *rec)
{
	size_t sec;

	if (!rec->value)
		return;
	if (format == RECORD_REL32)
		rec->value = pfe_rel32_target(img->secs[rec->rec_sec].sh.sh_addr + rec->slot,
					      (uint32_t)rec->value);
	if (!find_section_by_addr(img, rec->value, &sec))
		scan_fail(img, "%s+0x%llx: record points to 0x%llx, outside every section",
			  img->secs[rec->rec_sec].name, (unsigned long long)rec->slot,
			  (unsigned long long)rec->value);
	rec->target = (struct location){ sec, rec->value - img->secs[sec].sh.sh_addr };
	rec->zero = false;
}

static void check_object_record(struct image *img, const struct record *rec)
{
	const struct section *t = &img->secs[rec->target.sec];

	if (rec->zero && rec->value)
		scan_fail(img, "%s+0x%llx: record has no relocation",
			  img->secs[rec->rec_sec].name, (unsigned long long)rec->slot);
	if (!rec->zero && rec->target.off > t->sh.sh_size)
		scan_fail(img, "%s+0x%llx: record points past the end of %s",
			  img->secs[rec->rec_sec].name, (unsigned long long)rec->slot, t->name);
}

size_t read_records(struct image *img, size_t rs, enum record_format format,
		    struct record **out)
{
	uint64_t size;
	const uint8_t *bytes = section_bytes(img, rs, &size);
	unsigned rsize = record_size(img, format);
	struct slot_reloc *relocs;
	size_t n, nrelocs = slot_relocs(img, rs, format, &relocs);

	if (size % rsize)
		scan_fail(img, "%s: size %llu is not a multiple of %u", img->secs[rs].name,
			  (unsigned long long)size, rsize);
	n = size / rsize;
	*out = scan_alloc(img, n, sizeof **out);
	for (size_t i = 0; i < n; i++)
		(*out)[i] = (struct record){ .rec_sec = rs, .slot = i * rsize, .zero = true,
					     .value = load_le(bytes + i * rsize, rsize) };
	apply_slot_relocs(img, format, *out, relocs, nrelocs);
	for (size_t i = 0; i < n; i++)
		if (img->relocatable)
			check_object_record(img, &(*out)[i]);
		else
			resolve_linked_record(img, format, &(*out)[i]);
	return n;
}

size_t named_records(struct image *img, const struct record_spec *spec, struct record **out,
		     size_t *nsecs)
{
	size_t *rs, nrs = record_sections(img, spec->section, &rs), max = 0, n = 0;

	for (size_t i = 0; i < nrs; i++)
		max += img->secs[rs[i]].sh.sh_size / record_size(img, spec->format);
	*out = scan_alloc(img, max + 1, sizeof **out);
	for (size_t i = 0; i < nrs; i++) {
		struct record *recs;
		size_t k = read_records(img, rs[i], spec->format, &recs);

		for (size_t r = 0; r < k; r++)
			if (!recs[r].zero)
				(*out)[n++] = recs[r];
	}
	if (nsecs)
		*nsecs = nrs;
	return n;
}

static int compare_named_values(const void *pa, const void *pb)
{
	const struct named_value *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

/* The absolute (SHN_ABS) symbols of the symbol table whose names start
 * with PREFIX, the prefix taken off, sorted by name: Clang's and pfe's
 * __kcfi_typeid_<name> are such symbols. */
size_t absolute_symbols(struct image *img, const char *prefix, struct named_value **out)
{
	size_t len = strlen(prefix), n = 0, count;
	Elf_Data *d;

	*out = NULL;
	if (!img->symtab)
		return 0;
	d = section_data(img, img->symtab);
	count = entry_count(img, d, ELF_T_SYM);
	*out = scan_alloc(img, count, sizeof **out);
	for (size_t i = 1; i < count; i++) {
		GElf_Sym sym;
		const char *name;

		get_symbol(img, img->symtab, i, &sym);
		if (sym.st_shndx != SHN_ABS || GELF_ST_TYPE(sym.st_info) == STT_SECTION)
			continue;
		name = symbol_name(img, &sym);
		if (!strncmp(name, prefix, len))
			(*out)[n++] = (struct named_value){ name + len, sym.st_value };
	}
	qsort(*out, n, sizeof **out, compare_named_values);
	return n;
}
