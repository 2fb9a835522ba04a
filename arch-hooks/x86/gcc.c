/* arch-hooks/x86/gcc.c: the plugin's hooks for GCC's i386 back end:
 * x86_64 and i386 (struct pfe_backend, gcc-plugin/pfe.h).  The bytes
 * these spellings give are x86/bytes.c's (plain C, arch-hooks/arch.h);
 * testsuite/pfe.runtime/encodings.exp checks that the two agree.
 *
 * One GCC back end serves -m64 and -m32, so this file holds two tables and
 * picks one once the target options are final.  -mx32 is refused (its
 * records would need 4-byte pointers to 8-byte addresses; nobody asked).
 *
 * Debugging: compile with -S and -m64/-m32; the NOP spelling, the record
 * directive and the ENDBR handling all come from here.
 */
#define PFE_NEED_DF		/* kcfi-arity reads the arguments' liveness */
#include "../../gcc-plugin/pfe.h"
#include "insn-flags.h"
#include "insn-codes.h"
#include "x86.h"

/* fentry as GCC's -pg -mfentry [-mnop-mcount] prints it
 * (x86_function_profiler): a 5-byte NOP; on x86_64 a direct call, through
 * the GOT (GCC 13 and older) or the PLT (GCC 14+) for PIC, an absolute
 * address in r10 for -mcmodel=large (r10 is the static chain, but the
 * called code must preserve it for nested functions, as mcount does). */
static void x86_put_call(FILE *out, const char *sym, const char *label,
			 bool nop)
{
	fprintf(out, "%s:", label);
	if (nop) {
		fputs("\t.byte\t0x0f, 0x1f, 0x44, 0x00, 0x00\n", out);
		return;
	}
	if (TARGET_64BIT && ix86_cmodel == CM_LARGE) {
		fprintf(out, "\tmovabsq\t$%s, %%r10\n\tcall\t*%%r10\n", sym);
	} else if (TARGET_64BIT && ix86_cmodel == CM_LARGE_PIC) {
		fprintf(out, "\tmovabsq\t$_GLOBAL_OFFSET_TABLE_-%s, %%r11\n"
			"\tleaq\t%s(%%rip), %%r10\n\taddq\t%%r11, %%r10\n"
			"\tmovabsq\t$%s@PLTOFF, %%r11\n\taddq\t%%r11, %%r10\n"
			"\tcall\t*%%r10\n", label, label, sym);
	} else if (TARGET_64BIT && flag_pic) {
		fprintf(out, PFE_PROFILER_PIC_CALL_VIA_PLT ? "\tcall\t%s@PLT\n"
			: "\tcall\t*%s@GOTPCREL(%%rip)\n", sym);
	} else {
		fprintf(out, "\tcall\t%s\n", sym);
	}
}

/* The call, with the struct value and static chain registers saved
 * around it, as final's profile_function does for -pg. */
static void x86_put_fentry_call(FILE *out, const char *sym, const char *label,
				bool nop)
{
	rtx sval = NULL, chain = NULL;

	if (cfun->returns_struct)
		sval = targetm.calls.struct_value_rtx(TREE_TYPE(current_function_decl), true);
	if (cfun->static_chain_decl)
		chain = targetm.calls.static_chain(current_function_decl, true);
	if (sval && REG_P(sval))
		ASM_OUTPUT_REG_PUSH(out, REGNO(sval));
	if (chain && REG_P(chain))
		ASM_OUTPUT_REG_PUSH(out, REGNO(chain));
	x86_put_call(out, sym, label, nop);
	if (chain && REG_P(chain))
		ASM_OUTPUT_REG_POP(out, REGNO(chain));
	if (sval && REG_P(sval))
		ASM_OUTPUT_REG_POP(out, REGNO(sval));
}

/* GCC's -mfentry refuses i386 PIC too ("isn't supported for 32-bit in
 * combination with -fpic"). */
static const char *x86_fentry_refused(void)
{
	return !TARGET_64BIT && flag_pic ? "i386 with -fpic or -fpie" : NULL;
}

