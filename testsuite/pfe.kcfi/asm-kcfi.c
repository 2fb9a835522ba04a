/* Which functions carry the hash (those that may be called indirectly),
 * which calls are checked (indirect ones through prototyped types, not
 * those written in an opted-out function; one inlined there from a checked
 * function is checked, as Clang does), each target's whole check sequence,
 * the trap records, the typeid of an address-taken extern.  int (int)
 * hashes to 329620 (Clang 16). */
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
static inline __attribute__((always_inline)) int helper(int x)
{
	{ int y = x + 1; return fp(y); }
}
__attribute__((no_sanitize_kcfi)) int opt_out(void) { return fp(5) + helper(6); }
int (*take(void))(int) { return ext; }

/* { dg-final { scan-assembler {^__cfi_pub:$} {target x86_64} } } */
/* { dg-final { scan-assembler-not {__cfi_local_only} {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tmovl\t\$329620, %eax$} 1 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tmovl\t\$4294637676, %r10d\n\taddl\t-4\(%r[a-z0-9]+\), %r10d\n\tje\t\.Lkcfi_pass[0-9]+\n\.Lkcfi_trap[0-9]+:\n\tud2\n} 3 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tud2$} 3 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\t\.word\t329620$} 1 {target aarch64 riscv64} } } */
/* { dg-final { scan-assembler-times {^\tldur\tw16, \[x[0-9]+, #-4\]\n\tmovk\tw17, #1940\n\tmovk\tw17, #5, lsl #16\n\tcmp\tw16, w17\n\tb\.eq\t\.Lkcfi_pass[0-9]+\n\.Lkcfi_trap[0-9]+:\n} 3 {target aarch64} } } */
/* { dg-final { scan-assembler-times {^\tbrk\t#\(0x8220 \+ \\pfe_r\)$} 3 {target aarch64} } } */
/* { dg-final { scan-assembler-not {kcfi_traps} {target aarch64} } } */
/* { dg-final { scan-assembler-times {^\tlw\tt1, -4\([a-z0-9]+\)\n\tli\tt2, 329620\n\tbeq\tt1, t2, \.Lkcfi_pass[0-9]+\n\.Lkcfi_trap[0-9]+:\n\tebreak\n} 3 {target riscv64} } } */
/* { dg-final { scan-assembler-times {^\tebreak$} 3 {target riscv64} } } */
/* { dg-final { scan-assembler-times {^\t\.pushsection\t\.kcfi_traps,"ao",@progbits,\.Lkcfi_trap[0-9]+$} 3 {target x86_64 riscv64} } } */
/* { dg-final { scan-assembler {^\t\.set\t__kcfi_typeid_ext, 329620$} } } */
