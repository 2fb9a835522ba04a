/* clobber.c: patch safety, proven by running: callers of a padded function
 * must not keep values in any register a patched-in call may clobber.
 *
 * Each shape below keeps many live values (integer, floating point,
 * vector) across calls to tiny padded leaves, the case where IPA-RA would
 * let a caller use every register the leaf leaves alone.  The program runs
 * the shapes, patches every leaf's entry at run time with a call to an
 * assembler trampoline (garble-<target>.S), runs them again and compares:
 *
 *   ./clobber none      run the shapes, print the results (no patching)
 *   ./clobber abi       patch with trampolines that overwrite every
 *                       call-clobbered register the leaf does not take an
 *                       argument in (what the ABI allows a trampoline)
 *   ./clobber scratch   patch with a trampoline that overwrites only the
 *                       target's patch scratch registers (clobbers=scratch)
 *
 * Exit 0 with the same stdout as "none": safe.  Exit 3 (LOST) with "BAD"
 * lines on stderr: a caller lost a value across a patched call (a shape's
 * result changed, a loop counter: "BAD runaway loop", or a pointer: "BAD
 * crash in the patched run", a SIGSEGV or SIGBUS once every leaf was
 * patched; i386 loses one at -O2 and up).  Exit 1 with a
 * "BAD" line: the trampolines did not run once per leaf call.  Exit 2: the
 * entry could not be patched (no record, no room, not NOPs).  pfe.run's
 * controls take only LOST as a value lost, not any failure.  The layout comes
 * from -DPFE_PRE=N -DPFE_POST=M-N (run.exp); -DLEAF_ATTR=M,N pads the
 * leaves by the attribute instead of entry= (also for native GCC).
 *
 * Debug: run it under gdb (qemu-aarch64 -g 1234 ...), break in the
 * trampoline, compare a shape's registers before and after the call. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "entry-bytes.h"

#ifdef LEAF_ATTR
#define LEAF __attribute__((noinline, noclone, patchable_function_entry(LEAF_ATTR)))
#else
#define LEAF __attribute__((noinline, noclone))
#endif
#define SHAPE __attribute__((noinline, noclone))
#define LOST 3

typedef float v4sf __attribute__((vector_size(16)));

/* Inputs the compiler cannot see through. */
volatile long in_l[8] = { 3, 5, 7, 11, 13, 17, 19, 23 };
volatile double in_d[8] = { 0.5, 1.25, 2.75, 3.5, 4.125, 5.0625, 6.5, 7.75 };
long leaf_calls;	/* calls the leaves saw */
long tramp_calls;	/* calls the trampolines saw (written by garble-*.S) */

/* The leaves: tiny, so their own register use says "almost nothing". */
LEAF int leaf_i(int x) { leaf_calls++; return x * 3 + 1; }
LEAF long leaf_ll(long a, long b) { leaf_calls++; return a - b; }
LEAF double leaf_d(double x) { leaf_calls++; return x * 0.5 + 1.0; }
LEAF void leaf_v(void) { leaf_calls++; }
/* The optimize attribute turns IPA-RA back on for the functions it is on,
 * even under native -fpatchable-function-entry (a GCC bug) and at -O1;
 * pfe's contract lives in the padded callee, so it holds whatever the
 * options of either side. */
LEAF __attribute__((optimize("O2"))) long leaf_opt(long a) { leaf_calls++; return a + 1; }

/* The caller: six long temporaries live across each call. */
SHAPE long shape_int6(long a, long b, long c, long d, long e, long f)
{
	long s = 0;
	for (int i = 0; i < 4; i++) {
		long t1 = a * i + b, t2 = c * i + d, t3 = e * i + f, t4 = a ^ f,
		     t5 = b ^ e, t6 = c ^ d;
		s += leaf_i(i);
		s += t1 + t2 * 3 + t3 * 5 + t4 * 7 + t5 * 11 + t6 * 13;
	}
	return s;
}

/* More live integers than callee-saved registers, around a no-argument
 * call: every argument register is free for the caller to use. */
SHAPE long shape_int_many(void)
{
	long v0 = in_l[0], v1 = in_l[1], v2 = in_l[2], v3 = in_l[3],
	     v4 = in_l[4], v5 = in_l[5], v6 = in_l[6], v7 = in_l[7];
	long v8 = v0 * v1, v9 = v2 * v3, v10 = v4 * v5, v11 = v6 * v7,
	     v12 = v0 + v7, v13 = v1 + v6;
	leaf_v();
	return v0 + 2 * v1 + 3 * v2 + 4 * v3 + 5 * v4 + 6 * v5 + 7 * v6 +
	       8 * v7 + 9 * v8 + 10 * v9 + 11 * v10 + 12 * v11 + 13 * v12 +
	       14 * v13;
}

/* Doubles live across integer calls: FP registers are all call-clobbered
 * on x86_64 and riscv64, and v16-v31 (v8-v15 upper halves) on aarch64. */
