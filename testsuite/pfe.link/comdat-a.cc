inline int shared(int x) { return x * 3 + 1; }
int from_a(int x) { return shared(x); }
