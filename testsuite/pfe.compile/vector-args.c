/* vector-args: a record in __pfe_vector_args (linked to the function's
   section) of each instrumented function whose arguments use at most the
   low 16 bytes of vector registers: its site (the first NOP's label) and
   those bytes.  0 for integers, enums, bools, pointers, __int128, no
   argument; 16 when some are scalar floats (long double too: counted,
   although it goes on the stack), complex doubles, 16-byte vectors.  None
   for a 32-byte vector or a struct argument, a variadic function, an
   ms_abi one (it keeps xmm6-15), an excluded one.  */
/* { dg-do compile } */
/* { dg-require-target x86_64 } */
/* { dg-options "-O2 -Wno-psabi -fplugin-arg-pfe-entry=2 -fplugin-arg-pfe-vector-args" } */
typedef float v4sf __attribute__((vector_size(16)));
typedef float v8sf __attribute__((vector_size(32)));
struct pair { long a, b; };
enum e { E0, E1 };
extern int use(const void *);
int ints(int a, long b, char *p, enum e x, _Bool t) { return a + b + *p + x + t; }
int nothing(void) { return use(0); }
unsigned __int128 wide(unsigned __int128 x) { return x * 3; }
double dbl(double x) { return x * 2; }
float flt(int a, float x) { return a * x; }
long double ldbl(long double x) { return x * 2; }
v4sf vec(v4sf x) { return x + x; }
_Complex double cplx(_Complex double z) { return z * z; }
v8sf vec8(v8sf x) { return x + x; }
long byval(struct pair p) { return p.a + p.b; }
int variadic(int n, ...) { return use(&n); }
__attribute__((ms_abi)) int ms(int a) { return a + use(&a); }
__attribute__((patchable_function_entry(0, 0))) int excluded(int a) { return use(&a); }
/* { dg-final { scan-assembler-times {\.pushsection\t__pfe_vector_args,"awo",@progbits,\.LPFE[0-9]+\n} 8 } } */
/* { dg-final { scan-assembler-times {\.pushsection\t__pfe_vector_args,"awo",@progbits,\.LPFE0\n\t\.p2align\t3\n\t\.quad\t\.LPFE0\n\t\.quad\t0\n\t\.popsection\n} 1 } } */
/* { dg-final { scan-assembler-times {\t\.quad\t\.LPFE[0-2]\n\t\.quad\t0\n} 3 } } */
/* { dg-final { scan-assembler-times {\t\.quad\t\.LPFE[3-7]\n\t\.quad\t16\n} 5 } } */
