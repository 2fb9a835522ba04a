/* kcfi-hash.c: the kCFI type hash of a C function type, as Clang computes it.
 *
 * Clang (CodeGenModule::CreateKCFITypeId, 16 to 21) hashes "_ZTS" followed
 * by the Itanium C++ ABI mangling of the canonical function type, and keeps
 * the low 32 bits of xxHash64 (seed 0) of that string.  Canonical: typedefs
 * are gone (their underlying type is mangled), so are top-level qualifiers
 * of parameters, and array and function parameters are pointers.  What the
 * mangling of a C type is, here:
 *
 *   builtin   v b c a h s t i j l m x y n o f d e g Dh DF16_  (not substituted)
 *   _Complex  C<type>        vector_size  Dv<count>_<type>
 *   pointer   P<type>        qualifiers   [r][V][K]<type> (restrict, volatile, const)
 *   _Atomic   U7_Atomic<type>
 *   tag       <length><name> (struct, union, enum; an anonymous struct named
 *             by a typedef has the typedef's name, one without any "$_<n>",
 *             n counting the unit's anonymous tags in the order they are
 *             first mangled, as Clang's mangling context numbers them)
 *   array     A<size>_<elt>, A_<elt> when incomplete (only under a pointer)
 *   function  F<return><params>E; no parameters "v"; variadic adds "z";
 *             unprototyped (int f()) is F<return>E
 *   substitutions: every component but an unqualified builtin is, once
 *             mangled, a candidate; a later identical one is S_, S0_, S1_ ...
 *             (numbered in the order the candidates were completed).
 *
 * cfi-normalize-integers (Clang's -fsanitize-cfi-icall-experimental-
 * normalize-integers, which Rust needs: its integers have no C names):
 * every integer type and _Bool is the vendor type u<len>i<bits> (signed)
 * or u<len>u<bits> by its size and signedness (plain char by the
 * target's; enums stay their tag), and ".normalized" follows the mangling
 * in the string hashed.  Unlike the builtins these are substitution
 * candidates, one per size and signedness (long and long long share one,
 * _Bool unsigned char's), while a type made of them stays a candidate of
 * its own C type: Clang's dictionary holds types, not strings, so
 * void (long *, long long *) is FvPu3i64PS_E, not FvPu3i64S0_E.  pfe
 * keys those by their unnormalized mangling (full_mangling).
 *
 * Types that have no stable Clang mangling (variably modified types, tags
 * declared inside a function, address spaces, GCC-only types such as
 * _Float32) are refused: the caller reports them.  C only: C++ types mangle
 * differently (references, namespaces, wchar_t) and are refused by pfe.c.
 *
 * Debugging: PFE_KCFI_DEBUG=1 in the environment prints each string hashed;
 * compare it with Clang's: clang -fsanitize=cfi-icall -flto -S -emit-llvm
 * prints the same "_ZTS..." strings in its !type metadata, and
 * __kcfi_typeid_<name> symbols (pfe and Clang both emit them) carry the hash.
 */
#include "pfe.h"

/* xxHash64, seed 0 (the XXH64 specification). */
static const unsigned HOST_WIDE_INT xxh_p1 = HOST_WIDE_INT_UC(11400714785074694791);
static const unsigned HOST_WIDE_INT xxh_p2 = HOST_WIDE_INT_UC(14029467366897019727);
static const unsigned HOST_WIDE_INT xxh_p3 = HOST_WIDE_INT_UC(1609587929392839161);
static const unsigned HOST_WIDE_INT xxh_p4 = HOST_WIDE_INT_UC(9650029242287828579);
static const unsigned HOST_WIDE_INT xxh_p5 = HOST_WIDE_INT_UC(2870177450012600261);

typedef unsigned HOST_WIDE_INT pfe_u64;

