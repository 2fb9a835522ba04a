/* kcfi-gen.c: random C function types for pfe.kcfi's "generated" test.
 *
 * Usage: kcfi-gen SEED COUNT [q|Q|n] > file.c
 *
 * Writes a unit declaring COUNT extern functions g_f<n> of random types
 * and a table that takes their addresses, so that pfe (cfi=kcfi) and
 * Clang (-fsanitize=kcfi) both define __kcfi_typeid_g_f<n>; kcfi.exp
 * compares the two objects' symbols.  The same SEED always writes the
 * same file (its own PRNG, no libc rand), on any host.
 *
 * The families (the kinds of C type the kernel's function types are made
 * of): every integer and floating type, _Bool, plain/signed/unsigned char,
 * __int128, _Complex; enums of 1, 2, 4 and 8 bytes (packed, negative and
 * wide values) and an anonymous enum named by a typedef; structs and
 * unions by tag (incomplete, complete, anonymous named by a typedef);
 * const, volatile and restrict at every pointer level; typedef chains
 * (typedefs of typedefs, qualified ones); arrays as parameters ([N], [],
 * [static N], [const N], of arrays); function pointers and function types
 * as parameters and return types; variadic functions; unprototyped
 * declarations (int f()) and pointers to them; va_list parameters.
 *
 * The third argument, the qualified return types:
 *   q  may have them (at any level: pointers to functions returning
 *      const int too): -std=gnu99, where GCC keeps them as Clang does;
 *   Q  every function returns a qualified type (typedef, declarator or
 *      declaration specifiers): -std=gnu11, where pfe refuses each;
 *   n  (default) none, nor _Atomic ones: -std=gnu11, where GCC drops the
 *      qualifiers before pfe can see them (DR 423: kcfi.exp).
 * Also definitions, whose hashes kcfi.exp reads right before their
 * entries: K&R ones (g_k<n>, a quarter of COUNT; Clang hashes the
 * prototype they imply), and g_d<n> (an eighth), of random types or
 * redeclared before or after so that GCC's composite type is not the
 * type the definition declared, which Clang hashes.
 *
 * Debug: run it by hand and diff two compilers' nm outputs;
 * PFE_KCFI_DEBUG=1 prints the strings pfe hashes. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

/* xorshift64*: the same numbers on every host. */
static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

enum kind { BASE, PTR, ARRAY, FUNC, NAMED };

#define MAX_PARAMS 5
#define Q_CONST 1
#define Q_VOLATILE 2
#define Q_RESTRICT 4
#define Q_ATOMIC 8

struct type {
	enum kind kind;
	int quals;
	const char *name;		/* BASE: the type; NAMED: the typedef */
	struct type *sub;		/* PTR, ARRAY: element; FUNC: return; NAMED: what it names */
	int size;			/* ARRAY: N, 0 for [] */
	const char *bracket;		/* ARRAY as a parameter: "static ", "const " or "" */
	struct type *params[MAX_PARAMS];
	int n_params;
	int variadic, unprototyped;
};

/* The named types of the prologue (tags, typedefs), usable anywhere. */
static const char *const scalars[] = {
	"_Bool", "char", "signed char", "unsigned char", "short",
	"unsigned short", "int", "unsigned int", "long", "unsigned long",
	"long long", "unsigned long long", "float", "double", "long double",
	"__int128", "unsigned __int128", "_Complex double", "_Complex float",
	"size_t", "ssize_t", "u8", "u16", "u32", "u64", "s32", "bool_t",
	"enum g_e1", "enum g_e2", "enum g_e4", "enum g_eneg", "enum g_e8",
	"enum g_e8neg", "g_anon_enum_t", "enum g_e1neg",
};
static const char *const tags[] = {
	"struct g_s", "struct g_inc", "union g_u", "g_anon_t", "struct g_list",
};

static struct type *new_type(enum kind kind)
{
	struct type *t = calloc(1, sizeof(*t));

	if (!t)
		exit(1);
	t->kind = kind;
	return t;
}

/* Whether T, as a function's return type, is qualified (own or through
 * its typedefs; _Atomic too: GCC warns of it as of the others). */
