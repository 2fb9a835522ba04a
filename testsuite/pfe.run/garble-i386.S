/* garble-i386.S: the trampolines clobber.c patches into leaf entries
 * (call rel32 in the post-entry NOPs), for i386 (-m32).
 *
 * cdecl passes every argument on the stack, so one body serves every leaf:
 * garble_abi_* overwrites eax, ecx, edx, xmm0-xmm7 and eflags (the x87
 * stack is left alone: GCC counts it as clobbered by every call);
 * garble_scratch overwrites nothing but eflags (i386 has no scratch
 * register at the entry).  Both count their calls in tramp_calls, found
 * through the GOT so that PIE links, and stop a loop whose counter a
 * caller lost (garble_runaway in clobber.c).
 *
 * Debug: gdb ./clobber.exe, break garble_abi_1_0. */
	.text

/* tramp_calls++ with %ecx pointing at the GOT. */
.macro	COUNT_CALL
	call	1f
1:	popl	%ecx
	addl	$_GLOBAL_OFFSET_TABLE_ + (. - 1b), %ecx
	incl	tramp_calls@GOTOFF(%ecx)
	cmpl	$1000, tramp_calls@GOTOFF(%ecx)
	ja	runaway
.endm

runaway:
	movl	%ecx, %ebx
	andl	$-16, %esp
	call	garble_runaway@PLT

	.globl	garble_abi_0_0, garble_abi_1_0, garble_abi_2_0, garble_abi_0_1
	.type	garble_abi_0_0, @function
	.p2align 4
garble_abi_0_0:
garble_abi_1_0:
garble_abi_2_0:
garble_abi_0_1:
	COUNT_CALL
	movl	$0x5b5b00aa, %eax
	movl	$0x5b5b00a1, %ecx
	movl	$0x5b5b00a2, %edx
	.irp	reg, 0, 1, 2, 3, 4, 5, 6, 7
	pcmpeqd	%xmm\reg, %xmm\reg
	.endr
	cmpl	%ecx, %edx
	ret
	.size	garble_abi_0_0, . - garble_abi_0_0

	.globl	garble_scratch
	.type	garble_scratch, @function
	.p2align 4
garble_scratch:
	pushl	%ecx
	COUNT_CALL
	cmpl	%esp, %ecx
	popl	%ecx
	ret
	.size	garble_scratch, . - garble_scratch

	.section .note.GNU-stack,"",@progbits
