// C++ thunks printed by the target at -O0 in fentry mode with no NOPs
// after the entry: each gets its fentry call and call record, as every
// function does (no thunk is left out because it has no NOPs to put in).
// i386: fentry is not PIC.
// { dg-do compile }
// { dg-options "-O0 -fno-pie -fplugin-arg-pfe-fentry" }
// Multiple inheritance: a this-adjusting thunk; virtual inheritance: a
// virtual thunk (its offset depends on the pointer size).
struct A { virtual int a(); void *p[16 / sizeof(void *) - 1]; };
struct B { virtual int b(); };
struct C : A, B { int b(); };
int C::b() { return 4; }
struct V { virtual int v(); };
struct D : virtual V { int v(); };
int D::v() { return 5; }
// { dg-final { scan-function _ZN1C1bEv {__fentry__} } }
// { dg-final { scan-function _ZThn16_N1C1bEv {__fentry__} } }
// { dg-final { scan-function _ZThn16_N1C1bEv {__mcount_loc,[^\n]*\.LPFC[0-9]+$} } }
// { dg-final { scan-function _ZTv0_n*_N1D1vEv {__fentry__} } }
// { dg-final { scan-function _ZTv0_n*_N1D1vEv {__mcount_loc,[^\n]*\.LPFC[0-9]+$} } }
