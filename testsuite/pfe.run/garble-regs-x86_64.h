/* garble-regs-x86_64.h: GARBLE_REGS nint, nfp overwrites every register
 * the SysV x86_64 ABI lets a call clobber, except the argument registers
 * of a function that takes nint integer and nfp floating-point arguments:
 * rax, the unused ones of rdi rsi rdx rcx r8 r9, r10, r11, the unused ones
 * of xmm0-xmm7, xmm8-xmm15, rflags.  (The x87 stack is left alone: GCC
 * counts it as clobbered by every call.)  Included by garble-x86_64.S
 * (clobber.c's leaf trampolines) and garble-fentry-x86_64.S (make
 * check-packages' fentry hook).
 * Debug: break after the macro, "info registers". */
.macro	GARBLE_REGS nint, nfp
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
.endm
