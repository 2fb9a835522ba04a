/* fentry-x86_64.S: the fentry targets of fentry-run.c, x86_64.
 * pfe_test_fentry and pfe_test_fentry_ops are called first thing in each
 * instrumented function (call rel32, or through the GOT or PLT); they save
 * the argument registers (rdi rsi rdx rcx r8 r9, rax for varargs, r10 the
 * static chain, xmm0-xmm7), call fentry_hit / ops_dispatch with their
 * return address, restore and return.
 * Debug: gdb, break pfe_test_fentry. */
	.text
.macro	TRAMPOLINE name, handler
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%rax
	pushq	%r10
	subq	$128, %rsp
	.irp	r, 0, 1, 2, 3, 4, 5, 6, 7
	movdqu	%xmm\r, 16*\r(%rsp)
	.endr
	movq	192(%rsp), %rdi		/* the return address */
	call	\handler
	.irp	r, 0, 1, 2, 3, 4, 5, 6, 7
	movdqu	16*\r(%rsp), %xmm\r
	.endr
	addq	$128, %rsp
	popq	%r10
	popq	%rax
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	ret
	.size	\name, . - \name
.endm

	TRAMPOLINE pfe_test_fentry, fentry_hit
	TRAMPOLINE pfe_test_fentry_ops, ops_dispatch

	.section .note.GNU-stack,"",@progbits
