/* tramp-i386.S: libpfe's trampolines for i386.  A patched entry calls one
 * (e8 rel32: it reaches all of the address space, no veneer), so on entry
 * (%esp) is the key (the patched call's return address, in the function)
 * and 4(%esp) the function's return address, its arguments above it
 * (cdecl).  They save eax, edx and ecx (regparm arguments, the static
 * chain) and, by xsave (fxsave where the CPU has none), the whole extended
 * state: x87, MMX, SSE, AVX... (vector arguments in xmm0-2/ymm0-2; a
 * handler may use any of it) as a struct pfe_regs
 * (runtime/pfe.h), call pfe__dispatch(slot, key, regs), restore them (a
 * handler may change them) and return into the function.
 * pfe__tramp_slot passes what the function's ops slot holds (its
 * attachment: the low half of the 8 bytes before the 8-aligned entry,
 * ((key - 5) & ~7) - 8, internal.h); pfe__tramp_lookup passes 0.
 *
 * The ABI lets the callee clobber eax, ecx, edx and the flags; pfe's
 * default clobbers=abi makes callers assume so; nothing else is live at
 * the entry but what is saved here.
 * Every trampoline has unwind information (CFI): a backtrace from a
 * handler goes through the function to its caller (runtime/README.md);
 * the entry trampolines' is a signal frame's: the function resumes at the
 * key itself (tramp-x86_64.S).
 * Debugging: break on pfe__dispatch; `x/8wx *(int *)($esp + 12)` is the
 * start of the pfe_regs.
 */
#include "tramp-layout.h"

	.text

/* ecx: libpfe's GOT, which the xsave parameters are found from. */
.macro GOT_ECX
	call	7f
7:	pop	%ecx
	addl	$_GLOBAL_OFFSET_TABLE_+(.-7b), %ecx
.endm

/* The extended state of the CPU at OFF(%esp) (64-aligned,
 * pfe__xsave_size bytes; its first 512 bytes are fxsave's image, the
 * struct's fpu): xsave of the components pfe__xsave_mask names (XCR0)
 * into an area whose header is zeroed first (xsave writes only the mask's
 * bits of it, xrstor faults on any other bit); fxsave where the mask is 0
 * (no xsave: pfe__xsave_init).  Needs GOT_ECX; clobbers eax and edx. */
.macro EXT_SAVE off
	mov	pfe__xsave_mask@GOTOFF(%ecx), %eax
	mov	pfe__xsave_mask@GOTOFF+4(%ecx), %edx
	test	%eax, %eax
	jz	1f
	.irp	o, 512, 516, 520, 524, 528, 532, 536, 540, 544, 548, 552, 556, 560, 564, 568, 572
	movl	$0, \off+\o(%esp)
	.endr
	xsave	\off(%esp)
	jmp	2f
1:	fxsave	\off(%esp)
2:
.endm

.macro EXT_RESTORE off
	mov	pfe__xsave_mask@GOTOFF(%ecx), %eax
	mov	pfe__xsave_mask@GOTOFF+4(%ecx), %edx
	test	%eax, %eax
	jz	1f
	xrstor	\off(%esp)
	jmp	2f
1:	fxrstor	\off(%esp)
2:
.endm

/* The frame: saved %ebp, then ecx as it came; below, the 3 arguments of
 * pfe__dispatch at 0(%esp); struct pfe_regs at 16(%esp) (eax, edx, ecx,
 * sp, then the extended state, 64-aligned: 32(%esp)).  eax and edx are
 * saved in it (the first fields of both structs); ecx is the GOT. */
#define REGS(off) (16 + (off))
.if REGS(PFE_REGS_FPU) != 32 || PFE_RETREGS_FPU != PFE_REGS_FPU || PFE_RETREGS_EAX != PFE_REGS_EAX || PFE_RETREGS_EDX != PFE_REGS_EDX
.error "struct pfe_regs and pfe_retregs are not laid out as the frame has them (tramp-layout.h)"
.endif
.macro FRAME_IN
	push	%ebp
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ebp, 0
	mov	%esp, %ebp
	.cfi_def_cfa_register %ebp
	push	%ecx
	GOT_ECX
	sub	pfe__xsave_size@GOTOFF(%ecx), %esp
	sub	$64, %esp
	and	$-64, %esp
	sub	$32, %esp
	mov	%eax, REGS(PFE_REGS_EAX)(%esp)
	mov	%edx, REGS(PFE_REGS_EDX)(%esp)
.endm

.macro SAVE
	.cfi_startproc
	.cfi_signal_frame
	FRAME_IN
	mov	-4(%ebp), %eax
	mov	%eax, REGS(PFE_REGS_ECX)(%esp)
	lea	8(%ebp), %eax
	mov	%eax, REGS(PFE_REGS_SP)(%esp)
	EXT_SAVE REGS(PFE_REGS_FPU)
	mov	4(%ebp), %eax
	mov	%eax, 4(%esp)
	lea	REGS(0)(%esp), %edx
	mov	%edx, 8(%esp)
.endm

.macro RESTORE
	GOT_ECX
	EXT_RESTORE REGS(PFE_REGS_FPU)
	mov	REGS(PFE_REGS_EAX)(%esp), %eax
	mov	REGS(PFE_REGS_EDX)(%esp), %edx
	mov	REGS(PFE_REGS_ECX)(%esp), %ecx
	mov	%ebp, %esp
	pop	%ebp
	.cfi_def_cfa %esp, 4
	ret
	.cfi_endproc
.endm

	.globl	pfe__tramp_slot
	.hidden	pfe__tramp_slot
	.type	pfe__tramp_slot, @function
