/* object.c: one loaded object (the main program or a shared object): read
 * its file's section headers for the record sections
 * (__patchable_function_entries, record=rel32's, __mcount_loc) and its
 * symbol table, read the records from memory (relocated by the dynamic
 * loader; rel32 ones by the link), and have
 * arch-hooks/layout.c (the reader pfe-scan uses too) say which function
 * each is for and its entry's layout: NOPs before and after, the landing
 * pad, the kCFI hash in either layout, the fentry call or its NOP form;
 * then work out where and how each is patched (arch-hooks/arch.h)
 * and whether its ops slot is usable.  The audit copy (audit.c) reads
 * no symbol where the records alone show nothing to prepare
 * (prepared_already), and names nothing.
 *
 * Debugging: PFE_DEBUG=list prints every function found; a record that
 * points outside the object's code is a warning naming the record's
 * section and offset.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "../arch-hooks/layout.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct file {
	const char *path;
	const unsigned char *data;
	size_t size;
	const ElfW(Ehdr) *eh;
	const ElfW(Shdr) *sh;
};

struct sym {
	uintptr_t addr, end;
	const char *name;
};

/* The symbols, sorted by address, and the object's code: what the layout
 * reader looks functions up in (offsets from lo). */
struct symtab {
	const struct sym *s;
	size_t n;
	uintptr_t lo, hi;
};

/* A record found: the function it belongs to comes later. */
struct rec {
	uintptr_t at;
	bool is_call;
};

static int file_open(struct file *f, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	f->path = path;
	if (fd < 0)
		return PFE_EFILE;
	if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
		close(fd);
		return PFE_EFILE;
	}
	f->size = (size_t)st.st_size;
	f->data = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->data == MAP_FAILED)
		return PFE_EFILE;
	f->eh = (const ElfW(Ehdr) *)f->data;
	if (memcmp(f->eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    f->eh->e_ident[EI_CLASS] != pfe__arch->elf_class ||
	    f->eh->e_machine != pfe__arch->e_machine ||
	    f->eh->e_shentsize != sizeof(ElfW(Shdr)) ||
	    f->eh->e_shoff > f->size ||
	    (size_t)f->eh->e_shnum * sizeof(ElfW(Shdr)) > f->size - f->eh->e_shoff ||
	    f->eh->e_shstrndx >= f->eh->e_shnum) {
		pfe__warn("file_open", 0, "%s: not an ELF file of this target, or malformed", path);
		munmap((void *)f->data, f->size);
		return PFE_EFILE;
	}
	f->sh = (const ElfW(Shdr) *)(f->data + f->eh->e_shoff);
	return 0;
}

/* Section I's contents, or NULL when they are not all in the file. */
static const void *section_data(const struct file *f, unsigned i)
{
	const ElfW(Shdr) *s = &f->sh[i];

	if (s->sh_type == SHT_NOBITS || s->sh_offset > f->size || s->sh_size > f->size - s->sh_offset)
		return NULL;
	return f->data + s->sh_offset;
}

static const char *section_name(const struct file *f, unsigned i)
{
	const ElfW(Shdr) *strs = &f->sh[f->eh->e_shstrndx];
	const char *data = section_data(f, f->eh->e_shstrndx);

	if (!data || f->sh[i].sh_name >= strs->sh_size ||
	    !memchr(data + f->sh[i].sh_name, 0, strs->sh_size - f->sh[i].sh_name))
		return "";
	return data + f->sh[i].sh_name;
}

/* The uintptr_t at OFF in record I of SIZE bytes at A. */
static uintptr_t key_at(const unsigned char *a, size_t i, size_t size, size_t off)
{
	uintptr_t k;

	memcpy(&k, a + i * size + off, sizeof k);
	return k;
}

/* Sort the N records of SIZE bytes at BASE by the uintptr_t at OFF in
 * each (what pfe__lower_bound searches), stably: aliases keep their
 * symbol table's order.  Nothing to do when they are in order (records,
 * sleds usually are); else a radix sort, a byte a pass, on the bytes in
 * which the keys differ: glibc's qsort, a call of a comparison a step,
 * took some 17 ms of 100000 symbols, each time an object is read. */
