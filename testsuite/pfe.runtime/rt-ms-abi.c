/* rt-ms-abi.c (x86_64): an ms_abi function (Wine's unix side, EFI code)
 * traced on entry and exit by handlers that clobber what the SysV ABI
 * lets them (rdi, rsi, xmm6-15), which the MS ABI has the callee keep:
 * its caller still finds them as it left them.  The caller is asm (a
 * compiler keeps a value in those registers across such a call only when
 * it happens to): it fills rdi, rsi and xmm6-15 with patterns, calls
 * rt_ms_add(20, 22) and stores them back.  runtime.exp builds it through
 * the lookup and the ops slot, with exit sleds (-DPFE_WANT_SLEDS: the
 * plugin gives an ms_abi function's returns the kind whose trampoline
 * keeps them) and without (its return address diverted to
 * pfe__tramp_return); also with vector-args, which must leave it the full
 * entry trampoline.  Unpatched first: the harness itself keeps them.
 * Prints "FAIL: ..." for each failure and "ok" last; exit 1 on a failure.
 * Debugging: break on rt_ms_add, `finish`, `p $xmm9` and `p/x $rsi`.
 */
#include <pfe.h>
#include "rt-test.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

NOINLINE __attribute__((ms_abi)) long rt_ms_add(long a, long b)
{
	return a + b;
}

typedef long __attribute__((ms_abi)) (*ms_fn)(long, long);
static volatile ms_fn p_ms_add = rt_ms_add;

/* What the MS ABI's callee keeps, as the caller found it after the call. */
struct kept {
	uint64_t rdi, rsi;
	uint8_t xmm[10][16];		/* xmm6-15: byte r of each register r */
};


/* Call FN(20, 22) from asm with rdi, rsi and xmm6-15 set (xmm r: every
 * byte r), into OUT as they are after it; FN's value. */
static long call_keeping(ms_fn fn, struct kept *out)
{
	long ret;

	__asm__ volatile(
		"mov	%%rsp, %%rbx\n\t"
		"sub	$128, %%rsp\n\t"		/* past the red zone */
		"and	$-16, %%rsp\n\t"
		"sub	$32, %%rsp\n\t"			/* the MS ABI's shadow space */
		"movabs	$0x1111111111111111, %%rdi\n\t"
		"movabs	$0x2222222222222222, %%rsi\n\t"
		".irp	r, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n\t"
		"movabs	$0x0101010101010101 * \\r, %%rax\n\t"
		"movq	%%rax, %%xmm\\r\n\t"
		"punpcklqdq %%xmm\\r, %%xmm\\r\n\t"
		".endr\n\t"
		"mov	$20, %%ecx\n\t"
		"mov	$22, %%edx\n\t"
		"call	*%[fn]\n\t"
		"mov	%%rbx, %%rsp\n\t"
		"mov	%%rdi, 0(%[out])\n\t"
		"mov	%%rsi, 8(%[out])\n\t"
		".irp	r, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n\t"
		"movdqu	%%xmm\\r, 16 + 16 * (\\r - 6)(%[out])\n\t"
		".endr"
		: "=&a"(ret)
		: [fn] "r"(fn), [out] "r"(out)
		: "rbx", "rcx", "rdx", "rdi", "rsi", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3",
		  "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
		  "xmm15", "memory", "cc");
	return ret;
}

/* What a SysV function may do: clobber rdi, rsi and xmm6-15. */
static void clobber(void)
{
	__asm__ volatile("mov $-1, %%rdi\n\tmov $-1, %%rsi\n\t"
			 ".irp r, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n\tpcmpeqd %%xmm\\r, %%xmm\\r\n\t.endr"
			 ::: "rdi", "rsi", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
			 "xmm14", "xmm15");
}

CLOBBERING_HANDLERS(clobber)

/* One call; its registers checked under STATE. */
static void check_call(const char *state)
{
	struct kept k;
	long ret;

	memset(&k, 0, sizeof k);
	ret = call_keeping(p_ms_add, &k);
	CHECK(ret == 42, "%s: rt_ms_add(20, 22) = %ld", state, ret);
	CHECK(k.rdi == 0x1111111111111111u, "%s: rdi %#lx after the call", state, (unsigned long)k.rdi);
	CHECK(k.rsi == 0x2222222222222222u, "%s: rsi %#lx after the call", state, (unsigned long)k.rsi);
	for (int r = 6; r <= 15; r++)
		for (int b = 0; b < 16; b++)
			if (k.xmm[r - 6][b] != r) {
				CHECK(0, "%s: xmm%d byte %d is %#x after the call", state, r, b, k.xmm[r - 6][b]);
				break;
			}
}

int main(void)
{
	struct pfe_func *f;
	struct pfe_info info;

	check_call("not patched");
	f = pfe_find("rt_ms_add");
	CHECK(f != NULL, "rt_ms_add not found (%zu functions)", pfe_count());
	if (!f)
		return 1;
	CHECK(pfe_attach(f, entry_clobbers, exit_clobbers, NULL) == 0 && pfe_enable(f) == 0, "attach, enable");
	CHECK(pfe_func_info(f, &info) == 0, "pfe_func_info");
	CHECK(info.vector_bytes_saved == -1, "vector_bytes_saved %d: an ms_abi function's are all saved",
	      info.vector_bytes_saved);
#ifdef PFE_WANT_SLEDS
	CHECK(info.exit_sleds > 0, "no exit sleds in use");
#endif
	for (int i = 0; i < 10; i++)
		check_call("patched");
	CHECK(entries == 10 && exits == 10, "%lu entries, %lu exits, want 10 each", entries, exits);
	CHECK(pfe_detach_all() == 0, "detach all");
	check_call("detached");
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
