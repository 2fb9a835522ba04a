/* tramp-x86_64.S: libpfe's trampolines for x86_64.  A patched entry calls
 * one (e8 rel32, or through a veneer), so on entry (%rsp) is the key (the
 * patched call's return address, in the function) and 8(%rsp) the
 * function's return address.  They save the argument registers as a
 * struct pfe_regs (runtime/pfe.h), call pfe__dispatch(slot, key, regs),
 * restore the registers (a handler may change them) and return into the
 * function.  pfe__tramp_slot passes what
 * the function's ops slot holds (its attachment), the 8 bytes before the
 * 8-aligned entry, ((key - 5) & ~7) - 8 (internal.h); pfe__tramp_lookup
 * passes 0.
 *
 * The ABI lets the callee clobber r11 and the flags at its entry (pfe's
 * default clobbers=abi makes callers assume every call-clobbered register
 * clobbered); nothing else is live there but what is saved here.
 * Debugging: break on pfe__dispatch; `x/26gx $rdx` is the pfe_regs.
 */
	.text

/* The frame: saved %rbp, then struct pfe_regs (208 bytes), 16-aligned. */
.macro SAVE
	push	%rbp
	mov	%rsp, %rbp
	sub	$208, %rsp
	and	$-16, %rsp
	mov	%rdi, 0(%rsp)
	mov	%rsi, 8(%rsp)
	mov	%rdx, 16(%rsp)
	mov	%rcx, 24(%rsp)
	mov	%r8, 32(%rsp)
	mov	%r9, 40(%rsp)
	mov	%rax, 48(%rsp)
	mov	%r10, 56(%rsp)
	lea	16(%rbp), %r11
	mov	%r11, 64(%rsp)
	movaps	%xmm0, 80(%rsp)
	movaps	%xmm1, 96(%rsp)
	movaps	%xmm2, 112(%rsp)
	movaps	%xmm3, 128(%rsp)
	movaps	%xmm4, 144(%rsp)
	movaps	%xmm5, 160(%rsp)
	movaps	%xmm6, 176(%rsp)
	movaps	%xmm7, 192(%rsp)
	mov	8(%rbp), %rsi
	mov	%rsp, %rdx
.endm

.macro RESTORE
	mov	0(%rsp), %rdi
	mov	8(%rsp), %rsi
	mov	16(%rsp), %rdx
	mov	24(%rsp), %rcx
	mov	32(%rsp), %r8
	mov	40(%rsp), %r9
	mov	48(%rsp), %rax
	mov	56(%rsp), %r10
	movaps	80(%rsp), %xmm0
	movaps	96(%rsp), %xmm1
	movaps	112(%rsp), %xmm2
	movaps	128(%rsp), %xmm3
	movaps	144(%rsp), %xmm4
	movaps	160(%rsp), %xmm5
	movaps	176(%rsp), %xmm6
	movaps	192(%rsp), %xmm7
	mov	%rbp, %rsp
	pop	%rbp
	ret
.endm

	.globl	pfe__tramp_slot
	.hidden	pfe__tramp_slot
	.type	pfe__tramp_slot, @function
pfe__tramp_slot:
	SAVE
	lea	-5(%rsi), %rdi
	and	$-8, %rdi
	mov	-8(%rdi), %rdi
	call	pfe__dispatch
	RESTORE
	.size	pfe__tramp_slot, .-pfe__tramp_slot

	.globl	pfe__tramp_lookup
	.hidden	pfe__tramp_lookup
	.type	pfe__tramp_lookup, @function
pfe__tramp_lookup:
	SAVE
	xor	%edi, %edi
	call	pfe__dispatch
	RESTORE
	.size	pfe__tramp_lookup, .-pfe__tramp_lookup

/* A function with an exit handler returns here (dispatch.c put this in
 * place of its return address): save the return value registers as a
 * struct pfe_retregs, call pfe__exit, which gives the real return
 * address, restore them and go there. */
	.globl	pfe__tramp_return
	.hidden	pfe__tramp_return
	.type	pfe__tramp_return, @function
pfe__tramp_return:
	push	%rbp
	mov	%rsp, %rbp
	sub	$48, %rsp
	and	$-16, %rsp
	mov	%rax, 0(%rsp)
	mov	%rdx, 8(%rsp)
	movaps	%xmm0, 16(%rsp)
	movaps	%xmm1, 32(%rsp)
	mov	%rsp, %rdi
	call	pfe__exit
	mov	%rax, %r11
	mov	0(%rsp), %rax
	mov	8(%rsp), %rdx
	movaps	16(%rsp), %xmm0
	movaps	32(%rsp), %xmm1
	mov	%rbp, %rsp
	pop	%rbp
	jmp	*%r11
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
