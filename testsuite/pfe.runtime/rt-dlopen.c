/* rt-dlopen.c: records of a shared object opened with dlopen after
 * pfe_init (argv[1], a path) are found by pfe_rescan, patched and run;
 * after dlclose and another rescan they are gone.  Exit 1 on a failure.
 */
#include <pfe.h>

#include <dlfcn.h>
#include <stdio.h>

static unsigned long hits;

static void on_entry(struct pfe_call *c)
{
	if (pfe_arg(c, 0) == 21)
		hits++;
}

int main(int argc, char **argv)
{
	void *h;
	long (*twice)(long);
	struct pfe_func *f;
	int failures = 0, err;

	if (argc < 2 || !(h = dlopen(argv[1], RTLD_NOW))) {
		printf("FAIL: dlopen: %s\n", dlerror());
		return 1;
	}
	twice = (long (*)(long))dlsym(h, "dso_twice");
	if (pfe_find("dso_twice")) {
		printf("FAIL: dso_twice found before pfe_rescan\n");
		failures++;
	}
	err = pfe_rescan();
	f = pfe_find("dso_twice");
	if (err || !f || pfe_func_addr(f) != (void *)twice) {
		printf("FAIL: pfe_rescan (%s) did not find dso_twice at %p\n", pfe_strerror(err), (void *)twice);
		return 1;
	}
	if (pfe_attach(f, on_entry, NULL, NULL) || pfe_enable(f)) {
		printf("FAIL: attach/enable dso_twice\n");
		return 1;
	}
	for (int i = 0; i < 100; i++)
		failures += twice(21) != 42;
	if (hits != 100) {
		printf("FAIL: %lu handler calls for 100 calls of dso_twice\n", hits);
		failures++;
	}
	pfe_disable(f);
	dlclose(h);
	pfe_rescan();
	if (pfe_find("dso_twice")) {
		printf("FAIL: dso_twice still listed after dlclose\n");
		failures++;
	}
	printf("%s: %lu calls handled\n", failures ? "FAILED" : "ok", hits);
	return failures != 0;
}