static int qualified(const struct type *t)
{
	for (; t; t = t->kind == NAMED ? t->sub : NULL)
		if (t->quals)
			return 1;
	return 0;
}

/* Whether T (through typedefs) is a function type, or an array type. */
static enum kind resolved_kind(const struct type *t)
{
	while (t->kind == NAMED)
		t = t->sub;
	return t->kind;
}

static int mode = 'n';	/* q, Q, n: above */
static int force_names;	/* definitions: every parameter named */
static int n_typedefs;
static char *typedef_text[4096];

static char *vxasprintf(const char *fmt, va_list ap)
{
	va_list aq;
	char *s;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	s = malloc((size_t)n + 1);
	if (!s)
		exit(1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vxasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static const char *quals_text(int q)
{
	static const char *const text[16] = {
		"", "const ", "volatile ", "const volatile ", "restrict ",
		"const restrict ", "volatile restrict ", "const volatile restrict ",
		"_Atomic ", "const _Atomic ", "volatile _Atomic ",
		"const volatile _Atomic ",
	};
	return text[q & 15];
}

/* *S with FMT appended. */
static void appendf(char **s, const char *fmt, ...)
{
	va_list ap;
	char *more, *both;

	va_start(ap, fmt);
	more = vxasprintf(fmt, ap);
	va_end(ap);
	both = xasprintf("%s%s", *s, more);
	free(more);
	free(*s);
	*s = both;
}

static char *declaration(const struct type *t, const char *inner);

/* The parameter list of function type T. */
static char *param_list(const struct type *t)
{
	char *s = xasprintf("");

	if (t->unprototyped)
		return s;
	if (!t->n_params)
		return xasprintf("void");
	for (int i = 0; i < t->n_params; i++) {
		char *name = xasprintf("p%d", i);
		char *p = declaration(t->params[i], rnd(2) || force_names ? name : "");
		char *n = xasprintf("%s%s%s", s, i ? ", " : "", p);
		free(s);
		free(p);
		free(name);
		s = n;
	}
	if (t->variadic) {
		char *n = xasprintf("%s, ...", s);
		free(s);
		s = n;
	}
	return s;
}

/* T declaring INNER (a name or an abstract declarator), as C spells it. */
static char *declaration(const struct type *t, const char *inner)
{
	char *s, *in;

	switch (t->kind) {
	case BASE:
	case NAMED:
		/* Qualifiers before or after the specifier: both are C.  _Atomic
		 * before it: "int _Atomic (" would start _Atomic(type). */
		if (rnd(2) || (t->quals & Q_ATOMIC))
			return xasprintf("%s%s%s%s", quals_text(t->quals), t->name,
					 *inner ? " " : "", inner);
		return xasprintf("%s %s%s", t->name, quals_text(t->quals), inner);
	case PTR:
		if (t->sub->kind == ARRAY || t->sub->kind == FUNC)
			in = xasprintf("(*%s%s)", quals_text(t->quals), inner);
		else
			in = xasprintf("*%s%s", quals_text(t->quals), inner);
		s = declaration(t->sub, in);
		free(in);
		return s;
	case ARRAY:
		if (t->size)
			in = xasprintf("%s[%s%d]", inner, t->bracket ? t->bracket : "", t->size);
		else
			in = xasprintf("%s[]", inner);
		s = declaration(t->sub, in);
		free(in);
		return s;
	case FUNC: {
		char *params = param_list(t);
		in = xasprintf("%s(%s)", inner, params);
		free(params);
		s = declaration(t->sub, in);
		free(in);
		return s;
	}
	}
	return NULL;
}

static struct type *gen_type(int depth, int role);

/* Roles: what a type is used as. */
enum { R_PARAM, R_RETURN, R_POINTEE, R_ELEMENT, R_TYPEDEF };

static struct type *gen_function(int depth, int want_qualified_return)
{
	struct type *f = new_type(FUNC);
	int tries = 0;

	do
		f->sub = gen_type(depth + 1, R_RETURN);
	while (mode == 'Q' && want_qualified_return && !qualified(f->sub) && ++tries < 50);
	if (mode == 'Q' && want_qualified_return && !qualified(f->sub))
		f->sub->quals |= Q_CONST;
	switch (rnd(10)) {
	case 0:
		f->unprototyped = 1;
		return f;
	case 1:
		f->n_params = 0;
		break;
	default:
		f->n_params = 1 + rnd(depth ? 2 : MAX_PARAMS);
	}
	for (int i = 0; i < f->n_params; i++)
		f->params[i] = gen_type(depth + 1, R_PARAM);
	f->variadic = f->n_params && rnd(6) == 0;
	return f;
}

/* A typedef of T (emitted now), possibly of a typedef of it. */
static struct type *gen_typedef(struct type *t)
{
	struct type *n = new_type(NAMED);
	char name[32];

	snprintf(name, sizeof(name), "g_t%d", n_typedefs);
	n->name = xasprintf("%s", name);
	n->sub = t;
	if (n_typedefs < (int)(sizeof(typedef_text) / sizeof(typedef_text[0])))
		typedef_text[n_typedefs++] = declaration(t, name);
	return n;
}

static struct type *gen_base(int role)
{
	struct type *t = new_type(BASE);
	unsigned pick = rnd(100);

	if ((role == R_RETURN || role == R_POINTEE) && pick < 12)
		t->name = "void";
	else if (pick < 25)
		t->name = tags[rnd(sizeof(tags) / sizeof(tags[0]))];
	else if (role == R_PARAM && pick < 28)
		t->name = "__builtin_va_list";
	else
		t->name = scalars[rnd(sizeof(scalars) / sizeof(scalars[0]))];
	if (!strcmp(t->name, "struct g_inc") && role != R_POINTEE)
		t->name = "struct g_s";	/* incomplete: only behind a pointer */
	return t;
}

/* Qualifiers for a type of kind KIND in ROLE. */
static int gen_quals(enum kind kind, int role, const struct type *t)
{
	int q = 0;

	if (rnd(3) == 0)
		q |= Q_CONST;
	if (rnd(6) == 0)
		q |= Q_VOLATILE;
	if (kind == PTR && resolved_kind(t->sub) != FUNC && rnd(4) == 0)
		q |= Q_RESTRICT;
	if (kind == BASE && role != R_RETURN && rnd(15) == 0 &&
	    strcmp(t->name, "void") && strcmp(t->name, "__builtin_va_list") &&
	    strncmp(t->name, "_Complex", 8) && strcmp(t->name, "struct g_inc"))
		q |= Q_ATOMIC;
	if (role == R_RETURN && mode == 'n')
		q = 0;
	if (kind == FUNC || kind == ARRAY)
		q = 0;
	return q;
}

static struct type *gen_type(int depth, int role)
{
	struct type *t;
	unsigned pick = rnd(100);

	if (depth > 3)
		pick = 99;
	if (pick < 30 && role != R_RETURN) {
		t = new_type(PTR);
		t->sub = gen_type(depth + 1, R_POINTEE);
	} else if (pick < 40) {
		/* A pointer to a function (a parameter may also be a function). */
		if (role == R_PARAM && rnd(3) == 0)
			return gen_function(depth, rnd(2));
		t = new_type(PTR);
		t->sub = gen_function(depth, rnd(2));
	} else if (pick < 48 && (role == R_PARAM || role == R_POINTEE)) {
		t = new_type(ARRAY);
		t->size = role == R_PARAM && rnd(4) == 0 ? 0 : 1 + (int)rnd(16);
		if (role == R_PARAM && t->size && rnd(3) == 0)
			t->bracket = rnd(2) ? "static " : "const ";
		t->sub = gen_type(depth + 1, R_ELEMENT);
		if (resolved_kind(t->sub) == FUNC || !strcmp(t->sub->name ? t->sub->name : "", "void") ||
		    !strcmp(t->sub->name ? t->sub->name : "", "__builtin_va_list")) {
			struct type *e = new_type(BASE);
			e->name = "int";
			t->sub = e;
		}
		return t;
	} else if (pick < 50 && role != R_RETURN) {
		t = new_type(PTR);
		t->sub = gen_type(depth + 1, R_POINTEE);
	} else if (pick < 62 && depth < 3) {
		/* Through a typedef (chains: the typedef's type may be one). */
		struct type *named = gen_type(depth + 1, role == R_RETURN ? R_RETURN : R_TYPEDEF);
		if (resolved_kind(named) == ARRAY || resolved_kind(named) == FUNC ||
		    (named->kind == BASE && !strcmp(named->name, "void") && role != R_RETURN))
			return named;
		t = gen_typedef(named);
	} else {
		t = gen_base(role);
	}
	t->quals = gen_quals(t->kind, role, t);
	/* Qualified void only as a pointee. */
	if (t->kind == BASE && !strcmp(t->name, "void") && role == R_RETURN && mode == 'n')
		t->quals = 0;
	return t;
}

/* S's decimal digits as a number, -1 if it has anything else: not
 * strtoull or atoi, which glibc 2.38's headers bind to symbols an older
 * libc lacks (pfe.lint says why). */
static long long number(const char *s)
{
	long long n = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > 100000000)
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n;
}

int main(int argc, char **argv)
{
	int count;
	struct type **fns;
	char **text;
	char *defs;

	if (argc < 3 || number(argv[1]) < 0 || number(argv[2]) < 0) {
		fprintf(stderr, "usage: kcfi-gen SEED COUNT [q|Q|n] (SEED, COUNT decimal)\n");
		return 2;
	}
	rng_state = (uint64_t)number(argv[1]) * 2654435761u + 1;
	count = (int)number(argv[2]);
	if (argc > 3)
		mode = argv[3][0];
	fns = calloc((size_t)count, sizeof(*fns));
	text = calloc((size_t)count, sizeof(*text));
	if (!fns || !text)
		return 1;
	for (int i = 0; i < count; i++) {
		char name[32];

		snprintf(name, sizeof(name), "g_f%d", i);
		fns[i] = gen_function(0, mode == 'Q');
		if (rnd(8) == 0) {
			/* Through a typedef of the function type (the
			 * kernel's handler types), const or not: a
			 * qualified function type, GCC's const function. */
			struct type *named = gen_typedef(fns[i]);
			if (mode == 'Q') {
				char *d = typedef_text[n_typedefs - 1];
				typedef_text[n_typedefs - 1] = xasprintf("%s; /* Q */", d);
				free(d);
			}
			named->quals = rnd(4) ? 0 : Q_CONST;
			fns[i] = named;
		}
		text[i] = declaration(fns[i], name);
	}
	/* Definitions (g_d<n>, an eighth of COUNT): of random prototyped
	 * types, or redeclared around the definition so that the composite
	 * type differs from the definition's (an array or a function pointer
	 * parameter completed, int f() then f(void)), before or after it:
	 * Clang hashes the type the definition declared. */
	defs = xasprintf("");
	force_names = 1;
	for (int i = 0; i < count / 8; i++) {
		/* Element types; the first six are their own promoted types,
		 * as a parameter of int (*)() must be (C11 6.7.6.3p15). */
		static const char *const elt[] = { "int", "long", "double",
			"struct g_s", "void *", "unsigned int", "char", "u16",
			"enum g_e8" };
		const char *e = elt[rnd(sizeof(elt) / sizeof(elt[0]))];
		const char *pe = elt[rnd(6)];
		int k = 1 + (int)rnd(9), before = (int)rnd(2);
		char name[32];
		char *d;

		snprintf(name, sizeof(name), "g_d%d", i);
		switch (rnd(5)) {
		case 0:
			if (before)
				appendf(&defs, "int %s(%s (*a)[%d]);\n", name, e, k);
			appendf(&defs, "int %s(%s (*a)[]) { return 0; }\n", name, e);
			if (!before)
				appendf(&defs, "int %s(%s (*a)[%d]);\n", name, e, k);
			break;
		case 1:
			if (before)
				appendf(&defs, "int %s(int (*cb)(%s));\n", name, pe);
			appendf(&defs, "int %s(int (*cb)()) { return 0; }\n", name);
			if (!before)
				appendf(&defs, "int %s(int (*cb)(%s));\n", name, pe);
			break;
		case 2:
			if (before)
				appendf(&defs, "int %s(void);\n", name);
			appendf(&defs, "int %s() { return 0; }\n", name);
			if (!before)
				appendf(&defs, "int %s(void);\n", name);
			break;
		default: {
			struct type *f = gen_function(0, 0);

			f->unprototyped = 0;
			d = declaration(f, name);
			appendf(&defs, "%s\n{\n", d);
			free(d);
			/* A plain body: one that traps would go to .text.unlikely. */
			const struct type *ret = f->sub;

			while (ret->kind == NAMED)
				ret = ret->sub;
			if (ret->kind != BASE || strcmp(ret->name, "void")) {
				d = declaration(f->sub, "r");
				appendf(&defs, "\t%s;\n\n\t__builtin_memset((void *)&r, 0, sizeof(r));\n\treturn r;\n", d);
				free(d);
			}
			appendf(&defs, "}\n");
		}
		}
	}
	force_names = 0;
	printf("/* kcfi-gen %s %d %c: generated, do not edit. */\n"
	       "typedef __SIZE_TYPE__ size_t;\n"
	       "typedef long ssize_t;\n"
	       "typedef unsigned char u8;\n"
	       "typedef unsigned short u16;\n"
	       "typedef unsigned int u32;\n"
	       "typedef unsigned long long u64;\n"
	       "typedef int s32;\n"
	       "typedef _Bool bool_t;\n"
	       "enum g_e1 { G_E1 = 1 } __attribute__((packed));\n"
	       "enum g_e1neg { G_E1NEG = -1 } __attribute__((packed));\n"
	       "enum g_e2 { G_E2 = 0x100 } __attribute__((packed));\n"
	       "enum g_e4 { G_E4 = 1 };\n"
	       "enum g_eneg { G_ENEG = -1 };\n"
	       "enum g_e8 { G_E8 = 0x100000000 };\n"
	       "enum g_e8neg { G_E8NEG = -0x100000000 };\n"
	       "typedef enum { G_AE = 3 } g_anon_enum_t;\n"
	       "struct g_s { int a; };\n"
	       "struct g_inc;\n"
	       "union g_u { int a; float b; };\n"
	       "typedef struct { int x; } g_anon_t;\n"
	       "struct g_list { struct g_list *next; };\n",
	       argv[1], count, mode);
	for (int i = 0; i < n_typedefs; i++)
		printf("typedef %s%s\n", typedef_text[i],
		       strchr(typedef_text[i], ';') ? "" : ";");
	for (int i = 0; i < count; i++)
		printf("extern %s;%s\n", text[i],
		       mode == 'Q' && fns[i]->kind == FUNC ? " /* Q */" : "");
	/* K&R definitions: unprototyped, whatever their parameters. */
	for (int i = 0; i < count / 4; i++) {
		static const char *const kr[] = { "int", "char", "long", "double",
			"unsigned short", "struct g_s *", "float", "enum g_e1",
			"_Bool", "signed char", "unsigned char", "short", "u16",
			"enum g_e4", "enum g_eneg", "enum g_e8", "enum g_e8neg",
			"enum g_e1neg", "enum g_e2", "g_anon_enum_t", "size_t",
			"long double", "__int128", "const char *", "struct g_s",
			"union g_u", "unsigned int", "_Complex float" };
		int n = (int)rnd(4);

		/* Declared before, unprototyped, or not. */
		if (rnd(3) == 0)
			printf("%s g_k%d();\n", i % 3 ? "int" : "long", i);
		printf("%s g_k%d(", i % 3 ? "int" : "long", i);
		for (int j = 0; j < n; j++)
			printf("%sa%d", j ? ", " : "", j);
		printf(")\n");
		for (int j = 0; j < n; j++)
			printf("\t%s a%d;\n", kr[rnd(sizeof(kr) / sizeof(kr[0]))], j);
		printf("{\n\treturn %d;\n}\n", n);
	}
	fputs(defs, stdout);
	printf("void *g_table[] = {\n");
	for (int i = 0; i < count; i++)
		printf("\t(void *)g_f%d,\n", i);
	for (int i = 0; i < count / 4; i++)
		printf("\t(void *)g_k%d,\n", i);
	for (int i = 0; i < count / 8; i++)
		printf("\t(void *)g_d%d,\n", i);
	printf("};\n");
	return 0;
}
