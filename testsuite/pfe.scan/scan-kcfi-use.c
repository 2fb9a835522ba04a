/* scan-kcfi-use.c: takes the address of kcfi_add, declared only: the
 * object gets __kcfi_typeid_kcfi_add (its hash, an absolute symbol), which
 * pfe-scan verify --cfi compares with the hash before kcfi_add once both
 * objects are in one (ld -r). */
int kcfi_add(int a, int b);

int (*kcfi_use)(int, int) = kcfi_add;
