/* rt-dso.c: the shared object rt-dlopen.c opens after pfe_init: its
 * functions are found only by pfe_rescan.  Debugging: PFE_DEBUG=list
 * ./rt-dlopen.exe ./rt-dso.so lists it after the rescan. */
__attribute__((noinline)) long dso_twice(long x)
{
	return 2 * x;
}
