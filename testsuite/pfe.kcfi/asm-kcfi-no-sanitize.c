/* no_sanitize("kcfi"), Clang's spelling (the kernel's __nocfi with Clang):
 * the function's indirect calls are not checked, its hash stays, and no
 * compiler warns (-Werror): GCC 8+'s own no_sanitize would say it does not
 * know kcfi, GCC 4.9-7 have no no_sanitize at all. */
/* { dg-do compile } */
/* { dg-options "-O2 -Werror -fplugin-arg-pfe-cfi=kcfi" } */

int (*volatile fp)(int);
__attribute__((noinline, no_sanitize("kcfi"))) int nocfi_call(int x) { return fp(x); }
__attribute__((noinline)) int checked(int x) { return fp(x) + 2; }

/* One check: checked's. */
/* { dg-final { scan-assembler-times {^\tud2$} 1 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tbrk\t#\(0x8220 \+ \\pfe_r\)$} 1 {target aarch64} } } */
/* { dg-final { scan-assembler-times {^\tebreak$} 1 {target riscv64} } } */
/* Both keep their hash. */
/* { dg-final { scan-assembler {^__cfi_nocfi_call:$} {target x86_64} } } */
/* { dg-final { scan-assembler {^__cfi_checked:$} {target x86_64} } } */
