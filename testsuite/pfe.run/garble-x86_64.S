/* garble-x86_64.S: the trampolines clobber.c patches into leaf entries
 * (call rel32 in the post-entry NOPs).
 *
 * garble_abi_I_F overwrites every register the SysV x86_64 ABI lets a call
 * clobber, except the argument registers of a leaf that takes I integer
 * and F floating-point arguments: rax, the unused ones of rdi rsi rdx rcx
 * r8 r9, r10, r11, the unused ones of xmm0-xmm7, xmm8-xmm15, rflags.  (The
 * x87 stack is left alone: GCC counts it as clobbered by every call.)
 * garble_scratch overwrites only the scratch set of clobbers=scratch: r11
 * and rflags.  Both count their calls in tramp_calls and stop a loop whose
 * counter a caller lost (garble_runaway in clobber.c).
 *
 * Debug: gdb ./clobber.exe, break garble_abi_1_0, "info registers" before
 * and after. */
	.text

.macro	COUNT_CALL
	incq	tramp_calls(%rip)
	cmpq	$1000, tramp_calls(%rip)
	ja	runaway
.endm

runaway:
	andq	$-16, %rsp
	call	garble_runaway

.macro	GARBLE name, nint, nfp
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
	COUNT_CALL
	i = 0
	.irp	reg, rdi, rsi, rdx, rcx, r8, r9
	.if	i >= \nint
	movabsq	$0x5a5a5a5a7ead0000 + i, %\reg
	.endif
	i = i + 1
	.endr
	movabsq	$0x5b5b5b5b7ead00aa, %rax
	movabsq	$0x5b5b5b5b7ead00a1, %r10
	movabsq	$0x5b5b5b5b7ead00a2, %r11
	i = 0
	.irp	reg, 0, 1, 2, 3, 4, 5, 6, 7
	.if	i >= \nfp
	pcmpeqd	%xmm\reg, %xmm\reg
	.endif
	i = i + 1
	.endr
	.irp	reg, 8, 9, 10, 11, 12, 13, 14, 15
	pcmpeqd	%xmm\reg, %xmm\reg
	.endr
	cmpq	%r10, %r11
	ret
	.size	\name, . - \name
.endm

	GARBLE	garble_abi_0_0, 0, 0
	GARBLE	garble_abi_1_0, 1, 0
	GARBLE	garble_abi_2_0, 2, 0
	GARBLE	garble_abi_0_1, 0, 1

	.globl	garble_scratch
	.type	garble_scratch, @function
	.p2align 4
garble_scratch:
	COUNT_CALL
	movabsq	$0x5b5b5b5b7ead00a2, %r11
	cmpq	%rsp, %r11
	ret
	.size	garble_scratch, . - garble_scratch

	.section .note.GNU-stack,"",@progbits
