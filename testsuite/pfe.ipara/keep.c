/* keep.c: the same caller twice, once around a padded leaf and once around
 * a leaf pfe leaves unpadded ((0,0)).  ipara.exp compiles it with
 * entry=5 with and without -fno-ipa-ra: the caller of the padded leaf
 * must not change (it may keep nothing in call-clobbered registers, with
 * or without IPA-RA), the caller of the unpadded one must (IPA-RA lets it
 * keep values in registers the leaf leaves alone: what pfe keeps and
 * native -fpatchable-function-entry loses for the whole unit).  With
 * -DBY_ATTRIBUTE (and no entry=) the padded leaf has the attribute (5,0)
 * and the other none: the same must hold. */
#define NOINLINE __attribute__((noinline, noclone))

#ifdef BY_ATTRIBUTE
#define PADDED __attribute__((patchable_function_entry(5, 0)))
#define UNPADDED
#else
#define PADDED
#define UNPADDED __attribute__((patchable_function_entry(0, 0)))
#endif

NOINLINE PADDED int leaf_padded(int x) { return x * 3 + 1; }
NOINLINE UNPADDED int leaf_unpadded(int x) { return x * 3 + 1; }

#define CALLER(name, leaf)						\
NOINLINE long name(long a, long b, long c, long d, long e, long f)	\
{									\
	long s = 0;							\
	for (int i = 0; i < 4; i++) {					\
		long t1 = a * i + b, t2 = c * i + d, t3 = e * i + f,	\
		     t4 = a ^ f, t5 = b ^ e, t6 = c ^ d;		\
		s += leaf(i);						\
		s += t1 + t2 * 3 + t3 * 5 + t4 * 7 + t5 * 11 + t6 * 13;	\
	}								\
	return s;							\
}

CALLER(caller_of_padded, leaf_padded)
CALLER(caller_of_unpadded, leaf_unpadded)
