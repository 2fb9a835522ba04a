/* rt-unwind-avx.c (x86, built with -mavx): __m256 arguments and a __m256
 * return value through entry and exit handlers that run AVX code
 * (glibc's memset and strlen of a large buffer, which use AVX2 where the
 * CPU has it, and vzeroupper, which clears every ymm register's upper
 * half): the trampolines must keep the vector arguments at full width.
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
	__asm__ volatile("vzeroupper");
}

TRACED __m256 avx_sum(__m256 a, __m256 b, __m256 c)
{
	return a + b * c;
}

int main(void)
{
	struct watch *w;
	float lanes[8];
	__m256 r;

	if (!__builtin_cpu_supports("avx")) {
		printf("unsupported: no AVX on this CPU\n");
		return 77;
	}
	w = watch("avx_sum", (void *)avx_sum);
	trace_all();
	in_entry = use_avx;
	in_exit = use_avx;
	r = avx_sum(_mm256_set_ps(8, 7, 6, 5, 4, 3, 2, 1), _mm256_set1_ps(2), _mm256_set1_ps(10));
	in_entry = in_exit = NULL;
	_mm256_storeu_ps(lanes, r);
	for (int i = 0; i < 8; i++)
		CHECK(lanes[i] == i + 1 + 20, "lane %d: %g, want %d", i, lanes[i], i + 21);
	CHECK_COUNTS(w, 1, 1, 0);
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
