// classes.cc: C++ corpus for the differential test: virtual functions,
// multiple and virtual inheritance (thunks), templates (COMDAT), lambdas,
// exceptions, static initialisation, operators.  Compiled only.  No
// standard headers: they would make each of the test's hundreds of
// compiles ten times slower.

struct Base { virtual ~Base() {} virtual int f(int x) { return x; } };
struct Left : virtual Base { int f(int x) override { return x + 1; } virtual int l() { return 1; } };
struct Right : virtual Base { virtual int r() { return 2; } };
struct Both : Left, Right { int f(int x) override { return x + 2; } int r() override { return 3; } };

template <class T> T square(T x) { return x * x; }
template <class T> struct Box {
	T v;
	explicit Box(T x) : v(x) {}
	T get() const { return v; }
	Box operator+(const Box &o) const { return Box(v + o.v); }
};

int use_templates(int x)
{
	Box<int> a(x), b(square(x));
	Box<double> c(1.5);
	return (a + b).get() + (int)c.get() + (int)square(2.0);
}

int use_lambda(const int *v, int n)
{
	int s = 0;
	auto add = [&s](int x) { s += x; };
	for (int i = 0; i < n; i++)
		add(v[i]);
	return s;
}

struct Negative { int value; };

int may_throw(int x)
{
	if (x < 0)
		throw Negative{x};
	return x;
}

int catches(int x)
{
	try {
		return may_throw(x);
	} catch (const Negative &n) {
		return n.value;
	}
}

struct Name {
	const char *s;
	Name(const char *p) : s(p) {}
	~Name() { s = nullptr; }
	int length() const { int n = 0; while (s[n]) n++; return n; }
};
static Name global_name("pfe");
int name_length() { return global_name.length(); }

int call_virtual(Base *b, Right *r) { return b->f(1) + r->r(); }

Both *make_both() { return new Both(); }

namespace ns {
inline int in_ns(int x) { return x + 7; }
int use_ns(int x) { return in_ns(x); }
}
