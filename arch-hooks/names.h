/* arch-hooks/names.h: the section and symbol names pfe's output is read
 * by, written once for the plugin (gcc-plugin/), pfe-scan, libpfe
 * (runtime/) and the tests' C code alike.  The same on every target;
 * plain C (the plugin includes it from C++ too).  The shell and Tcl
 * scripts spell them again (scripts/pfe-cc, testsuite/).
 *
 * Debugging: `readelf -SW FILE` and `nm FILE` show these names.
 */
#ifndef PFE_NAMES_H
#define PFE_NAMES_H

/* The entry records: GCC's -fpatchable-function-entry section. */
#define PFE_SECTION_ENTRIES "__patchable_function_entries"
/* The same with record=rel32 (32-bit PC-relative records, arch.h): their
 * own name, so that no reader of the other takes them for addresses. */
#define PFE_SECTION_ENTRIES_REL32 "__patchable_function_entries_rel32"
/* exits: the exit sleds, one record per sled of three pointer-sized words:
 * the sled's address, its function's site (the record of its first NOP,
 * or of its fentry call when it has no NOPs) and the kind below.  A sled
 * is a NOP of the patched call's size right before a sibling call
 * (PFE_EXIT_TAIL) or a return, whose kind says where the value is:
 * PFE_EXIT_RETURN anywhere (vector registers at full width included;
 * every return of an ms_abi function: its trampoline also keeps rdi, rsi
 * and xmm6-15, the MS ABI's callee-saved ones),
 * PFE_EXIT_RETURN_X87 on x86's x87 stack (which is empty at any other
 * return), PFE_EXIT_RETURN_GP in no vector register, LOW16 in their low
 * 16 bytes at most. */
#define PFE_SECTION_EXITS "__pfe_exit_sleds"
#define PFE_EXIT_RETURN 0
#define PFE_EXIT_TAIL 1
#define PFE_EXIT_RETURN_X87 2
#define PFE_EXIT_RETURN_GP 3
#define PFE_EXIT_RETURN_LOW16 4
/* The targets whose arch-hooks have an exit sled (gcc.c's exit_sled) and
 * libpfe its trampolines: the plugin's error elsewhere names them. */
#define PFE_EXITS_TARGETS "x86_64"
/* vector-args: a record per instrumented function whose arguments use at
 * most the low 16 bytes of vector registers, two pointer-sized words: the
 * function's site (as an exit sled's second word) and those bytes:
 * PFE_VECTOR_ARGS_NONE (no vector register) or PFE_VECTOR_ARGS_LOW16.
 * libpfe's entry trampoline saves that much of the vector registers (the
 * rest is dead at the entry: the ABI has a call clobber it); a function
 * without a record gets them saved at their full width. */
#define PFE_SECTION_VECTOR_ARGS "__pfe_vector_args"
#define PFE_VECTOR_ARGS_NONE 0
#define PFE_VECTOR_ARGS_LOW16 16
/* ... and those with vector_arg_bytes and the trampolines that use it. */
#define PFE_VECTOR_ARGS_TARGETS "x86_64"
/* A record per instrumented function whose callers keep every register
 * across it (x86's no_caller_saved_registers and interrupt functions,
 * riscv's interrupt ones), made whatever the options: one pointer-sized
 * word, its site (as vector-args').  libpfe's trampolines keep only what
 * an ordinary call does not clobber, so libpfe leaves such a function
 * alone: a handler of it would clobber what its callers keep. */
#define PFE_SECTION_KEEPS_ALL "__pfe_keeps_all"
/* The call-site records of the fentry call (x86's -mrecord-mcount). */
#define PFE_SECTION_CALLS "__mcount_loc"
/* What the fentry call calls unless told otherwise (GCC's -mfentry). */
#define PFE_FENTRY_SYMBOL "__fentry__"
/* kCFI, as Clang names it: the table of the checks' traps, the absolute
 * symbols __kcfi_typeid_<name> = the type hash of <name>, the x86
 * preamble __cfi_<name> holding the hash before <name>'s entry. */
#define PFE_SECTION_KCFI_TRAPS ".kcfi_traps"
/* Linux's vmlinux holds them in an output section of this name
 * (include/asm-generic/vmlinux.lds.h, KCFI_TRAPS). */
#define PFE_SECTION_KCFI_TRAPS_LINUX "__kcfi_traps"
#define PFE_KCFI_TYPEID_PREFIX "__kcfi_typeid_"
#define PFE_KCFI_PREAMBLE_PREFIX "__cfi_"

#endif /* PFE_NAMES_H */
