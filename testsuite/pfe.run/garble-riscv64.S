/* garble-riscv64.S: the trampolines clobber.c patches into leaf entries
 * ("auipc t0, hi; jalr t0, lo(t0)" in the post-entry NOPs, the riscv
 * kernel's sequence: t0 carries the return into the leaf, ra is kept).
 *
 * garble_abi_I_F overwrites every register the LP64D ABI lets a call
 * clobber, except the argument registers of a leaf that takes I integer
 * and F floating-point arguments: the unused ones of a0-a7, t1-t6 (t0 is
 * the return into the leaf), ft0-ft11, the unused ones of fa0-fa7.
 * garble_scratch overwrites only the clobbers=scratch set (t0, t1).  Both
 * count their calls in tramp_calls and stop a loop whose counter a caller
 * lost (garble_runaway in clobber.c).
 *
 * Debug: qemu-riscv64 -g 1234 ./clobber.exe abi, then gdb-multiarch. */
	.text

/* tramp_calls++ with t1 and t2. */
.macro	COUNT_CALL
	lla	t1, tramp_calls
	ld	t2, 0(t1)
	addi	t2, t2, 1
	sd	t2, 0(t1)
	sltiu	t1, t2, 1001
	beqz	t1, runaway
.endm

runaway:
	call	garble_runaway

.macro	GARBLE name, nint, nfp
	.globl	\name
	.type	\name, @function
	.p2align 2
\name:
	COUNT_CALL
	i = 0
	.irp	reg, 0, 1, 2, 3, 4, 5, 6, 7
	.if	i >= \nint
	li	a\reg, 0x5a0 + \reg
	.endif
	i = i + 1
	.endr
	li	t1, -1
	.irp	reg, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	fmv.d.x	ft\reg, t1
	.endr
	i = 0
	.irp	reg, 0, 1, 2, 3, 4, 5, 6, 7
	.if	i >= \nfp
	fmv.d.x	fa\reg, t1
	.endif
	i = i + 1
	.endr
	.irp	reg, 1, 2, 3, 4, 5, 6
	li	t\reg, 0x5b0 + \reg
	.endr
	jr	t0
	.size	\name, . - \name
.endm

	GARBLE	garble_abi_0_0, 0, 0
	GARBLE	garble_abi_1_0, 1, 0
	GARBLE	garble_abi_2_0, 2, 0
	GARBLE	garble_abi_0_1, 0, 1

	.globl	garble_scratch
	.type	garble_scratch, @function
	.p2align 2
garble_scratch:
	addi	sp, sp, -16
	sd	t2, 0(sp)
	COUNT_CALL
	ld	t2, 0(sp)
	addi	sp, sp, 16
	li	t1, 0x5b1
	jr	t0
	.size	garble_scratch, . - garble_scratch

	.section .note.GNU-stack,"",@progbits
