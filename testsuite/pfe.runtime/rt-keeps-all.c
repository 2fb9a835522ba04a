/* rt-keeps-all.c (x86, riscv64): a function whose callers keep every
 * register across it (x86's no_caller_saved_registers and interrupt,
 * riscv's interrupt) is left alone by libpfe: the plugin's record of it
 * (__pfe_keeps_all) makes it PFE_ELAYOUT, with the reason, so no handler
 * can clobber what its callers keep; an ordinary function beside it is
 * patched.  On x86_64 an asm caller also keeps patterns in rcx, rdx, rsi,
 * rdi, r8-r11 across rt_keeps(14) while pfe_attach and pfe_enable are
 * tried with handlers that clobber them (without the record, the entry
 * trampoline lets the handler clobber r11, the diverted return rcx and
 * r8-r11).  An interrupt handler is never called (it returns with iret,
 * mret or sret).  runtime.exp builds it with x86's -mgeneral-regs-only
 * (GCC refuses SSE and x87 code in such functions).
 * Prints "FAIL: ..." for each failure and "ok" last; exit 1 on a failure.
 * Debugging: PFE_DEBUG=list shows rt_keeps and rt_isr with the reason.
 */
#include <pfe.h>
#include "rt-test.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
struct frame;
__attribute__((no_caller_saved_registers)) NOINLINE int rt_keeps(int x)
{
	return x * 3;
}

__attribute__((interrupt)) NOINLINE void rt_isr(struct frame *f)
{
	(void)f;
}
#define KEEPS_ALL "rt_keeps", "rt_isr"
#else
__attribute__((interrupt)) NOINLINE void rt_isr(void)
{
}
#define KEEPS_ALL "rt_isr"
#endif

NOINLINE int rt_plain(int x)
{
	return x + 1;
}

static int (*volatile p_plain)(int) = rt_plain;

/* What an ordinary function may do to its caller's registers. */
static void clobber(void)
{
#ifdef __x86_64__
	__asm__ volatile("mov $-1, %%rcx\n\tmov $-1, %%rdx\n\tmov $-1, %%rsi\n\tmov $-1, %%rdi\n\t"
			 "mov $-1, %%r8\n\tmov $-1, %%r9\n\tmov $-1, %%r10\n\tmov $-1, %%r11"
			 ::: "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
#endif
}

CLOBBERING_HANDLERS(clobber)

#ifdef __x86_64__
/* rt_keeps(14) from asm with rcx, rdx, rsi, r8-r11 holding patterns (and
 * rdi its argument), as its callers may: their values after the call in
 * OUT (rcx, rdx, rsi, rdi, r8, r9, r10, r11); its value. */
static long call_keeping(uint64_t out[8])
{
	long ret;

	__asm__ volatile(
		"mov	%%rsp, %%rbx\n\t"
		"sub	$128, %%rsp\n\t"		/* past the red zone */
		"and	$-16, %%rsp\n\t"
		"mov	%[out], %%r12\n\t"
		"movabs	$0x1111111111111111, %%rcx\n\t"
		"movabs	$0x2222222222222222, %%rdx\n\t"
		"movabs	$0x3333333333333333, %%rsi\n\t"
		"mov	$14, %%edi\n\t"
		"movabs	$0x8888888888888888, %%r8\n\t"
		"movabs	$0x9999999999999999, %%r9\n\t"
		"movabs	$0xaaaaaaaaaaaaaaaa, %%r10\n\t"
		"movabs	$0xbbbbbbbbbbbbbbbb, %%r11\n\t"
		"call	rt_keeps\n\t"
		"mov	%%rcx, 0(%%r12)\n\t"
		"mov	%%rdx, 8(%%r12)\n\t"
		"mov	%%rsi, 16(%%r12)\n\t"
		"mov	%%rdi, 24(%%r12)\n\t"
		"mov	%%r8, 32(%%r12)\n\t"
		"mov	%%r9, 40(%%r12)\n\t"
		"mov	%%r10, 48(%%r12)\n\t"
		"mov	%%r11, 56(%%r12)\n\t"
		"mov	%%rbx, %%rsp"
		: "=&a"(ret)
		: [out] "r"(out)
		: "rbx", "r12", "rcx", "rdx", "rdi", "rsi", "r8", "r9", "r10", "r11", "memory", "cc");
	return ret;
}
#endif

int main(void)
{
	static const char *const keeps_all[] = { KEEPS_ALL };
	struct pfe_func *plain = pfe_find("rt_plain");
	struct pfe_info info;

	for (size_t i = 0; i < sizeof keeps_all / sizeof *keeps_all; i++) {
		struct pfe_func *f = pfe_find(keeps_all[i]);
		int attach, enable;

		CHECK(f != NULL, "%s not found (%zu functions)", keeps_all[i], pfe_count());
		if (!f)
			continue;
		CHECK(pfe_func_info(f, &info) == 0, "pfe_func_info(%s)", keeps_all[i]);
		CHECK(info.error == PFE_ELAYOUT && info.why && strstr(info.why, "keep every register"),
		      "%s: error %d (%s), want PFE_ELAYOUT: its callers keep every register", keeps_all[i],
		      info.error, info.why ? info.why : "no reason");
		attach = pfe_attach(f, entry_clobbers, exit_clobbers, NULL);
		enable = pfe_enable(f);
		CHECK(attach == PFE_ELAYOUT && enable == PFE_ELAYOUT, "%s: pfe_attach %d, pfe_enable %d, want %d",
		      keeps_all[i], attach, enable, PFE_ELAYOUT);
	}
	CHECK(plain != NULL, "rt_plain not found");
	if (plain) {
		CHECK(pfe_attach(plain, entry_clobbers, exit_clobbers, NULL) == 0 && pfe_enable(plain) == 0,
		      "rt_plain: attach, enable");
		CHECK(p_plain(41) == 42 && entries == 1 && exits == 1, "rt_plain: %lu entries, %lu exits, want 1",
		      entries, exits);
	}
#ifdef __x86_64__
	{
		static const uint64_t want[8] = { 0x1111111111111111u, 0x2222222222222222u, 0x3333333333333333u, 14,
						  0x8888888888888888u, 0x9999999999999999u, 0xaaaaaaaaaaaaaaaau,
						  0xbbbbbbbbbbbbbbbbu };
		static const char *const names[8] = { "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11" };
		uint64_t got[8];
		long ret = call_keeping(got);

		CHECK(ret == 42, "rt_keeps(14) = %ld", ret);
		for (int r = 0; r < 8; r++)
			CHECK(got[r] == want[r], "%s %#llx after rt_keeps, want %#llx", names[r],
			      (unsigned long long)got[r], (unsigned long long)want[r]);
		CHECK(entries == 1 && exits == 1, "%lu entries, %lu exits after rt_keeps: its handlers ran", entries,
		      exits);
	}
#endif
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
