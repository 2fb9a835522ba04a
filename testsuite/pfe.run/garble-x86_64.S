/* garble-x86_64.S: the trampolines clobber.c patches into leaf entries
 * (call rel32 in the post-entry NOPs).
 *
 * garble_abi_I_F overwrites every register the SysV x86_64 ABI lets a call
 * clobber, except the argument registers of a leaf that takes I integer
 * and F floating-point arguments (GARBLE_REGS, garble-regs-x86_64.h).
 * garble_scratch overwrites only the scratch set of clobbers=scratch: r11
 * and rflags.  Both count their calls in tramp_calls and stop a loop whose
 * counter a caller lost (garble_runaway in clobber.c).
 *
 * Debug: gdb ./clobber.exe, break garble_abi_1_0, "info registers" before
 * and after. */
#include "garble-regs-x86_64.h"

	.text

.macro	COUNT_CALL
	incq	tramp_calls(%rip)
	cmpq	$1000, tramp_calls(%rip)
	ja	runaway
.endm

runaway:
	andq	$-16, %rsp
	call	garble_runaway

.macro	GARBLE name, nint, nfp
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
	COUNT_CALL
	GARBLE_REGS \nint, \nfp
	ret
	.size	\name, . - \name
.endm

	GARBLE	garble_abi_0_0, 0, 0
	GARBLE	garble_abi_1_0, 1, 0
	GARBLE	garble_abi_2_0, 2, 0
	GARBLE	garble_abi_0_1, 0, 1

	.globl	garble_scratch
	.type	garble_scratch, @function
	.p2align 4
garble_scratch:
	COUNT_CALL
	movabsq	$0x5b5b5b5b7ead00a2, %r11
	cmpq	%rsp, %r11
	ret
	.size	garble_scratch, . - garble_scratch

	.section .note.GNU-stack,"",@progbits
