// COMDAT functions: the record section is in the function's group.
// { dg-do assemble }
// { dg-options "-O0 -fplugin-arg-pfe-entry=2" }
inline int g(int x) { return x + 1; }
template <class T> T sq(T x) { return x * x; }
int f(int x) { return g(x) + sq(x); }
// { dg-final { pfe-verify --entry=2 --all } }
// { dg-final { pfe-linked {_Z1gi _Z1gi _Z2sqIiET_S0_ _Z2sqIiET_S0_} } }
