/* pfe-scan.h: what the parts of pfe-scan share.
 *
 * pfe-scan reads, verifies, collects and sorts patchable-function-entry
 * records (README.md says how to use it).  The parts, by job:
 *   pfe-scan-elf.c      open an ELF file: sections, function symbols, records
 *   pfe-scan-site.c     what sits at a record: arch-hooks/layout.c's reader
 *                       on a section (it reads each target's table,
 *                       arch-hooks/arch.h), and where calls go (relocations,
 *                       PLT entries), the slot's relocation
 *   pfe-scan.c          main: options, one file at a time
 *   pfe-scan-cfi.c      the kCFI type hash before an entry (list --cfi,
 *                       verify --cfi) and the __kcfi_typeid_ symbols
 *   pfe-scan-list.c     `list`: what each record points at
 *   pfe-scan-verify.c   `verify`: the checks (entry records, the fentry call
 *                       and its records, the ops slot, the kCFI hash)
 *   pfe-scan-traps.c    `traps`: the kCFI checks of .kcfi_traps, each with
 *                       its function and expected hash
 *   pfe-scan-collect.c  `collect`: the post-link address table object
 *   pfe-scan-sort.c     `sort`: sort and zero records in place
 *   pfe-scan-fuzz.c     libFuzzer entry point (make fuzz)
 *
 * Errors in the input never crash: they go through scan_fail(), which
 * longjmps to the handler the caller installed in image.on_error.  To debug,
 * build with `make build/pfe-scan SCAN_CFLAGS='-O0 -g'` and break on
 * scan_fail in gdb.  Only little-endian ELF is read (all four targets are).
 */
#ifndef PFE_SCAN_H
#define PFE_SCAN_H

#include <gelf.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "layout.h"

/* A decoded call instruction (or sequence: aarch64 `mov x9, x30; bl`,
 * riscv `auipc; jalr`, x86_64 `movabs $SYM, %r10; call *%r10`). */
struct call {
	uint64_t target;   /* address the call goes to (linked files), unless via_slot */
	size_t reloc_off;  /* where its relocation sits, from the insn start (objects) */
	bool via_slot;     /* x86_64 `call *disp(%rip)`: it goes where the pointer at */
	uint64_t slot;     /* slot (a GOT entry) points */
};

/* A relocation of an object's section. */
struct reloc {
	uint64_t offset;
	const char *symbol; /* name of the symbol it refers to, NULL if none */
	uint64_t sym_value; /* that symbol's value (local labels share names) */
	size_t sym_section; /* the section it is defined in, 0 if none */
	unsigned type;
	int64_t addend;     /* RELA's; REL keeps it in place */
	bool rela;
};

/* A dynamic relocation of a linked file (PIE, shared object). */
struct dyn_reloc {
	uint64_t addr;      /* r_offset: the address it writes */
	unsigned type;
	int64_t addend;     /* RELA's; 0 for REL */
	bool rela;
	const char *symbol; /* NULL if none */
	uint64_t sym_value; /* the symbol's value when defined here */
	bool sym_defined;
};

struct section {
	Elf_Scn *scn;
	GElf_Shdr sh;
	const char *name;
	const char *group;       /* COMDAT group signature, or "" */
	const uint8_t *bytes;    /* contents (SHT_PROGBITS), or NULL */
	struct reloc *relocs;    /* relocations applying to it, by offset (objects) */
	size_t nrelocs;
};

struct func {
	const char *name;
	size_t sec;
	uint64_t off;            /* offset in section sec */
	uint64_t size;
	bool local;
};

/* Where something is: a section and an offset in it. */
struct location {
	size_t sec;
	uint64_t off;
};

/* The format of entry records (--record): RECORD_ABS, each the address
 * of its target (arch->record_size bytes, a pointer; a PIE's loader
 * relocates it), or RECORD_REL32, the plugin's record=rel32: the signed
 * 32-bit distance from the record to its target (arch.h's
 * PFE_REL32_RECORD_SIZE and pfe_rel32_target), which the link resolves.
 * Call-site records (fentry's __mcount_loc) are always RECORD_ABS.
 * pfe-scan-elf.c is the one place that knows what each format is. */