int pfe__sort_by_key(void *base, size_t n, size_t size, size_t off)
{
	unsigned char *from = base, *to, *spare;
	uintptr_t lo = UINTPTR_MAX, hi = 0, prev = 0;
	bool sorted = true;

	for (size_t i = 0; i < n; i++) {
		uintptr_t k = key_at(from, i, size, off);

		sorted = sorted && k >= prev;
		prev = k;
		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	if (sorted)
		return 0;
	if (!(spare = to = malloc(n * size)))
		return PFE_ENOMEM;
	for (unsigned shift = 0; shift < sizeof hi * 8 && (hi - lo) >> shift; shift += 8) {
		size_t at[257] = { 0 };
		unsigned char *was = from;

		for (size_t i = 0; i < n; i++)
			at[((key_at(from, i, size, off) - lo) >> shift & 0xff) + 1]++;
		for (unsigned b = 1; b < 257; b++)
			at[b] += at[b - 1];
		for (size_t i = 0; i < n; i++)
			memcpy(to + size * at[(key_at(from, i, size, off) - lo) >> shift & 0xff]++, from + i * size, size);
		from = to;
		to = was;
	}
	if (from != base)
		memcpy(base, from, n * size);
	free(spare);
	return 0;
}

/* The defined functions of the symbol table TYPE (.symtab, else .dynsym). */
static struct sym *read_symbols(const struct file *f, uintptr_t base, unsigned type, size_t *n)
{
	struct sym *out = NULL;

	*n = 0;
	for (unsigned i = 1; i < f->eh->e_shnum; i++) {
		const ElfW(Shdr) *s = &f->sh[i];
		const ElfW(Sym) *syms = section_data(f, i);
		const char *strs;
		size_t count, strsize;

		if (s->sh_type != type || !syms || s->sh_link >= f->eh->e_shnum ||
		    !(strs = section_data(f, s->sh_link)))
			continue;
		strsize = f->sh[s->sh_link].sh_size;
		count = s->sh_size / sizeof(ElfW(Sym));
		out = calloc(count ? count : 1, sizeof *out);
		if (!out)
			return NULL;
		for (size_t k = 0; k < count; k++) {
			unsigned t = ELF64_ST_TYPE(syms[k].st_info);

			if ((t != STT_FUNC && t != STT_GNU_IFUNC) || syms[k].st_shndx == SHN_UNDEF ||
			    syms[k].st_name >= strsize)
				continue;
			out[*n].addr = base + syms[k].st_value;
			out[*n].end = out[*n].addr + syms[k].st_size;
			out[*n].name = strs + syms[k].st_name;	/* in the mapping */
			(*n)++;
		}
		if (pfe__sort_by_key(out, *n, sizeof *out, offsetof(struct sym, addr)) != 0) {
			free(out);
			return NULL;
		}
		return out;
	}
	return NULL;
}

/* The record sections: GCC's and pfe's entry records (addresses), pfe's
 * record=rel32 ones (distances from the record: arch.h), the fentry call
 * sites (addresses). */
static const struct record_kind {
	const char *name;
	bool is_call, rel32;
} record_kinds[] = {
	{ PFE_SECTION_ENTRIES, false, false },
	{ PFE_SECTION_ENTRIES_REL32, false, true },
	{ PFE_SECTION_CALLS, true, false },
};

/* The address record K of a section at MEM names (0: none). */
static uintptr_t record_at(const void *mem, size_t k, bool rel32)
{
	const uint32_t *r = (const uint32_t *)mem + k;

	if (!rel32)
		return ((const uintptr_t *)mem)[k];
	return *r ? (uintptr_t)pfe_rel32_target((uintptr_t)r, *r) : 0;
}

/* The addends of the RELATIVE relocations in F's dynamic relocation
 * sections (allocated SHT_RELA) that fill S's COUNT pointers, by index
 * (0: none); NULL when there is no memory. */
static uintptr_t *relative_addends(const struct file *f, const ElfW(Shdr) *s, size_t count)
{
	uintptr_t *v = calloc(count + 1, sizeof *v);

	for (unsigned i = 1; v && i < f->eh->e_shnum; i++) {
		const ElfW(Shdr) *rs = &f->sh[i];
		const ElfW(Rela) *r = section_data(f, i);

		if (rs->sh_type != SHT_RELA || !(rs->sh_flags & SHF_ALLOC) || !r)
			continue;
		for (size_t k = 0; k < rs->sh_size / sizeof *r; k++) {
			uintptr_t off = r[k].r_offset - s->sh_addr;

			if (r[k].r_offset >= s->sh_addr && off / sizeof *v < count && off % sizeof *v == 0 &&
			    (sizeof r[k].r_info == 8 ? ELF64_R_TYPE(r[k].r_info) : ELF32_R_TYPE(r[k].r_info)) ==
				    pfe__arch->relative_reloc)
				v[off / sizeof *v] = r[k].r_addend;
		}
	}
	return v;
}

/* The records of every section of kind K: in memory, already relocated
 * (rel32 ones by the link), or as the link wrote them (UNRELOCATED: the
 * base is added; a record the link left 0 for the loader to fill,
 * riscv64's in a shared object, is its RELATIVE relocation's addend);
 * one outside the code is warned about and skipped. */
static int read_records(const struct file *f, struct pfe_object *o, const struct record_kind *kind,
			bool unrelocated, struct rec **recs, size_t *n)
{
	size_t size = kind->rel32 ? PFE_REL32_RECORD_SIZE : sizeof(uintptr_t);
	bool by_reloc = unrelocated && !kind->rel32;

	for (unsigned i = 1; i < f->eh->e_shnum; i++) {
		const ElfW(Shdr) *s = &f->sh[i];
		size_t count = s->sh_size / size;
		const void *mem;
		struct rec *grown;
		uintptr_t *addends = NULL;

		if (strcmp(section_name(f, i), kind->name) != 0 || !(s->sh_flags & SHF_ALLOC))
			continue;
		mem = (const void *)(o->base + s->sh_addr);
		grown = realloc(*recs, (*n + count + 1) * sizeof **recs);
		if (grown)
			*recs = grown;
		if (!grown || (by_reloc && !(addends = relative_addends(f, s, count))))
			return PFE_ENOMEM;
		for (size_t k = 0; k < count; k++) {
			uintptr_t at = record_at(mem, k, kind->rel32);

			if (by_reloc && (at || addends[k]))
				at = (at ? at : addends[k]) + o->base;

			if (at < o->lo || at >= o->hi) {
				if (at != 0)
					pfe__warn("read_records", k * size, "%s: %s: record 0x%lx outside the code",
						  o->path, kind->name, (unsigned long)at);
				continue;
			}
			(*recs)[*n].at = at;
			(*recs)[*n].is_call = kind->is_call;
			(*n)++;
		}
		free(addends);
	}
	return 0;
}

/* The symbol at or after ADDR (index), or n. */
static size_t sym_at_or_after(const struct sym *s, size_t n, uintptr_t addr)
{
	return pfe__lower_bound(s, n, sizeof *s, offsetof(struct sym, addr), addr);
}

static bool sym_func(const struct symtab *t, size_t i, struct pfe_layout_func *out)
{
	if (i >= t->n || t->s[i].addr < t->lo || t->s[i].addr >= t->hi)
		return false;
	*out = (struct pfe_layout_func){ &t->s[i], t->s[i].name, t->s[i].addr - t->lo,
					 t->s[i].end - t->s[i].addr };
	return true;
}

static bool sym_at(void *ctx, uint64_t off, struct pfe_layout_func *out)
{
	const struct symtab *t = ctx;
	size_t i = sym_at_or_after(t->s, t->n, t->lo + off);

	return i < t->n && t->s[i].addr == t->lo + off && sym_func(t, i, out);
}

/* The last symbol starting at or before OFF: the first of its aliases. */
static bool sym_before(void *ctx, uint64_t off, struct pfe_layout_func *out)
{
	const struct symtab *t = ctx;
	size_t i = sym_at_or_after(t->s, t->n, t->lo + off + 1);

	return i > 0 && sym_func(t, sym_at_or_after(t->s, t->n, t->s[i - 1].addr), out);
}

/* Of the aliases starting last at or before OFF, one whose size covers it. */
static bool sym_containing(void *ctx, uint64_t off, struct pfe_layout_func *out)
{
	const struct symtab *t = ctx;
	uintptr_t at = t->lo + off;
	size_t i = sym_at_or_after(t->s, t->n, at + 1);

	for (size_t k = i; k > 0 && t->s[k - 1].addr == t->s[i - 1].addr; k--)
		if (at < t->s[k - 1].end)
			return sym_func(t, k - 1, out);
	return false;
}

static uint64_t sym_next(void *ctx, const struct pfe_layout_func *f)
{
	const struct symtab *t = ctx;
	size_t i = sym_at_or_after(t->s, t->n, t->lo + f->off + 1);

	return i < t->n && t->s[i].addr < t->hi ? t->s[i].addr - t->lo : t->hi - t->lo;
}

/* The object's code for the layout reader. */
static struct pfe_layout_code object_code(const struct pfe_object *o, struct symtab *t)
{
	return (struct pfe_layout_code){
		.arch = pfe__arch, .bytes = (const uint8_t *)o->lo, .size = o->hi - o->lo,
		.addr = o->lo, .ctx = t, .at = sym_at, .before = sym_before,
		.containing = sym_containing, .next = sym_next };
}

/* NOP bytes as pfe_func keeps them (GCC's M, N go to 65535 NOPs). */
static uint16_t u16(uint64_t v)
{
	return v < UINT16_MAX ? (uint16_t)v : UINT16_MAX;
}

/* The function record R belongs to (*F's address, name and, for an entry
 * record, pre-entry NOP bytes): the reader's, else for a call record the
 * function containing it (-pg's mcount call after the prologue), else a
 * nameless one at the record. */
static void func_of_record(const struct pfe_layout_code *c, const struct rec *r, struct pfe_func *f)
{
	struct pfe_layout l;

	pfe_layout_record(c, r->at - c->addr, &l);
	if (l.found && (r->is_call || !l.in_body)) {
		f->addr = c->addr + l.func.off;
		f->name = l.func.name;
		f->pre = r->is_call ? 0 : u16(l.pre);
	} else if (r->is_call && c->containing(c->ctx, r->at - c->addr, &l.func)) {
		f->addr = c->addr + l.func.off;
		f->name = l.func.name;
	} else {
		f->addr = r->at;
	}
}

/* The last position within the LEN bytes of NOPs at AT where P fits
 * aligned, so that its call returns to the function's first instruction
 * (an unwinder looks the function up there: GCC's native NOPs on aarch64
 * and riscv64 lie outside its FDE); 0 if none. */
static uintptr_t fit_patch(const struct pfe_enc_patch *p, uintptr_t at, size_t len)
{
	uintptr_t pos;

	if (len < p->len)
		return 0;
	pos = (at + len - p->len) & ~(uintptr_t)(p->align - 1);
	return pos >= at ? pos : 0;
}

/* The patch sequence whose disabled form is at AT, below HI (NULL if
 * none): an entry libpfe prepared as the loader's audit module (audit.c)
 * before this copy read it.  A form that names its target (riscv64's) is
 * never found: the audit module prepares none. */
static const struct pfe_enc_patch *prepared_at(uintptr_t at, uintptr_t hi)
{
	for (size_t i = 0; i < pfe__arch->n_patches; i++) {
		const struct pfe_enc_patch *p = &pfe__arch->patches[i];

		if (at % p->align == 0 && at + p->len <= hi && pfe__disabled_at(p, at))
			return p;
	}
	return NULL;
}

/* The patch of the fentry call site AT, below HI (NULL if none fits
 * there aligned) and in *FENTRY its form: the call's or its NOP form's
 * (the bytes say which), else one prepared there already (its NOP form,
 * PFE_FENTRY_NOP), else PFE_FENTRY_NONE.  No symbol is read. */
static const struct pfe_enc_patch *call_site_patch(const struct pfe_layout_code *c, uintptr_t at, uintptr_t hi,
						   uint8_t *fentry)
{
	uint64_t len;
	enum pfe_fentry_form form = pfe_layout_fentry_at(c, at - c->addr, &len);
	const struct pfe_enc_patch *p = form ? pfe_enc_patch_of_len(pfe__arch, len) : prepared_at(at, hi);

	*fentry = (uint8_t)(form ? form : p ? PFE_FENTRY_NOP : PFE_FENTRY_NONE);
	return p && at % p->align == 0 ? p : NULL;
}

/* pfe_info.fentry is the reader's form. */
_Static_assert(PFE_FENTRY_NONE == 0 && PFE_FENTRY_CALL == 1 && PFE_FENTRY_NOP == 2,
	       "pfe.h's fentry values: 0 none, 1 a call, 2 its NOP form");

/* PFE_DEBUG=lookup: every function dispatched by lookup, its ops slot
 * unused (what the slot saves, measured on one program: make bench). */
static bool lookup_only;

/* Where and how F is patched: its fentry call (or NOP form) if it has one,
 * else the NOPs after its landing pad (either may be prepared already:
 * prepared_at); the ops slot when 8 zero bytes,
 * 8-aligned, precede the entry (or its kCFI hash: pfe__slot_gap) at or
 * after PREV_END (the end of what comes before in its section) and the
 * trampoline's formula finds them. */
static void classify(struct pfe_object *o, const struct pfe_layout_code *c, struct pfe_func *f,
		     uintptr_t prev_end)
{
	const struct pfe_arch *a = pfe__arch;
	struct pfe_layout_func lf = { .name = f->name, .off = f->addr - c->addr };
	struct pfe_layout l;
	uintptr_t slot;
	unsigned gap;

	pfe_layout_function(c, &lf, &l);
	f->pad = u16(l.landing_len);
	f->post = u16(l.post);
	f->why = "no patch sequence fits";
	if (f->call_record) {
		f->patch = call_site_patch(c, f->call_record, o->hi, &f->fentry);
		f->pos = f->call_record;
		if (!f->fentry)
			f->why = "the fentry call site holds neither the call nor its NOP form";
	} else {
		const struct pfe_enc_patch *prepared = prepared_at(f->addr + f->pad + f->post, o->hi);

		/* The NOPs as built: those left and the prepared sequence. */
		f->post += prepared ? prepared->len : 0;
		for (size_t i = 0; i < a->n_patches && !f->patch; i++) {
			f->pos = fit_patch(&a->patches[i], f->addr + f->pad, f->post);
			if (f->pos)
				f->patch = &a->patches[i];
		}
	}
	if (!f->patch) {
		f->dispatch = PFE_DISPATCH_NONE;
		return;
	}
	f->why = NULL;
	f->key = f->pos + f->patch->ret_off;
	f->dispatch = PFE_DISPATCH_LOOKUP;
	gap = pfe__slot_gap(f->addr);
	slot = f->addr - gap - 8;
	if (!lookup_only && slot % 8 == 0 && f->pre == 0 && slot >= prev_end && slot >= o->lo &&
	    *(const uint64_t *)slot == 0 && pfe__slot_entry(f->key, gap) == f->addr) {
		f->slot = slot;
		f->dispatch = PFE_DISPATCH_SLOT;
	}
}

/* Where the code section holding ADDR starts (0 if none): an ops slot is
 * in its function's section, so zeros before a section's first function
 * (padding after .plt, say) are no slot. */
static uintptr_t section_start(const struct file *f, uintptr_t base, uintptr_t addr)
{
	for (unsigned i = 1; i < f->eh->e_shnum; i++) {
		const ElfW(Shdr) *s = &f->sh[i];
		uintptr_t start = base + s->sh_addr;

		if ((s->sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) == (SHF_ALLOC | SHF_EXECINSTR) &&
		    addr >= start && addr < start + s->sh_size)
			return start;
	}
	return 0;
}

/* The functions' names, copied out of the file's mapping (only theirs:
 * a copy of every symbol's name would be kept for nothing), or with
 * !NAMED none (NULL); false, none kept, if memory runs out. */
static bool keep_names(struct pfe_func *fs, size_t n, bool named)
{
	for (size_t i = 0; i < n && !named; i++)
		fs[i].name = NULL;
	for (size_t i = 0; i < n && named; i++) {
		if (fs[i].name && !(fs[i].name = strdup(fs[i].name))) {
			while (i-- > 0)
				free((char *)fs[i].name);
			return false;
		}
	}
	return true;
}

/* The functions of RECS (sorted, merged: a function may have an entry
 * record and a call record), named if NAMED. */
static int make_funcs(struct pfe_object *o, const struct file *file, const struct sym *s, size_t nsyms,
		      const struct rec *recs, size_t nrecs, bool named)
{
	struct pfe_func *fs = calloc(nrecs ? nrecs : 1, sizeof *fs);
	struct symtab t = { s, nsyms, o->lo, o->hi };
	struct pfe_layout_code code = object_code(o, &t);
	size_t n = 0;

	if (!fs)
		return PFE_ENOMEM;
	for (size_t i = 0; i < nrecs; i++) {
		func_of_record(&code, &recs[i], &fs[i]);
		fs[i].obj = o;
		*(recs[i].is_call ? &fs[i].call_record : &fs[i].entry_record) = recs[i].at;
	}
	if (pfe__sort_by_key(fs, nrecs, sizeof *fs, offsetof(struct pfe_func, addr)) != 0) {
		free(fs);
		return PFE_ENOMEM;
	}
	for (size_t i = 0; i < nrecs; i++) {
		if (n > 0 && fs[n - 1].addr == fs[i].addr) {
			if (fs[i].call_record)
				fs[n - 1].call_record = fs[i].call_record;
			if (fs[i].entry_record) {
				fs[n - 1].entry_record = fs[i].entry_record;
				fs[n - 1].pre = fs[i].pre;
			}
			continue;
		}
		fs[n++] = fs[i];
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = sym_at_or_after(s, nsyms, fs[i].addr);
		uintptr_t prev_end = k > 0 ? s[k - 1].end : 0, start = section_start(file, o->base, fs[i].addr);

		/* Nothing before the section's start is the function's. */
		classify(o, &code, &fs[i], prev_end > start ? prev_end : start ? start : UINTPTR_MAX);
	}
	if (!keep_names(fs, n, named)) {
		free(fs);
		return PFE_ENOMEM;
	}
	o->funcs = fs;
	o->nfuncs = n;
	return 0;
}

/* ---- the plugin's records for libpfe (names.h): exits' sleds
 * (PFE_SECTION_EXITS, three words a record), vector-args'
 * (PFE_SECTION_VECTOR_ARGS, two words), keeps-all's (PFE_SECTION_KEEPS_ALL,
 * one) ---- */

/* The function of O whose entry or fentry call record is SITE, or NULL. */
static struct pfe_func *func_of_site(struct pfe_object *o, uintptr_t site)
{
	size_t k = pfe__lower_bound(o->funcs, o->nfuncs, sizeof *o->funcs, offsetof(struct pfe_func, addr), site);

	for (size_t i = k > 0 ? k - 1 : 0; i < o->nfuncs && i <= k; i++)
		if (o->funcs[i].entry_record == site || o->funcs[i].call_record == site)
			return &o->funcs[i];
	return NULL;
}

/* Whether a sled record names a usable sled: in the code, the sled's
 * NOP there, a kind known, its function patchable. */
static bool sled_usable(const struct pfe_object *o, const struct pfe_sled *s)
{
	const struct pfe_enc_patch *p = pfe__arch->exit_sled;

	return s->func && s->func->patch && s->at >= o->lo && s->at <= o->hi - p->len &&
	       pfe__disabled_at(p, s->at) && pfe__sled_tramp(s->kind) >= 0;
}

static int by_func_then_at(const void *a, const void *b)
{
	const struct pfe_sled *x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The words of section I of F when it is an allocated NAME (loaded: its
 * relocated words in O's memory), their count in *N; else NULL. */
static const uintptr_t *loaded_words(const struct file *f, const struct pfe_object *o, unsigned i,
				     const char *name, size_t *n)
{
	const ElfW(Shdr) *s = &f->sh[i];

	if (strcmp(section_name(f, i), name) != 0 || !(s->sh_flags & SHF_ALLOC))
		return NULL;
	*n = s->sh_size / sizeof(uintptr_t);
	return (const uintptr_t *)(o->base + s->sh_addr);
}

/* O's sleds: read from each PFE_SECTION_EXITS section, grouped by
 * function (o->sleds, f->sleds), their addresses sorted (o->sled_at, for
 * patch.c's trap handler).  A function with one sled that is not usable
 * keeps none (a warning names it): its exit handlers then divert its
 * return address.  None where libpfe has no sled trampolines, nor in an
 * object not relocated yet (audit.c: its sleds are NOPs as compiled, and
 * the program's libpfe reads it again). */
static int read_sleds(const struct file *f, struct pfe_object *o, bool unrelocated)
{
	size_t n = 0, kept = 0;

	if (!PFE_EXIT_SLEDS || !pfe__arch->exit_sled || unrelocated)
		return 0;
	for (unsigned i = 1; i < f->eh->e_shnum; i++) {
		size_t count;
		const uintptr_t *r = loaded_words(f, o, i, PFE_SECTION_EXITS, &count);
		struct pfe_sled *grown;

		if (!r)
			continue;
		count /= 3;
		if (!(grown = realloc(o->sleds, (n + count + 1) * sizeof *grown)))
			return PFE_ENOMEM;
		o->sleds = grown;
		for (size_t k = 0; k < count; k++, r += 3)
			o->sleds[n++] = (struct pfe_sled){ .at = r[0], .func = func_of_site(o, r[1]), .kind = (int)r[2] };
	}
	for (size_t k = 0; k < n; k++) {
		struct pfe_func *fn = o->sleds[k].func;

		if (fn && !sled_usable(o, &o->sleds[k]) && fn->nsleds != SIZE_MAX) {
			if (fn->patch)
				pfe__warn(fn->name ? fn->name : "?", o->sleds[k].at - fn->addr,
					  "%s: exit sled %zu of %s unusable: its exits divert the return address",
					  o->path, k, PFE_SECTION_EXITS);
			fn->nsleds = SIZE_MAX;	/* keeps none */
		}
	}
	for (size_t k = 0; k < n; k++)
		if (o->sleds[k].func && o->sleds[k].func->nsleds != SIZE_MAX)
			o->sleds[kept++] = o->sleds[k];
	for (size_t i = 0; i < o->nfuncs; i++)
		o->funcs[i].nsleds = 0;
	qsort(o->sleds, kept, sizeof *o->sleds, by_func_then_at);
	o->nsleds = kept;
	if (kept && !(o->sled_at = calloc(kept, sizeof *o->sled_at)))
		return PFE_ENOMEM;
	for (size_t k = 0; k < kept; k++) {
		struct pfe_func *fn = o->sleds[k].func;

		if (!fn->nsleds)
			fn->sleds = &o->sleds[k];
		fn->nsleds++;
		o->sled_at[k] = o->sleds[k].at;
	}
	return pfe__sort_by_key(o->sled_at, kept, sizeof *o->sled_at, 0);
}

/* Each record of O's sections NAME, WORDS pointer-sized words each (the
 * first the site of a function of O), given to MARK with that function. */
static void each_site_record(const struct file *f, struct pfe_object *o, const char *name, size_t words,
			     void (*mark)(struct pfe_func *fn, const uintptr_t *r))
{
	for (unsigned i = 1; i < f->eh->e_shnum; i++) {
		size_t count = 0;
		const uintptr_t *r = loaded_words(f, o, i, name, &count);

		for (size_t k = 0; k + words <= count; k += words) {
			struct pfe_func *fn = func_of_site(o, r[k]);

			if (fn)
				mark(fn, &r[k]);
		}
	}
}

/* vector-args: each PFE_SECTION_VECTOR_ARGS record (the site, the low
 * bytes of vector registers its arguments use) gives its function's
 * vec_save; an unknown count leaves it FULL.  Only where libpfe has the
 * trampolines that save less, and not in an object not relocated yet (as
 * sleds): its entries then save them in full. */
static void mark_vec_save(struct pfe_func *fn, const uintptr_t *r)
{
	if (r[1] == PFE_VECTOR_ARGS_NONE)
		fn->vec_save = PFE_VEC_NONE;
	else if (r[1] == PFE_VECTOR_ARGS_LOW16)
		fn->vec_save = PFE_VEC_LOW16;
}

/* PFE_SECTION_KEEPS_ALL: a function whose callers keep every register
 * across it is not patched (its entry and exit handlers would clobber
 * what they keep: the trampolines keep only what an ordinary call
 * does not).  Read before the sleds (an unpatchable function keeps none);
 * not in an object not relocated yet (audit.c), whose entries are only
 * written in their disabled form, which runs as the NOPs did: the
 * program's libpfe reads the object again. */
static void mark_keeps_all(struct pfe_func *fn, const uintptr_t *r)
{
	(void)r;
	pfe__leave_alone(fn, "its callers keep every register across it (no_caller_saved_registers, interrupt)");
}

/* The lookup's table of O's patchable functions (struct pfe_key_slot):
 * at least a quarter of its slots empty, so that probes stay short. */
static int index_keys(struct pfe_object *o)
{
	size_t n = 0, slots = 4;

	for (size_t i = 0; i < o->nfuncs; i++)
		n += o->funcs[i].patch != NULL;
	while (slots < n + n / 3 + 1)
		slots *= 2;
	o->key_slots = calloc(slots, sizeof *o->key_slots);
	if (!o->key_slots)
		return PFE_ENOMEM;
	o->key_mask = slots - 1;
	for (size_t i = 0; i < o->nfuncs; i++) {
		size_t k = pfe__key_hash(o->funcs[i].key, o->key_mask);

		if (!o->funcs[i].patch)
			continue;
		while (o->key_slots[k].key)
			k = (k + 1) & o->key_mask;
		o->key_slots[k] = (struct pfe_key_slot){ o->funcs[i].key, &o->funcs[i], 0, o->funcs[i].addr };
	}
	return 0;
}

/* The object's executable PT_LOAD range. */
static void code_range(struct pfe_object *o, const struct pfe_object_id *id)
{
	const ElfW(Phdr) *ph = id->phdr;

	o->lo = UINTPTR_MAX;
	o->hi = 0;
	o->prot = PROT_READ | PROT_EXEC;
	for (unsigned i = 0; i < id->phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X))
			continue;
		if (id->base + ph[i].p_vaddr < o->lo)
			o->lo = id->base + ph[i].p_vaddr;
		if (id->base + ph[i].p_vaddr + ph[i].p_memsz > o->hi)
			o->hi = id->base + ph[i].p_vaddr + ph[i].p_memsz;
	}
}

/* Whether pfe__prepare would write nothing in O, whose records are
 * RECS[0..n): each a fentry call site with no patch, or in its patch's
 * disabled form (pfe's fentry-nop: the NOP is the call's), as the bytes
 * alone tell.  The audit copy then reads no symbol: of its 63 ms for
 * 100000 functions, all but some 5 (make bench's spread program). */
static bool prepared_already(const struct pfe_object *o, const struct rec *recs, size_t n)
{
	struct pfe_layout_code code = { .arch = pfe__arch, .bytes = (const uint8_t *)o->lo,
					.size = o->hi - o->lo, .addr = o->lo };

	for (size_t i = 0; i < n; i++) {
		uint8_t fentry;
		const struct pfe_enc_patch *p;

		if (!recs[i].is_call)
			return false;
		p = call_site_patch(&code, recs[i].at, o->hi, &fentry);
		/* A form that names its target (disabled_any) is prepared
		 * with this copy's: not here. */
		if (p && (p->disabled_any || !pfe__disabled_at(p, recs[i].at)))
			return false;
	}
	return true;
}

/* O's functions from RECS[0..n) and F's symbols, their sleds, marks and
 * lookup table. */
static int read_funcs(const struct file *f, struct pfe_object *o, const struct pfe_object_id *id,
		      const struct rec *recs, size_t nrecs)
{
	size_t nsyms;
	struct sym *syms = read_symbols(f, o->base, SHT_SYMTAB, &nsyms);
	int err;

	if (!syms)
		syms = read_symbols(f, o->base, SHT_DYNSYM, &nsyms);
	/* An object not relocated yet (audit.c) lives only through
	 * pfe__prepare, which names no function and looks nothing up: its
	 * functions are not named and have no lookup table (some 20 ms of
	 * 100000 functions). */
	err = make_funcs(o, f, syms, nsyms, recs, nrecs, !id->unrelocated);
	if (!err && !id->unrelocated)
		each_site_record(f, o, PFE_SECTION_KEEPS_ALL, 1, mark_keeps_all);
	if (!err)
		err = read_sleds(f, o, id->unrelocated);
	if (!err && PFE_SLOT_VEC_SAVES && !id->unrelocated)
		each_site_record(f, o, PFE_SECTION_VECTOR_ARGS, 2, mark_vec_save);
	if (!err && !id->unrelocated)
		err = index_keys(o);
	free(syms);
	return err;
}

int pfe__object_load(const struct pfe_object_id *id, struct pfe_object **out)
{
	struct pfe_object *o = calloc(1, sizeof *o);
	struct file f;
	struct rec *recs = NULL;
	size_t nrecs = 0;
	int err = 0;

	if (!o)
		return PFE_ENOMEM;
	lookup_only = pfe__debug("lookup", NULL);
	o->path = strdup(id->is_main ? "/proc/self/exe" : id->name);
	o->base = id->base;
	o->phdr = id->phdr;
	o->dev = id->dev;
	o->ino = id->ino;
	code_range(o, id);
	if (!o->path || o->lo >= o->hi || (err = file_open(&f, o->path)) != 0) {
		/* The vDSO and objects without code have nothing for us. */
		*out = o;
		return 0;
	}
	for (size_t k = 0; k < PFE_COUNT_OF(record_kinds) && !err; k++)
		err = read_records(&f, o, &record_kinds[k], id->unrelocated, &recs, &nrecs);
	/* With nothing to prepare, the audit copy's object has no function. */
	if (!err && !(id->unrelocated && prepared_already(o, recs, nrecs)))
		err = read_funcs(&f, o, id, recs, nrecs);
	free(recs);
	munmap((void *)f.data, f.size);
	if (err)
		return err;
	*out = o;
	return 0;
}

void pfe__object_free(struct pfe_object *o)
{
	for (size_t i = 0; i < o->nfuncs; i++)
		free((char *)o->funcs[i].name);
	free(o->funcs);
	free(o->sleds);
	free(o->sled_at);
	free(o->key_slots);
	free(o->path);
	free(o);
}
