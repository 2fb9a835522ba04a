/* tramp-x86_64.S: libpfe's trampolines for x86_64.  A patched entry calls
 * one (e8 rel32, or through a veneer), so on entry (%rsp) is the key (the
 * patched call's return address, in the function) and 8(%rsp) the
 * function's return address.  They save the argument registers as a
 * struct pfe_regs (runtime/pfe.h) and the whole extended state (x87, SSE,
 * AVX, AVX-512 and what else XCR0 enables: xsave, or fxsave where the CPU
 * has no xsave) beside it, call pfe__dispatch(slot, key, regs), restore
 * them (a handler may change the pfe_regs ones: they are reloaded after
 * the xrstor) and return into the function.  pfe__tramp_slot passes what
 * the function's ops slot holds (its attachment), the 8 bytes before the
 * 8-aligned entry, ((key - 5) & ~7) - 8 (internal.h); pfe__tramp_lookup
 * passes 0.
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
 * `p pfe__xsave_size` the extended state's size (512: fxsave).
 */
	.text

/* The extended state of the CPU at OFF(%rsp) (64-aligned, pfe__xsave_size
 * bytes): xsave of the components pfe__xsave_mask names (XCR0) into an
 * area whose header is zeroed first (xsave writes only the mask's bits of
 * it, xrstor faults on any other bit); fxsave where the mask is 0 (no
 * xsave: pfe__xsave_init).  Clobbers eax and edx. */
.macro EXT_SAVE off
	mov	pfe__xsave_mask(%rip), %eax
	mov	pfe__xsave_mask+4(%rip), %edx
	test	%eax, %eax
	jz	1f
	movq	$0, \off+512(%rsp)
	movq	$0, \off+520(%rsp)
	movq	$0, \off+528(%rsp)
	movq	$0, \off+536(%rsp)
	movq	$0, \off+544(%rsp)
	movq	$0, \off+552(%rsp)
	movq	$0, \off+560(%rsp)
	movq	$0, \off+568(%rsp)
	xsave	\off(%rsp)
	jmp	2f
1:	fxsave	\off(%rsp)
2:
.endm

.macro EXT_RESTORE off
	mov	pfe__xsave_mask(%rip), %eax
	mov	pfe__xsave_mask+4(%rip), %edx
	test	%eax, %eax
	jz	1f
	xrstor	\off(%rsp)
	jmp	2f
1:	fxrstor	\off(%rsp)
2:
.endm

/* The frame: saved %rbp; below it, 64-aligned, struct pfe_regs (208
 * bytes) at 0(%rsp) and the extended state at 256(%rsp). */
.macro SAVE
	.cfi_startproc
	.cfi_signal_frame
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	sub	$256, %rsp
	sub	pfe__xsave_size(%rip), %rsp
	and	$-64, %rsp
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
	EXT_SAVE 256
	mov	8(%rbp), %rsi
	mov	%rsp, %rdx
.endm

.macro RESTORE
	EXT_RESTORE 256
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
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
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
 * struct pfe_retregs and the extended state (st(0) holds a long double
 * return value), empty the x87 stack for the C code (fninit), and call
 * pfe__exit(retregs, the stack pointer at entry, the return address slot
 * pushed first), which puts the real return address in that slot; restore
 * them and return through it.  So the unwind information is a call's from
 * the real return site (the slot holds 0, the end of the stack, until
 * pfe__exit has written it).  An unwinder that meets pfe__tramp_return as
 * a frame's return address looks up the byte before it: the nop, whose
 * return address is undefined, the end of the stack. */
	.cfi_startproc
	.cfi_undefined %rip
	nop
	.globl	pfe__tramp_return
	.hidden	pfe__tramp_return
	.type	pfe__tramp_return, @function
pfe__tramp_return:
	.cfi_def_cfa_offset 0
	pushq	$0
	.cfi_def_cfa_offset 8
	.cfi_offset %rip, -8
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	sub	$64, %rsp
	sub	pfe__xsave_size(%rip), %rsp
	and	$-64, %rsp
	mov	%rax, 0(%rsp)
	mov	%rdx, 8(%rsp)
	movaps	%xmm0, 16(%rsp)
	movaps	%xmm1, 32(%rsp)
	EXT_SAVE 64
	fninit
	mov	%rsp, %rdi
	lea	16(%rbp), %rsi
	lea	8(%rbp), %rdx
	call	pfe__exit
	EXT_RESTORE 64
	mov	0(%rsp), %rax
	mov	8(%rsp), %rdx
	movaps	16(%rsp), %xmm0
	movaps	32(%rsp), %xmm1
	mov	%rbp, %rsp
	pop	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	pfe__tramp_return, .-pfe__tramp_return

/* What EXT_SAVE saves, from CPUID: with OSXSAVE (CPUID.1:ECX[27]), the
 * components XCR0 enables and their size for it (CPUID.(0xd,0):EBX);
 * else fxsave's 512 bytes.  Run first of libpfe's constructors. */
	.type	pfe__xsave_init, @function
pfe__xsave_init:
	.cfi_startproc
	push	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	mov	$1, %eax
	cpuid
	bt	$27, %ecx
	jnc	1f
	mov	$0xd, %eax
	xor	%ecx, %ecx
	cpuid
	mov	%ebx, %ebx
	mov	%rbx, pfe__xsave_size(%rip)
	xor	%ecx, %ecx
	xgetbv
	mov	%edx, pfe__xsave_mask+4(%rip)
	mov	%eax, pfe__xsave_mask(%rip)
1:	pop	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	pfe__xsave_init, .-pfe__xsave_init

	.section	.init_array.00101,"aw"
	.align	8
	.quad	pfe__xsave_init

	.data
	.align	8
	.type	pfe__xsave_size, @object
pfe__xsave_size:
	.quad	512
	.type	pfe__xsave_mask, @object
pfe__xsave_mask:
	.quad	0

	/* The end of libpfe's code: libpfe.a links it into one object whose
	 * code fills whole pages, so that no page holds both libpfe's code
	 * and code it patches (Makefile, runtime/README.md). */
	.text
	.p2align	12

	.section	.note.GNU-stack,"",@progbits
