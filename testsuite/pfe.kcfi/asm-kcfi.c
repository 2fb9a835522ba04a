/* Which functions carry the hash (those that may be called indirectly),
 * which calls are checked (indirect ones through prototyped types, not in
 * an opted-out function), the trap records, the typeid of an address-taken
 * extern.  int (int) hashes to 329620 (Clang 16). */
/* { dg-do compile } */
/* { dg-options "-O2 -std=gnu11 -fplugin-arg-pfe-cfi=kcfi" } */
/* -std=gnu11: from C23 (GCC 15's default), int (*)() is int (*)(void). */

int (*volatile fp)(int);
int (*volatile unproto)();
extern int ext(int);

static __attribute__((noinline)) int local_only(int x) { return x * 2; }
int pub(int x) { return local_only(x) + 1; }
int call(void) { return fp(3); }
int direct(void) { return ext(4) + __builtin_abs(fp(1)); }
int no_proto(void) { return unproto(1); }
__attribute__((no_sanitize_kcfi)) int opt_out(void) { return fp(5); }
int (*take(void))(int) { return ext; }

/* { dg-final { scan-assembler {^__cfi_pub:$} {target x86_64} } } */
/* { dg-final { scan-assembler-not {__cfi_local_only} {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tmovl\t\$329620, %eax$} 1 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\taddl\t-4\(%r[a-z0-9]+\), %r10d$} 2 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tmovl\t\$4294637676, %r10d$} 2 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tud2$} 2 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\t\.word\t329620$} 1 {target aarch64 riscv64} } } */
/* { dg-final { scan-assembler-times {^\tldur\tw16, \[x[0-9]+, #-4\]$} 2 {target aarch64} } } */
/* { dg-final { scan-assembler-times {^\tbrk\t#\(0x8220 \+ \\pfe_r\)$} 2 {target aarch64} } } */
/* { dg-final { scan-assembler-not {kcfi_traps} {target aarch64} } } */
/* { dg-final { scan-assembler-times {^\tebreak$} 2 {target riscv64} } } */
/* { dg-final { scan-assembler-times {^\t\.pushsection\t\.kcfi_traps,"ao",@progbits,\.Lkcfi_trap[0-9]+$} 2 {target x86_64 riscv64} } } */
/* { dg-final { scan-assembler {^\t\.set\t__kcfi_typeid_ext, 329620$} } } */
