/* arch-hooks/x86/x86.h: what both layers of the x86 target use: the
 * ENDBR landing pads as instruction words, and Clang's mask of kCFI type
 * hashes, which keeps them out of the hash (bytes.c's tables and
 * pfe-scan read it through struct pfe_arch's kcfi_mask; gcc.c, the
 * plugin's hooks, prints masked hashes).  Plain C, includable from the
 * plugin's C++: no GCC, no libelf.
 *
 * Debugging: `enc-check table x86_64` shows the ENDBR bytes.
 */
#ifndef PFE_ARCH_X86_H
#define PFE_ARCH_X86_H

#include <stdint.h>

/* endbr64 (f3 0f 1e fa) and endbr32 (f3 0f 1e fb), read little-endian. */
#define PFE_X86_ENDBR64 0xfa1e0ff3u
#define PFE_X86_ENDBR32 0xfb1e0ff3u

/* Clang's MaskKCFIType: a hash that is, or whose negation (the check's
 * `movl $-HASH`) is, an ENDBR64/ENDBR32 word would put an IBT landing pad
 * inside the preamble or the check: Clang adds one to it, everywhere but
 * in __kcfi_typeid_ symbols. */
static inline uint32_t pfe_x86_kcfi_mask(uint32_t hash)
{
	const uint32_t endbr[] = { PFE_X86_ENDBR64, PFE_X86_ENDBR32 };

	for (unsigned i = 0; i < sizeof endbr / sizeof endbr[0]; i++)
		if (hash == endbr[i] || hash == (uint32_t)-endbr[i])
			return hash + 1;
	return hash;
}

#endif /* PFE_ARCH_X86_H */
