int live_global(int);
int main(void) { return live_global(1) != 12; }
