/* scan-hook.c: the entry hook the fentry tests of scan.exp link with,
 * compiled without the plugin: __fentry__ counts its calls in
 * scan_fentry_calls and returns as each target's entry call expects
 * (x86: ret; aarch64: to x30, with the caller's return address back from
 * x9 into x30; riscv64: to t0), touching only what the call may clobber.
 * scan_ops is what ops-slot=scan_ops puts in the slots. */
long scan_fentry_calls;
const long scan_ops = 1;

#if defined(__x86_64__)
__asm__(".text\n.globl __fentry__\n.type __fentry__, @function\n__fentry__:\n"
	"\tincq scan_fentry_calls(%rip)\n\tret\n.size __fentry__, .-__fentry__\n");
#elif defined(__i386__)
__asm__(".text\n.globl __fentry__\n.type __fentry__, @function\n__fentry__:\n"
	"\tincl scan_fentry_calls\n\tret\n.size __fentry__, .-__fentry__\n");
#elif defined(__aarch64__)
__asm__(".text\n.globl __fentry__\n.type __fentry__, %function\n__fentry__:\n"
	"\tadrp x16, scan_fentry_calls\n\tldr x17, [x16, :lo12:scan_fentry_calls]\n"
	"\tadd x17, x17, 1\n\tstr x17, [x16, :lo12:scan_fentry_calls]\n"
	"\tmov x16, x30\n\tmov x30, x9\n\tret x16\n.size __fentry__, .-__fentry__\n");
#elif defined(__riscv)
__asm__(".text\n.globl __fentry__\n.type __fentry__, @function\n__fentry__:\n"
	"\taddi sp, sp, -16\n\tsd a0, 0(sp)\n\tlla t1, scan_fentry_calls\n"
	"\tld a0, 0(t1)\n\taddi a0, a0, 1\n\tsd a0, 0(t1)\n\tld a0, 0(sp)\n"
	"\taddi sp, sp, 16\n\tjr t0\n.size __fentry__, .-__fentry__\n");
#endif
