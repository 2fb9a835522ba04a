// C++ thunks printed by the target at -O0 (GCC 11+ native gives them no
// NOPs and no record): pfe pads them like any function, landing pad first.
// { dg-do compile }
// { dg-options "-O0 -fplugin-arg-pfe-entry=3,1" }
// A is 16 bytes with 4- and 8-byte pointers: the thunk is _ZThn16_ on all.
struct A { virtual int a(); void *p[16 / sizeof(void *) - 1]; };
struct B { virtual int b(); };
struct C : A, B { int b(); };
int C::b() { return 4; }
// { dg-final { pfe-asm-layout _ZN1C1bEv 1 2 } }
// { dg-final { pfe-asm-layout _ZThn16_N1C1bEv 1 2 } }
