/* arch-hooks/arch.c: the plain-C layer's lookups and the helpers every
 * target's bytes.c shares (see arch.h): which table a name, an ELF file
 * or this build is; runs of NOPs; little-endian loads and stores.
 *
 * Plain C11: no GCC, no libelf.  The tables themselves are in
 * arch-hooks/<target>/bytes.c.
 * Debugging: enc-check (testsuite/pfe.runtime/enc-check.c) prints the
 * tables and decodes bytes given in hex.
 */
#include "arch.h"

#include <string.h>

static const struct pfe_arch *const arches[PFE_ARCH_COUNT] = {
	[PFE_ARCH_X86_64] = &pfe_arch_x86_64,
	[PFE_ARCH_I386] = &pfe_arch_i386,
	[PFE_ARCH_AARCH64] = &pfe_arch_aarch64,
	[PFE_ARCH_RISCV64] = &pfe_arch_riscv64,
};

uint64_t pfe_enc_load(const uint8_t *p, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = size; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

void pfe_enc_store(uint8_t *p, unsigned size, uint64_t v)
{
	for (unsigned i = 0; i < size; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

uint32_t pfe_enc_le32(const uint8_t *p)
{
	return (uint32_t)pfe_enc_load(p, 4);
}

int64_t pfe_enc_sign_extend(uint64_t v, unsigned bits)
{
	uint64_t sign = 1ull << (bits - 1);

	return (int64_t)((v & ((sign << 1) - 1)) ^ sign) - (int64_t)sign;
}

bool pfe_enc_insn_matches(const struct pfe_enc_insn *i, const uint8_t *p, size_t avail)
{
	return i->len <= avail && memcmp(i->bytes, p, i->len) == 0;
}

const struct pfe_arch *pfe_arch_get(enum pfe_arch_id id)
{
	return (unsigned)id < PFE_ARCH_COUNT ? arches[id] : NULL;
}

const struct pfe_arch *pfe_arch_by_machine(unsigned e_machine, unsigned elf_class)
{
	for (size_t i = 0; i < PFE_ARCH_COUNT; i++)
		if (arches[i]->e_machine == e_machine && arches[i]->elf_class == elf_class)
			return arches[i];
	return NULL;
}

const struct pfe_arch *pfe_arch_by_name(const char *name)
{
	for (size_t i = 0; i < PFE_ARCH_COUNT; i++)
		if (strcmp(arches[i]->name, name) == 0)
			return arches[i];
	return NULL;
}

const struct pfe_arch *pfe_enc_this_arch(void)
{
#if defined(__x86_64__) && defined(__LP64__)
	return arches[PFE_ARCH_X86_64];
#elif defined(__i386__)
	return arches[PFE_ARCH_I386];
#elif defined(__aarch64__) && defined(__LP64__)
	return arches[PFE_ARCH_AARCH64];
#elif defined(__riscv) && __riscv_xlen == 64
	return arches[PFE_ARCH_RISCV64];
#else
	return NULL;
#endif
}

const struct pfe_enc_patch *pfe_enc_patch_of_len(const struct pfe_arch *a, size_t len)
{
	for (size_t i = 0; i < a->n_patches; i++)
		if (a->patches[i].len == len)
			return &a->patches[i];
	return NULL;
}

size_t pfe_enc_nop_run(const struct pfe_arch *a, const uint8_t *p, size_t avail)
{
	size_t total = 0, len;
	unsigned units;

	while (total < avail && (len = a->nop(p + total, avail - total, &units)) != 0)
		total += len;
	return total;
}

bool pfe_enc_all_entry_nops(const struct pfe_arch *a, const uint8_t *p, size_t len)
{
	unsigned units;
	size_t n;

	for (size_t off = 0; off < len; off += n)
		if (!(n = a->entry_nop(p + off, len - off, &units)))
			return false;
	return true;
}

uint32_t pfe_kcfi_hash_of(const struct pfe_arch *a, uint32_t typeid)
{
	return a->kcfi_mask ? a->kcfi_mask(typeid) : typeid;
}
