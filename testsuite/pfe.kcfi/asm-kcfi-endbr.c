/* x86_64: a hash that is the negation of ENDBR32 (0xfb1e0ff3), here of
 * void (struct k2i14tb *) (found by search), would put a landing pad in
 * the check's immediate: Clang adds 1 to it in the preamble and the check,
 * not in __kcfi_typeid_ (Clang 16 prints the same three numbers).  Other
 * targets keep it.  Debug: -S, or PFE_KCFI_DEBUG=1 for the string hashed
 * (_ZTSFvP7k2i14tbE). */
/* { dg-do compile } */
/* { dg-options "-O2 -fplugin-arg-pfe-cfi=kcfi" } */

struct k2i14tb;
extern void kcfi_endbr_ext(struct k2i14tb *);
void *const kcfi_endbr_addr = (void *)kcfi_endbr_ext;
void kcfi_endbr(struct k2i14tb *p) { (void)p; }
void (*volatile kcfi_endbr_p)(struct k2i14tb *);
void kcfi_endbr_call(void) { kcfi_endbr_p(0); }

/* { dg-final { scan-assembler-times {^\tmovl\t\$81915918, %eax$} 1 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\tmovl\t\$4213051378, %r10d$} 1 {target x86_64} } } */
/* { dg-final { scan-assembler-times {^\t\.word\t81915917$} 1 {target aarch64 riscv64} } } */
/* { dg-final { scan-assembler {^\t\.set\t__kcfi_typeid_kcfi_endbr_ext, 81915917$} } } */