SHAPE double shape_fp(void)
{
	double d0 = in_d[0], d1 = in_d[1], d2 = in_d[2], d3 = in_d[3],
	       d4 = in_d[4], d5 = in_d[5], d6 = in_d[6], d7 = in_d[7];
	double s = 0;
	for (int i = 0; i < 3; i++) {
		s += leaf_ll(i, 1);
		s += d0 * d1 + d2 * d3 - d4 * d5 + d6 * d7 + d0 * d7 - d1 * d6;
		d0 += 0.25;
		d7 -= 0.125;
	}
	return s;
}

/* Vectors live across calls (SSE, NEON; scalarised elsewhere). */
SHAPE float shape_vec(void)
{
	v4sf a = { (float)in_d[0], (float)in_d[1], (float)in_d[2], (float)in_d[3] };
	v4sf b = { (float)in_d[4], (float)in_d[5], (float)in_d[6], (float)in_d[7] };
	v4sf c = a * b, d = a + b, e = a - b, f = b * b;
	float s = 0;
	for (int i = 0; i < 3; i++) {
		s += (float)leaf_i(i);
		v4sf r = c * d + e * f + a;
		s += r[0] + r[1] + r[2] + r[3];
		a += b;
	}
	return s;
}

/* A loop whose induction variables and bounds stay in registers, around a
 * floating-point call. */
SHAPE double shape_loop(int n)
{
	long acc = in_l[0], k = in_l[1], m = in_l[2];
	double x = in_d[0], y = in_d[1];
	for (int i = 0; i < n; i++) {
		x = leaf_d(x) + y;
		acc += k * i + m;
		k ^= i;
		y *= 0.5;
	}
	return x + (double)acc;
}

/* See leaf_opt. */
SHAPE __attribute__((optimize("O2"))) long shape_optimize_attr(long a, long b)
{
	long t1 = a * 3 + b, t2 = b * 5 - a, t3 = a ^ b, t4 = a + 7 * b,
	     t5 = a * b, t6 = a - b;
	long s = 0;
	for (int i = 0; i < 3; i++) {
		s += leaf_opt(a + i);
		s += t1 + 2 * t2 + 3 * t3 + 4 * t4 + 5 * t5 + 6 * t6;
		t1 ^= i;
	}
	return s;
}

/* Called by a trampoline once leaves were entered 1000 times (a run makes
 * a few dozen calls): a caller lost its loop counter across a patched call
 * and the loop would never end. */
void garble_runaway(void)
{
	static const char msg[] = "BAD runaway loop: a caller lost its loop counter\n";

	ssize_t written = write(2, msg, sizeof(msg) - 1);

	(void)written;
	_exit(LOST);
}

/* SIGSEGV, SIGBUS once the leaves are patched: a caller lost a pointer
 * across a patched call and used the trampoline's garbage. */
static void lost_pointer(int sig)
{
	static const char msg[] = "BAD crash in the patched run: a caller lost a pointer\n";
	ssize_t written = write(2, msg, sizeof(msg) - 1);

	(void)sig;
	(void)written;
	_exit(LOST);
}

static void run_shapes(char out[][64])
{
	snprintf(out[0], 64, "int6 %ld", shape_int6(in_l[0], in_l[1], in_l[2], in_l[3], in_l[4], in_l[5]));
	snprintf(out[1], 64, "int_many %ld", shape_int_many());
	snprintf(out[2], 64, "fp %.6f", shape_fp());
	snprintf(out[3], 64, "vec %.3f", (double)shape_vec());
	snprintf(out[4], 64, "loop %.6f", shape_loop(5));
	snprintf(out[5], 64, "optimize_attr %ld", shape_optimize_attr(in_l[3], in_l[4]));
}
#define N_SHAPES 6

/* The trampolines (garble-<target>.S): garble_abi_I_F overwrites what a
 * trampoline may when the leaf takes I integer and F floating-point
 * arguments; garble_scratch only the scratch registers. */
void garble_abi_1_0(void), garble_abi_2_0(void), garble_abi_0_1(void),
	garble_abi_0_0(void), garble_scratch(void);

static const struct leaf {
	const char *name;
	void *fn;
	void (*garble_abi)(void);
} leaves[] = {
	{ "leaf_i", (void *)leaf_i, garble_abi_1_0 },
	{ "leaf_ll", (void *)leaf_ll, garble_abi_2_0 },
	{ "leaf_d", (void *)leaf_d, garble_abi_0_1 },
	{ "leaf_v", (void *)leaf_v, garble_abi_0_0 },
	{ "leaf_opt", (void *)leaf_opt, garble_abi_1_0 },
};
#define N_LEAVES (sizeof(leaves) / sizeof(leaves[0]))

