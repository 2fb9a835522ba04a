/* scan-modes-main.c: main for the linked tests of the entry modes: prints
 * mode_calls(3) and the count of entry calls the hook (scan-hook.c) saw. */
#include <stdio.h>

int mode_calls(int x);
extern long scan_fentry_calls;

int main(void)
{
	int r = mode_calls(3);

	printf("%d %ld\n", r, scan_fentry_calls);
	return 0;
}
