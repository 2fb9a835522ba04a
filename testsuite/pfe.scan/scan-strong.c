/* scan-strong.c: overrides the weak scan_weak of scan-basic.c, leaving the
 * weak copy's code and record without a symbol (what `pfe-scan sort` zeroes). */
int scan_weak(int x)
{
	return x + 100;
}
