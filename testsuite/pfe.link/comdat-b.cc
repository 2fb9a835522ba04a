inline int shared(int x) { return x * 3 + 1; }
int from_a(int);
int main() { return from_a(1) + shared(2) != 11; }
