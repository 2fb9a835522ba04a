/* arch-hooks/encodings.h: the bytes of each target pfe supports, written
 * down once: NOPs (the plugin's and the assembler's padding), landing pads,
 * the fentry call sequences and their NOP forms, the ops slot, the record
 * width, and the sequences the run-time library (runtime/) patches entries
 * with.  The plugin spells the same things as assembler text in
 * arch-hooks/<backend>.c; testsuite/pfe.runtime checks that the two agree
 * (each spelling assembled with the target's assembler gives these bytes).
 *
 * Plain C11, no GCC or ELF headers: a host tool reading any target's
 * objects (pfe-scan) uses every table, the run-time library compiled for
 * one target uses pfe_enc_this_arch().  All four targets are
 * little-endian; instructions are given as bytes in memory order.
 *
 * Debugging: `testsuite/pfe.runtime/enc-check table ARCH` prints every
 * entry with its bytes and spelling; compare with
 * `objdump -d --show-raw-insn` of the assembled spelling.
 */
#ifndef PFE_ENCODINGS_H
#define PFE_ENCODINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pfe_arch_id {
	PFE_ARCH_X86_64,
	PFE_ARCH_I386,
	PFE_ARCH_AARCH64,
	PFE_ARCH_RISCV64,
	PFE_ARCH_COUNT
};

/* ELF e_machine and EI_CLASS values of the targets (<elf.h>'s EM_*). */
#define PFE_EM_386 3
#define PFE_EM_X86_64 62
#define PFE_EM_AARCH64 183
#define PFE_EM_RISCV 243
#define PFE_ELFCLASS32 1
#define PFE_ELFCLASS64 2

#define PFE_ENC_MAX_INSN 15
#define PFE_ENC_MAX_BYTES 24

/* One encoding: its bytes and the assembler text that gives them. */
struct pfe_enc_insn {
	const char *name;	/* "nop", "endbr64", "fentry-nop", ... */
	uint8_t len;
	uint8_t bytes[PFE_ENC_MAX_BYTES];
	/* As arch-hooks/ spells it, or as the assembler pads; one
	 * instruction a line.  "SYM" stands for a label at the start of the
	 * spelling: "SYM: <spelling>" assembled for the target gives BYTES
	 * (bytes a data relocation fills are 0 there and left out of BYTES). */
	const char *spelling;
	/* Options the spelling needs (riscv: ".option norvc"), or "". */
	const char *prologue;
};

/* A decoded call. */
enum pfe_call_kind {
	PFE_CALL_DIRECT,	/* target known from the instruction */
	PFE_CALL_INDIRECT_MEM,	/* x86 call *disp(%rip): target read from memory */
};
struct pfe_enc_call {
	enum pfe_call_kind kind;
	uint64_t target;	/* DIRECT: the callee; INDIRECT_MEM: the pointer's address */
	size_t reloc_off;	/* where the relocation of the target field sits (objects) */
};

/* How the run-time library patches an entry on a target: a call of LEN
 * bytes whose disabled ("prepared") and enabled forms differ only in the
 * one instruction at TOGGLE_OFF, so that enabling and disabling is one
 * instruction write every other thread may see at any time. */
struct pfe_enc_patch {
	uint8_t len;		/* bytes covered at the patch position */
	uint8_t toggle_off;	/* the instruction enable/disable rewrite */
	uint8_t toggle_len;
	uint8_t ret_off;	/* the call's return address, from the position */
	uint8_t align;		/* the position's alignment (atomic writes) */
	uint64_t reach;		/* |target - position| must be below this */
	/* The sequence calling TARGET from position PC, disabled or
	 * enabled, into BUF[0..len). */
	void (*put)(uint8_t *buf, uint64_t pc, uint64_t target, bool enabled);
};

struct pfe_arch {
	enum pfe_arch_id id;
	const char *name;		/* "x86_64", "i386", "aarch64", "riscv64" */
	const char *gnu_triplet;	/* the Debian cross prefix, "x86_64-linux-gnu" */
	const char *as_flags;		/* the assembler's flags for it ("--32") */
	unsigned e_machine;
	unsigned elf_class;
	unsigned record_size;		/* one record: a pointer */
	unsigned insn_align;		/* instructions start at multiples of this */
	unsigned abs_reloc;		/* a record's relocation in an object */
	unsigned relative_reloc;	/* ... its dynamic relocation in a PIE/DSO */
	/* NOPs: [0] is what the plugin's "nop" gives (riscv without RVC;
	 * under RVC, [1], c.nop), then every form the assembler pads with. */
	const struct pfe_enc_insn *nops;
	size_t n_nops;
	/* Landing pads an entry may start with (ENDBR, BTI C). */
	const struct pfe_enc_insn *pads;
	size_t n_pads;
	/* The fentry call as the plugin emits it (SYM = field 0), and its NOP
	 * form (fentry-nop); the ops slot holding 0. */
	const struct pfe_enc_insn *fentry_call;
	const struct pfe_enc_insn *fentry_nop;
	const struct pfe_enc_insn *ops_slot;
	/* Length of the NOP at P (0 if none); *UNITS: what it counts as in
	 * -fpatchable-function-entry's M and N. */
	size_t (*nop)(const uint8_t *p, size_t avail, unsigned *units);
	/* Length of the landing pad at P (0 if none) and its name. */
	size_t (*landing_pad)(const uint8_t *p, size_t avail, const char **name);
	/* Length of the call at P, at address PC (0 if not a call). */
	size_t (*call)(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out);
	/* The patch sequences, shortest first (x86: 5 and 6 bytes). */
	const struct pfe_enc_patch *patches;
	size_t n_patches;
	/* A veneer at address AT jumping to TARGET anywhere (what a patched
	 * call goes through when the trampoline is out of reach); writes
	 * BUF[0..veneer_len).  It may write only the patch scratch registers
	 * (arch-hooks/<backend>.c): x86 none, aarch64 x16, riscv t1. */
	unsigned veneer_len;
	const struct pfe_enc_insn *veneer;	/* for SYM and itself at 0 */
	void (*put_veneer)(uint8_t *buf, uint64_t at, uint64_t target);
	/* x86: the one-byte trap the int3 protocol writes first; 0 elsewhere. */
	uint8_t trap_byte;
};

const struct pfe_arch *pfe_arch_get(enum pfe_arch_id id);
/* The target of an ELF file, or NULL. */
const struct pfe_arch *pfe_arch_by_machine(unsigned e_machine, unsigned elf_class);
const struct pfe_arch *pfe_arch_by_name(const char *name);
/* The target this file is compiled for, or NULL. */
const struct pfe_arch *pfe_enc_this_arch(void);

/* The patch sequence of exactly LEN bytes, or NULL. */
const struct pfe_enc_patch *pfe_enc_patch_of_len(const struct pfe_arch *a, size_t len);

/* Bytes of NOPs from P (whole NOP instructions, at most AVAIL bytes). */
size_t pfe_enc_nop_run(const struct pfe_arch *a, const uint8_t *p, size_t avail);

/* Little-endian loads and stores. */
uint64_t pfe_enc_load(const uint8_t *p, unsigned size);
void pfe_enc_store(uint8_t *p, unsigned size, uint64_t v);

#endif /* PFE_ENCODINGS_H */
