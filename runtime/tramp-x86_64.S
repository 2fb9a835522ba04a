/* tramp-x86_64.S: libpfe's trampolines for x86_64.  A patched entry calls
 * one (e8 rel32, or through a veneer), so on entry (%rsp) is the key (the
 * patched call's return address, in the function) and 8(%rsp) the
 * function's return address.  They save the argument registers as a
 * struct pfe_regs (runtime/pfe.h) and, beside it, vector registers 0-7
 * at the full width the CPU has (zmm, ymm: SAVE_VECS), call
 * pfe__dispatch(slot, key, regs), restore them (a handler may change the
 * pfe_regs ones: xmm0-7 go into the low lanes of the full width) and return into
 * the function.  pfe__tramp_slot passes what
 * the function's ops slot holds (its attachment), the 8 bytes before the
 * 8-aligned entry, ((key - 5) & ~7) - 8 (internal.h); pfe__tramp_lookup
 * passes 0.  An exit sled (the plugin's exits) calls pfe__tramp_exit,
 * pfe__tramp_exit_x87 or pfe__tramp_exit_tail (below).
 *
 * The ABI lets the callee clobber r11 and the flags at its entry (pfe's
 * default clobbers=abi makes callers assume every call-clobbered register
 * clobbered); nothing else is live there but what is saved here.
 * Every trampoline has unwind information (CFI): a backtrace from a
 * handler goes through the function to its caller (unwind.c, README).
 * The entry trampolines' is a signal frame's: the function resumes at the
 * key itself, where an unwinder must look it up, not in the patched call
 * before it (which may lie outside the function's FDE: aarch64's native
 * NOPs do).
 * Debugging: break on pfe__dispatch; `x/26gx $rdx` is the pfe_regs;
 * `p pfe__vec_width` the width saved (0 xmm, 1 ymm, 2 zmm).
 */
#include "tramp-layout.h"

	.text

/* Vector registers 0..N-1: SAVE_VECS puts xmm0..N-1 at XMM(%rsp) (the
 * struct pfe_regs or pfe_retregs a handler reads and may change) and the
 * full registers at VEC(%rsp) (64-aligned, 64 bytes each), at the width
 * the CPU has (pfe__vec_width, from pfe__vec_init): zmm with AVX-512, ymm
 * with AVX; with SSE alone xmm is all there is.  RESTORE_VECS loads the
 * full registers and puts the (maybe changed) xmm into their low lanes.
 * Argument and return values live in no other part of the extended
 * state (the ABI lets a call clobber zmm16-31 and the mask registers, and
 * an entry has an empty x87 stack); an xsave of all of it cost 170-180 ns
 * a call on an AVX-512 machine, these moves a few.  With AVX every move
 * is VEX or EVEX-encoded: a legacy SSE instruction while upper halves are
 * in use costs a state transition (Haswell, Broadwell: some 70 cycles
 * each way) or a merge (Skylake on). */
/* OP on each of registers KIND<FIRST>..N-1 and its place, OFF + STRIDE
 * * (i - FIRST) (%rsp): a store (save), a load (restore), or with
 * insert, OP $0, the place, into the register's low lanes. */
.macro EACH_VEC how op kind off stride n first=0
	.irp	r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.if	\r >= \first && \r < \n
	.ifc	\how, save
	\op	%\kind\()\r, \off+\stride*(\r-\first)(%rsp)
	.endif
	.ifc	\how, restore
	\op	\off+\stride*(\r-\first)(%rsp), %\kind\()\r
	.endif
	.ifc	\how, insert
	\op	$0, \off+\stride*(\r-\first)(%rsp), %\kind\()\r, %\kind\()\r
	.endif
	.endif
	.endr
.endm

/* FULL 0: the xmm alone (the function's arguments use no more, vector-
 * args): VEX loads zero the upper halves, dead at the entry. */
.macro SAVE_VECS xmm vec n full=1
	cmpb	$1, pfe__vec_width(%rip)
	jb	3f
	EACH_VEC save, vmovaps, xmm, \xmm, 16, \n
	.if \full
	je	1f
	EACH_VEC save, vmovdqu64, zmm, \vec, 64, \n
	jmp	4f
1:	EACH_VEC save, vmovdqu, ymm, \vec, 64, \n
	.endif
	jmp	4f
