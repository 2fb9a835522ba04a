/* fentry-aarch64.S: the fentry targets of fentry-run.c, aarch64, reached
 * by "mov x9, x30; bl pfe_test_fentry": x30 is the return into the
 * function, x9 its caller's return address, which they put back in x30.
 * They save x0-x8 and q0-q7, call fentry_hit / ops_dispatch with the
 * return address, restore and go back (x16: IP0 is free to use here).
 * Debug: qemu-aarch64 -g 1234 ..., break pfe_test_fentry. */
	.text
.macro	TRAMPOLINE name, handler
	.globl	\name
	.type	\name, %function
	.p2align 2
\name:
	stp	x29, x30, [sp, #-224]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	stp	x8, x9, [sp, #80]
	stp	q0, q1, [sp, #96]
	stp	q2, q3, [sp, #128]
	stp	q4, q5, [sp, #160]
	stp	q6, q7, [sp, #192]
	mov	x0, x30
	bl	\handler
	ldp	q6, q7, [sp, #192]
	ldp	q4, q5, [sp, #160]
	ldp	q2, q3, [sp, #128]
	ldp	q0, q1, [sp, #96]
	ldp	x8, x9, [sp, #80]
	ldp	x6, x7, [sp, #64]
	ldp	x4, x5, [sp, #48]
	ldp	x2, x3, [sp, #32]
	ldp	x0, x1, [sp, #16]
	ldp	x29, x16, [sp], #224
	mov	x30, x9
	ret	x16
	.size	\name, . - \name
.endm

	TRAMPOLINE pfe_test_fentry, fentry_hit
	TRAMPOLINE pfe_test_fentry_ops, ops_dispatch

	.section .note.GNU-stack,"",@progbits
