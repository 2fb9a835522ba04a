// A C++ thunk with -fcf-protection: ENDBR first, then the NOPs.
// { dg-do compile }
// { dg-require-target x86_64 i386 }
// { dg-require-accepts -fcf-protection }
// { dg-options "-O0 -fcf-protection -fplugin-arg-pfe-entry=2" }
// A is 16 bytes with 4- and 8-byte pointers: the thunk is _ZThn16_ on all.
struct A { virtual int a(); void *p[16 / sizeof(void *) - 1]; };
struct B { virtual int b(); };
struct C : A, B { int b(); };
int C::b() { return 4; }
// { dg-final { pfe-asm-layout _ZThn16_N1C1bEv 0 2 landing } }