3:	EACH_VEC save, movaps, xmm, \xmm, 16, \n
4:
.endm

.macro RESTORE_VECS xmm vec n full=1
	cmpb	$1, pfe__vec_width(%rip)
	jb	3f
	.if \full
	je	1f
	EACH_VEC restore, vmovdqu64, zmm, \vec, 64, \n
	EACH_VEC insert, vinserti32x4, zmm, \xmm, 16, \n
	jmp	4f
1:	EACH_VEC restore, vmovdqu, ymm, \vec, 64, \n
	EACH_VEC insert, vinsertf128, ymm, \xmm, 16, \n
	.else
	EACH_VEC restore, vmovaps, xmm, \xmm, 16, \n
	.endif
	jmp	4f
3:	EACH_VEC restore, movaps, xmm, \xmm, 16, \n
4:
.endm

/* What an ms_abi function's caller keeps across the call and a SysV
 * handler may clobber: rdi, rsi and xmm6-15 (their low 16 bytes; the MS
 * ABI lets a callee clobber the rest).  The trampolines that serve such a
 * function keep them: the full entry ones (rdi, rsi in pfe_regs, xmm6-7
 * among the vector registers, xmm8-15 here) and the return ones of the
 * full and x87 kinds, which the plugin gives its returns, and
 * pfe__tramp_return.  XMM_KEPT saves or restores xmm FROM-15 at OFF(%rsp)
 * (16 bytes each). */
.macro XMM_KEPT how from off
	cmpb	$1, pfe__vec_width(%rip)
	jb	3f
	EACH_VEC \how, vmovaps, xmm, \off, 16, 16, \from
	jmp	4f
3:	EACH_VEC \how, movaps, xmm, \off, 16, 16, \from
4:
.endm

/* The exit trampoline's x87 stack: st(0), and st(1), hold a long double
 * (complex) return value, or nothing; each one there is popped to
 * 192(%rsp), 208(%rsp), their count at 224(%rsp), so that the handler's C
 * code gets an empty stack (fxam says empty: C3 and C0 set).  An fnsave,
 * tried first, cost about 100 ns a return here.  Clobbers eax, ecx. */
.macro X87_SAVE
	xor	%ecx, %ecx
	.irp	off, 192, 208
	fxam
	fnstsw	%ax
	and	$0x4500, %ax
	cmp	$0x4100, %ax
	je	1f
	fstpt	\off(%rsp)
	inc	%ecx
	.endr
1:	mov	%ecx, 224(%rsp)
.endm

.macro X87_RESTORE
	mov	224(%rsp), %ecx
	cmp	$2, %ecx
	jb	1f
	fldt	208(%rsp)
1:	test	%ecx, %ecx
	jz	2f
	fldt	192(%rsp)
2:
.endm

/* Below %rbp (pushed, the frame pointer), 64-aligned: the return value
 * as struct pfe_retregs at 0(%rsp) (%rdi points to it), ymm/zmm0-1
 * (SAVE_VECS) at 64(%rsp), with X87 the x87 stack (X87_SAVE) at
 * 192(%rsp), with KEPT rdi, rsi at 232(%rsp) and xmm6-15 at 256(%rsp)
 * (XMM_KEPT).  RESTORE_RETURN_VALUE loads them and pops %rbp. */
.if PFE_RETREGS_SIZE > 64
.error "struct pfe_retregs runs into the vector registers at 64(%rsp)"
.endif
.macro SAVE_RETURN_VALUE x87 vecs=2 kept=1
	.if \kept
	sub	$416, %rsp
	.else
	sub	$320, %rsp
	.endif
	and	$-64, %rsp
	mov	%rax, PFE_RETREGS_RAX(%rsp)
	mov	%rdx, PFE_RETREGS_RDX(%rsp)
	.if \vecs
	SAVE_VECS PFE_RETREGS_XMM, 64, 2, \vecs-1
	.endif
	.if \x87
	X87_SAVE
	.endif
	.if \kept
	mov	%rdi, 232(%rsp)
	mov	%rsi, 240(%rsp)
	XMM_KEPT save, 6, 256
	.endif
	mov	%rsp, %rdi
.endm

