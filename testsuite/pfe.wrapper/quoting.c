/* quoting.c: arguments with spaces and quotes reach the compiler through
   pfe-cc as they were (wrapper.exp defines STR and QUOTE).  */
#include <stdio.h>
int main(void)
{
	printf("[%s] [%s]\n", STR, QUOTE);
	return 0;
}
