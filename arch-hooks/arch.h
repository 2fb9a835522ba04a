/* arch-hooks/arch.h: the plain-C layer of arch-hooks/, each target's
 * facts written down once: its bytes (NOPs, landing pads, the fentry call
 * and its NOP form, the ops slot, the record width), decoders of those
 * bytes, the sequences the run-time library (runtime/) patches entries
 * with, what is read around an entry (register pushes, the fentry call's
 * lead, PLT entries, R_RISCV_ALIGN) and where kCFI keeps its hash.
 * names.h has the section and symbol names.
 *
 * Two layers per target, which do not mix:
 *   arch-hooks/<target>/bytes.c  this layer: plain C11, no GCC, no libelf,
 *                                nothing of gcc-plugin/; pfe-scan, libpfe
 *                                and the tests stand on it
 *   arch-hooks/<target>/gcc.c    the plugin's GCC back-end hooks (struct
 *                                pfe_backend, gcc-plugin/pfe.h); they may
 *                                use this layer's headers, never the
 *                                reverse
 * <target>/<target>.h holds what both layers of a target share (x86: the
 * ENDBR words and Clang's kCFI mask).  Generic plain C on these tables,
 * no target's facts of its own: arch.c (lookups, helpers) and layout.c
 * (layout.h: the one reader of an entry's layout, which function a record
 * is for, its NOPs, pad, entry call, kCFI hash and ops slot, for pfe-scan
 * and libpfe alike).  The plugin spells the bytes as assembler text in
 * <target>/gcc.c; testsuite/pfe.runtime checks that the two agree (each
 * spelling assembled with the target's assembler gives these bytes).
 *
 * A host tool reading any target's objects (pfe-scan) uses every table,
 * the run-time library compiled for one target uses pfe_enc_this_arch().
 * All four targets are little-endian; instructions are given as bytes in
 * memory order.  Adding a target: its bytes.c table, its entry in
 * arch.c's list, its gcc.c.
 *
 * Debugging: `testsuite/pfe.runtime/enc-check table ARCH` prints every
 * entry with its bytes and spelling; compare with
 * `objdump -d --show-raw-insn` of the assembled spelling.
 */
#ifndef PFE_ARCH_H
#define PFE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "names.h"

enum pfe_arch_id {
	PFE_ARCH_X86_64,
	PFE_ARCH_I386,
	PFE_ARCH_AARCH64,
	PFE_ARCH_RISCV64,
	PFE_ARCH_COUNT
};

/* ELF EI_CLASS values (<elf.h>'s ELFCLASS*). */
#define PFE_ELFCLASS32 1
#define PFE_ELFCLASS64 2

#define PFE_ENC_MAX_INSN 15
#define PFE_ENC_MAX_BYTES 24

/* A 32-bit instruction word (or two) as bytes in memory order. */
#define PFE_LE32_BYTES(w) \
	(uint8_t)(w), (uint8_t)((w) >> 8), (uint8_t)((w) >> 16), (uint8_t)((w) >> 24)
#define PFE_W32(w) { PFE_LE32_BYTES(w) }
#define PFE_W32X2(a, b) { PFE_LE32_BYTES(a), PFE_LE32_BYTES(b) }

/* One encoding: its bytes and the assembler text that gives them. */
struct pfe_enc_insn {
	const char *name;	/* "nop", "endbr64", "fentry-nop", ... */
	uint8_t len;
	uint8_t bytes[PFE_ENC_MAX_BYTES];
	/* As arch-hooks/<target>/gcc.c spells it, or as the assembler pads;
	 * one instruction a line.  "SYM" stands for a label at the start of
	 * the spelling: "SYM: <spelling>" assembled for the target gives
	 * BYTES (bytes a data relocation fills are 0 there and left out of
	 * BYTES). */
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
	/* Where the disabled form names its target (riscv's auipc): whether
	 * BUF holds it for some target.  Its bytes outside the toggled
	 * instruction may then be written for another target while threads
	 * run it disabled: they only load a scratch register that the
	 * toggled NOP leaves unused, and its opcode and register bits are the
	 * same in every such form, so a torn write gives one of them.  NULL:
	 * the form names no target (put's for any target is it). */
	bool (*disabled_any)(const uint8_t *buf);
};

