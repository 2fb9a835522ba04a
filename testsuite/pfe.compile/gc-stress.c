/* GC stress: with every collection point of the pass manager collecting
   (ggc-min-expand=0, ggc-min-heapsize=0), pfe must leave GCC's garbage
   collector nothing to trip on.  A pass of pfe's own between "ira" and
   "reload" let a collection run there, freeing data IRA leaves for reload
   (GCC 13+ marks "ira" TODO_do_not_ggc_collect): GCC 12 to 16 crashed in
   reload on any function, and on sqlite3.c without the stress.  Every
   mode that runs code in a pass or callback: NOPs, fentry (the leaf
   fix-up before reload), the ops slot. */
/* { dg-do compile } */
/* { dg-options "-O2 -fno-pie -fplugin-arg-pfe-entry=4 -fplugin-arg-pfe-fentry -fplugin-arg-pfe-ops-slot --param ggc-min-expand=0 --param ggc-min-heapsize=0" } */
struct pair { long a, b; };
static long table[64];

__attribute__((noinline)) long leaf_locals(long x)
{
	volatile long v[4] = { x, x + 1, x + 2, x + 3 };
	return v[0] + v[3];
}

__attribute__((noinline)) struct pair make(long x)
{
	struct pair p = { x, leaf_locals(x) };
	return p;
}

long walk(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		struct pair p = make(i);
		table[i & 63] += p.a * p.b;
		s += table[(i * 7) & 63];
	}
	return s;
}
/* { dg-final { pfe-asm-layout leaf_locals 0 4 } } */
/* { dg-final { pfe-asm-layout make 0 4 } } */
/* { dg-final { pfe-asm-layout walk 0 4 } } */
/* { dg-final { scan-assembler-times {__fentry__} 3 } } */
