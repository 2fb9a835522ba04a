/* garble-fentry-x86_64.S: pfe_garble_fentry, the fentry hook of make
 * check-packages' garble mode (-fplugin-arg-pfe-fentry=pfe_garble_fentry,
 * linked into every program and library by -Wl,garble-fentry.o in CFLAGS
 * and LDFLAGS).
 * Every instrumented function calls it first thing, before its prologue,
 * with its arguments unknown: it overwrites every call-clobbered register
 * that may carry none (GARBLE_REGS 6, 8 of garble-regs-x86_64.h: r10,
 * r11, xmm8-xmm15, rflags), keeping rax (al: a varargs call's vector
 * register count).  r10, the static chain, pfe saves around the call.  A
 * caller that keeps a value in a register IPA-RA saw its callee leave
 * alone loses it here.  Hidden: each library and program has its own;
 * weak: a link may get it twice (CFLAGS and LDFLAGS).
 * Debug: gdb, break pfe_garble_fentry, "info registers" before and after. */
#include "garble-regs-x86_64.h"

	.text
	.weak	pfe_garble_fentry
	.hidden	pfe_garble_fentry
	.type	pfe_garble_fentry, @function
	.p2align 4
pfe_garble_fentry:
	pushq	%rax
	GARBLE_REGS 6, 8
	popq	%rax
	ret
	.size	pfe_garble_fentry, . - pfe_garble_fentry

	.section .note.GNU-stack,"",@progbits
