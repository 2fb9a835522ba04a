/* scan-norecord.c: one function with a record, one that opts out with the
 * patchable_function_entry(0, 0) attribute, for verify --all/--exclude. */
int scan_plain(int x)
{
	return x + 1;
}

__attribute__((patchable_function_entry(0, 0))) int scan_bare(int x)
{
	return x * 5;
}