.macro RESTORE_RETURN_VALUE x87 vecs=2 kept=1
	.if \kept
	XMM_KEPT restore, 6, 256
	mov	232(%rsp), %rdi
	mov	240(%rsp), %rsi
	.endif
	.if \x87
	X87_RESTORE
	.endif
	.if \vecs
	RESTORE_VECS PFE_RETREGS_XMM, 64, 2, \vecs-1
	.endif
	mov	PFE_RETREGS_RAX(%rsp), %rax
	mov	PFE_RETREGS_RDX(%rsp), %rdx
	mov	%rbp, %rsp
	pop	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa %rsp, 8
.endm

/* The frame: saved %rbp; below it, 64-aligned, struct pfe_regs (208
 * bytes) at 0(%rsp) and the vector registers at 256(%rsp), at full width
 * with xmm8-15 after them at 768(%rsp) (XMM_KEPT).  ABOVE: the
 * bytes pushed between the key and the saved %rbp (the tail-sled
 * trampoline's r11); VECS: 2 the vector registers at full width, 1 their
 * xmm alone, 0 none (what a function's arguments use, vector-args).
 * %rsi is the key, %rdx the pfe_regs. */
.if PFE_REGS_SIZE > 256
.error "struct pfe_regs runs into the vector registers at 256(%rsp)"
.endif
.macro SAVE above=0 vecs=2
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	.if \vecs == 2
	sub	$896, %rsp
	.else
	sub	$256, %rsp
	.endif
	and	$-64, %rsp
	mov	%rdi, PFE_REGS_RDI(%rsp)
	mov	%rsi, PFE_REGS_RSI(%rsp)
	mov	%rdx, PFE_REGS_RDX(%rsp)
	mov	%rcx, PFE_REGS_RCX(%rsp)
	mov	%r8, PFE_REGS_R8(%rsp)
	mov	%r9, PFE_REGS_R9(%rsp)
	mov	%rax, PFE_REGS_RAX(%rsp)
	mov	%r10, PFE_REGS_R10(%rsp)
	lea	16+\above(%rbp), %r11
	mov	%r11, PFE_REGS_SP(%rsp)
	.if \vecs
	SAVE_VECS PFE_REGS_XMM, 256, 8, \vecs-1
	.endif
	.if \vecs == 2
	XMM_KEPT save, 8, 768
	.endif
	mov	8+\above(%rbp), %rsi
	mov	%rsp, %rdx
.endm

.macro RESTORE above=0 vecs=2
	.if \vecs == 2
	XMM_KEPT restore, 8, 768
	.endif
	.if \vecs
	RESTORE_VECS PFE_REGS_XMM, 256, 8, \vecs-1
	.endif
	mov	PFE_REGS_RDI(%rsp), %rdi
	mov	PFE_REGS_RSI(%rsp), %rsi
	mov	PFE_REGS_RDX(%rsp), %rdx
	mov	PFE_REGS_RCX(%rsp), %rcx
	mov	PFE_REGS_R8(%rsp), %r8
	mov	PFE_REGS_R9(%rsp), %r9
	mov	PFE_REGS_RAX(%rsp), %rax
	mov	PFE_REGS_R10(%rsp), %r10
	mov	%rbp, %rsp
	pop	%rbp
	.cfi_restore %rbp
	.cfi_def_cfa %rsp, 8+\above
.endm

/* The ops-slot trampolines: pfe__tramp_slot, and for a function whose
 * arguments use only xmm or no vector register (the plugin's vector-
 * args) pfe__tramp_slot_low16 and pfe__tramp_slot_no_vectors, which save
 * that much: the rest is dead at the entry (the ABI has a call clobber
 * every vector register). */
.macro SLOT_TRAMP name vecs
	.globl	\name
	.hidden	\name
	.type	\name, @function
\name:
	.cfi_startproc
	.cfi_signal_frame
	SAVE vecs=\vecs
	lea	-5(%rsi), %rdi
	and	$-8, %rdi
	mov	-8(%rdi), %rdi
	call	pfe__dispatch
	RESTORE vecs=\vecs
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm
	SLOT_TRAMP pfe__tramp_slot, 2
	SLOT_TRAMP pfe__tramp_slot_low16, 1
	SLOT_TRAMP pfe__tramp_slot_no_vectors, 0

	.globl	pfe__tramp_lookup
	.hidden	pfe__tramp_lookup
	.type	pfe__tramp_lookup, @function
