/* garble-fentry-aarch64.S: pfe_garble_fentry, the fentry hook of make
 * check-packages' garble mode (-fplugin-arg-pfe-fentry=pfe_garble_fentry,
 * linked into every program and library by -Wl,garble-fentry.o in CFLAGS
 * and LDFLAGS),
 * reached by "mov x9, x30; bl pfe_garble_fentry" first thing in every
 * instrumented function, with its arguments unknown: x30 is the return
 * into the function, x9 the function's own return address, which goes
 * back to x30.  It overwrites every call-clobbered register that may
 * carry none (GARBLE_REGS 8, 8 of garble-regs-aarch64.h: x10-x17,
 * v16-v31, the upper halves of v8-v15, NZCV), keeping x8 (the indirect
 * result register) and x18 (the static chain).  A caller that keeps a
 * value in a register IPA-RA saw its callee leave alone loses it here.
 * Hidden: each library and program has its own; weak: a link may get it
 * twice (CFLAGS and LDFLAGS).
 * Debug: qemu-aarch64 -g 1234 PROGRAM, gdb-multiarch, break
 * pfe_garble_fentry. */
#include "garble-regs-aarch64.h"

	.text
	.weak	pfe_garble_fentry
	.hidden	pfe_garble_fentry
	.type	pfe_garble_fentry, %function
	.p2align 2
pfe_garble_fentry:
	mov	x16, x30
	mov	x30, x9
	mov	x9, x16
	stp	x8, x18, [sp, #-16]!
	GARBLE_REGS 8, 8
	ldp	x8, x18, [sp], #16
	ret	x9
	.size	pfe_garble_fentry, . - pfe_garble_fentry

	.section .note.GNU-stack,"",@progbits
