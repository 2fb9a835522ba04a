/* null-plugin.c: a GCC plugin that does nothing (scripts/check-null-plugin.sh).
 * It loads, takes every -fplugin-arg-pfe-* argument without a word and
 * changes nothing in what GCC emits: a test of the suite that passes with
 * it does not test pfe's output (testsuite/null-plugin-passes says why each
 * such test may pass).  Built as C++ against the compiler's plugin headers,
 * as pfe.so (GCC names a plugin's arguments by its file name). */
#include "gcc-plugin.h"

int plugin_is_GPL_compatible;

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	(void)info;
	(void)version;
	return 0;
}
