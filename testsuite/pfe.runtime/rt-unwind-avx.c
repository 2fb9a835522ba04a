/* rt-unwind-avx.c (x86, built with -mavx): __m256 arguments and a __m256
 * return value through entry and exit handlers that run AVX code
 * (glibc's memset and strlen of a large buffer, which use AVX2 where the
 * CPU has it, and vzeroupper, which clears every ymm register's upper
 * half): the trampolines must keep the vector arguments at full width.
 * An entry handler that changes the first argument's lowest lane in its
 * struct pfe_regs (as pfe.h allows) changes what the function gets, the
 * upper lanes kept.  The handlers also set ymm0-7 to all ones: a double
 * argument and a double return value (xmm alone: what the plugin's
 * vector-args and exits kinds let a trampoline keep) must survive them.
 * Prints "unsupported: ..." and exits 77 on a CPU without AVX; "ok" when
 * every check holds.  Debug: it prints the lanes it got.
 */
#include "rt-unwind.h"

#include <immintrin.h>
#include <string.h>

static char big[1 << 16];

static void use_avx(struct pfe_call *c, struct watch *w)
{
	(void)c, (void)w;
	memset(big, 'x', sizeof big - 1);
	CHECK(strlen(big) == sizeof big - 1, "strlen in a handler");
	__asm__ volatile("vpcmpeqd %%ymm0, %%ymm0, %%ymm0\n\tvpcmpeqd %%ymm1, %%ymm1, %%ymm1\n\t"
			 "vpcmpeqd %%ymm2, %%ymm2, %%ymm2\n\tvpcmpeqd %%ymm3, %%ymm3, %%ymm3\n\t"
			 "vpcmpeqd %%ymm4, %%ymm4, %%ymm4\n\tvpcmpeqd %%ymm5, %%ymm5, %%ymm5\n\t"
			 "vpcmpeqd %%ymm6, %%ymm6, %%ymm6\n\tvpcmpeqd %%ymm7, %%ymm7, %%ymm7\n\tvzeroupper"
			 ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7");
}

/* The first vector argument's lowest lane, in the saved registers:
 * x86_64's pfe_regs.xmm[0]; i386's fxsave image, xmm0 at byte 160. */
static void change_first_lane(struct pfe_call *c, struct watch *w)
{
	float lane = 100;

#ifdef __x86_64__
	memcpy(c->regs->xmm[0], &lane, sizeof lane);
#else
	memcpy(c->regs->fpu + 160, &lane, sizeof lane);
#endif
	use_avx(c, w);
}

static void check_sum(__m256 r, float first)
{
	float lanes[8];

	_mm256_storeu_ps(lanes, r);
	for (int i = 0; i < 8; i++) {
		float want = i == 0 ? first : i + 21;

		CHECK(lanes[i] == want, "lane %d: %g, want %g", i, lanes[i], want);
	}
}

TRACED __m256 avx_sum(__m256 a, __m256 b, __m256 c)
{
	return a + b * c;
}

TRACED double dbl_sum(double a, double b)
{
	return a + b;
}

static double (*volatile p_dbl_sum)(double, double) = dbl_sum;

int main(void)
{
	struct watch *w, *wd;
	__m256 r;

	if (!__builtin_cpu_supports("avx")) {
		printf("unsupported: no AVX on this CPU\n");
		return 77;
	}
	w = watch("avx_sum", (void *)avx_sum);
	wd = watch("dbl_sum", (void *)dbl_sum);
	trace_all();
	in_entry = use_avx;
	in_exit = use_avx;
	r = avx_sum(_mm256_set_ps(8, 7, 6, 5, 4, 3, 2, 1), _mm256_set1_ps(2), _mm256_set1_ps(10));
	check_sum(r, 21);
	for (int i = 0; i < 3; i++) {
		double d = p_dbl_sum(1.5, i);

		CHECK(d == 1.5 + i, "dbl_sum(1.5, %d) = %g", i, d);
	}
	in_entry = change_first_lane;
	r = avx_sum(_mm256_set_ps(8, 7, 6, 5, 4, 3, 2, 1), _mm256_set1_ps(2), _mm256_set1_ps(10));
	in_entry = in_exit = NULL;
	check_sum(r, 120);
	CHECK_COUNTS(w, 2, 2, 0);
	CHECK_COUNTS(wd, 3, 3, 0);
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
