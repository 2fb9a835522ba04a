// C++ thunks are padded and recorded like any function.
// { dg-do assemble }
// { dg-options "-O0 -fplugin-arg-pfe-entry=3,1" }
// A is 16 bytes with 4- and 8-byte pointers: the thunk is _ZThn16_ on all.
struct A { virtual int a(); void *p[16 / sizeof(void *) - 1]; };
struct B { virtual int b(); };
struct C : A, B { int b(); };
int C::b() { return 4; }
// { dg-final { pfe-nops _ZThn16_N1C1bEv 1 2 } }
// { dg-final { pfe-verify --entry=3,1 --all } }