static pfe_u64 rotl64(pfe_u64 x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* Little-endian reads, whatever the host. */
static pfe_u64 read_le(const unsigned char *p, int bytes)
{
	pfe_u64 v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static pfe_u64 xxh_round(pfe_u64 acc, pfe_u64 input)
{
	return rotl64(acc + input * xxh_p2, 31) * xxh_p1;
}

static pfe_u64 xxh_merge(pfe_u64 h, pfe_u64 v)
{
	return (h ^ xxh_round(0, v)) * xxh_p1 + xxh_p4;
}

static pfe_u64 xxh64(const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;
	pfe_u64 h;

	if (len >= 32) {
		pfe_u64 v[4] = { xxh_p1 + xxh_p2, xxh_p2, 0, -xxh_p1 };
		for (; p + 32 <= end; p += 32)
			for (int i = 0; i < 4; i++)
				v[i] = xxh_round(v[i], read_le(p + 8 * i, 8));
		h = rotl64(v[0], 1) + rotl64(v[1], 7) + rotl64(v[2], 12) +
		    rotl64(v[3], 18);
		for (int i = 0; i < 4; i++)
			h = xxh_merge(h, v[i]);
	} else {
		h = xxh_p5;
	}
	h += len;
	for (; p + 8 <= end; p += 8)
		h = rotl64(h ^ xxh_round(0, read_le(p, 8)), 27) * xxh_p1 + xxh_p4;
	if (p + 4 <= end) {
		h = rotl64(h ^ read_le(p, 4) * xxh_p1, 23) * xxh_p2 + xxh_p3;
		p += 4;
	}
	for (; p < end; p++)
		h = rotl64(h ^ *p * xxh_p5, 11) * xxh_p1;
	h ^= h >> 33;
	h *= xxh_p2;
	h ^= h >> 29;
	h *= xxh_p3;
	h ^= h >> 32;
	return h;
}

/* A growing string. */
struct mangle_buf {
	char *text;
	size_t len, size;
};

static void buf_add(struct mangle_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n + 1 > b->size) {
		b->size = (b->len + n + 1) * 2;
		b->text = XRESIZEVEC(char, b->text, b->size);
	}
	memcpy(b->text + b->len, s, n + 1);
	b->len += n;
}

static void buf_addf(struct mangle_buf *b, const char *fmt, unsigned HOST_WIDE_INT n)
{
	char num[64];

	snprintf(num, sizeof(num), fmt, n);
	buf_add(b, num);
}

/* One mangling: its output, the substitution candidates completed so far
 * (each as its full, unsubstituted mangling), and the type Clang could not
 * mangle, if any. */
struct mangler {
	struct mangle_buf out;
	struct mangle_buf *subs;
	unsigned int n_subs, max_subs;
	bool normalize;		/* cfi-normalize-integers */
	tree bad;
};

static vec<tree> named_anonymous_tags;	/* pairs: tag, TYPE_DECL */

/* Anonymous tags of the unit, numbered in the order first mangled. */
static vec<tree> anonymous_tags;

static unsigned int anonymous_tag_number(tree type)
{
	unsigned int i;
	tree t;

	FOR_EACH_VEC_ELT(anonymous_tags, i, t)
		if (t == type)
			return i;
	anonymous_tags.safe_push(type);
	return anonymous_tags.length() - 1;
}

static void mangle_type(struct mangler *m, tree type);

/* The TYPE_DECL naming anonymous TAG, or NULL_TREE. */
static tree typedef_of_anonymous_tag(tree tag)
{
	for (unsigned int i = 0; i + 1 < named_anonymous_tags.length(); i += 2)
		if (named_anonymous_tags[i] == tag)
			return named_anonymous_tags[i + 1];
	return NULL_TREE;
}

/* Real types beyond float, double and long double: __float128 "g",
 * _Float16 "DF16_", aarch64 __fp16 "Dh"; NULL for the rest (_Float32,
 * _Float64x, decimal and bfloat types: Clang 16 has no such C type, or
 * mangles it differently from later versions). */
static const char *float_code(tree t)
{
	if (TREE_CODE(t) != REAL_TYPE ||
	    DECIMAL_FLOAT_MODE_P(PFE_SCALAR_TYPE_MODE(t)))
		return NULL;
	if (TYPE_PRECISION(t) == 128)
		return "g";
	if (!strcmp(GET_MODE_NAME(PFE_SCALAR_TYPE_MODE(t)), "BF"))
		return NULL;	/* __bf16 */
	if (TYPE_PRECISION(t) == 16)
		return t == pfe_float16_type_node() ? "DF16_" : "Dh";
	return NULL;
}

/* The code of a builtin type, or NULL. */
static const char *builtin_code(tree t)
{
	static const struct { tree *node; const char *code; } builtins[] = {
		{ &void_type_node, "v" },
		{ &char_type_node, "c" },
		{ &signed_char_type_node, "a" },
		{ &unsigned_char_type_node, "h" },
		{ &short_integer_type_node, "s" },
		{ &short_unsigned_type_node, "t" },
		{ &integer_type_node, "i" },
		{ &unsigned_type_node, "j" },
		{ &long_integer_type_node, "l" },
		{ &long_unsigned_type_node, "m" },
		{ &long_long_integer_type_node, "x" },
		{ &long_long_unsigned_type_node, "y" },
		{ &float_type_node, "f" },
		{ &double_type_node, "d" },
		{ &long_double_type_node, "e" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (t == *builtins[i].node)
			return builtins[i].code;
	if (TREE_CODE(t) == BOOLEAN_TYPE && TYPE_PRECISION(t) == 1)
		return "b";
	if (TREE_CODE(t) == INTEGER_TYPE && TYPE_PRECISION(t) == 128)
		return TYPE_UNSIGNED(t) ? "o" : "n";
	return float_code(t);
}

/* The normalized code of T (a main variant) into BUF: u<len>i<bits> or
 * u<len>u<bits> for a builtin integer type or _Bool, as Clang 21 spells
 * them (by size: _Bool is u2u8); NULL for any other type. */
static const char *normalized_code(tree t, char *buf, size_t size)
{
	unsigned int bits;

	if ((TREE_CODE(t) != INTEGER_TYPE && TREE_CODE(t) != BOOLEAN_TYPE) ||
	    !builtin_code(t))
		return NULL;
	bits = (unsigned int)tree_to_uhwi(TYPE_SIZE(t));	/* 8 to 128 */
	snprintf(buf, size, "u%u%c%u", bits < 100 ? 2 + (bits >= 10) : 4,
		 TYPE_UNSIGNED(t) ? 'u' : 'i', bits);
	return buf;
}

/* A tag's name: the tag, the typedef naming an anonymous one, or $_<n>. */
static void mangle_tag(struct mangler *m, tree t)
{
	tree name = TYPE_NAME(t);
	char anon[32];
	const char *s;

	if (pfe_backend->kcfi_va_list && va_list_type_node &&
	    t == TYPE_MAIN_VARIANT(va_list_type_node)) {
		buf_add(&m->out, pfe_backend->kcfi_va_list);
		return;
	}
	if (!name)
		name = typedef_of_anonymous_tag(t);
	if (name && TREE_CODE(name) == TYPE_DECL)
		name = DECL_NAME(name);
	if (TYPE_CONTEXT(t) && TREE_CODE(TYPE_CONTEXT(t)) == FUNCTION_DECL) {
		m->bad = t;	/* Clang: a local name, Z<function>E... */
		return;
	}
	if (name) {
		s = IDENTIFIER_POINTER(name);
	} else {
		snprintf(anon, sizeof(anon), "$_%u", anonymous_tag_number(t));
		s = anon;
	}
	buf_addf(&m->out, HOST_WIDE_INT_PRINT_UNSIGNED, strlen(s));
	buf_add(&m->out, s);
}

/* Anonymous tags named by a typedef (typedef struct { ... } NAME;): C++
 * mangles them by that name, and so does Clang in C.  GCC's C front end
 * leaves the tag itself nameless: pfe notes the first typedef of each
 * (PLUGIN_FINISH_DECL) and looks it up here. */
void pfe_kcfi_note_typedef(tree decl)
{
	tree original, tag;

	/* Parameters and variables come here too: DECL_ORIGINAL_TYPE is a
	 * TYPE_DECL's field only (elsewhere it reads another field). */
	if (TREE_CODE(decl) != TYPE_DECL)
		return;
	original = DECL_ORIGINAL_TYPE(decl);
	if (!original)
		return;
	tag = TYPE_MAIN_VARIANT(original);
	if ((TREE_CODE(tag) != RECORD_TYPE && TREE_CODE(tag) != UNION_TYPE &&
	     TREE_CODE(tag) != ENUMERAL_TYPE) || TYPE_NAME(tag) ||
	    typedef_of_anonymous_tag(tag))
		return;
	named_anonymous_tags.safe_push(tag);
	named_anonymous_tags.safe_push(decl);
}

/* F<return><params>E. */
static void mangle_function(struct mangler *m, tree fntype)
{
	tree args = TYPE_ARG_TYPES(fntype);

	buf_add(&m->out, "F");
	mangle_type(m, TREE_TYPE(fntype));
	if (!args && !pfe_no_named_args_stdarg_p(fntype)) {
		buf_add(&m->out, "E");	/* unprototyped */
		return;
	}
	if (args == void_list_node)
		buf_add(&m->out, "v");
	for (; args && args != void_list_node; args = TREE_CHAIN(args))
		mangle_type(m, build_qualified_type(TREE_VALUE(args),
			TYPE_QUALS(TREE_VALUE(args)) & TYPE_QUAL_ATOMIC));
	if (!args)
		buf_add(&m->out, "z");
	buf_add(&m->out, "E");
}

/* The unqualified type T (a main variant). */
static void mangle_unqualified(struct mangler *m, tree t)
{
	switch (TREE_CODE(t)) {
	case POINTER_TYPE:
		buf_add(&m->out, "P");
		mangle_type(m, TREE_TYPE(t));
		return;
	case COMPLEX_TYPE:
		buf_add(&m->out, "C");
		mangle_type(m, TREE_TYPE(t));
		return;
	case VECTOR_TYPE:
		buf_addf(&m->out, "Dv" HOST_WIDE_INT_PRINT_UNSIGNED "_",
			 pfe_vector_subparts(t));
		mangle_type(m, TREE_TYPE(t));
		return;
	case ARRAY_TYPE:
		if (TYPE_DOMAIN(t) && TYPE_MAX_VALUE(TYPE_DOMAIN(t))) {
			tree max = TYPE_MAX_VALUE(TYPE_DOMAIN(t));
			if (TREE_CODE(max) != INTEGER_CST) {
				m->bad = t;	/* variable length */
				return;
			}
			buf_addf(&m->out, "A" HOST_WIDE_INT_PRINT_UNSIGNED "_",
				 tree_to_uhwi(max) + 1);
		} else {
			buf_add(&m->out, "A_");
		}
		mangle_type(m, TREE_TYPE(t));
		return;
	case FUNCTION_TYPE:
		mangle_function(m, t);
		return;
	case RECORD_TYPE:
	case UNION_TYPE:
	case ENUMERAL_TYPE:
		mangle_tag(m, t);
		return;
	default:
		m->bad = t;
		return;
	}
}

/* The candidate's index among the substitutions, or -1. */
static int find_substitution(const struct mangler *m, const char *full)
{
	for (unsigned int i = 0; i < m->n_subs; i++)
		if (!strcmp(m->subs[i].text, full))
			return (int)i;
	return -1;
}

static void add_substitution(struct mangler *m, const char *full)
{
	if (m->n_subs == m->max_subs) {
		m->max_subs = m->max_subs ? 2 * m->max_subs : 16;
		m->subs = XRESIZEVEC(struct mangle_buf, m->subs, m->max_subs);
	}
	memset(&m->subs[m->n_subs], 0, sizeof(m->subs[0]));
	buf_add(&m->subs[m->n_subs++], full);
}

static void free_mangler(struct mangler *m)
{
	for (unsigned int i = 0; i < m->n_subs; i++)
		free(m->subs[i].text);
	free(m->subs);
	free(m->out.text);
}

/* The full mangling of TYPE, without substitutions and never normalized:
 * what identifies a candidate (two C types are the same canonical type
 * when these agree; normalized, long and long long would too). */
static char *full_mangling(tree type, tree *bad)
{
	struct mangler m;
	char *text;

	memset(&m, 0, sizeof(m));
	m.max_subs = (unsigned int)-1;	/* no substitutions at all */
	mangle_type(&m, type);
	*bad = m.bad;
	text = m.out.text ? m.out.text : xstrdup("");
	m.out.text = NULL;
	free_mangler(&m);
	return text;
}

/* S_ for the first candidate, S<n-1>_ (base 36, upper case) after. */
static void put_substitution(struct mangler *m, int index)
{
	char seq[16];
	int n = index - 1, i = sizeof(seq) - 1;

	seq[i] = '\0';
	if (index > 0) {
		do {
			int d = n % 36;
			seq[--i] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
			n /= 36;
		} while (n);
	}
	buf_add(&m->out, "S");
	buf_add(&m->out, seq + i);
	buf_add(&m->out, "_");
}

/* A normalized integer CODE: a substitution candidate, its own code the
 * key (no C type's mangling starts with "u"). */
static void mangle_normalized(struct mangler *m, const char *code)
{
	int index;

	if (m->max_subs != (unsigned int)-1) {
		index = find_substitution(m, code);
		if (index >= 0) {
			put_substitution(m, index);
			return;
		}
		add_substitution(m, code);
	}
	buf_add(&m->out, code);
}

/* TYPE with its qualifiers ([r][V][K], then _Atomic), each component a
 * substitution candidate unless it is an unqualified builtin (but for
 * normalized integers). */
static void mangle_type(struct mangler *m, tree type)
{
	bool substitutions = m->max_subs != (unsigned int)-1;
	tree main = TYPE_MAIN_VARIANT(type);
	int quals = TYPE_QUALS(type);
	const char *code;
	char *full = NULL, norm[16];

	if (m->bad)
		return;
	/* Qualifiers of arrays are their elements' (the main variant of an
	 * array of const int is one of int: keep the type); those of function
	 * types are GCC's noreturn/const, which Clang does not mangle. */
	if (TREE_CODE(main) == ARRAY_TYPE)
		main = type;
	if (TREE_CODE(main) == ARRAY_TYPE || TREE_CODE(main) == FUNCTION_TYPE)
		quals = TYPE_UNQUALIFIED;
	if (TYPE_ADDR_SPACE(type) != ADDR_SPACE_GENERIC) {
		m->bad = type;
		return;
	}
	code = builtin_code(main);
	if (m->normalize && quals == TYPE_UNQUALIFIED &&
	    normalized_code(main, norm, sizeof(norm))) {
		mangle_normalized(m, norm);
		return;
	}
	if (code && quals == TYPE_UNQUALIFIED) {
		buf_add(&m->out, code);
		return;
	}
	if (substitutions) {
		tree bad;
		full = full_mangling(type, &bad);
		int index = find_substitution(m, full);
		if (index >= 0) {
			put_substitution(m, index);
			free(full);
			return;
		}
	}
	if (quals & TYPE_QUAL_RESTRICT)
		buf_add(&m->out, "r");
	if (quals & TYPE_QUAL_VOLATILE)
		buf_add(&m->out, "V");
	if (quals & TYPE_QUAL_CONST)
		buf_add(&m->out, "K");
	if (quals & TYPE_QUAL_ATOMIC) {
		/* U7_Atomic<type>: a candidate of its own. */
		tree atomic = build_qualified_type(main, TYPE_QUAL_ATOMIC);
		if ((quals & ~TYPE_QUAL_ATOMIC) != TYPE_UNQUALIFIED) {
			mangle_type(m, atomic);
		} else {
			buf_add(&m->out, "U7_Atomic");
			mangle_type(m, main);
		}
	} else if (quals != TYPE_UNQUALIFIED) {
		mangle_type(m, main);
	} else if (code) {
		buf_add(&m->out, code);
	} else {
		mangle_unqualified(m, main);
	}
	if (substitutions && !m->bad)
		add_substitution(m, full);
	free(full);
}

/* The kCFI type id of FNTYPE (a FUNCTION_TYPE): true and *HASH, or false
 * and *BAD, the (part of the) type Clang has no stable mangling for. */
bool pfe_kcfi_type_hash(tree fntype, unsigned int *hash, tree *bad)
{
	struct mangler m;

	memset(&m, 0, sizeof(m));
	m.normalize = pfe_opts.cfi_normalize_integers;
	buf_add(&m.out, "_ZTS");
	mangle_type(&m, fntype);
	if (m.normalize)
		buf_add(&m.out, ".normalized");
	*bad = m.bad;
	if (!m.bad)
		*hash = (unsigned int)xxh64((const unsigned char *)m.out.text,
					    m.out.len);
	if (getenv("PFE_KCFI_DEBUG"))
		fprintf(stderr, "pfe: kcfi: %s\n", m.out.text);
	free_mangler(&m);
	return !*bad;
}
