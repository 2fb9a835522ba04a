/* pfe-scan-arch.c: what pfe-scan needs to know of each target, on top of
 * the target's bytes in arch-hooks/encodings.{h,c} (NOPs, landing pads,
 * calls, the fentry call's NOP form, record width and relocations: written
 * there once, for pfe-scan, the run-time library and the tests alike).
 *
 * Here is only what pfe-scan alone reads: the register pushes x86 puts
 * around an entry call, PLT entries (a call to an imported symbol goes
 * through one), R_RISCV_ALIGN, where kCFI keeps its hash, and the few
 * places where pfe-scan reads the shared decoders differently (below).
 *
 * Not a disassembler: each decoder answers "is this exactly that
 * instruction" for a few encodings.  To debug one, compare with
 * `objdump -d --show-raw-insn` at the address `pfe-scan list` reports,
 * and `testsuite/pfe.runtime/enc-check table ARCH` for the shared tables.
 * Adding a target = its table in arch-hooks/encodings.c, then one
 * struct arch here.
 */
#include "pfe-scan.h"

#include <elf.h>
#include <string.h>

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)load_le(p, 4);
}

static int64_t sign_extend(uint64_t v, unsigned bits)
{
	uint64_t sign = 1ull << (bits - 1);

	return (int64_t)((v & ((sign << 1) - 1)) ^ sign) - (int64_t)sign;
}

size_t arch_nop(const struct arch *a, const uint8_t *p, size_t avail, unsigned *units)
{
	return a->nops->nop(p, avail, units);
}

size_t arch_landing_pad(const struct arch *a, const uint8_t *p, size_t avail, const char **name)
{
	size_t len = a->enc->landing_pad(p, avail, name);

	if (len && a->pad_name)
		*name = a->pad_name;
	return len;
}

/* The call at P: the shared decoder's, with the fentry call's leading
 * instructions (aarch64's `mov x9, x30`) taken as part of it, since that
 * is where the call-site record points. */
size_t arch_call(const struct arch *a, const uint8_t *p, size_t avail, uint64_t pc,
		 struct call *out)
{
	const struct pfe_enc_insn *lead = a->enc->fentry_call;
	size_t skip = 0, len;
	struct pfe_enc_call c;

	if (a->call_lead && avail >= a->call_lead && !memcmp(p, lead->bytes, a->call_lead))
		skip = a->call_lead;
	len = a->enc->call(p + skip, avail - skip, pc + skip, &c);
	if (!len && skip) {	/* the lead without its call: try from P itself */
		skip = 0;
		len = a->enc->call(p, avail, pc, &c);
	}
	if (!len || (c.kind == PFE_CALL_INDIRECT_MEM && !a->calls_via_memory))
		return 0;
	*out = (struct call){ .reloc_off = skip + c.reloc_off };
	if (c.kind == PFE_CALL_INDIRECT_MEM) {
		out->via_slot = true;
		out->slot = c.target;
	} else {
		out->target = c.target;
	}
	return skip + len;
}

/* push %reg (50+r); on x86_64 also push %r8..%r15 (41 50+r): what -pg and
 * fentry save around the entry call (the static chain, ecx or r10). */
static size_t x86_push(const uint8_t *p, size_t avail)
{
	return avail >= 1 && (p[0] & 0xf8) == 0x50 ? 1 : 0;
}

static size_t x86_64_push(const uint8_t *p, size_t avail)
{
	if (avail >= 2 && p[0] == 0x41 && (p[1] & 0xf8) == 0x50)
		return 2;
	return x86_push(p, avail);
}

/* An x86_64 PLT entry, `[endbr64] [bnd] jmp *disp32(%rip)` (.plt, .plt.sec,
 * .plt.got): the GOT entry it jumps through. */
static bool x86_64_plt_slot(const uint8_t *p, size_t avail, uint64_t pc, uint64_t *slot)
{
	const char *name;
	size_t i = pfe_arch_get(PFE_ARCH_X86_64)->landing_pad(p, avail, &name);

	i += i < avail && p[i] == 0xf2;
	if (avail < i + 6 || p[i] != 0xff || p[i + 1] != 0x25)
		return false;
	*slot = pc + i + 6 + (uint64_t)sign_extend(load_le(p + i + 2, 4), 32);
	return true;
}

/* An aarch64 PLT entry, `[bti c] adrp x16, PAGE; ldr x17, [x16, #OFF]; ...`:
 * the GOT entry PAGE + OFF it jumps through. */