static const char *const x86_landing_pads[] = { "endbr64", "endbr32", NULL };

/* ENDBR64/ENDBR32 (GCC 8+; older GCCs have no CET). */
static bool x86_is_landing_pad(pfe_insn insn)
{
#ifdef HAVE_nop_endbr
	return pfe_insn_code(insn) == CODE_FOR_nop_endbr;
#else
	return false;
#endif
}

/* x86 -pg -mfentry -fcf-protection: GCC queues ENDBR to print it with its
 * call; pfe prints it before its own NOPs and GCC then prints none. */
static const char *x86_take_queued_landing_pad(void)
{
	if (!PFE_X86_ENDBR_QUEUED(cfun->machine))
		return NULL;
	PFE_X86_ENDBR_UNQUEUE(cfun->machine);
	return TARGET_64BIT ? "\tendbr64\n" : "\tendbr32\n";
}

/* kCFI (x86_64), as Clang 16 spells it, the hash masked as Clang masks it
 * everywhere but in __kcfi_typeid_ symbols (x86.h).  __cfi_<name>: the
 * padding, then the hash as the immediate of a mov, so that disassemblers
 * see an instruction (Clang's words). */
static void x86_put_kcfi_hash(FILE *out, unsigned int hash, int arity)
{
	/* Clang 21's kcfi-arity names the arity by the mov's register number. */
	static const char *const by_arity[8] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi" };

	fprintf(out, "\tmovl\t$%u, %%%s\n", pfe_x86_kcfi_mask(hash), by_arity[arity < 0 ? 0 : arity]);
}

/* kcfi-arity (Clang 21, x86_64 SysV): how many integer registers bring
 * the current function its arguments: those it reads (live at its entry:
 * Clang counts its live-in general registers, so an argument never read
 * does not count), or 7 when any argument comes on the stack or the
 * function calls va_start (Clang then makes every argument register and
 * %al live in, to save them).  The static chain (r10) never counts: the
 * address of a nested function that has one is refused. */
static int x86_kcfi_arity(bool va_start)
{
	static const char *const regs[] = { "rdi", "rsi", "rdx", "rcx", "r8", "r9" };
	int n = 0;

	if (va_start || pfe_has_stack_args())
		return 7;
	for (size_t i = 0; i < ARRAY_SIZE(regs); i++) {
		int regno = decode_reg_name(regs[i]);

		n += regno >= 0 && pfe_live_at_entry(regno);
	}
	return n;
}

/* Clang's X86 KCFI_CHECK: r10 = -hash + the target's word; a sum of zero
 * is a match.  The target is in r11 (kcfi_call_through_spare): 6 + 4 + 2
 * + 2 bytes, then the call, which Linux reads back from the call (its
 * .retpoline_sites) to rehash the check or turn it into FineIBT's. */
static void x86_put_kcfi_check(FILE *out, unsigned int hash, unsigned int offset)
{
	fprintf(out, "\tmovl\t$%u, %%%%r10d\n\taddl\t-%u(%%0), %%%%r10d\n"
		"\tje\t.Lkcfi_pass%%=\n.Lkcfi_trap%%=:\n\tud2\n",
		-pfe_x86_kcfi_mask(hash), offset);
}

/* Clang aligns x86 functions to 16 bytes, to 1 when optimizing for size;
 * the preamble pads up to that. */
static unsigned int x86_kcfi_align_log2(void)
{
	return optimize_size ? 0 : 4;
}

static const char *const x86_kcfi_clobbers[] = { "r10", "cc", NULL };

/* Whether REG is on the x87 stack (X87), else whether it is an SSE
 * register. */
static bool reg_in(rtx reg, bool x87)
{
	return x87 ? STACK_REG_P(reg) : SSE_REG_P(reg);
}