enum record_format { RECORD_ABS, RECORD_REL32 };

/* Which records to read: every section of a name, in one format. */
struct record_spec {
	const char *section;
	enum record_format format;
};

struct record {
	size_t rec_sec;          /* the record section holding it */
	uint64_t slot;           /* offset of the record in that section */
	bool zero;               /* zeroed or unrelocated: points nowhere */
	struct location target;  /* valid unless zero */
	uint64_t value;          /* target as link-time address, or offset in an object */
};

struct arena;

/* A symbol's name (a prefix taken off) and value: the __kcfi_typeid_ table. */
struct named_value {
	const char *name;
	uint64_t value;
};

struct image {
	const char *path;
	Elf *elf;
	int fd;
	uint64_t filesize;
	GElf_Ehdr eh;
	const struct pfe_arch *arch;   /* its table, arch-hooks/arch.h */
	bool relocatable;        /* ET_REL: records are resolved through relocations */
	unsigned ptr_size;       /* an address (ELF class): GOT entries, the ops slot,
				    collect's table; records: record_size() */
	struct section *secs;
	size_t nsecs;
	struct func *funcs;      /* STT_FUNC symbols, sorted by location */
	size_t nfuncs;
	size_t symtab;           /* the symbol table read (0: none) */
	struct dyn_reloc *dyn_relocs; /* a linked file's, by address */
	size_t ndyn_relocs;
	struct named_value *typeids;  /* __kcfi_typeid_<name>, by name */
	size_t ntypeids;
	const struct func **preambles; /* __cfi_<name> functions by <name> */
	size_t npreambles;
	struct arena *arena;
	jmp_buf *on_error;       /* where scan_fail() goes */
	char error[256];         /* scan_fail()'s message */
};

