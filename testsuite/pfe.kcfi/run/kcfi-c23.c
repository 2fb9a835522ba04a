/* kcfi-c23.c: C23 function types pfe.kcfi hashes against the sid chroot's
 * Clang (Clang 16 has no C23): a prototype with no named parameter,
 * int f(...), mangles as F<ret>zE; int f() is int f(void) in C23.
 * Built with -std=c2x by both compilers; GCC 13+ (TYPE_NO_NAMED_ARGS_STDARG_P).
 * Debug: PFE_KCFI_DEBUG=1 prints the strings pfe hashes. */
extern int kcfi_c23_a(...);
extern void kcfi_c23_b(int (*)(...), int (*)());
extern int kcfi_c23_c();
extern void kcfi_c23_d(void (*)(...), ...);

void *const kcfi_c23_types[] = {
	(void *)kcfi_c23_a,
	(void *)kcfi_c23_b,
	(void *)kcfi_c23_c,
	(void *)kcfi_c23_d,
};