pfe__tramp_slot:
	SAVE
	sub	$5, %eax
	and	$-8, %eax
	mov	-8(%eax), %eax
	mov	%eax, 0(%esp)
	call	pfe__dispatch
	RESTORE
	.size	pfe__tramp_slot, .-pfe__tramp_slot

	.globl	pfe__tramp_lookup
	.hidden	pfe__tramp_lookup
	.type	pfe__tramp_lookup, @function
pfe__tramp_lookup:
	SAVE
	movl	$0, 0(%esp)
	call	pfe__dispatch
	RESTORE
	.size	pfe__tramp_lookup, .-pfe__tramp_lookup

/* A function with an exit handler returns here (dispatch.c put this in
 * place of its return address): push a slot for the return address, save
 * the return value (eax, edx, and st(0) within the extended state) as a
 * struct pfe_retregs, empty the x87 stack for the C code (fninit), call
 * pfe__exit(retregs, the stack pointer at entry, the slot), which puts the
 * real return address in the slot; restore them and return through it.
 * So the unwind information is a call's from the real return site (the
 * slot holds 0, the end of the stack, until pfe__exit has written it).
 * An unwinder that meets pfe__tramp_return as a frame's return address
 * looks up the byte before it: the nop, whose return address is
 * undefined, the end of the stack, and whose personality routine lands a
 * forced unwind in pfe__tramp_unwound. */
	.cfi_startproc
	.cfi_personality 0x1b, pfe__personality
	.cfi_undefined %eip
	nop
	.cfi_endproc
	.globl	pfe__tramp_return
	.hidden	pfe__tramp_return
	.type	pfe__tramp_return, @function
pfe__tramp_return:
	.cfi_startproc
	.cfi_undefined %eip
	.cfi_def_cfa_offset 0
	pushl	$0
	.cfi_def_cfa_offset 4
	.cfi_offset %eip, -4
	FRAME_IN
	EXT_SAVE REGS(PFE_RETREGS_FPU)
	fninit
	lea	REGS(0)(%esp), %eax
	mov	%eax, 0(%esp)
	lea	8(%ebp), %eax
	mov	%eax, 4(%esp)
	lea	4(%ebp), %eax
	mov	%eax, 8(%esp)
	call	pfe__exit
	GOT_ECX
	EXT_RESTORE REGS(PFE_RETREGS_FPU)
	mov	REGS(PFE_RETREGS_EAX)(%esp), %eax
	mov	REGS(PFE_RETREGS_EDX)(%esp), %edx
	mov	%ebp, %esp
	pop	%ebp
	.cfi_def_cfa %esp, 4
	ret
	.cfi_endproc
	.size	pfe__tramp_return, .-pfe__tramp_return

/* A forced unwind (thread cancellation) left a frame that returns to
 * pfe__tramp_return (pfe__personality, unwind.c): the stack pointer is its
 * CFA, eax the exception.  Call the exit handlers of the frames left,
 * push the real return address as the frame's call did, and resume the
 * unwind from pfe__tramp_resume, which looks called from there. */
	.globl	pfe__tramp_unwound
	.hidden	pfe__tramp_unwound
	.type	pfe__tramp_unwound, @function
pfe__tramp_unwound:
	.cfi_startproc
	.cfi_undefined %eip
	mov	%esp, %ecx
	push	%eax
	sub	$8, %esp
	push	%ecx
	call	pfe__exit_unwound
	add	$12, %esp
	pop	%ecx
	push	%eax
	jmp	pfe__tramp_resume
	.cfi_endproc
	.size	pfe__tramp_unwound, .-pfe__tramp_unwound

	.type	pfe__tramp_resume, @function
pfe__tramp_resume:
	.cfi_startproc
	sub	$8, %esp
	.cfi_adjust_cfa_offset 8
	push	%ecx
	.cfi_adjust_cfa_offset 4
	call	pfe__unwind_resume
	.cfi_endproc
	.size	pfe__tramp_resume, .-pfe__tramp_resume

/* What EXT_SAVE saves, from CPUID: with OSXSAVE (CPUID.1:ECX[27]), the
 * components XCR0 enables and their size for it (CPUID.(0xd,0):EBX);
 * else fxsave's 512 bytes.  Run first of libpfe's constructors. */
	.type	pfe__xsave_init, @function
pfe__xsave_init:
	.cfi_startproc
	push	%ebx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ebx, 0
	push	%esi
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %esi, 0
	call	7f
7:	.cfi_adjust_cfa_offset 4
	pop	%esi
	.cfi_adjust_cfa_offset -4
	addl	$_GLOBAL_OFFSET_TABLE_+(.-7b), %esi
	mov	$1, %eax
	cpuid
	bt	$27, %ecx
	jnc	1f
	mov	$0xd, %eax
	xor	%ecx, %ecx
	cpuid
	mov	%ebx, pfe__xsave_size@GOTOFF(%esi)
	xor	%ecx, %ecx
	xgetbv
	mov	%edx, pfe__xsave_mask@GOTOFF+4(%esi)
	mov	%eax, pfe__xsave_mask@GOTOFF(%esi)
1:	pop	%esi
	.cfi_adjust_cfa_offset -4
	.cfi_restore %esi
	pop	%ebx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ebx
	ret
	.cfi_endproc
	.size	pfe__xsave_init, .-pfe__xsave_init

	.section	.init_array.00101,"aw"
	.align	4
	.long	pfe__xsave_init

	.data
	.align	8
	.type	pfe__xsave_size, @object
pfe__xsave_size:
	.long	512
	.type	pfe__xsave_mask, @object
pfe__xsave_mask:
	.quad	0

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
