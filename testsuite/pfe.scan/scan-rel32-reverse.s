/* scan-rel32-reverse.s: two functions, each with one NOP before its label
 * and one after (entry=2,1, as the plugin pads them), and their rel32
 * entry records (.4byte first NOP - .) in reverse order, in a plain "a"
 * section that the linker does not order by function as it does the
 * plugin's "ao" ones: `pfe-scan sort --record=rel32` must reorder them
 * (testsuite/pfe.scan/scan.exp).  The same text assembles for x86_64,
 * i386, aarch64 and riscv64. */
	.text
	.p2align	4
.Lrev_early:
	nop
	.globl	rev_early
	.type	rev_early, %function
rev_early:
	nop
	ret
	.size	rev_early, .-rev_early
.Lrev_late:
	nop
	.globl	rev_late
	.type	rev_late, %function
rev_late:
	nop
	ret
	.size	rev_late, .-rev_late

	.section	__patchable_function_entries_rel32,"a",%progbits
	.p2align	2
	.4byte	.Lrev_late - .
	.4byte	.Lrev_early - .

	.section	.note.GNU-stack,"",%progbits
