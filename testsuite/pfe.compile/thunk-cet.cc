// A C++ thunk with -fcf-protection: ENDBR first, then the NOPs.
// { dg-do compile }
// { dg-require-target x86_64 }
// { dg-options "-O0 -fcf-protection -fplugin-arg-pfe-entry=2" }
struct A { virtual int a(); };
struct B { virtual int b(); };
struct C : A, B { int b(); };
int C::b() { return 4; }
// { dg-final { pfe-asm-layout _ZThn8_N1C1bEv 0 2 landing } }
