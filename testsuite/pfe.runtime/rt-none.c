/* rt-none.c: libpfe in a program with no patchable function (built
 * without the plugin, as a program may link libpfe before it is built
 * with pfe): every call over all functions does nothing and says so,
 * none crashes.  Prints "ok" last.
 * Debugging: the failing check is printed ("FAIL: ...").
 */
#include <pfe.h>

#include <stddef.h>

#include "rt-test.h"

static void on_entry(struct pfe_call *c)
{
	(void)c;
}

int main(void)
{
	size_t attached = 1;
	int err;

	CHECK((err = pfe_init()) == 0, "pfe_init: %s", pfe_strerror(err));
	CHECK(pfe_next(NULL) == NULL, "a function found");
	CHECK((err = pfe_attach_all(on_entry, NULL, NULL, &attached)) == 0 && attached == 0,
	      "pfe_attach_all: %s, %zu attached", pfe_strerror(err), attached);
	CHECK((err = pfe_attach_many(NULL, 0, on_entry, NULL, NULL)) == 0, "pfe_attach_many of none: %s",
	      pfe_strerror(err));
	CHECK((err = pfe_enable_all()) == 0, "pfe_enable_all: %s", pfe_strerror(err));
	CHECK((err = pfe_disable_all()) == 0, "pfe_disable_all: %s", pfe_strerror(err));
	CHECK((err = pfe_detach_all()) == 0, "pfe_detach_all: %s", pfe_strerror(err));
	CHECK((err = pfe_synchronize()) == 0, "pfe_synchronize: %s", pfe_strerror(err));
	if (failures)
		return 1;
	printf("ok none\n");
	return 0;
}
