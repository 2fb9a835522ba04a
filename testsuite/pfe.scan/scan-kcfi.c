/* scan-kcfi.c: functions that carry a kCFI type hash (global ones, a
 * static one whose address is taken), built by the plugin with cfi=kcfi
 * and by Clang with -fsanitize=kcfi: pfe-scan list --cfi must show the
 * same hash for both; verify --cfi=LAYOUT finds it where LAYOUT puts it. */
struct kcfi_pair { int a, b; };

int kcfi_add(int a, int b) { return a + b; }

static int kcfi_sub(int a, int b) { return a - b; }

int (*kcfi_ptr)(int, int) = kcfi_sub;

long kcfi_sum(const struct kcfi_pair *p) { return (long)p->a + p->b; }

int kcfi_call(int (*f)(int, int), int x) { return f(x, 1) + 1; }

void kcfi_none(void) { }
