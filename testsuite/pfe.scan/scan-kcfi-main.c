/* scan-kcfi-main.c: main for the linked kCFI test (built without kCFI). */
int kcfi_call(int (*f)(int, int), int x);
int kcfi_add(int a, int b);

int main(void)
{
	return kcfi_call(kcfi_add, 2) == 4 ? 0 : 1;
}
