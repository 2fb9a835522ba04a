/* aarch64 -mbranch-protection=standard, entry=3,1, in the object: each
   record points 4 bytes (one NOP) before its function; after the label,
   BTI C where GCC puts one, then 8 bytes (two NOPs). */
/* { dg-do assemble } */
/* { dg-require-target aarch64 } */
/* { dg-require-accepts -mbranch-protection=standard } */
/* { dg-options "-O2 -mbranch-protection=standard -fplugin-arg-pfe-entry=3,1" } */
/* The functions of the assembly-level test (its dg lines are not read). */
#include "aarch64-bti.c"
/* { dg-final { pfe-verify --entry=3,1 --all } } */
/* { dg-final { pfe-layout leaf 4 8 } } */
/* { dg-final { pfe-layout nonleaf 4 8 } } */
/* { dg-final { pfe-layout direct 4 8 } } */
/* { dg-final { pfe-layout call_direct 4 8 } } */
/* { dg-final { pfe-layout taken 4 8 } } */
/* { dg-final { pfe-target-landing leaf bti } } */
/* { dg-final { pfe-target-landing nonleaf bti } } */
/* { dg-final { pfe-target-landing call_direct bti } } */
/* { dg-final { pfe-target-landing taken bti } } */
/* { dg-final { pfe-target-landing direct "" } } */
/* { dg-final { pfe-target-after-area nonleaf d503233f } } */
/* { dg-final { pfe-target-after-area direct d503233f } } */
/* { dg-final { pfe-linked } } */