/* One target; defined in arch-hooks/<target>/bytes.c. */
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
	unsigned rel32_reloc;		/* a record=rel32 record's in an object (PC-relative,
				 * 32 bits; resolved at the link, none at run time) */
	/* ... or the pair an assembler may write instead (riscv's gas: ADD32 of
	 * the first NOP's label, SUB32 of the record's own), 0 where none. */
	unsigned rel32_add_reloc, rel32_sub_reloc;
	/* Relocation type of code alignment the linker still has to do
	 * (R_RISCV_ALIGN: padding it trims), or 0. */
	unsigned align_reloc;
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
	/* Bytes of the fentry call before its call instruction, where a
	 * call-site record points (aarch64's `mov x9, x30`), or 0. */
	unsigned call_lead;
	/* Length of the NOP at P (0 if none); *UNITS: what it counts as in
	 * -fpatchable-function-entry's M and N. */
	size_t (*nop)(const uint8_t *p, size_t avail, unsigned *units);
	/* The same for the NOPs of an entry as layout.c counts them: GCC's
	 * `nop`s and the fentry NOP form, not the assembler's padding before
	 * a function (i386: gas's `lea` forms are no entry NOPs). */
	size_t (*entry_nop)(const uint8_t *p, size_t avail, unsigned *units);
	/* Length of the landing pad at P (0 if none) and its name. */
	size_t (*landing_pad)(const uint8_t *p, size_t avail, const char **name);
	/* Length of the call at P, at address PC (0 if not a call). */
	size_t (*call)(const uint8_t *p, size_t avail, uint64_t pc, struct pfe_enc_call *out);
	/* Whether an entry call may go through memory (x86_64's
	 * `call *sym@GOTPCREL(%rip)`); i386's `ff 15 abs32` is a call
	 * through a global pointer, never an entry call. */
	bool calls_via_memory;
	/* Length of a register push at P (0 if none): x86 saves the static
	 * chain around an entry call, as -pg does.  NULL: no such thing. */
	size_t (*push)(const uint8_t *p, size_t avail);
	/* A PLT entry at P, address PC: the GOT entry it jumps through, in
	 * *SLOT (a call to a symbol a shared object imports goes there).
	 * NULL: none known. */
	bool (*plt_slot)(const uint8_t *p, size_t avail, uint64_t pc, uint64_t *slot);
	/* The patch sequences, shortest first (x86: 5 and 6 bytes). */
	const struct pfe_enc_patch *patches;
	size_t n_patches;
	/* An exit sled's (the plugin's exits, names.h): the NOP the plugin
	 * emits is its disabled form; NULL where it emits none. */
	const struct pfe_enc_patch *exit_sled;
	/* A veneer at address AT jumping to TARGET anywhere (what a patched
	 * call goes through when the trampoline is out of reach); writes
	 * BUF[0..veneer_len).  It may write only the patch scratch registers
	 * (arch-hooks/<target>/gcc.c): x86 none, aarch64 x16, riscv t1. */
	unsigned veneer_len;
	const struct pfe_enc_insn *veneer;	/* for SYM and itself at 0 */
	void (*put_veneer)(uint8_t *buf, uint64_t at, uint64_t target);
	/* x86: the one-byte trap the int3 protocol writes first; 0 elsewhere. */
	uint8_t trap_byte;
	/* kCFI (Clang's -fsanitize=kcfi, the plugin's cfi=kcfi): whether the
	 * target has it (not i386); the 4-byte hash before an entry is the
	 * immediate of an instruction of KCFI_OPCODE_LEN bytes of opcode
	 * KCFI_OPCODE under KCFI_OPCODE_MASK (x86_64 `movl $HASH, %eax`: b8;
	 * mask f8: Clang 21's kcfi-arity names the arity by the register,
	 * b8 to bf), or a plain `.word` (0).  KCFI_MASK: what the hash of type hash TYPEID is there (x86:
	 * Clang's mask, <target>/x86.h), NULL: TYPEID itself. */
	bool kcfi;
	uint8_t kcfi_opcode;
	uint8_t kcfi_opcode_mask;
	unsigned kcfi_opcode_len;
	uint32_t (*kcfi_mask)(uint32_t typeid);
	/* The hash the kCFI check ending at the trap at P expects (AFTER bytes
	 * from P on, BEFORE bytes of code before P); false if no check ends
	 * there.  NULL where no .kcfi_traps lists the traps (aarch64: the
	 * brk names the registers) or there is no kCFI. */
	bool (*kcfi_trap_hash)(const uint8_t *p, size_t after, size_t before, uint32_t *hash);
};

/* The bytes of kCFI's type hash. */
#define PFE_KCFI_HASH_SIZE 4

/* record=rel32 (the plugin's; its own section, PFE_SECTION_ENTRIES_REL32):
 * a record is the 32-bit signed distance from itself to the first NOP,
 * little-endian on every target; the link resolves it, nothing at run
 * time.  The first NOP of the record at AT holding RAW: */
#define PFE_REL32_RECORD_SIZE 4
static inline uint64_t pfe_rel32_target(uint64_t at, uint32_t raw)
{
	return at + (uint64_t)(int64_t)(int32_t)raw;
}

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
/* Whether the LEN bytes at P are entry NOPs, exactly (riscv: a `nop` or
 * two `c.nop`s). */
bool pfe_enc_all_entry_nops(const struct pfe_arch *a, const uint8_t *p, size_t len);
/* What the hash before an entry is for type hash TYPEID. */
uint32_t pfe_kcfi_hash_of(const struct pfe_arch *a, uint32_t typeid);

/* Helpers of the bytes.c files: little-endian loads and stores, V's low
 * BITS as a signed number, whether P starts with I's bytes. */
uint64_t pfe_enc_load(const uint8_t *p, unsigned size);
void pfe_enc_store(uint8_t *p, unsigned size, uint64_t v);
uint32_t pfe_enc_le32(const uint8_t *p);
int64_t pfe_enc_sign_extend(uint64_t v, unsigned bits);
bool pfe_enc_insn_matches(const struct pfe_enc_insn *i, const uint8_t *p, size_t avail);

/* The targets' tables (arch-hooks/<target>/bytes.c). */
extern const struct pfe_arch pfe_arch_x86_64, pfe_arch_i386, pfe_arch_aarch64, pfe_arch_riscv64;

#define PFE_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

#endif /* PFE_ARCH_H */
