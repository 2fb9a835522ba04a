/* tramp-riscv64.S: libpfe's trampolines for riscv64.  A patched entry is
 * "auipc t0, hi; jalr t0, lo(t0)" to one (or to a veneer, which writes
 * only t1), so on entry t0 is the key (the jalr's return address, in the
 * function) and ra the function's return address.  They save the argument
 * registers as a struct pfe_regs (runtime/pfe.h), call pfe__dispatch(slot,
 * key, regs), restore them (a handler may change them) and return into
 * the function through t0.  pfe__tramp_slot passes what
 * the function's ops slot holds (its attachment), the 8 bytes before the
 * 8-aligned entry, ((key - 8) & ~7) - 8 (internal.h), and
 * pfe__tramp_slot_after_hash the 8 before a kCFI hash word before the
 * entry (slot, hash, entry: ops-slot with cfi=kcfi); pfe__tramp_lookup
 * passes 0.
 *
 * Clobbered: t0, t1 (the patch's scratch registers) and what the ABI lets
 * a callee clobber at its entry (pfe's default clobbers=abi).
 * Unwind information (CFI): an entry trampoline returns through t0, its
 * return column; ra is the function's own return address: a backtrace
 * from a handler goes through the function to its caller.  It is a signal
 * frame's: the function resumes at the key itself, where an unwinder must
 * look it up, not in the patched call (tramp-aarch64.S).
 * Debugging: break on pfe__dispatch; `x/20gx $a2` is the pfe_regs.
 */
#include "tramp-layout.h"

	.text
	.option	push
	.option	norvc

/* The frame: struct pfe_regs (160 bytes), then t0 and ra. */
.if PFE_REGS_SIZE != 160
.error "struct pfe_regs runs into the saved t0 at 160(sp)"
.endif
.macro SAVE
	.cfi_startproc
	.cfi_signal_frame
	.cfi_return_column t0
	addi	sp, sp, -176
	.cfi_def_cfa_offset 176
	sd	t0, 160(sp)
	.cfi_offset t0, -16
	sd	ra, 168(sp)
	.cfi_offset ra, -8
	sd	a0, PFE_REGS_A + 8*0(sp)
	sd	a1, PFE_REGS_A + 8*1(sp)
	sd	a2, PFE_REGS_A + 8*2(sp)
	sd	a3, PFE_REGS_A + 8*3(sp)
	sd	a4, PFE_REGS_A + 8*4(sp)
	sd	a5, PFE_REGS_A + 8*5(sp)
	sd	a6, PFE_REGS_A + 8*6(sp)
	sd	a7, PFE_REGS_A + 8*7(sp)
	sd	t2, PFE_REGS_T2(sp)
	sd	ra, PFE_REGS_RA(sp)
	addi	t1, sp, 176
	sd	t1, PFE_REGS_SP(sp)
	fsd	fa0, PFE_REGS_FA + 8*0(sp)
	fsd	fa1, PFE_REGS_FA + 8*1(sp)
	fsd	fa2, PFE_REGS_FA + 8*2(sp)
	fsd	fa3, PFE_REGS_FA + 8*3(sp)
	fsd	fa4, PFE_REGS_FA + 8*4(sp)
	fsd	fa5, PFE_REGS_FA + 8*5(sp)
	fsd	fa6, PFE_REGS_FA + 8*6(sp)
	fsd	fa7, PFE_REGS_FA + 8*7(sp)
	mv	a1, t0
	mv	a2, sp
.endm

.macro RESTORE
	ld	a0, PFE_REGS_A + 8*0(sp)
	ld	a1, PFE_REGS_A + 8*1(sp)
	ld	a2, PFE_REGS_A + 8*2(sp)
	ld	a3, PFE_REGS_A + 8*3(sp)
	ld	a4, PFE_REGS_A + 8*4(sp)
	ld	a5, PFE_REGS_A + 8*5(sp)
	ld	a6, PFE_REGS_A + 8*6(sp)
	ld	a7, PFE_REGS_A + 8*7(sp)
	ld	t2, PFE_REGS_T2(sp)
	fld	fa0, PFE_REGS_FA + 8*0(sp)
	fld	fa1, PFE_REGS_FA + 8*1(sp)
	fld	fa2, PFE_REGS_FA + 8*2(sp)
	fld	fa3, PFE_REGS_FA + 8*3(sp)
	fld	fa4, PFE_REGS_FA + 8*4(sp)
	fld	fa5, PFE_REGS_FA + 8*5(sp)
	fld	fa6, PFE_REGS_FA + 8*6(sp)
	fld	fa7, PFE_REGS_FA + 8*7(sp)
	ld	ra, PFE_REGS_RA(sp)		/* pfe_regs.ra: an exit hook may change it */
	ld	t0, 160(sp)
	addi	sp, sp, 176
	.cfi_def_cfa_offset 0
	.cfi_restore ra
	.cfi_restore t0
	jr	t0
	.cfi_endproc
.endm

/* A slot trampoline: the ops slot ends GAP bytes before the entry, at
 * ((key - 8 - GAP) & ~7) (internal.h, pfe__slot_entry); DISPATCH knows GAP. */
.macro SLOT_TRAMP name, gap, dispatch
	.globl	\name
	.hidden	\name
	.type	\name, @function
