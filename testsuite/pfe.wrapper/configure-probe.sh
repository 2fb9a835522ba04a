#!/bin/sh
# configure-probe.sh CC...: an autoconf-style check (AC_COMPILE_IFELSE), as
# configure scripts write it: compile a test program with the flag, and use
# the flag only if that worked (wrapper.exp runs it with CC="pfe-cc gcc-7").
# Prints the "checking ..." line and exits 0 when the flag works, leaving
# conftest.o.
flag=-fpatchable-function-entry=2
printf 'checking whether %s accepts %s... ' "$*" "$flag"
cat > conftest.c <<'EOT'
int conftest_f(int x) { return x + 1; }
int main(void) { return conftest_f(-1); }
EOT
if "$@" $flag -c -o conftest.o conftest.c > conftest.log 2>&1; then
	echo yes
	exit 0
fi
echo no
exit 1
