/* Record sections per function in COMDAT groups: templates and inline
 * functions (see sections.c). */
#define NOINLINE __attribute__((noinline))

template <int K>
NOINLINE __attribute__((patchable_function_entry(2, 0, "sec_t"))) int tf(int x) { return x + K; }
NOINLINE inline int in(int x) { return x * 3; }
NOINLINE __attribute__((patchable_function_entry(1, 1, "sec_u"))) inline int iu(int x) { return x - 3; }
int use(int x) { return tf<1>(x) + tf<2>(x) + in(x) + iu(x); }
