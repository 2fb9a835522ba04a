// classes.cc: C++ corpus for the differential test: virtual functions,
// multiple and virtual inheritance (thunks), templates (COMDAT), lambdas,
// exceptions, static initialisation, operators.  Compiled only.
#include <stdexcept>
#include <string>
#include <vector>

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

int use_lambda(std::vector<int> &v)
{
	int s = 0;
	auto add = [&s](int x) { s += x; };
	for (int x : v)
		add(x);
	return s;
}

int may_throw(int x)
{
	if (x < 0)
		throw std::runtime_error("negative");
	return x;
}

int catches(int x)
{
	try {
		return may_throw(x);
	} catch (const std::exception &) {
		return -1;
	}
}

static std::string global_name = "pfe";
int name_length() { return (int)global_name.size(); }

int call_virtual(Base *b, Right *r) { return b->f(1) + r->r(); }

Both *make_both() { return new Both(); }

namespace ns {
inline int in_ns(int x) { return x + 7; }
int use_ns(int x) { return in_ns(x); }
}
