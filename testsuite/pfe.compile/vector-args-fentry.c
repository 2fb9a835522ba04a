/* vector-args with the fentry call and an ops slot, no NOPs (libpfe's
   fast layout): the record names the site by the call's label.  */
/* { dg-do compile } */
/* { dg-require-target x86_64 } */
/* { dg-options "-O2 -fplugin-arg-pfe-fentry -fplugin-arg-pfe-fentry-nop -fplugin-arg-pfe-ops-slot -fplugin-arg-pfe-vector-args" } */
int ints(int a, long b) { return a * b; }
double dbl(double x) { return x * 2; }
struct pair { long a, b; };
long byval(struct pair p) { return p.a + p.b; }
/* { dg-final { scan-assembler-times {\.pushsection\t__pfe_vector_args,"awo",@progbits,\.LPFC0\n\t\.p2align\t3\n\t\.quad\t\.LPFC0\n\t\.quad\t0\n\t\.popsection\n} 1 } } */
/* { dg-final { scan-assembler-times {\.pushsection\t__pfe_vector_args,"awo",@progbits,\.LPFC1\n\t\.p2align\t3\n\t\.quad\t\.LPFC1\n\t\.quad\t16\n\t\.popsection\n} 1 } } */
/* { dg-final { scan-assembler-times {__pfe_vector_args} 2 } } */
