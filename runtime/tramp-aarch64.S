/* tramp-aarch64.S: libpfe's trampolines for aarch64.  A patched entry is
 * "mov x9, x30; bl TRAMPOLINE" (or bl to a veneer, which writes only x16),
 * so on entry x30 is the key (the bl's return address, in the function)
 * and x9 the function's return address.  They save the argument registers
 * as a struct pfe_regs (runtime/pfe.h), call pfe__dispatch(slot, key,
 * regs), restore them (a handler may change them), put the function's
 * return address back in x30 and return into the function with "ret x16"
 * (a return is no indirect branch for BTI: no landing pad is needed after
 * the bl).  pfe__tramp_slot passes what
 * the function's ops slot holds (its attachment), the 8 bytes before the
 * 8-aligned entry, ((key - 8) & ~7) - 8 (internal.h); pfe__tramp_lookup
 * passes 0.
 *
 * Clobbered: x9-x17 and NZCV, which the ABI lets a callee clobber at its
 * entry (pfe's default clobbers=abi).
 * Debugging: break on pfe__dispatch; `x/28gx $x2` is the pfe_regs.
 */
	.text

/* The frame: x29, x30, then struct pfe_regs (224 bytes) at sp + 16. */
.macro SAVE
	stp	x29, x30, [sp, #-240]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	stp	x8, x18, [sp, #80]
	add	x16, sp, #240
	stp	x9, x16, [sp, #96]
	stp	q0, q1, [sp, #112]
	stp	q2, q3, [sp, #144]
	stp	q4, q5, [sp, #176]
	stp	q6, q7, [sp, #208]
	mov	x1, x30
	add	x2, sp, #16
.endm

.macro RESTORE
	ldp	x0, x1, [sp, #16]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
	ldp	x8, x18, [sp, #80]
	ldr	x9, [sp, #96]
	ldp	q0, q1, [sp, #112]
	ldp	q2, q3, [sp, #144]
	ldp	q4, q5, [sp, #176]
	ldp	q6, q7, [sp, #208]
	ldp	x29, x16, [sp], #240
	mov	x30, x9
	ret	x16
.endm

	.globl	pfe__tramp_slot
	.hidden	pfe__tramp_slot
	.type	pfe__tramp_slot, %function
pfe__tramp_slot:
	hint	34			// bti c: it may be reached through a veneer's br
	SAVE
	sub	x0, x30, #8
	and	x0, x0, #~7
	ldur	x0, [x0, #-8]
	bl	pfe__dispatch
	RESTORE
	.size	pfe__tramp_slot, .-pfe__tramp_slot

	.globl	pfe__tramp_lookup
	.hidden	pfe__tramp_lookup
	.type	pfe__tramp_lookup, %function
pfe__tramp_lookup:
	hint	34			// bti c
	SAVE
	mov	x0, xzr
	bl	pfe__dispatch
	RESTORE
	.size	pfe__tramp_lookup, .-pfe__tramp_lookup

/* A function with an exit handler returns here (dispatch.c put this in
 * place of its return address): save the return value registers (x0-x7,
 * q0-q3: a struct pfe_retregs), call pfe__exit, which gives the real
 * return address, restore them and return there. */
	.globl	pfe__tramp_return
	.hidden	pfe__tramp_return
	.type	pfe__tramp_return, %function
pfe__tramp_return:
	hint	34			// bti c
	stp	x29, x30, [sp, #-144]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	stp	q0, q1, [sp, #80]
	stp	q2, q3, [sp, #112]
	add	x0, sp, #16
	bl	pfe__exit
	mov	x16, x0
	ldp	x0, x1, [sp, #16]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
	ldp	q0, q1, [sp, #80]
	ldp	q2, q3, [sp, #112]
	ldp	x29, x30, [sp], #144
	ret	x16
	.size	pfe__tramp_return, .-pfe__tramp_return

	/* patch.c's probe of its writer: pfe__probe returns 0; patch.c
	 * writes pfe__probe_one's bytes (as long, right after it) over it
	 * through /proc/self/mem and calls it again. */
	.text
	.globl	pfe__probe
	.hidden	pfe__probe
	.type	pfe__probe, %function
pfe__probe:
	mov	w0, #0
	ret
	.size	pfe__probe, .-pfe__probe
	.globl	pfe__probe_one
	.hidden	pfe__probe_one
	.type	pfe__probe_one, %function
pfe__probe_one:
	mov	w0, #1
	ret
	.size	pfe__probe_one, .-pfe__probe_one

	/* The end of libpfe's code: libpfe.a links it into one object whose
	 * code fills whole pages, so that no page holds both libpfe's code
	 * and code it patches (Makefile, runtime/README.md). */
	.text
	.p2align	12

	.section	.note.GNU-stack,"",%progbits
