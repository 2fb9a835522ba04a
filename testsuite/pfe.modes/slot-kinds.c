/* The ops slot's alignment for every kind of function GCC lays out on its
   own terms: -O0/-O2/-Os and -falign-functions=1 (modes.exp), a function
   split into hot and cold parts (only the entry part has a slot), a named
   section, a nested function, a tiny leaf, an always-aligned big one. */
extern void abort(void);
extern int printf(const char *, ...);

int tiny(int x) { return x + 1; }

__attribute__((section(".text.mine"))) int in_named_section(int x) { return x * 3; }

__attribute__((noinline, cold)) static void fail_slowly(const char *why, int v)
{
	printf("%s %d\n", why, v);
	abort();
}

/* The check splits into a hot part and a .cold part at -O2. */
int split(int x)
{
	if (__builtin_expect(x < 0, 0)) {
		fail_slowly("negative", x);
		fail_slowly("again", x * 2);
	}
	return x * 2;
}

int with_nested(int x)
{
	int base = x;
	__attribute__((noinline)) int nested(int y) { return y + base; }
	int (*volatile fp)(int) = nested;
	return fp(x) + nested(1);
}

int main(int argc, char **argv)
{
	(void)argv;
	return tiny(argc) + in_named_section(argc) + split(argc) + with_nested(argc) == 0;
}
