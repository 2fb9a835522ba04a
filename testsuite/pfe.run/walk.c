/* walk.c: a program that checks its own patchable-entry records at run
 * time.  Built by run.exp twice, with pfe (-DPFE_PRE=N -DPFE_POST=M-N) and
 * without; stdout must be the same, and the pfe build must find, for each
 * function below, exactly one record pointing PFE_PRE NOPs before it, and
 * PFE_POST NOPs after its landing pad; no record's NOPs may be followed by
 * a landing pad (NOPs before ENDBR/BTI break IBT/BTI); with -DPFE_LANDING
 * (built with -fcf-protection or -mbranch-protection) the functions below,
 * whose addresses are taken, must start with one.  Problems go to stderr,
 * exit 1.  Built with -fopenmp, it also runs a parallel loop (sum_omp). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int calls;

__attribute__((noinline)) static int twice(int x) { calls++; return 2 * x; }
__attribute__((noinline)) int add3(int x) { calls++; return x + 3; }
__attribute__((noinline)) int chain(int x) { return twice(add3(x)); }
__attribute__((noinline)) int sum(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += chain(i);
	return s;
}

#ifdef _OPENMP
/* -fopenmp (distro.exp): GCC outlines the loop's body
 * (sum_omp._omp_fn.0), which libgomp's threads run at once; it is padded
 * and recorded as any function (check_every_record checks its record). */
__attribute__((noinline)) static int square(int x) { return x * x; }
__attribute__((noinline)) int sum_omp(int n)
{
	int s = 0;
#pragma omp parallel for num_threads(4) reduction(+:s)
	for (int i = 0; i < n; i++)
		s += square(i);
	return s;
}
#endif

#ifdef PFE_PRE
#include "entry-bytes.h"

extern const uintptr_t __start___patchable_function_entries[];
extern const uintptr_t __stop___patchable_function_entries[];

/* Count NOP instructions from P; return the bytes they take in *bytes. */
static unsigned int count_nops(const unsigned char *p, size_t *bytes)
{
	unsigned int n = 0;
	size_t size, total = 0;
	while ((size = nop_at(p + total)) != 0 && n < 1000) {
		total += size;
		n++;
	}
	*bytes = total;
	return n;
}

/* True if [FROM, TO) is NOPs only; their number in *n. */
static int nops_between(const unsigned char *from, const unsigned char *to,
			unsigned int *n)
{
	size_t size;
	for (*n = 0; from < to; from += size, ++*n)
		if ((size = nop_at(from)) == 0)
			return 0;
	return from == to;
}

static int check_function(const char *name, const void *fn)
{
	const unsigned char *entry = fn;
	size_t pad = landing_pad_at(entry), bytes;
	int found = 0, bad = 0;

	for (const uintptr_t *r = __start___patchable_function_entries;
	     r < __stop___patchable_function_entries; r++) {
		const unsigned char *area = (const unsigned char *)*r;
		unsigned int pre;
		if (PFE_PRE == 0 && area == entry + pad) {
			found++;
		} else if (area < entry && entry - area <= 64 &&
			   nops_between(area, entry, &pre)) {
			found++;
			if (pre != PFE_PRE) {
				fprintf(stderr, "%s: %u NOPs before the "
					"entry, want %d\n", name, pre, PFE_PRE);
				bad = 1;
			}
		}
	}
	if (found != 1) {
		fprintf(stderr, "%s: %d records, want 1\n", name, found);
		bad = 1;
	}
#ifdef PFE_LANDING
	if (!pad) {
		fprintf(stderr, "%s: no landing pad at the entry\n", name);
		bad = 1;
	}
#endif
	unsigned int post = count_nops(entry + pad, &bytes);
	if (post != PFE_POST) {
		fprintf(stderr, "%s: %u NOPs after the entry, want %d\n", name,
			post, PFE_POST);
		bad = 1;
	}
	return bad;
}

/* Every record, named function or not: PFE_PRE NOPs, the entry (maybe a
 * landing pad), PFE_POST NOPs; the record points at the first NOP. */
static int check_every_record(void)
{
	int bad = 0;

	for (const uintptr_t *r = __start___patchable_function_entries;
	     r < __stop___patchable_function_entries; r++) {
		const unsigned char *area = (const unsigned char *)*r;
		size_t bytes, post_bytes = 0, pad;
		unsigned int n = count_nops(area, &bytes), post = 0;
		const unsigned char *end = area + bytes;
		int ok;

		if (PFE_PRE == 0) {
			ok = n == PFE_POST;
		} else if (n == PFE_PRE && (pad = landing_pad_at(end)) != 0) {
			post = count_nops(end + pad, &post_bytes);
			ok = post == PFE_POST;
			end += pad + post_bytes;
		} else {
			ok = n == PFE_PRE + PFE_POST;
		}
		if (landing_pad_at(end)) {
			fprintf(stderr, "record %d: a landing pad after the NOPs\n",
				(int)(r - __start___patchable_function_entries));
			bad = 1;
		}
		if (!ok) {
			fprintf(stderr, "record %d: %u NOPs, then %u, want %d and %d\n",
				(int)(r - __start___patchable_function_entries),
				n, post, PFE_PRE, PFE_POST);
			bad = 1;
		}
	}
	return bad;
}

static int check_records(void)
{
	int bad = check_every_record();
	bad |= check_function("twice", (const void *)twice);
	bad |= check_function("add3", (const void *)add3);
	bad |= check_function("chain", (const void *)chain);
	bad |= check_function("sum", (const void *)sum);
#ifdef _OPENMP
	bad |= check_function("square", (const void *)square);
	bad |= check_function("sum_omp", (const void *)sum_omp);
#endif
	fprintf(stderr, "%d records checked\n",
		(int)(__stop___patchable_function_entries -
		      __start___patchable_function_entries));
	return bad;
}
#endif

int main(void)
{
	int s = sum(10);
	printf("sum %d calls %d\n", s, calls);
#ifdef _OPENMP
	printf("omp %d\n", sum_omp(100));
#endif
#ifdef PFE_PRE
	return check_records();
#else
	return 0;
#endif
}