static bool aarch64_plt_slot(const uint8_t *p, size_t avail, uint64_t pc, uint64_t *slot)
{
	const char *name;
	size_t i = pfe_arch_get(PFE_ARCH_AARCH64)->landing_pad(p, avail, &name);
	uint32_t adrp, ldr;
	uint64_t page;

	if (avail < i + 8)
		return false;
	adrp = le32(p + i);
	ldr = le32(p + i + 4);
	if ((adrp & 0x9f00001f) != 0x90000010 || (ldr & 0xffc003ff) != 0xf9400211)
		return false;
	page = ((pc + i) & ~0xfffull) +
	       (uint64_t)(sign_extend((adrp >> 5 & 0x7ffff) << 2 | (adrp >> 29 & 3), 21) * 4096);
	*slot = page + ((ldr >> 10) & 0xfff) * 8;
	return true;
}

/* A riscv PLT entry, `auipc t3, hi; ld t3, lo(t3); jalr t1, t3; nop`: the
 * GOT entry pc + hi + lo it jumps through. */
static bool riscv_plt_slot(const uint8_t *p, size_t avail, uint64_t pc, uint64_t *slot)
{
	uint32_t hi, lo;

	if (avail < 8)
		return false;
	hi = le32(p);
	lo = le32(p + 4);
	if ((hi & 0xfff) != 0xe17 || (lo & 0xfffff) != 0xe3e03)	/* auipc t3; ld t3, (t3) */
		return false;
	*slot = pc + (uint64_t)sign_extend(hi & 0xfffff000, 32) + (uint64_t)sign_extend(lo >> 20, 12);
	return true;
}

/* Where pfe-scan reads the shared decoders differently, and why:
 * - i386 counts NOPs with x86_64's decoder: the i386 table adds gas's
 *   `lea` padding forms, which pfe-scan has never taken for patch NOPs
 *   (an entry's NOPs are GCC's `nop`s; counting the padding before a
 *   function would change its pre count).
 * - i386 `ff 15 abs32` is a call through a global pointer, never an entry
 *   call (GCC's PIC fentry call there goes through %ebx): not followed.
 * - aarch64's pad is printed as "bti" (list's landing=, which users and
 *   pfe.target match), not the table's "bti c".
 * - aarch64's call starts at the fentry call's `mov x9, x30` (4 bytes). */
static struct arch arches[] = {
	{ .id = PFE_ARCH_X86_64, .nops_id = PFE_ARCH_X86_64, .calls_via_memory = true,
	  .push = x86_64_push, .plt_slot = x86_64_plt_slot,
	  .kcfi = true, .kcfi_opcode = 0xb8, .kcfi_opcode_len = 1 },
	{ .id = PFE_ARCH_I386, .nops_id = PFE_ARCH_X86_64, .push = x86_push },
	{ .id = PFE_ARCH_AARCH64, .nops_id = PFE_ARCH_AARCH64, .pad_name = "bti", .call_lead = 4,
	  .plt_slot = aarch64_plt_slot, .kcfi = true },
	{ .id = PFE_ARCH_RISCV64, .nops_id = PFE_ARCH_RISCV64, .plt_slot = riscv_plt_slot,
	  .align_reloc = R_RISCV_ALIGN, .kcfi = true },
};

/* The NOP units the fentry call's NOP form counts as (x86: 5, one per
 * byte; aarch64, riscv: 2 `nop`s). */
static unsigned nop_call_units(const struct arch *a)
{
	const struct pfe_enc_insn *n = a->enc->fentry_nop;
	unsigned total = 0, u;
	size_t off = 0, len;

	while (off < n->len && (len = arch_nop(a, n->bytes + off, n->len - off, &u)))
		off += len, total += u;
	return total;
}

/* The table's pointers into encodings.c are not constant expressions
 * here: filled on first use (pfe-scan and its fuzzer are one thread). */
static void arches_init(void)
{
	static bool done;

	for (size_t i = 0; !done && i < sizeof arches / sizeof arches[0]; i++) {
		arches[i].enc = pfe_arch_get(arches[i].id);
		arches[i].nops = pfe_arch_get(arches[i].nops_id);
		arches[i].nop_call_units = nop_call_units(&arches[i]);
	}
	done = true;
}

const struct arch *arch_find(unsigned machine, unsigned elfclass)
{
	arches_init();
	for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++)
		if (arches[i].enc->e_machine == machine && arches[i].enc->elf_class == elfclass)
			return &arches[i];
	return NULL;
}
