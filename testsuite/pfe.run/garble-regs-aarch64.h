/* garble-regs-aarch64.h: GARBLE_REGS nint, nfp overwrites every register
 * AAPCS64 lets a call clobber but x9 (where the "mov x9, x30; bl" callers
 * keep a return address), except the argument registers of a function
 * that takes nint integer and nfp floating-point arguments: the unused
 * ones of x0-x7, x8 (the indirect result register), x10-x18, the unused
 * ones of v0-v7, v16-v31, the upper 64 bits of v8-v15 (the ABI preserves
 * only the lower ones), NZCV.  Included by garble-aarch64.S (clobber.c's
 * leaf trampolines) and garble-fentry-aarch64.S (make check-packages'
 * fentry hook).
 * Debug: break after the macro, "info registers" in gdb-multiarch. */

/* All of vN, and the upper 64 bits of vN (macros of their own: a name
 * followed by "." cannot be pasted inside .irp). */
.macro	GARBLE_V n
	movi	v\n\().2d, #0xffffffffffffffff
.endm
.macro	GARBLE_V_UPPER n
	mov	v\n\().d[1], x10
.endm

.macro	GARBLE_REGS nint, nfp
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
.endm
