/* tramp-layout.h: where the trampolines (tramp-<target>.S, which include
 * this file) save each register of struct pfe_regs and struct pfe_retregs
 * (runtime/pfe.h): the byte offset of each field, an array's of its first
 * element.  dispatch.c checks every one against offsetof() and each
 * structure's size at build time, so that the C structures and the
 * assembler cannot drift apart.  #defines only: the assembler reads it too.
 *
 * Debugging: a build error in dispatch.c's _Static_asserts names the field
 * whose offset here differs from the structure's; fix both sides.
 */
#ifndef PFE_TRAMP_LAYOUT_H
#define PFE_TRAMP_LAYOUT_H

#if defined(__x86_64__)
#define PFE_REGS_RDI 0
#define PFE_REGS_RSI 8
#define PFE_REGS_RDX 16
#define PFE_REGS_RCX 24
#define PFE_REGS_R8 32
#define PFE_REGS_R9 40
#define PFE_REGS_RAX 48
#define PFE_REGS_R10 56
#define PFE_REGS_SP 64
#define PFE_REGS_XMM 80		/* xmm0-7, 16 bytes each */
#define PFE_REGS_SIZE 208
#define PFE_RETREGS_RAX 0
#define PFE_RETREGS_RDX 8
#define PFE_RETREGS_XMM 16	/* xmm0-1 */
#define PFE_RETREGS_SIZE 48
#elif defined(__i386__)
#define PFE_REGS_EAX 0
#define PFE_REGS_EDX 4
#define PFE_REGS_ECX 8
#define PFE_REGS_SP 12
#define PFE_REGS_FPU 16		/* fxsave's image, and xsave's after it */
#define PFE_REGS_SIZE 528
#define PFE_RETREGS_EAX 0
#define PFE_RETREGS_EDX 4
#define PFE_RETREGS_FPU 16
#define PFE_RETREGS_SIZE 528
#elif defined(__aarch64__)
#define PFE_REGS_X 0		/* x0-x8, 8 bytes each */
#define PFE_REGS_X18 72		/* stored as a pair with x8 */
#define PFE_REGS_LR 80
#define PFE_REGS_SP 88		/* stored as a pair with lr */
#define PFE_REGS_V 96		/* q0-q7, 16 bytes each */
#define PFE_REGS_SIZE 224
#define PFE_RETREGS_X 0		/* x0-x7 */
#define PFE_RETREGS_V 64	/* q0-q3 */
#define PFE_RETREGS_SIZE 128
#elif defined(__riscv)
#define PFE_REGS_A 0		/* a0-a7, 8 bytes each */
#define PFE_REGS_T2 64
#define PFE_REGS_RA 72
#define PFE_REGS_SP 80
#define PFE_REGS_FA 96		/* fa0-fa7 */
#define PFE_REGS_SIZE 160
#define PFE_RETREGS_A 0		/* a0-a1 */
#define PFE_RETREGS_FA 16	/* fa0-fa1 */
#define PFE_RETREGS_SIZE 32
#endif

#endif /* PFE_TRAMP_LAYOUT_H */
