/* garble-aarch64.S: the trampolines clobber.c patches into leaf entries
 * ("mov x9, x30; bl garble_*" in the post-entry NOPs, the arm64 kernel's
 * sequence: x9 carries the caller's return address, x30 the leaf's).
 *
 * garble_abi_I_F returns with x30 restored and overwrites every register
 * AAPCS64 lets a call clobber, except the argument registers of a leaf that
 * takes I integer and F floating-point arguments: the unused ones of x0-x7,
 * x8 (no leaf returns in memory), x9-x18, the unused ones of v0-v7,
 * v16-v31, the upper 64 bits of v8-v15 (the ABI preserves only the lower
 * ones), NZCV.  garble_scratch overwrites only the clobbers=scratch set:
 * x9, x16, x17 (linker veneers use them) and NZCV.  Both count their calls
 * in tramp_calls and stop a loop whose counter a caller lost
 * (garble_runaway in clobber.c).
 *
 * Debug: qemu-aarch64 -g 1234 ./clobber.exe abi, then gdb-multiarch. */
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

/* All of vN, and the upper 64 bits of vN (macros of their own: a name
 * followed by "." cannot be pasted inside .irp). */
.macro	GARBLE_V n
	movi	v\n\().2d, #0xffffffffffffffff
.endm
.macro	GARBLE_V_UPPER n
	mov	v\n\().d[1], x10
.endm

.macro	GARBLE name, nint, nfp
	.globl	\name
	.type	\name, %function
	.p2align 2
\name:
	mov	x16, x30
	mov	x30, x9
	mov	x9, x16
	COUNT_CALL
	i = 0
	.irp	reg, 0, 1, 2, 3, 4, 5, 6, 7
	.if	i >= \nint
	mov	x\reg, #(0x5a00 + \reg)
	.endif
	i = i + 1
	.endr
	.irp	reg, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18
	mov	x\reg, #(0x5b00 + \reg)
	.endr
	i = 0
	.irp	reg, 0, 1, 2, 3, 4, 5, 6, 7
	.if	i >= \nfp
	GARBLE_V \reg
	.endif
	i = i + 1
	.endr
	.irp	reg, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	GARBLE_V \reg
	.endr
	.irp	reg, 8, 9, 10, 11, 12, 13, 14, 15
	GARBLE_V_UPPER \reg
	.endr
	cmn	x10, x11
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
