/* tramp-i386.S: libpfe's trampolines for i386.  A patched entry calls one
 * (e8 rel32: it reaches all of the address space, no veneer), so on entry
 * (%esp) is the key (the patched call's return address, in the function)
 * and 4(%esp) the function's return address, its arguments above it
 * (cdecl).  They save eax, edx and ecx (regparm arguments, the static
 * chain) and, by fxsave, the x87/MMX/SSE state (vector arguments in
 * xmm0-2; a handler may use any of it) as a struct pfe_regs
 * (runtime/pfe.h), call pfe__dispatch(slot, key, regs), restore them (a
 * handler may change them) and return into the function.
 * pfe__tramp_slot passes what the function's ops slot holds (its
 * attachment: the low half of the 8 bytes before the 8-aligned entry,
 * ((key - 5) & ~7) - 8, internal.h); pfe__tramp_lookup passes 0.
 *
 * The ABI lets the callee clobber eax, ecx, edx and the flags; pfe's
 * default clobbers=abi makes callers assume so; nothing else is live at
 * the entry but what is saved here.
 * Debugging: break on pfe__dispatch; `x/8wx *(int *)($esp + 12)` is the
 * start of the pfe_regs.
 */
	.text

/* The frame: saved %ebp; the 3 arguments of pfe__dispatch at 0(%esp);
 * struct pfe_regs at 16(%esp) (eax, edx, ecx, sp, then the fxsave area,
 * which must be 16-aligned: 32(%esp)). */
#define FRAME (16 + 16 + 512)

/* The frame, eax and edx in it (the first fields of both structs). */
.macro FRAME_IN
	push	%ebp
	mov	%esp, %ebp
	sub	$FRAME, %esp
	and	$-16, %esp
	mov	%eax, 16(%esp)
	mov	%edx, 20(%esp)
.endm

.macro SAVE
	FRAME_IN
	mov	%ecx, 24(%esp)
	lea	8(%ebp), %eax
	mov	%eax, 28(%esp)
	fxsave	32(%esp)
	mov	4(%ebp), %eax
	mov	%eax, 4(%esp)
	lea	16(%esp), %edx
	mov	%edx, 8(%esp)
.endm

.macro RESTORE
	fxrstor	32(%esp)
	mov	16(%esp), %eax
	mov	20(%esp), %edx
	mov	24(%esp), %ecx
	mov	%ebp, %esp
	pop	%ebp
	ret
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
 * place of its return address): save the return value (eax, edx, and
 * st(0) within the fxsave area) as a struct pfe_retregs, empty the x87
 * stack for the C code (fninit), call pfe__exit, which gives the real
 * return address, restore them and go there (through ecx, which holds no
 * return value). */
	.globl	pfe__tramp_return
	.hidden	pfe__tramp_return
	.type	pfe__tramp_return, @function
pfe__tramp_return:
	FRAME_IN
	fxsave	32(%esp)
	fninit
	lea	16(%esp), %eax
	mov	%eax, 0(%esp)
	call	pfe__exit
	mov	%eax, %ecx
	fxrstor	32(%esp)
	mov	16(%esp), %eax
	mov	20(%esp), %edx
	mov	%ebp, %esp
	pop	%ebp
	jmp	*%ecx
	.size	pfe__tramp_return, .-pfe__tramp_return

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
