# scan-kcfi-typeid.s: a __kcfi_typeid_kcfi_add that is not kcfi_add's
# hash (an assembler file that got its hash wrong): verify --cfi must see it.
	.globl	__kcfi_typeid_kcfi_add
	.set	__kcfi_typeid_kcfi_add, 0x12345678
