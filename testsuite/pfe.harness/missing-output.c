/* pfe.harness: this compile fails, so the dg-final checks below have no
   output to read: each must be UNRESOLVED (harness.exp).  */
/* { dg-do assemble } */
#error "harness: this compile fails on purpose"
int f(void) { return 0; }
/* { dg-final { pfe-layout f 0 1 } } */
/* { dg-final { scan-assembler-not "nop" } } */