pfe__tramp_lookup:
	.cfi_startproc
	.cfi_signal_frame
	SAVE
	xor	%edi, %edi
	call	pfe__dispatch
	RESTORE
	ret
	.cfi_endproc
	.size	pfe__tramp_lookup, .-pfe__tramp_lookup

/* A function with an exit handler returns here (dispatch.c put this in
 * place of its return address): save the return value registers as a
 * struct pfe_retregs, ymm/zmm0-1 (SAVE_VECS) and what the x87 stack holds
 * (X87_SAVE: a long double return value; it leaves the stack empty for
 * the C code), and call
 * pfe__exit(retregs, the stack pointer at entry, the return address slot
 * pushed first), which puts the real return address in that slot; restore
 * them and return through it.  So the unwind information is a call's from
 * the real return site (the slot holds 0, the end of the stack, until
 * pfe__exit has written it).  An unwinder that meets pfe__tramp_return as
 * a frame's return address looks up the byte before it: the nop, whose
 * return address is undefined, the end of the stack, and whose
 * personality routine lands a forced unwind in pfe__tramp_unwound. */
	.cfi_startproc
	.cfi_personality 0x1b, pfe__personality
	.cfi_undefined %rip
	nop
	.cfi_endproc
	.globl	pfe__tramp_return
	.hidden	pfe__tramp_return
	.type	pfe__tramp_return, @function
pfe__tramp_return:
	.cfi_startproc
	.cfi_undefined %rip
	.cfi_def_cfa_offset 0
	pushq	$0
	.cfi_def_cfa_offset 8
	.cfi_offset %rip, -8
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	SAVE_RETURN_VALUE 1
	lea	16(%rbp), %rsi
	lea	8(%rbp), %rdx
	call	pfe__exit
	RESTORE_RETURN_VALUE 1
	ret
	.cfi_endproc
	.size	pfe__tramp_return, .-pfe__tramp_return

/* An enabled exit sled (the plugin's exits) calls pfe__tramp_exit right
 * before its function returns (by the sled's kind: pfe__tramp_exit_x87
 * when the value is on the x87 stack, _gp when no vector register holds
 * it, _low16 when xmm0-1 at most do), pfe__tramp_exit_tail right before it leaves by a
 * sibling call: (%rsp) is the key (the return or the jump), 8(%rsp) the
 * function's return address, 16(%rsp) its CFA.  With no exit pending on
 * this thread (pfe__nexits 0: entry handlers only) and no stack parked
 * (pfe__parked 0: a frame of one may be resumed unseen, on any thread,
 * dispatch.c) they return at once.
 * pfe__tramp_exit saves the return value (r11 and the flags are free
 * before a return) and calls pfe__exit_sled(retregs, the CFA);
 * pfe__tramp_exit_tail saves what the entry trampolines save (the
 * callee's arguments) and r11 (an indirect sibling call's target may be
 * there), and calls pfe__exit_tail(regs).  Their unwind information is a
 * signal frame's, as the entry trampolines': the function resumes at the
 * key, its return or jump, whose CFI is the function's there. */
/* The flags say whether this thread has an exit pending or the process
 * a stack parked (ZF clear) or neither.  Clobbers r11. */
.macro TEST_EXITS_PENDING
	mov	pfe__nexits@gottpoff(%rip), %r11
	cmpl	$0, %fs:(%r11)
	jne	8f
	cmpl	$0, pfe__parked(%rip)
8:
.endm

.macro EXIT_TRAMP name x87 vecs kept
	.globl	\name
	.hidden	\name
	.type	\name, @function
\name:
	.cfi_startproc
	.cfi_signal_frame
	TEST_EXITS_PENDING
	jne	9f
	ret
9:	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	SAVE_RETURN_VALUE \x87, \vecs, \kept
	lea	24(%rbp), %rsi
	call	pfe__exit_sled
	RESTORE_RETURN_VALUE \x87, \vecs, \kept
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm
	EXIT_TRAMP pfe__tramp_exit, 0, 2, 1
	EXIT_TRAMP pfe__tramp_exit_x87, 1, 2, 1
	EXIT_TRAMP pfe__tramp_exit_gp, 0, 0, 0
	EXIT_TRAMP pfe__tramp_exit_low16, 0, 1, 0

	.globl	pfe__tramp_exit_tail
	.hidden	pfe__tramp_exit_tail
	.type	pfe__tramp_exit_tail, @function
