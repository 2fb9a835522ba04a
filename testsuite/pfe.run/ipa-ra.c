/* ipa-ra.c: IPA-RA must not let callers keep values in the registers a
 * run-time patch of an entry may clobber (arch-hooks' scratch set).
 *
 * leaf() is tiny, so with IPA-RA a caller may keep its own values in
 * call-clobbered registers leaf() does not touch.  The test patches leaf's
 * NOP area at run time with an instruction that writes the scratch
 * register (what an ftrace-style call sequence does), then checks that
 * caller() still computes the right value.  Built with entry=8 (-O2). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define N 14

__attribute__((noinline)) static int leaf(int x) { return x + 1; }

__attribute__((noinline)) int caller(const int *v)
{
	int a0 = v[0], a1 = v[1], a2 = v[2], a3 = v[3], a4 = v[4], a5 = v[5],
	    a6 = v[6], a7 = v[7], a8 = v[8], a9 = v[9], a10 = v[10],
	    a11 = v[11], a12 = v[12], a13 = v[13];
	int r = leaf(a0);
	r += leaf(a1);
	r += leaf(a2);
	r += leaf(a3);
	return r + a0 * 1 + a1 * 2 + a2 * 3 + a3 * 4 + a4 * 5 + a5 * 6 +
	       a6 * 7 + a7 * 8 + a8 * 9 + a9 * 10 + a10 * 11 + a11 * 12 +
	       a12 * 13 + a13 * 14;
}

/* An instruction writing the scratch register with a junk value. */
#if defined(__x86_64__)
static const unsigned char clobber[] = { 0x49, 0xc7, 0xc3, 0x0d, 0xf0, 0xad, 0x0b }; /* mov $0x0badf00d,%r11 */
#elif defined(__aarch64__)
static const unsigned char clobber[] = { 0xa9, 0x5b, 0x81, 0xd2 }; /* mov x9, #0xadd */
#elif defined(__riscv)
static const unsigned char clobber[] = { 0x93, 0x02, 0xd0, 0x7a }; /* li t0, 0x7ad */
#else
/* No scratch register at the entry (i386): run.exp does not run this; the
 * differential corpus still compiles it. */
static const unsigned char clobber[] = { 0x90 };
#endif

extern const uintptr_t __start___patchable_function_entries[];
extern const uintptr_t __stop___patchable_function_entries[];

static int patch_leaf(void)
{
	long page = sysconf(_SC_PAGESIZE);
	const unsigned char *entry = (const unsigned char *)leaf;
	unsigned char *area = NULL;

	for (const uintptr_t *r = __start___patchable_function_entries;
	     r < __stop___patchable_function_entries; r++)
		if ((const unsigned char *)*r >= entry &&
		    (const unsigned char *)*r < entry + 8)
			area = (unsigned char *)*r;
	if (!area)
		return fprintf(stderr, "no record for leaf\n"), 1;
	uintptr_t start = (uintptr_t)area & ~(uintptr_t)(page - 1);
	if (mprotect((void *)start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC))
		return perror("mprotect"), 1;
	memcpy(area, clobber, sizeof(clobber));
	__builtin___clear_cache((char *)area, (char *)area + sizeof(clobber));
	return 0;
}

int main(void)
{
	int v[N], want = 0;
	for (int i = 0; i < N; i++) {
		v[i] = 1000 * (i + 1) + 7;
		want += v[i] * (i + 1) + (i < 4 ? v[i] + 1 : 0);
	}
	if (patch_leaf())
		return 2;
	int got = caller(v);
	printf("caller %d want %d\n", got, want);
	return got != want;
}
