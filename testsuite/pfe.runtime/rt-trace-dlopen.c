/* rt-trace-dlopen.c: a program that knows nothing of libpfe opens a
 * shared object (argv[1], rt-dso.so) after start, calls its dso_twice 7
 * times and closes it; under pfe-trace the report (at exit, after the
 * dlclose) counts those 7 calls.  runtime.exp reads the report.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
	long (*twice)(long) = h ? (long (*)(long))dlsym(h, "dso_twice") : NULL;
	long sum = 0;

	if (!twice) {
		printf("FAIL: dlopen: %s\n", dlerror());
		return 1;
	}
	for (int i = 0; i < 7; i++)
		sum += twice(i);
	dlclose(h);
	printf("%s: %ld\n", sum == 42 ? "ok" : "FAILED", sum);
	return sum != 42;
}
