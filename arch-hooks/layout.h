/* arch-hooks/layout.h: the one reader of a patchable entry's layout,
 * shared by pfe-scan (files) and libpfe (loaded code).  Given the code
 * around a record and the caller's symbol lookup, it says which function
 * the record is for and what surrounds its entry:
 *
 *     [hash] pre NOPs [hash] [pad] post NOPs [pushes] [fentry call | its NOP form] body
 *      clang           fixed                  x86
 *
 * the kCFI hash before the pre-entry NOPs (Clang's layout) or between them
 * and the entry (pfe's cfi-layout=fixed), the landing pad (ENDBR, BTI C),
 * the NOP bytes before and after it, the fentry call or its NOP form after
 * the NOPs, and the ops slot: the 8 bytes before the entry, or before the
 * fixed layout's word hash (aarch64, riscv64: slot, hash, entry).
 *
 * Part of arch-hooks/' plain-C layer (arch.h): plain C11, no GCC, no ELF,
 * no target's facts of its own: every one (entry NOPs, landing pads, the
 * fentry call's lead, calls through memory, pushes, kCFI's opcode) is a
 * field of the target's struct pfe_arch, arch-hooks/<target>/bytes.c.
 * All positions are offsets into one window of code (pfe-scan: a section;
 * libpfe: an object's executable segment); the window's ADDR turns them
 * into addresses where a call's target needs one.
 * Debugging: `pfe-scan list --json --ops-slot --cfi FILE` prints every
 * field for a file; PFE_DEBUG=list does for a running program.
 */
#ifndef PFE_LAYOUT_H
#define PFE_LAYOUT_H

#include "arch.h"

/* The ops slot: the 8 bytes before an entry. */
#define PFE_SLOT_SIZE 8

/* A function symbol, as the caller's lookup gives it. */
struct pfe_layout_func {
	const void *id;		/* the caller's own (pfe-scan: its struct func) */
	const char *name;	/* NULL: no name */
	uint64_t off;		/* its entry, in the window */
	uint64_t size;
};

/* The window of code and the symbols in it.  Each lookup returns false
 * when there is no such function; of aliases at one address, the one the
 * caller counts records against (at, before), or any whose size covers
 * OFF (containing). */
struct pfe_layout_code {
	const struct pfe_arch *arch;
	const uint8_t *bytes;	/* the window */
	uint64_t size;
	uint64_t addr;		/* the address of bytes[0]; 0 in an object */
	void *ctx;		/* the lookups' */
	/* The function whose entry is at OFF. */
	bool (*at)(void *ctx, uint64_t off, struct pfe_layout_func *out);
	/* The last function whose entry is at or before OFF. */
	bool (*before)(void *ctx, uint64_t off, struct pfe_layout_func *out);
	/* A function whose code covers OFF. */
	bool (*containing)(void *ctx, uint64_t off, struct pfe_layout_func *out);
	/* Where the next function after F starts, else the window's end. */
	uint64_t (*next)(void *ctx, const struct pfe_layout_func *f);
};

enum pfe_fentry_form { PFE_FENTRY_NONE, PFE_FENTRY_CALL, PFE_FENTRY_NOP };

/* What sits at a record (pfe_layout_record) or a function's entry
 * (pfe_layout_function). */
struct pfe_layout {
	bool found;			/* func is valid */
	struct pfe_layout_func func;
	uint64_t pre, post;		/* NOP bytes before the label / after the pad */
	unsigned pre_nops, post_nops;	/* the same in NOP units (M, N) */
	const char *landing;		/* the landing pad's name (the table's), or "" */
	uint64_t landing_len;
	const char *pad_after_nops;	/* a landing pad after the post NOPs, or NULL */
	bool at_pad;			/* the record points at the pad, not a NOP */
	/* A record past the pad and the NOPs after it (an fentry call-site
	 * record): post counts the NOPs from the record on. */
	bool in_body;
	/* Bytes of a kCFI hash (the fixed layout's, x86_64 with its opcode)
	 * between the pre NOPs and the entry, not counted in pre; 0 if none. */
	uint64_t cfi_between;
	/* The function's kCFI hash: before the pre NOPs (clang), or right
	 * before the entry (fixed, or no pre NOPs). */
	bool hash_found;
	uint32_t hash;
	uint64_t hash_at;
	/* The call after the post NOPs and x86's pushes, if any. */
	uint64_t call_at;		/* where it would be, found or not */
	uint64_t call_len;		/* 0: no call there */
	struct pfe_enc_call call;	/* reloc_off from call_at */
};

/* The ops slot: the 8 bytes before a function's entry, or before its hash. */
struct pfe_layout_slot {
	bool room;			/* they lie in the window */
	uint64_t off;
	uint64_t value;			/* little-endian */
	bool nops;			/* they are NOPs, exactly */
};

/* Length of the call at P, address PC (0 if none) as an entry call: the
 * fentry call's leading instructions (aarch64's `mov x9, x30`) included,
 * through memory only where the target's entry calls may go so. */
size_t pfe_layout_decode_call(const struct pfe_arch *a, const uint8_t *p, size_t avail, uint64_t pc,
			      struct pfe_enc_call *out);
/* The fentry call or its NOP form at OFF, and its length. */
enum pfe_fentry_form pfe_layout_fentry_at(const struct pfe_layout_code *c, uint64_t off,
					  uint64_t *len);

/* What a record at OFF points at: the function and its layout. */
void pfe_layout_record(const struct pfe_layout_code *c, uint64_t off, struct pfe_layout *out);
/* The layout after F's entry (what the record of F would find). */
void pfe_layout_function(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
			 struct pfe_layout *out);
/* Does a record at OFF lead to a function entry (over NOPs, past a pad)? */
bool pfe_layout_leads_to_entry(const struct pfe_layout_code *c, uint64_t off);

/* F's kCFI hash ending GAP bytes before its entry (0: the fixed layout;
 * the pre NOP bytes: the clang one): its value and offset. */
bool pfe_layout_hash(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
		     uint64_t gap, uint32_t *value, uint64_t *at);
/* Does F have the zero word of a function with no hash right before its
 * entry (the fixed layout with the ops slot, aarch64 and riscv64)? */
bool pfe_layout_hashless(const struct pfe_layout_code *c, const struct pfe_layout_func *f);
bool pfe_layout_is_cfi_preamble(const char *name);
/* The bytes an ops slot ends before the entry when a kCFI hash sits
 * between them (slot, hash, entry): PFE_KCFI_HASH_SIZE on a target whose
 * hash is a data word (aarch64, riscv64), 0 where it is code (x86). */
unsigned pfe_layout_slot_hash_gap(const struct pfe_arch *a);

/* The 8 bytes that end GAP bytes before F's entry: 0, or, where the
 * kCFI hash is a word between them and the entry (the ops slot with
 * cfi=kcfi: slot, hash, entry), PFE_KCFI_HASH_SIZE. */
void pfe_layout_slot(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
		     uint64_t gap, struct pfe_layout_slot *out);

/* The NOP form of F's entry call among the NOPs after its pad, at a NOP
 * boundary, or right after them and x86's pushes: at HINT (its record;
 * UINT64_MAX: none) if it is there, else after WANT_UNITS entry NOPs
 * (-1: unknown), else the last place it could be (aarch64's and rv64g's
 * entry NOPs look just like it).  *UNITS: the NOPs before it. */
bool pfe_layout_find_nop_form(const struct pfe_layout_code *c, const struct pfe_layout_func *f,
			      uint64_t hint, int want_units, uint64_t *at, unsigned *units);

#endif /* PFE_LAYOUT_H */
