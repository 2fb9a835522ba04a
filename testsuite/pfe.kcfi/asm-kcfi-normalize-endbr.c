/* x86_64, cfi-normalize-integers: the masking of a hash that is an ENDBR
 * encoding's negation is as without it (Clang's MaskKCFIType sees only the
 * number): void (struct k955o5d *) normalized (found by search;
 * _ZTSFvP7k955o5dE.normalized) hashes to -ENDBR64 (0x05e1f00d), which the
 * preamble and the check carry plus 1, __kcfi_typeid_ as is.  Other
 * targets keep it.  The numbers are the sid chroot's Clang 21's with
 * -fsanitize-cfi-icall-experimental-normalize-integers. */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-cfi=kcfi -fplugin-arg-pfe-cfi-normalize-integers" } */

struct k955o5d;
extern void kcfi_endbr_ext(struct k955o5d *);
void *const kcfi_endbr_addr = (void *)kcfi_endbr_ext;
void kcfi_endbr(struct k955o5d *p) { (void)p; }
void (*volatile kcfi_endbr_p)(struct k955o5d *);
void kcfi_endbr_call(void) { kcfi_endbr_p(0); }

/* { dg-final { scan-assembler-times {^\tmovl\t\$98693134, %eax$} 1 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tmovl\t\$4196274162, %r10d$} 1 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\t\.word\t98693133$} 1 {target aarch64 riscv64} } } */
/* { dg-final { scan-assembler {^\t\.set\t__kcfi_typeid_kcfi_endbr_ext, 98693133$} } } */
