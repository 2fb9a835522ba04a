// C++ thunks are padded and recorded like any function.
// { dg-do assemble }
// { dg-options "-O0 -fplugin-arg-pfe-entry=3,1" }
struct A { virtual int a(); };
struct B { virtual int b(); };
struct C : A, B { int b(); };
int C::b() { return 4; }
// { dg-final { pfe-nops _ZThn8_N1C1bEv 1 2 } }
// { dg-final { pfe-verify --entry=3,1 --all } }
