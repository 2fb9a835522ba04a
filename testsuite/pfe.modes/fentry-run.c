/* fentry-run.c: the fentry call (and the ops slot) proven by running.
 *
 * Built with -fplugin-arg-pfe-fentry=pfe_test_fentry (and, with -DOPS,
 * ops-slot=pfe_test_ops): every instrumented function calls the target's
 * trampoline (fentry-<target>.S) first, which saves the argument registers
 * and calls fentry_hit (or, with OPS, ops_dispatch, which reads the
 * function's own ops slot, 8 bytes before its entry, and calls through it)
 * with the call's return address.  Each function of the table counts its
 * calls itself too; at exit the counts must agree, every hit must come from
 * the call site of one of them, right after its landing pad and NOPs
 * (-DPFE_POST=M-N), and notrace_fn ((0,0)) must have none.  Without pfe
 * (no -DPFE_POST) it only prints what it computes: modes.exp compares that.
 * With -DPFE_FENTRY_NOP (fentry-nop) no function may call the trampoline
 * and each call site must hold the target's NOP form of the call; with
 * -DPFE_LANDING each instrumented function must start with a landing pad.
 *
 * Debug: break in fentry_hit; "x/4i ret - 8". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../pfe.run/entry-bytes.h"

#define NOINLINE __attribute__((noinline, noclone))

/* Calls each function counts itself. */
static long calls[6];
static long stray_hits;

NOINLINE int leaf(int x) { calls[0]++; return x * 3 + 1; }
NOINLINE double fp(double a, double b) { calls[1]++; return a * b + 0.5; }
NOINLINE long many(long a, long b, long c, long d, long e, long f, long g, long h)
{
	calls[2]++;
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
NOINLINE int rec(int n) { calls[3]++; return n <= 1 ? 1 : n * rec(n - 1) % 10007; }
NOINLINE __attribute__((patchable_function_entry(0, 0))) int notrace_fn(int x)
{
	calls[4]++;
	return x ^ 0x55;
}

int main(void);

struct fn {
	const char *name;
	const void *addr;
	long *calls;
	long hits;	/* counted by the trampoline */
};

static struct fn table[] = {
	{ "leaf", (const void *)leaf, &calls[0], 0 },
	{ "fp", (const void *)fp, &calls[1], 0 },
	{ "many", (const void *)many, &calls[2], 0 },
	{ "rec", (const void *)rec, &calls[3], 0 },
	{ "notrace_fn", (const void *)notrace_fn, &calls[4], 0 },
	{ "main", (const void *)main, &calls[5], 0 },
};
#define N_FNS (sizeof(table) / sizeof(table[0]))

#ifdef PFE_POST
/* The size of the call instruction(s) at P, as the target's fentry call is
 * spelt (x86: call rel32, or call through the GOT (GCC <= 13, PIC), which
 * ld may relax to addr32 call). */
PFE_NOTRACE static size_t call_size_at(const unsigned char *p)
{
#if defined(__x86_64__) || defined(__i386__)
	if (p[0] == 0xe8)
		return 5;
	if ((p[0] == 0xff && p[1] == 0x15) || (p[0] == 0x67 && p[1] == 0xe8))
		return 6;
	return 0;
#else
	(void)p;
	return 8;	/* mov x9, x30; bl  /  auipc t0; jalr t0 */
#endif
}

/* The call site of F: after its landing pad and NOPs. */
PFE_NOTRACE static const unsigned char *call_site(const struct fn *f)
{
	const unsigned char *site = (const unsigned char *)f->addr;

	return site + landing_pad_at(site) + PFE_POST * NOP_BYTES;
}

/* Whether P holds the NOP form of the fentry call (fentry-nop): x86's
 * 5-byte NOP, two 4-byte NOPs elsewhere. */
PFE_NOTRACE static int call_nop_at(const unsigned char *p)
{
#if defined(__x86_64__) || defined(__i386__)
	static const unsigned char nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	return memcmp(p, nop5, sizeof(nop5)) == 0;
#else
	return nop_at(p) == 4 && nop_at(p + 4) == 4;
#endif
}

/* The function whose fentry call returns to RET, or NULL. */
PFE_NOTRACE static struct fn *caller_of(uintptr_t ret)
{
	for (size_t i = 0; i < N_FNS; i++) {
		const unsigned char *site = call_site(&table[i]);
		size_t size = call_size_at(site);
		if (size && ret == (uintptr_t)site + size)
			return &table[i];
	}
	return NULL;
}

void fentry_hit(uintptr_t ret);
PFE_NOTRACE void fentry_hit(uintptr_t ret)
{
	struct fn *f = caller_of(ret);

	if (f)
		f->hits++;
	else
		stray_hits++;
}

/* What each function's ops slot holds (ops-slot=pfe_test_ops): the handler
 * ops_dispatch calls. */
void pfe_test_ops(struct fn *f);
PFE_NOTRACE void pfe_test_ops(struct fn *f)
{
	f->hits++;
}

void ops_dispatch(uintptr_t ret);
PFE_NOTRACE void ops_dispatch(uintptr_t ret)
{
	struct fn *f = caller_of(ret);
	void (*handler)(struct fn *);

	if (!f) {
		stray_hits++;
		return;
	}
	/* The slot: the 8 bytes before the entry, 8-aligned. */
	if ((uintptr_t)f->addr % 8) {
		stray_hits++;
		return;
	}
	memcpy(&handler, (const char *)f->addr - 8, sizeof(handler));
	if (handler == pfe_test_ops)
		handler(f);
	else
		stray_hits++;
}
#endif

volatile int in = 5;

int main(void)
{
	long s = 0;

	calls[5]++;
	for (int i = 0; i < 10; i++) {
		s += leaf(i + in);
		s += (long)fp(i, 1.5);
		s += many(i, 2, 3, 4, 5, 6, 7, 8);
		s += notrace_fn(i);
	}
	s += rec(in + 3);
	printf("sum %ld\n", s);
#ifdef PFE_POST
	int bad = stray_hits != 0;
	if (stray_hits)
		fprintf(stderr, "%ld hits from no known call site\n", stray_hits);
	for (size_t i = 0; i < N_FNS; i++) {
		int traced = strcmp(table[i].name, "notrace_fn") != 0;
		long want = traced ? *table[i].calls : 0;
#ifdef PFE_FENTRY_NOP
		want = 0;
		if (traced && !call_nop_at(call_site(&table[i]))) {
			fprintf(stderr, "%s: no NOP form of the call at its call site\n",
				table[i].name);
			bad = 1;
		}
#endif
#ifdef PFE_LANDING
		if (traced && !landing_pad_at(table[i].addr)) {
			fprintf(stderr, "%s: no landing pad\n", table[i].name);
			bad = 1;
		}
#endif
		if (table[i].hits != want) {
			fprintf(stderr, "%s: %ld calls, %ld hits, want %ld\n",
				table[i].name, *table[i].calls, table[i].hits, want);
			bad = 1;
		}
	}
	return bad;
#else
	return 0;
#endif
}
