// distro-exc.cc: C++ exceptions through padded functions (pfe.run/distro.exp,
// "distro c++ exceptions"): thrown, passed through a frame whose destructor
// must run, caught two frames up, rethrown, caught in main.  Built with pfe
// and without, under a distribution's flags; the outputs must be equal.  No
// library headers (GCC 7.5 here has none): the C++ run-time library only.
// Debug: run both builds; a lost destructor shows in "dtors", a wrong catch
// in "sum", std::terminate as an abort.
extern "C" int printf(const char *, ...);

struct guard {
	int *n;
	~guard() { ++*n; }
};

__attribute__((noinline)) int thrower(int x)
{
	if (x > 2)
		throw x;
	return x;
}

__attribute__((noinline)) int middle(int x, int *dtors)
{
	guard g = { dtors };
	return thrower(x) + 1;
}

__attribute__((noinline)) int catcher(int x, int *dtors)
{
	try {
		return middle(x, dtors);
	} catch (int e) {
		if (e > 4)
			throw;
		return -e;
	}
}

int main()
{
	int dtors = 0;
	long sum = 0;

	for (int i = 0; i < 8; i++) {
		try {
			sum += catcher(i, &dtors);
		} catch (int e) {
			sum += 100 * e;
		}
	}
	printf("sum %ld dtors %d\n", sum, dtors);
	return 0;
}