/* Whether a part of the return value R is in such a register. */
static bool value_in(rtx r, bool x87)
{
	if (r && GET_CODE(r) == PARALLEL) {
		for (int i = 0; i < XVECLEN(r, 0); i++) {
			rtx e = XVECEXP(r, 0, i);

			if (GET_CODE(e) == EXPR_LIST && reg_in(XEXP(e, 0), x87))
				return true;
		}
		return false;
	}
	return r && reg_in(r, x87);
}

/* exits: what a return sled's trampoline keeps of the current function's
 * value.  PFE_EXIT_RETURN_X87 when it comes back on the x87 stack (long
 * double, complex long double, a struct of one): st(0) and st(1) then,
 * and only then (the stack is empty at any other return, by the ABI).
 * Else PFE_EXIT_RETURN_GP when no part of it is in an SSE register (no
 * value, general registers, memory: rax its address), LOW16 when it fits
 * their low 16 bytes, PFE_EXIT_RETURN (full width) when it does not (a
 * 32- or 64-byte vector in ymm0 or zmm0).  An ms_abi function's returns
 * are of the full kind whatever its value: its caller keeps values in
 * rdi, rsi and xmm6-15 across the call, which only the full and x87
 * kinds' trampolines keep through a handler. */
static int x86_exit_return_kind(void)
{
	tree decl = current_function_decl, result = DECL_RESULT(decl);
	bool value = result && !VOID_TYPE_P(TREE_TYPE(result)) &&
		     !aggregate_value_p(result, decl);
	rtx r = value ? targetm.calls.function_value(TREE_TYPE(result), decl, true) : NULL_RTX;

	if (value_in(r, true))
		return PFE_EXIT_RETURN_X87;
	if (cfun->machine->call_abi != SYSV_ABI)
		return PFE_EXIT_RETURN;
	if (!value_in(r, false))
		return PFE_EXIT_RETURN_GP;
	return int_size_in_bytes(TREE_TYPE(result)) <= 16 ? PFE_EXIT_RETURN_LOW16 : PFE_EXIT_RETURN;
}

/* vector-args: whether an argument of type T is at most the low 16
 * bytes of vector registers (xmm): a scalar float (float to __float128,
 * decimal; long double goes on the stack, counted here all the same), a
 * complex float or double (one xmm a part), a vector of up to 16 bytes. */
static bool in_low16(tree t)
{
	if (TREE_CODE(t) == COMPLEX_TYPE)
		return SCALAR_FLOAT_TYPE_P(TREE_TYPE(t)) &&
		       int_size_in_bytes(TREE_TYPE(t)) <= 8;
	if (TREE_CODE(t) == VECTOR_TYPE)
		return int_size_in_bytes(t) > 0 && int_size_in_bytes(t) <= 16;
	return SCALAR_FLOAT_TYPE_P(t);
}

/* vector-args: the low bytes of vector registers the current function's
 * arguments use: none when every parameter is an integer, enum, bool or
 * pointer (general registers or the stack), 16 when the others are
 * in_low16; -1 (saved at full width) for anything else (aggregates,
 * wider vectors), a variadic function (its callers may pass __m256 in
 * ymm), one without a prototype, an ms_abi one (floats in xmm0-3 by
 * position; xmm6-15 are its caller's). */
static int x86_vector_arg_bytes(void)
{
	tree decl = current_function_decl, type = TREE_TYPE(decl);
	int bytes = PFE_VECTOR_ARGS_NONE;

	if (cfun->machine->call_abi != SYSV_ABI || !prototype_p(type) ||
	    stdarg_p(type))
		return -1;
	for (tree arg = DECL_ARGUMENTS(decl); arg; arg = DECL_CHAIN(arg)) {
		tree t = TREE_TYPE(arg);

		if (INTEGRAL_TYPE_P(t) || POINTER_TYPE_P(t))
			continue;
		if (!in_low16(t))
			return -1;
		bytes = PFE_VECTOR_ARGS_LOW16;
	}
	return bytes;
}

/* The functions whose callers keep every register (GCC 7+: an interrupt
 * handler is called by the CPU, whose interrupted code keeps them all). */
