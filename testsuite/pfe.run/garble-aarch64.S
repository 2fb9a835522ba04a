/* garble-aarch64.S: the trampolines clobber.c patches into leaf entries
 * ("mov x9, x30; bl garble_*" in the post-entry NOPs, the arm64 kernel's
 * sequence: x9 carries the caller's return address, x30 the leaf's).
 *
 * garble_abi_I_F returns with x30 restored and overwrites every register
 * AAPCS64 lets a call clobber, except the argument registers of a leaf that
 * takes I integer and F floating-point arguments (GARBLE_REGS,
 * garble-regs-aarch64.h; no leaf returns in memory, so x8 goes too), and
 * x9, which holds the leaf's return address.  garble_scratch overwrites
 * only the clobbers=scratch set: x9, x16, x17 (linker veneers use them)
 * and NZCV.  Both count their calls in tramp_calls and stop a loop whose
 * counter a caller lost (garble_runaway in clobber.c).
 *
 * Debug: qemu-aarch64 -g 1234 ./clobber.exe abi, then gdb-multiarch. */
#include "garble-regs-aarch64.h"

	.text

.macro	COUNT_CALL
	adrp	x16, tramp_calls
	ldr	x17, [x16, :lo12:tramp_calls]
	add	x17, x17, #1
	str	x17, [x16, :lo12:tramp_calls]
	cmp	x17, #1000
	b.hi	runaway
.endm

runaway:
	bl	garble_runaway

.macro	GARBLE name, nint, nfp
	.globl	\name
	.type	\name, %function
	.p2align 2
\name:
	mov	x16, x30
	mov	x30, x9
	mov	x9, x16
	COUNT_CALL
	GARBLE_REGS \nint, \nfp
	ret	x9
	.size	\name, . - \name
.endm

	GARBLE	garble_abi_0_0, 0, 0
	GARBLE	garble_abi_1_0, 1, 0
	GARBLE	garble_abi_2_0, 2, 0
	GARBLE	garble_abi_0_1, 0, 1

	.globl	garble_scratch
	.type	garble_scratch, %function
	.p2align 2
garble_scratch:
	mov	x16, x30
	mov	x30, x9
	mov	x9, x16
	COUNT_CALL
	mov	x16, #0x5b16
	mov	x17, #0x5b17
	cmn	x16, x17
	ret	x9
	.size	garble_scratch, . - garble_scratch

	.section .note.GNU-stack,"",@progbits
