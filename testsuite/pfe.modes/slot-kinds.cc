/* The ops slot in C++: COMDAT functions (a template, an inline member),
   and the thunks of a class with two bases (their code is printed by the
   target, not by final). */
struct A { virtual int a(); int x; };
struct B { virtual int b(); int y; };
struct C : A, B { int a() override; int b() override; };
int A::a() { return x; }
int B::b() { return y; }
int C::a() { return x + 1; }
int C::b() { return y + 2; }

template <typename T> __attribute__((noinline)) T twice(T v) { return v + v; }
__attribute__((noinline)) inline int shared(int v) { return twice(v) + 1; }

int use(C *c, int v) { return c->a() + c->b() + shared(v) + twice<long>(v); }
