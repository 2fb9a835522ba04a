/* scan-pg.c: compiled with -pg (and -mfentry on x86_64): each of these three
 * functions calls the profiling hook exactly once; nothing else here does. */
int pg_a(int x)
{
	return x + 1;
}

int pg_b(int x)
{
	return pg_a(x) * 2;
}

int pg_c(int x)
{
	return pg_b(x) - pg_a(x);
}