pfe__tramp_exit_tail:
	.cfi_startproc
	.cfi_signal_frame
	push	%r11
	.cfi_adjust_cfa_offset 8
	TEST_EXITS_PENDING
	je	9f
	SAVE 8
	mov	%rsp, %rdi
	call	pfe__exit_tail
	RESTORE 8
9:	pop	%r11
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	pfe__tramp_exit_tail, .-pfe__tramp_exit_tail

/* A forced unwind (thread cancellation) left a frame that returns to
 * pfe__tramp_return (pfe__personality, unwind.c): the stack pointer is its
 * CFA, rax the exception.  Call the exit handlers of the frames left,
 * push the real return address as the frame's call did, and resume the
 * unwind from pfe__tramp_resume, which looks called from there. */
	.globl	pfe__tramp_unwound
	.hidden	pfe__tramp_unwound
	.type	pfe__tramp_unwound, @function
pfe__tramp_unwound:
	.cfi_startproc
	.cfi_undefined %rip
	mov	%rsp, %rdi
	push	%rax
	sub	$8, %rsp
	call	pfe__exit_unwound
	add	$8, %rsp
	pop	%rdi
	push	%rax
	jmp	pfe__tramp_resume
	.cfi_endproc
	.size	pfe__tramp_unwound, .-pfe__tramp_unwound

	.type	pfe__tramp_resume, @function
pfe__tramp_resume:
	.cfi_startproc
	sub	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	pfe__unwind_resume
	.cfi_endproc
	.size	pfe__tramp_resume, .-pfe__tramp_resume

/* The width SAVE_VECS saves at, from CPUID: 2 (zmm) when the CPU has
 * AVX-512F (CPUID.7:EBX[16]) and the OS keeps its state (XCR0 bits 1, 2,
 * 5-7), 1 (ymm) with AVX (CPUID.1:ECX[28]) and XCR0 bits 1-2, else 0.
 * Run first of libpfe's constructors. */
	.type	pfe__vec_init, @function
pfe__vec_init:
	.cfi_startproc
	push	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	mov	$1, %eax
	cpuid
	bt	$27, %ecx		/* OSXSAVE: xgetbv works */
	jnc	1f
	bt	$28, %ecx
	jnc	1f
	xor	%ecx, %ecx
	xgetbv
	mov	%eax, %esi
	and	$0x06, %eax
	cmp	$0x06, %eax
	jne	1f
	movb	$1, pfe__vec_width(%rip)
	and	$0xe6, %esi
	cmp	$0xe6, %esi
	jne	1f
	mov	$7, %eax
	xor	%ecx, %ecx
	cpuid
	bt	$16, %ebx
	jnc	1f
	movb	$2, pfe__vec_width(%rip)
1:	pop	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	pfe__vec_init, .-pfe__vec_init

	.section	.init_array.00101,"aw"
	.align	8
	.quad	pfe__vec_init

	.data
	.type	pfe__vec_width, @object
pfe__vec_width:
	.byte	0

	/* patch.c's probe of its writer: pfe__probe returns 0; patch.c
	 * writes pfe__probe_one's bytes (as long, right after it) over it
	 * through /proc/self/mem and calls it again. */
	.text
	.globl	pfe__probe
	.hidden	pfe__probe
	.type	pfe__probe, @function
pfe__probe:
	mov	$0, %eax
	ret
	.size	pfe__probe, .-pfe__probe
	.globl	pfe__probe_one
	.hidden	pfe__probe_one
	.type	pfe__probe_one, @function
pfe__probe_one:
	mov	$1, %eax
	ret
	.size	pfe__probe_one, .-pfe__probe_one

	/* The end of libpfe's code: libpfe.a links it into one object whose
	 * code fills whole pages, so that no page holds both libpfe's code
	 * and code it patches (Makefile, runtime/README.md). */
	.text
	.p2align	12

	.section	.note.GNU-stack,"",@progbits