\name:
	SAVE
	addi	a0, t0, -(8 + \gap)
	andi	a0, a0, -8
	ld	a0, -8(a0)
	call	\dispatch
	RESTORE
	.size	\name, .-\name
.endm

	SLOT_TRAMP pfe__tramp_slot, 0, pfe__dispatch
	SLOT_TRAMP pfe__tramp_slot_after_hash, 4, pfe__dispatch_after_hash

	.globl	pfe__tramp_lookup
	.hidden	pfe__tramp_lookup
	.type	pfe__tramp_lookup, @function
pfe__tramp_lookup:
	SAVE
	li	a0, 0
	call	pfe__dispatch
	RESTORE
	.size	pfe__tramp_lookup, .-pfe__tramp_lookup

/* A function with an exit handler returns here (dispatch.c put this in
 * place of its return address): save a0, a1, fa0, fa1 (a struct
 * pfe_retregs) and call pfe__exit(retregs, the stack pointer at entry,
 * where ra is saved), which puts the real return address in that slot;
 * restore them and return through it.  So the unwind information is a
 * call's from the real return site.  An unwinder that meets
 * pfe__tramp_return as a frame's return address looks up the byte before
 * it: the nop, whose return address is undefined, the end of the stack
 * (as it is until pfe__exit has written the slot), and whose personality
 * routine lands a forced unwind in pfe__tramp_unwound. */
	.cfi_startproc
	.cfi_personality 0x1b, pfe__personality
	.cfi_undefined ra
	nop
	.cfi_endproc
	.globl	pfe__tramp_return
	.hidden	pfe__tramp_return
	.type	pfe__tramp_return, @function
pfe__tramp_return:
	.cfi_startproc
	.cfi_undefined ra
	.if PFE_RETREGS_SIZE != 32
	.error "struct pfe_retregs runs into the saved ra at 32(sp)"
	.endif
	addi	sp, sp, -48
	.cfi_def_cfa_offset 48
	sd	ra, 32(sp)
	.cfi_offset ra, -16
	sd	a0, PFE_RETREGS_A + 8*0(sp)
	sd	a1, PFE_RETREGS_A + 8*1(sp)
	fsd	fa0, PFE_RETREGS_FA + 8*0(sp)
	fsd	fa1, PFE_RETREGS_FA + 8*1(sp)
	mv	a0, sp
	addi	a1, sp, 48
	addi	a2, sp, 32
	call	pfe__exit
	ld	a0, PFE_RETREGS_A + 8*0(sp)
	ld	a1, PFE_RETREGS_A + 8*1(sp)
	fld	fa0, PFE_RETREGS_FA + 8*0(sp)
	fld	fa1, PFE_RETREGS_FA + 8*1(sp)
	ld	ra, 32(sp)
	addi	sp, sp, 48
	.cfi_def_cfa_offset 0
	.cfi_restore ra
	ret
	.cfi_endproc
	.size	pfe__tramp_return, .-pfe__tramp_return

/* A forced unwind (thread cancellation) left a frame that returns to
 * pfe__tramp_return (pfe__personality, unwind.c): the stack pointer is its
 * CFA, a0 the exception.  Call the exit handlers of the frames left, put
 * the real return address in ra as the frame's call did, and resume the
 * unwind from pfe__tramp_resume, which looks called from there. */
	.globl	pfe__tramp_unwound
	.hidden	pfe__tramp_unwound
	.type	pfe__tramp_unwound, @function
pfe__tramp_unwound:
	.cfi_startproc
	.cfi_undefined ra
	addi	sp, sp, -16
	sd	a0, 0(sp)
	addi	a0, sp, 16
	call	pfe__exit_unwound
	mv	ra, a0
	ld	a0, 0(sp)
	addi	sp, sp, 16
	tail	pfe__tramp_resume
	.cfi_endproc
	.size	pfe__tramp_unwound, .-pfe__tramp_unwound

	.type	pfe__tramp_resume, @function
pfe__tramp_resume:
	.cfi_startproc
	addi	sp, sp, -16
	.cfi_def_cfa_offset 16
	sd	ra, 8(sp)
	.cfi_offset ra, -8
	call	pfe__unwind_resume
	.cfi_endproc
	.size	pfe__tramp_resume, .-pfe__tramp_resume

	.option	pop
	/* patch.c's probe of its writer: pfe__probe returns 0; patch.c
	 * writes pfe__probe_one's bytes (as long, right after it) over it
	 * through /proc/self/mem and calls it again. */
	.text
	.option	push
	.option	norvc
	.globl	pfe__probe
	.hidden	pfe__probe
	.type	pfe__probe, @function
pfe__probe:
	li	a0, 0
	ret
	.size	pfe__probe, .-pfe__probe
	.globl	pfe__probe_one
	.hidden	pfe__probe_one
	.type	pfe__probe_one, @function
pfe__probe_one:
	li	a0, 1
	ret
	.size	pfe__probe_one, .-pfe__probe_one
	.option	pop

	/* The end of libpfe's code: libpfe.a links it into one object whose
	 * code fills whole pages, so that no page holds both libpfe's code
	 * and code it patches (Makefile, runtime/README.md). */
	.text
	.p2align	12

	.section	.note.GNU-stack,"",@progbits