static const char *const x86_keeps_all[] = { "no_caller_saved_registers", "interrupt", NULL };

static const struct pfe_backend x86_64_arch = {
	.nop = "\tnop\n",
	.nop_size = 1,
	.pointer_op = "\t.quad\t",
	.pointer_log2 = 3,
	.section_type = "@progbits",
	.is_landing_pad = x86_is_landing_pad,
	.landing_pads = x86_landing_pads,
	.displaced_landing_pad = NULL,
	.landing_pad_text = NULL,
	.take_queued_landing_pad = x86_take_queued_landing_pad,
	/* Scratch (clobbers=scratch) r11: call-clobbered and not used for
	 * arguments; r10 is the static chain of nested functions, so a patch
	 * must preserve it. */
	.n_scratch = 1,
	.scratch_regs = { R11_REG },
	.put_fentry_call = x86_put_fentry_call,
	.fentry_refused = x86_fentry_refused,
	.call_align = 1,
	.fentry_not_leaf = true,
	.slot_format = "\t.quad\t%s\n",
	.put_kcfi_hash = x86_put_kcfi_hash,
	.kcfi_arity = x86_kcfi_arity,
	.kcfi_hash_size = 5,
	.kcfi_align_log2 = x86_kcfi_align_log2,
	.kcfi_pad = true,
	.kcfi_symbol = true,
	.put_kcfi_check = x86_put_kcfi_check,
	.kcfi_clobbers = x86_kcfi_clobbers,
	.kcfi_spare_reg = "r11",
	.kcfi_call_through_spare = true,
	.kcfi_trap_word = "\t.long\t",
	.kcfi_max_offset = 0x7fffffffu,
	.kcfi_va_list = NULL,
	/* exits: the 5-byte NOP a call rel32 replaces (libpfe: x86_64). */
	.exit_sled = "\t.byte\t0x0f, 0x1f, 0x44, 0x00, 0x00\n",
	.exit_return_kind = x86_exit_return_kind,
	.vector_arg_bytes = x86_vector_arg_bytes,
	.keeps_all_attributes = x86_keeps_all,
};

static const struct pfe_backend i386_arch = {
	.nop = "\tnop\n",
	.nop_size = 1,
	.pointer_op = "\t.long\t",
	.pointer_log2 = 2,
	.section_type = "@progbits",
	.is_landing_pad = x86_is_landing_pad,
	.landing_pads = x86_landing_pads,
	.displaced_landing_pad = NULL,
	.landing_pad_text = NULL,
	.take_queued_landing_pad = x86_take_queued_landing_pad,
	/* No register is free at an i386 entry: all may carry arguments
	 * (regparm, fastcall) or the static chain. */
	.n_scratch = 0,
	.scratch_regs = { 0 },
	.put_fentry_call = x86_put_fentry_call,
	.fentry_refused = x86_fentry_refused,
	.call_align = 1,
	.fentry_not_leaf = true,
	.slot_format = "\t.long\t%s, 0\n",
	/* No kCFI: Clang has none for i386. */
	.put_kcfi_hash = NULL,
	.kcfi_arity = NULL,
	.kcfi_hash_size = 0,
	.kcfi_align_log2 = NULL,
	.kcfi_pad = false,
	.kcfi_symbol = false,
	.put_kcfi_check = NULL,
	.kcfi_clobbers = NULL,
	.kcfi_spare_reg = NULL,
	.kcfi_call_through_spare = false,
	.kcfi_trap_word = NULL,
	.kcfi_max_offset = 0,
	.kcfi_va_list = NULL,
	.exit_sled = NULL,	/* libpfe has no exit sleds for i386 */
	.exit_return_kind = NULL,
	.vector_arg_bytes = NULL,
	.keeps_all_attributes = x86_keeps_all,
};

const struct pfe_backend *pfe_backend_select(const char **why)
{
	if (TARGET_X32) {
		*why = "x86 -mx32";
		return NULL;
	}
	return TARGET_64BIT ? &x86_64_arch : &i386_arch;
}
