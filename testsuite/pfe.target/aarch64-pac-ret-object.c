/* aarch64 -mbranch-protection=pac-ret, entry=3,1, in the object: no
   landing pad; the two NOPs after the label come before PACIASP. */
/* { dg-do assemble } */
/* { dg-require-target aarch64 } */
/* { dg-require-accepts -mbranch-protection=pac-ret } */
/* { dg-options "-O2 -mbranch-protection=pac-ret -fplugin-arg-pfe-entry=3,1" } */
extern int ext(int);
int leaf(int x) { return x * 7; }
int nonleaf(int x) { return ext(x) + 1; }
/* { dg-final { pfe-verify --entry=3,1 --all } } */
/* { dg-final { pfe-layout leaf 4 8 } } */
/* { dg-final { pfe-layout nonleaf 4 8 } } */
/* { dg-final { pfe-target-landing leaf "" } } */
/* { dg-final { pfe-target-landing nonleaf "" } } */
/* { dg-final { pfe-target-after-area nonleaf d503233f } } */
