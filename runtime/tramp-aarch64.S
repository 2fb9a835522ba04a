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
 * 8-aligned entry, ((key - 8) & ~7) - 8 (internal.h), and
 * pfe__tramp_slot_after_hash the 8 before a kCFI hash word before the
 * entry (slot, hash, entry: ops-slot with cfi=kcfi); pfe__tramp_lookup
 * passes 0.
 *
 * Clobbered: x9-x17 and NZCV, which the ABI lets a callee clobber at its
 * entry (pfe's default clobbers=abi).
 * Unwind information (CFI): an entry trampoline's return address is the
 * key, in x30 at entry, while the function's own return address is in x9;
 * so their return column is x16, through which they do return, and x30 is
 * described as the function's (x9, then its pfe_regs slot): a backtrace
 * from a handler goes through the function to its caller.  It is a signal
 * frame's: the function resumes at the key itself, where an unwinder must
 * look it up (GCC's native NOPs lie before the function's FDE).
 * Debugging: break on pfe__dispatch; `x/28gx $x2` is the pfe_regs.
 */
#include "tramp-layout.h"

	.text

/* The frame: x29, x30, then struct pfe_regs (224 bytes) at sp + 16. */
#define REGS(off) (16 + (off))
/* The stp pairs write x18 right after x8, sp right after lr. */
.if REGS(PFE_REGS_SIZE) != 240 || PFE_REGS_X18 != PFE_REGS_X + 8*9 || PFE_REGS_SP != PFE_REGS_LR + 8
.error "struct pfe_regs is not laid out as SAVE stores it (tramp-layout.h)"
.endif
.macro SAVE
	.cfi_startproc
	.cfi_signal_frame
	.cfi_return_column x16
	.cfi_register x16, x30
	.cfi_register x30, x9
	hint	34			// bti c: it may be reached through a veneer's br
	stp	x29, x30, [sp, #-240]!
	.cfi_def_cfa_offset 240
	.cfi_offset x29, -240
	.cfi_offset x16, -232
	mov	x29, sp
	stp	x0, x1, [sp, #REGS(PFE_REGS_X + 8*0)]
	stp	x2, x3, [sp, #REGS(PFE_REGS_X + 8*2)]
	stp	x4, x5, [sp, #REGS(PFE_REGS_X + 8*4)]
	stp	x6, x7, [sp, #REGS(PFE_REGS_X + 8*6)]
	stp	x8, x18, [sp, #REGS(PFE_REGS_X + 8*8)]
	add	x16, sp, #240
	stp	x9, x16, [sp, #REGS(PFE_REGS_LR)]
	.cfi_offset x30, REGS(PFE_REGS_LR) - 240
	stp	q0, q1, [sp, #REGS(PFE_REGS_V + 16*0)]
	stp	q2, q3, [sp, #REGS(PFE_REGS_V + 16*2)]
	stp	q4, q5, [sp, #REGS(PFE_REGS_V + 16*4)]
	stp	q6, q7, [sp, #REGS(PFE_REGS_V + 16*6)]
	mov	x1, x30
	add	x2, sp, #REGS(0)
.endm

.macro RESTORE
	ldp	x0, x1, [sp, #REGS(PFE_REGS_X + 8*0)]
	ldp	x2, x3, [sp, #REGS(PFE_REGS_X + 8*2)]
	ldp	x4, x5, [sp, #REGS(PFE_REGS_X + 8*4)]
	ldp	x6, x7, [sp, #REGS(PFE_REGS_X + 8*6)]
	ldp	x8, x18, [sp, #REGS(PFE_REGS_X + 8*8)]
	ldr	x9, [sp, #REGS(PFE_REGS_LR)]
	ldp	q0, q1, [sp, #REGS(PFE_REGS_V + 16*0)]
	ldp	q2, q3, [sp, #REGS(PFE_REGS_V + 16*2)]
	ldp	q4, q5, [sp, #REGS(PFE_REGS_V + 16*4)]
	ldp	q6, q7, [sp, #REGS(PFE_REGS_V + 16*6)]
	ldp	x29, x16, [sp], #240
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_same_value x16
	.cfi_register x30, x9
	mov	x30, x9
	.cfi_same_value x30
	ret	x16
	.cfi_endproc
.endm

/* A slot trampoline: the ops slot ends GAP bytes before the entry, at
 * ((key - 8 - GAP) & ~7) (internal.h, pfe__slot_entry); DISPATCH knows GAP. */
.macro SLOT_TRAMP name, gap, dispatch
	.globl	\name
	.hidden	\name
	.type	\name, %function
\name:
	SAVE
	sub	x0, x30, #(8 + \gap)
	and	x0, x0, #~7
	ldur	x0, [x0, #-8]
	bl	\dispatch
	RESTORE
	.size	\name, .-\name
.endm

	SLOT_TRAMP pfe__tramp_slot, 0, pfe__dispatch
	SLOT_TRAMP pfe__tramp_slot_after_hash, 4, pfe__dispatch_after_hash

	.globl	pfe__tramp_lookup
	.hidden	pfe__tramp_lookup
	.type	pfe__tramp_lookup, %function
pfe__tramp_lookup:
	SAVE
	mov	x0, xzr
	bl	pfe__dispatch
	RESTORE
	.size	pfe__tramp_lookup, .-pfe__tramp_lookup

/* A function with an exit handler returns here (dispatch.c put this in
 * place of its return address): save the return value registers (x0-x7,
 * q0-q3: a struct pfe_retregs) and call pfe__exit(retregs, the stack
 * pointer at entry, where x30 is saved), which puts the real return
 * address in that slot; restore them and return through it.  So the unwind
 * information is a call's from the real return site.  An unwinder that
 * meets pfe__tramp_return as a frame's return address looks up the byte
 * before it: the nop, whose return address is undefined, the end of the
 * stack (as it is until pfe__exit has written the slot), and whose
 * personality routine lands a forced unwind in pfe__tramp_unwound. */
	.cfi_startproc
	.cfi_personality 0x1b, pfe__personality
	.cfi_undefined x30
	nop
	.cfi_endproc
	.globl	pfe__tramp_return
	.hidden	pfe__tramp_return
	.type	pfe__tramp_return, %function
pfe__tramp_return:
	.cfi_startproc
	.cfi_undefined x30
	.if REGS(PFE_RETREGS_SIZE) != 144
	.error "struct pfe_retregs does not end at the frame's end, sp + 144"
	.endif
	hint	34			// bti c
	stp	x29, x30, [sp, #-144]!
	.cfi_def_cfa_offset 144
	.cfi_offset x29, -144
	.cfi_offset x30, -136
	mov	x29, sp
	stp	x0, x1, [sp, #REGS(PFE_RETREGS_X + 8*0)]
	stp	x2, x3, [sp, #REGS(PFE_RETREGS_X + 8*2)]
	stp	x4, x5, [sp, #REGS(PFE_RETREGS_X + 8*4)]
	stp	x6, x7, [sp, #REGS(PFE_RETREGS_X + 8*6)]
	stp	q0, q1, [sp, #REGS(PFE_RETREGS_V + 16*0)]
	stp	q2, q3, [sp, #REGS(PFE_RETREGS_V + 16*2)]
	add	x0, sp, #REGS(0)
	add	x1, sp, #144
	add	x2, sp, #8
	bl	pfe__exit
	ldp	x0, x1, [sp, #REGS(PFE_RETREGS_X + 8*0)]
	ldp	x2, x3, [sp, #REGS(PFE_RETREGS_X + 8*2)]
	ldp	x4, x5, [sp, #REGS(PFE_RETREGS_X + 8*4)]
	ldp	x6, x7, [sp, #REGS(PFE_RETREGS_X + 8*6)]
	ldp	q0, q1, [sp, #REGS(PFE_RETREGS_V + 16*0)]
	ldp	q2, q3, [sp, #REGS(PFE_RETREGS_V + 16*2)]
	ldp	x29, x30, [sp], #144
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	ret
	.cfi_endproc
	.size	pfe__tramp_return, .-pfe__tramp_return

/* A forced unwind (thread cancellation) left a frame that returns to
 * pfe__tramp_return (pfe__personality, unwind.c): the stack pointer is its
 * CFA, x0 the exception.  Call the exit handlers of the frames left, put
 * the real return address in x30 as the frame's call did, and resume the
 * unwind from pfe__tramp_resume, which looks called from there. */
	.globl	pfe__tramp_unwound
	.hidden	pfe__tramp_unwound
	.type	pfe__tramp_unwound, %function
pfe__tramp_unwound:
	.cfi_startproc
	.cfi_undefined x30
	hint	36			// bti j: the unwinder branches here
	str	x0, [sp, #-16]!
	add	x0, sp, #16
	bl	pfe__exit_unwound
	mov	x30, x0
	ldr	x0, [sp], #16
	b	pfe__tramp_resume
	.cfi_endproc
	.size	pfe__tramp_unwound, .-pfe__tramp_unwound

	.type	pfe__tramp_resume, %function
pfe__tramp_resume:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	bl	pfe__unwind_resume
	.cfi_endproc
	.size	pfe__tramp_resume, .-pfe__tramp_resume

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