/* pfe-scan-elf.c */
_Noreturn void scan_fail(struct image *img, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void *scan_alloc(struct image *img, size_t count, size_t size);
void image_open(struct image *img, const char *path, bool writable);
void image_open_memory(struct image *img, char *buf, size_t size);
void image_write(struct image *img);
void image_close(struct image *img);
const uint8_t *section_bytes(const struct image *img, size_t sec, uint64_t *size);
Elf_Data *section_data(struct image *img, size_t sec);
const struct reloc *reloc_at(const struct image *img, size_t sec, uint64_t off);
const struct reloc *section_relocs(const struct image *img, size_t sec, size_t *n);
size_t reloc_index(const struct image *img, size_t sec, uint64_t off);
const struct dyn_reloc *dyn_reloc_at(const struct image *img, uint64_t addr);
bool imports_symbol(const struct image *img, const char *symbol);
const uint8_t *bytes_at_addr(struct image *img, uint64_t addr, uint64_t *avail);
bool is_code(const struct image *img, size_t sec);
bool find_section_by_addr(const struct image *img, uint64_t addr, size_t *sec);
uint64_t location_addr(const struct image *img, struct location loc);
const struct func *func_at(const struct image *img, struct location loc);
const struct func *func_before(const struct image *img, struct location loc);
const struct func *func_containing(const struct image *img, struct location loc);
uint64_t next_func_off(const struct image *img, const struct func *f);
const char *linked_section(const struct image *img, size_t rs);
bool find_symbol_addr(struct image *img, const char *name, uint64_t *addr);
size_t record_sections(struct image *img, const char *name, size_t **out);
size_t absolute_symbols(struct image *img, const char *prefix, struct named_value **out);
/* The entry record section a format's records are in by default. */
const char *default_record_section(enum record_format format);
/* Bytes of one record of FORMAT. */
unsigned record_size(const struct image *img, enum record_format format);
size_t read_records(struct image *img, size_t rec_sec, enum record_format format,
		    struct record **out);
/* The records of every section SPEC names that point somewhere (zero
 * slots left out), section after section; how many.  *NSECS (unless
 * NULL) gets how many such sections there are. */
size_t named_records(struct image *img, const struct record_spec *spec, struct record **out,
		     size_t *nsecs);
/* What a linked file's record of FORMAT at address AT holds to point at
 * TARGET (0: no record). */
uint64_t encode_linked_record(struct image *img, enum record_format format, uint64_t at,
			      uint64_t target);
/* Whether the loader relocates a linked file's records of FORMAT (each
 * then has an R_*_RELATIVE dynamic relocation). */
bool loader_relocates(const struct image *img, enum record_format format);

/* A relocation that applies to a record slot. */
struct slot_reloc {
	size_t rsec;             /* the relocation section */
	size_t index;            /* its entry number there */
	bool is_rela;
	GElf_Rela rela;          /* r_offset made an offset in the record section;
				    r_addend 0 for REL */
};
size_t slot_relocs(struct image *img, size_t rec_sec, enum record_format format,
		   struct slot_reloc **out);
void update_slot_reloc(struct image *img, size_t rec_sec, const struct slot_reloc *r);
/* Does an object's relocation R of a record of FORMAT give the record's
 * own address, not its target (riscv rel32's SUB32)?  It stays with the
 * slot when sort moves the target. */
bool reloc_of_slot(const struct image *img, enum record_format format,
		   const struct slot_reloc *r);
/* Little-endian loads and stores: arch-hooks/arch.c's. */
static inline uint64_t load_le(const uint8_t *p, unsigned size)
{
	return pfe_enc_load(p, size);
}

static inline void store_le(uint8_t *p, unsigned size, uint64_t v)
{
	pfe_enc_store(p, size, v);
}

/* pfe-scan-site.c */
/* A kCFI type hash found before a function's entry. */
struct cfi_hash {
	bool found;
	uint32_t value;
	struct location at;       /* its 4 bytes (x86_64: after the b8 opcode) */
};

enum site_kind { KIND_NOPS, KIND_CALL, KIND_UNKNOWN };

/* Where a call goes, as far as the file says. */
struct call_dest {
	const char *symbol;       /* a relocation's symbol (objects, GOT entries), or NULL */
	bool known;               /* addr is valid */
	uint64_t addr;            /* linked: address; object: offset in the call's section */
};

struct site {
	const struct func *func;  /* NULL: no function entry behind the NOPs */
	uint64_t pre, post;       /* NOP bytes before the label / after the pad */
	unsigned pre_nops, post_nops; /* the same in NOP units (M, N) */
	const char *landing;      /* landing pad at the entry, or "" */
	uint64_t landing_len;
	const char *pad_after_nops; /* landing pad found after the post NOPs, or NULL */
	bool at_pad;              /* the record points at the landing pad, not a NOP */
	enum site_kind kind;
	const char *call_target;  /* KIND_CALL: the called symbol */
	/* A record past the landing pad and the NOPs after it (an fentry
	 * call-site record): post counts the NOPs from the record on. */
	bool in_body;
	/* Bytes of a kCFI hash (the `fixed` layout's) between the pre NOPs
	 * and the entry, not counted in pre; 0 if none. */
	uint64_t cfi_between;
	struct cfi_hash cfi;      /* the function's kCFI hash, where its layout puts it */
	/* The call that follows the post NOPs and register pushes, if any. */
	const char *call;         /* what it calls (symbol, function or 0x...), or NULL */
	struct call_dest call_dest;
	struct location call_at;
	uint64_t call_len;
};

/* The ops slot: the 8 bytes before a function's entry, or its word hash. */
struct ops_slot {
	bool room;                /* they lie in the function's section */
	bool aligned;             /* at a multiple of 8 (after linking, in objects) */
	uint64_t addr;            /* where: address, or offset in an object */
	uint64_t value;           /* the 8 bytes, little-endian */
	bool nops;                /* they are NOPs, exactly */
	const struct reloc *reloc;/* objects: a relocation inside them, or NULL */
	int64_t addend;           /* reloc's addend (REL: read in place) */
};

void describe_site(struct image *img, const struct record *rec, struct site *site);
void describe_function(struct image *img, const struct func *f, struct site *site);
const char *kind_name(enum site_kind kind);
bool points_into_function(struct image *img, const struct record *rec);
const struct func *canonical_func(const struct image *img, const struct func *f);
bool in_plt(struct image *img, uint64_t addr);
/* Length of the call at P, at address PC (0 if none): the layout reader's
 * pfe_layout_decode_call, in struct call. */
size_t decode_call(const struct image *img, const uint8_t *p, size_t avail, uint64_t pc,
		   struct call *out);
void resolve_call(struct image *img, struct location at, const struct call *call,
		  struct call_dest *dest);
const char *call_dest_name(struct image *img, size_t sec, const struct call_dest *dest);
bool find_nop_call(struct image *img, const struct func *f, const struct location *hint,
		   int want_units, struct location *at, unsigned *units);
/* F's slot, GAP bytes before its entry (pfe_layout_slot); find_slot: where
 * it is 8-aligned, for list. */
void describe_slot(struct image *img, const struct func *f, uint64_t gap, struct ops_slot *slot);
void find_slot(struct image *img, const struct func *f, struct ops_slot *slot);
const char *slot_text(struct image *img, const struct ops_slot *slot);
bool cfi_hash_before(struct image *img, const struct func *f, uint64_t gap, struct cfi_hash *out);
bool cfi_hashless(struct image *img, const struct func *f);

/* pfe-scan-cfi.c */
enum cfi_layout { CFI_NONE, CFI_CLANG, CFI_FIXED };

const char *cfi_layout_name(enum cfi_layout layout);
void index_kcfi_symbols(struct image *img);
bool has_cfi_preamble(const struct image *img, const struct func *f);
bool kcfi_typeid(const struct image *img, const char *name, uint32_t *value);
uint32_t kcfi_masked(const struct image *img, uint32_t typeid);

/* pfe-scan-list.c */
struct list_opts {
	struct record_spec records;
	bool json;
	bool name_file;          /* start each line with the file's name */
	bool ops_slot;           /* show the 8 bytes before each entry */
	bool cfi;                /* show the kCFI hash before each entry */
};

void list_image(struct image *img, const struct list_opts *opts, FILE *out);

/* pfe-scan-verify.c */
struct verify_opts {
	bool have_entry;         /* --entry=M,N: check the entry records */
	unsigned m, n;
	struct record_spec entries; /* the entry records */
	bool all;
	const char **exclude;
	size_t nexclude;
	bool fentry;             /* --fentry[=SYM] or --fentry-nop */
	const char *fentry_sym;  /* what the call goes to */
	bool fentry_nop;         /* the NOP form instead of the call */
	const char *call_section;/* where the call-site records are (RECORD_ABS) */
	bool ops_slot;           /* --ops-slot[=SYM] */
	const char *ops_sym;     /* what the slot holds; NULL: 0 or the NOPs */
	enum cfi_layout cfi;     /* --cfi=clang|fixed: where the kCFI hash must be */
};
unsigned verify_image(struct image *img, const struct verify_opts *opts, FILE *out);

/* pfe-scan-traps.c: `traps`, each kCFI check of .kcfi_traps. */
void list_traps(struct image *img, bool name_file, FILE *out);

/* pfe-scan-collect.c */
size_t collect_addresses(struct image *img, const char *symbol,
			 const struct record_spec *records, uint64_t **out);
void write_table(struct image *img, const char *path, const char *section,
		 const uint64_t *addrs, size_t n);

/* pfe-scan-sort.c: returns the number of records zeroed. */
size_t sort_image(struct image *img, const struct record_spec *spec, size_t *nrecords);

#endif
