/* gc-a.c: the first function of the unit is dead: GCC 11/12's native
 * records, all linked to the unit's first function, would all be dropped
 * by --gc-sections; pfe links each record to its own function. */
int dead_first(int x) { return x * 11; }
__attribute__((noinline)) static int live_static(int x) { return x + 5; }
__attribute__((noinline)) int live_global(int x) { return live_static(x) * 2; }
int dead_last(int x) { return x - 11; }
