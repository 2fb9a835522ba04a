/* fentry-i386.S: the fentry targets of fentry-run.c, i386 (cdecl: the
 * arguments are on the stack; eax, ecx, edx are saved for regparm and the
 * static chain).  They call fentry_hit / ops_dispatch with their return
 * address, keeping the stack 16-byte aligned at the call.
 * Debug: gdb, break pfe_test_fentry. */
	.text
.macro	TRAMPOLINE name, handler
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
	pushl	%eax
	pushl	%ecx
	pushl	%edx
	movl	12(%esp), %eax		/* the return address */
	subl	$12, %esp
	pushl	%eax
	call	\handler
	addl	$16, %esp
	popl	%edx
	popl	%ecx
	popl	%eax
	ret
	.size	\name, . - \name
.endm

	TRAMPOLINE pfe_test_fentry, fentry_hit
	TRAMPOLINE pfe_test_fentry_ops, ops_dispatch

	.section .note.GNU-stack,"",@progbits
