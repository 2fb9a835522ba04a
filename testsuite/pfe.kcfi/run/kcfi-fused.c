/* kcfi-fused.c: indirect calls under register pressure, for kcfi.exp's
 * "fused" test: a struct argument copied (by memcpy or a loop) between
 * the check and the call while many values stay live, so that the
 * register allocator spills the target there and reloads it; a call
 * through a table in memory; a tail call; arguments on the stack.  Each
 * check must come right before its call, on the register the call goes
 * through (a register move between them at most).
 *
 * Debug: build with -S and look after each .Lkcfi_pass label. */
struct big { long a[8192]; };
struct mid { long a[128]; };
typedef long (*fbig)(struct big, long, long, long, long, long, long);
typedef long (*fmid)(struct mid, long);
typedef long (*f8)(long, long, long, long, long, long, long, long);
typedef long (*f1)(long);

#define V(x) long x = v[__COUNTER__];

/* 14 values live across the call, a 64 KiB struct copied by memcpy. */
long fused_memcpy(fbig *tab, struct big *bp, long *v, int n)
{
	V(a) V(b) V(c) V(d) V(e) V(f) V(g) V(h) V(i) V(j) V(k) V(l) V(m) V(o)
	long s = 0;

	for (int q = 0; q < n; q++) {
		s += tab[q ^ (int)s](*bp, a * q, b * q, c * q, d * q, e * q, f * q);
		s += g * h + i * j + k * l + m * o;
		a += s; b -= s; c ^= s; d += g; e += h; f += i; g += j;
		h += k; i += l; j += m; k += o; l += a; m += b; o += c;
	}
	return s + a + b + c + d + e + f + g + h + i + j + k + l + m + o;
}

/* A 1 KiB struct copied inline (rep movs, a loop) between them. */
long fused_copy(fmid *tab, struct mid *mp, int n)
{
	long s = 0;

	for (int q = 0; q < n; q++)
		s += tab[q](*mp, s);
	return s;
}

/* Eight arguments: some on the stack. */
long fused_stack(f8 *tab, long *v, int n)
{
	long s = 0;

	for (int q = 0; q < n; q++)
		s += tab[q & 7](v[0] + s, v[1], v[2], v[3], v[4], v[5], v[6] * q, v[7] - s);
	return s;
}

/* Straight from a table in memory (x86 can call *mem). */
long fused_table(f1 *const *tab, int n)
{
	long s = 0;

	for (int q = 0; q < n; q++)
		s += (*tab[q])(s);
	return s;
}

/* A tail call. */
long fused_tail(f1 p, long x)
{
	return p(x + 1);
}

/* Two calls of different types with their arguments' tails alike (Linux
 * 7.2's irq_find_matching_fwspec): at -Os RTL cross-jumping merged the
 * tails and one path ran the other's check, a false trap. */
struct fdom;
struct ffw { int id; };
struct fnode { int id; };
struct fops {
	int (*select)(struct fdom *, struct ffw *, int);
	int (*match)(struct fdom *, struct fnode *, int);
};
struct fdom { const struct fops *ops; struct fdom *next; };

struct fdom *fused_tails(struct fdom *list, struct ffw *fw, int tok)
{
	for (struct fdom *h = list; h; h = h->next) {
		int rc;

		if (h->ops->select && tok)
			rc = h->ops->select(h, fw, tok);
		else if (h->ops->match)
			rc = h->ops->match(h, 0, tok);
		else
			continue;
		if (rc)
			return h;
	}
	return 0;
}
