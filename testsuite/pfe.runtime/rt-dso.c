/* rt-dso.c: the shared object rt-dlopen.c opens after pfe_init: its
 * functions are found only by pfe_rescan.  Built again with
 * -DRT_DSO_OTHER (another file, another function, the same size) for
 * rt-dlclose.c, which wants an object loaded where this one was.
 * Debugging: PFE_DEBUG=list ./rt-dlopen.exe ./rt-dso.so lists it after
 * the rescan. */
#ifdef RT_DSO_OTHER
__attribute__((noinline)) long dso_other(long x)
{
	return 2 * x;
}
#else
__attribute__((noinline)) long dso_twice(long x)
{
	return 2 * x;
}
#endif
