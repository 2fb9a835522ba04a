#!/bin/sh
# bench.sh CC PLUGIN: compile time of the sqlite3 amalgamation at -O2 with
# no instrumentation, with the native -fpatchable-function-entry=4,2 (where
# CC has it) and with pfe entry=4,2, measured side by side: the variants
# take turns, ROUNDS times, and the median CPU time (user+sys) of each is
# compared with the first.  Then pfe-scan against objdump|grep on the
# linked sqlite3 program (scripts/bench-scan.sh).
# Debug: ROUNDS=1 sh -x scripts/bench.sh gcc build/gcc/pfe.so
set -eu
cc=$1 plugin=$2
top=$(cd "$(dirname "$0")/.." && pwd -P)
corpus=${PFE_CORPUS:-/var/lib/pfe/corpus}
rounds=${ROUNDS:-5}
out=$top/build/bench
mkdir -p "$out"
src=$corpus/sqlite3.c

cpu_seconds() {
	/usr/bin/time -f '%U %S' -o "$out/time.txt" "$@" >/dev/null 2>&1
	awk '{ printf "%.2f\n", $1 + $2 }' "$out/time.txt"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

variants="none pfe"
echo 'int f(void){return 0;}' > "$out/probe.c"
$cc -fpatchable-function-entry=1 -c -o /dev/null "$out/probe.c" 2>/dev/null && variants="none native pfe"

flags_of() {
	case $1 in
	none) echo "" ;;
	native) echo "-fpatchable-function-entry=4,2" ;;
	pfe) echo "-fplugin=$plugin -fplugin-arg-pfe-entry=4,2" ;;
	esac
}

echo "compile time of sqlite3.c at -O2 with $cc, median of $rounds rounds (variants take turns)"
for v in $variants; do : > "$out/$v.times"; done
i=0
while [ $i -lt "$rounds" ]; do
	for v in $variants; do
		# shellcheck disable=SC2046
		cpu_seconds $cc -O2 $(flags_of $v) -c "$src" -o "$out/sqlite3-$v.o" >> "$out/$v.times"
	done
	i=$((i + 1))
done
base=$(median < "$out/none.times")
for v in $variants; do
	m=$(median < "$out/$v.times")
	printf '  %-7s %7.2fs  %.3fx\n' "$v" "$m" "$(echo "$m $base" | awk '{ print $1 / $2 }')"
done

# Large binaries with a record for every function, for the scanner: the
# sqlite3 program, and a generated one with FUNCS functions (default 60000).
echo
echo "pfe-scan list against objdump -d | grep:"
$cc -O2 -fplugin="$plugin" -fplugin-arg-pfe-entry=4,2 -I"$corpus" \
	-o "$out/sqlite3-pfe" "$top/testsuite/pfe.run/sqlite-driver.c" "$out/sqlite3-pfe.o" -lm
sh "$top/scripts/bench-scan.sh" "$out/sqlite3-pfe"
funcs=${FUNCS:-60000}
awk -v n="$funcs" 'BEGIN {
	for (i = 0; i < n; i++)
		printf "__attribute__((noinline)) int f%d(int x) { return x * %d + %d; }\n", i, i % 7 + 2, i
	printf "int main(int argc, char **argv) { int s = argc; (void)argv;\n"
	for (i = 0; i < n; i += 97)
		printf "s += f%d(s);\n", i
	printf "return s == 0; }\n"
}' > "$out/many.c"
$cc -O1 -fplugin="$plugin" -fplugin-arg-pfe-entry=4,2 -o "$out/many-pfe" "$out/many.c"
echo
sh "$top/scripts/bench-scan.sh" "$out/many-pfe"
