/* fentry-riscv64.S: the fentry targets of fentry-run.c, riscv64, reached
 * by "auipc t0; jalr t0" (the riscv kernel's sequence): t0 is the return
 * into the function, ra its caller's.  They save a0-a7, fa0-fa7, ra and
 * t0, call fentry_hit / ops_dispatch with the return address, restore and
 * jump back through t0.
 * Debug: qemu-riscv64 -g 1234 ..., break pfe_test_fentry. */
	.text
.macro	TRAMPOLINE name, handler
	.globl	\name
	.type	\name, @function
	.p2align 2
\name:
	addi	sp, sp, -160
	sd	ra, 0(sp)
	sd	t0, 8(sp)
	.irp	r, 0, 1, 2, 3, 4, 5, 6, 7
	sd	a\r, (16 + 8 * \r)(sp)
	fsd	fa\r, (80 + 8 * \r)(sp)
	.endr
	mv	a0, t0
	call	\handler
	.irp	r, 0, 1, 2, 3, 4, 5, 6, 7
	ld	a\r, (16 + 8 * \r)(sp)
	fld	fa\r, (80 + 8 * \r)(sp)
	.endr
	ld	t0, 8(sp)
	ld	ra, 0(sp)
	addi	sp, sp, 160
	jr	t0
	.size	\name, . - \name
.endm

	TRAMPOLINE pfe_test_fentry, fentry_hit
	TRAMPOLINE pfe_test_fentry_ops, ops_dispatch

	.section .note.GNU-stack,"",@progbits
