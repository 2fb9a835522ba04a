/* scan-mcount.c: the profiling hooks scan-pg.c calls, plus references to
 * them that are not calls (addresses in data, as seed 004 describes), which
 * `pfe-scan collect --symbol` must not count.  Compiled without -pg. */
void _mcount(void)
{
}

void mcount(void)
{
}

void __fentry__(void)
{
}

int pg_c(int x);

void *const mcount_refs[] = { (void *)_mcount, (void *)mcount, (void *)__fentry__ };

int main(void)
{
	return pg_c(1) == 2 ? 0 : 1;
}
