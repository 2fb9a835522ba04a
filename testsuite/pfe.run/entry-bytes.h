/* entry-bytes.h: the bytes of a patchable entry, as the run-time tests
 * read them: NOP and landing-pad encodings of each target pfe supports.
 * Included by walk.c and clobber.c.
 *
 * Debug: objdump -d the test program and compare with these values. */
#ifndef ENTRY_BYTES_H
#define ENTRY_BYTES_H
#include <stdint.h>
#include <string.h>

/* Not padded, never calling fentry: what an entry's trampoline calls must
 * not call it again (pfe and GCC 8+ know the attribute). */
#define PFE_NOTRACE __attribute__((patchable_function_entry(0, 0)))

/* The helpers below: inlined at every -O level, so they are never
 * functions of their own, padded or calling fentry, even when their caller
 * is a trampoline's handler (PFE_NOTRACE). */
#define PFE_INLINE static inline __attribute__((always_inline))

/* The size of the NOP the plugin emits ("nop"; c.nop under RVC). */
#if defined(__x86_64__) || defined(__i386__)
#define NOP_BYTES 1
#elif defined(__aarch64__) || (defined(__riscv) && !defined(__riscv_compressed))
#define NOP_BYTES 4
#elif defined(__riscv)
#define NOP_BYTES 2
#endif

/* Size of the NOP at P, or 0 if P holds no NOP. */
PFE_INLINE size_t nop_at(const unsigned char *p)
{
#if defined(__x86_64__) || defined(__i386__)
	return p[0] == 0x90;
#elif defined(__aarch64__)
	uint32_t w;
	memcpy(&w, p, 4);
	return w == 0xd503201f ? 4 : 0;
#elif defined(__riscv)
	uint32_t w;
	uint16_t h;
	memcpy(&h, p, 2);
	if (h == 0x0001)
		return 2;
	memcpy(&w, p, 4);
	return w == 0x00000013 ? 4 : 0;
#else
#error "entry-bytes.h: no NOP encoding for this target"
#endif
}

/* Size of a landing pad at P, or 0. */
PFE_INLINE size_t landing_pad_at(const unsigned char *p)
{
	uint32_t w;
	memcpy(&w, p, 4);
#if defined(__x86_64__) || defined(__i386__)
	return (w == 0xfa1e0ff3 || w == 0xfb1e0ff3) ? 4 : 0;
#elif defined(__aarch64__)
	return w == 0xd503245f ? 4 : 0;
#else
	return 0;
#endif
}

#endif /* ENTRY_BYTES_H */