/* The patched call, in each target's established form. */
#if defined(__x86_64__) || defined(__i386__)
#define CALL_SIZE 5
static void put_call(unsigned char *at, void (*tramp)(void))
{
	int32_t rel = (int32_t)((intptr_t)tramp - (intptr_t)(at + 5));
	at[0] = 0xe8;	/* call rel32 */
	memcpy(at + 1, &rel, 4);
}
#elif defined(__aarch64__)
#define CALL_SIZE 8
static void put_call(unsigned char *at, void (*tramp)(void))
{
	/* mov x9, x30; bl tramp: the arm64 kernel's sequence */
	uint32_t insn[2] = { 0xaa1e03e9,
		0x94000000 | (uint32_t)((((intptr_t)tramp - (intptr_t)(at + 4)) >> 2) & 0x03ffffff) };
	memcpy(at, insn, 8);
}
#elif defined(__riscv) && __riscv_xlen == 64
#define CALL_SIZE 8
static void put_call(unsigned char *at, void (*tramp)(void))
{
	/* auipc t0, hi; jalr t0, lo(t0): the riscv kernel's sequence */
	intptr_t off = (intptr_t)tramp - (intptr_t)at;
	intptr_t hi = (off + 0x800) >> 12, lo = off - (hi << 12);
	uint32_t insn[2] = { ((uint32_t)hi << 12) | (5u << 7) | 0x17,
			     ((uint32_t)lo << 20) | (5u << 15) | (5u << 7) | 0x67 };
	memcpy(at, insn, 8);
}
#else
#error "clobber.c: no patch sequence for this target"
#endif

#ifdef PFE_PRE
extern const uintptr_t __start___patchable_function_entries[];
extern const uintptr_t __stop___patchable_function_entries[];

static int has_record(uintptr_t at)
{
	for (const uintptr_t *r = __start___patchable_function_entries;
	     r < __stop___patchable_function_entries; r++)
		if (*r == at)
			return 1;
	return 0;
}

static int patch_leaf(const struct leaf *l, void (*tramp)(void))
{
	unsigned char *entry = l->fn;
	unsigned char *area = entry + landing_pad_at(entry);
	/* The record is the first NOP: after the landing pad when none is
	 * before the entry. */
	uintptr_t first_nop = PFE_PRE ? (uintptr_t)entry - PFE_PRE * NOP_BYTES : (uintptr_t)area;
	long page = sysconf(_SC_PAGESIZE);

	if (!has_record(first_nop))
		return fprintf(stderr, "%s: no record for %#lx\n", l->name, (unsigned long)first_nop), 2;
	if (PFE_POST * NOP_BYTES < CALL_SIZE)
		return fprintf(stderr, "%s: %d bytes after the entry, a call needs %d\n",
			       l->name, PFE_POST * NOP_BYTES, CALL_SIZE), 2;
	for (int i = 0; i < PFE_POST; i++)
		if (nop_at(area + i * NOP_BYTES) != NOP_BYTES)
			return fprintf(stderr, "%s+%d: not a NOP\n", l->name,
				       (int)(area - entry) + i * NOP_BYTES), 2;
	uintptr_t start = (uintptr_t)area & ~(uintptr_t)(page - 1);
	size_t len = (uintptr_t)area + CALL_SIZE - start;
	if (mprotect((void *)start, len, PROT_READ | PROT_WRITE | PROT_EXEC))
		return perror("mprotect"), 2;
	put_call(area, tramp);
	__builtin___clear_cache((char *)area, (char *)area + CALL_SIZE);
	if (mprotect((void *)start, len, PROT_READ | PROT_EXEC))
		return perror("mprotect"), 2;
	return 0;
}
#endif

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "none";
	char before[N_SHAPES][64], after[N_SHAPES][64];
	int bad = 0;

	run_shapes(before);
	for (int i = 0; i < N_SHAPES; i++)
		puts(before[i]);
	fflush(stdout);		/* a runaway loop ends in _exit */
	if (!strcmp(mode, "none"))
		return 0;
#ifndef PFE_PRE
	fprintf(stderr, "built without a layout (-DPFE_PRE, -DPFE_POST): cannot patch\n");
	return 2;
#else
	if (strcmp(mode, "abi") && strcmp(mode, "scratch"))
		return fprintf(stderr, "usage: %s [none|abi|scratch]\n", argv[0]), 2;
	for (size_t i = 0; i < N_LEAVES; i++) {
		int r = patch_leaf(&leaves[i], !strcmp(mode, "abi") ? leaves[i].garble_abi : garble_scratch);
		if (r)
			return r;
	}
	long calls_before = leaf_calls;
	signal(SIGSEGV, lost_pointer);
	signal(SIGBUS, lost_pointer);
	run_shapes(after);
	for (int i = 0; i < N_SHAPES; i++)
		if (strcmp(before[i], after[i])) {
			fprintf(stderr, "BAD %s: patched: %s\n", before[i], after[i]);
			bad = LOST;
		}
	if (tramp_calls != leaf_calls - calls_before && !bad) {
		fprintf(stderr, "BAD trampolines ran %ld times for %ld leaf calls\n",
			tramp_calls, leaf_calls - calls_before);
		bad = 1;
	}
	return bad;
#endif
}
