/* scan-rel32-bad.s: a rel32 entry record section holding an address
 * (.dc.a, the pointer-sized data directive) where a 32-bit distance
 * belongs: in an object its relocation is the absolute one, in a shared
 * object a dynamic relocation; pfe-scan --record=rel32 must reject both
 * (testsuite/pfe.scan/scan.exp, which also makes a riscv64 variant whose
 * SUB32 names .Lbad_body, not the record).  The same text assembles for
 * x86_64, i386, aarch64 and riscv64. */
	.text
	.globl	bad_fn
	.type	bad_fn, %function
bad_fn:
	nop
.Lbad_body:
	ret
	.size	bad_fn, .-bad_fn

	.section	__patchable_function_entries_rel32,"aw",%progbits
	.p2align	2
	.dc.a	bad_fn

	.section	.note.GNU-stack,"",%progbits
