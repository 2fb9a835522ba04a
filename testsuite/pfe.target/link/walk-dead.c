/* link/walk-dead.c: pfe.run/walk.c (a program that checks its own records
 * at run time) plus a function nothing calls.  Built by target.exp (not a
 * dg test): with -ffunction-sections -Wl,--gc-sections dead_fn and its
 * record must go; without them both must stay. */
#include "../../pfe.run/walk.c"

int dead_fn(int x) { return x * 5 + 1; }
