#!/bin/sh
# bench.sh CC PLUGIN: compile time of the sqlite3 amalgamation at -O2 with
# no instrumentation, with the native -fpatchable-function-entry=4,2 (where
# CC has it) and with pfe entry=4,2, measured side by side: the variants
# take turns, ROUNDS times, and the fastest and the median CPU time
# (user+sys) of each are compared with the first's.  The fastest round is
# the least disturbed by anything else the machine does.  Then pfe-scan against objdump|grep on the
# linked sqlite3 program (scripts/bench-scan.sh).  What it printed goes to
# testsuite/bench-figures.md (scripts/figures.sh): the figures READMEs cite.
# Debug: ROUNDS=1 sh -x scripts/bench.sh gcc build/gcc/pfe.so
set -eu
cc=$1 plugin=$2
top=$(cd "$(dirname "$0")/.." && pwd -P)
. "$top/scripts/figures.sh"
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
fastest() { sort -n | head -n 1; }

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

# Everything measured, as printed (and into testsuite/bench-figures.md);
# in a subshell, so that set -e stops it at the first failure and "done"
# is not written.
measure() {
	echo "compile time of sqlite3.c at -O2 with $cc, $rounds rounds (variants take turns)"
	for v in $variants; do : > "$out/$v.times"; done
	i=0
	while [ $i -lt "$rounds" ]; do
		for v in $variants; do
			# shellcheck disable=SC2046
			cpu_seconds $cc -O2 $(flags_of $v) -c "$src" -o "$out/sqlite3-$v.o" >> "$out/$v.times"
		done
		i=$((i + 1))
	done
	ratio() { echo "$1 $2" | awk '{ printf "%.3f", $1 / $2 }'; }
	base_min=$(fastest < "$out/none.times")
	base_med=$(median < "$out/none.times")
	printf '  %-7s %9s %7s %9s %7s\n' variant fastest ratio median ratio
	for v in $variants; do
		f=$(fastest < "$out/$v.times")
		m=$(median < "$out/$v.times")
		printf '  %-7s %8.2fs %6sx %8.2fs %6sx\n' "$v" "$f" "$(ratio "$f" "$base_min")" \
			"$m" "$(ratio "$m" "$base_med")"
	done

	# Large binaries with a record for every function, for the scanner: the
	# sqlite3 program, and a generated one with FUNCS functions (default 10000)
	# of about sqlite3's mean size (gas slows down with the number of record
	# sections, as it does for native GCC 13's).
	echo
	echo "pfe-scan list against objdump -d | grep:"
	$cc -O2 -fplugin="$plugin" -fplugin-arg-pfe-entry=4,2 -I"$corpus" \
		-o "$out/sqlite3-pfe" "$top/testsuite/pfe.run/sqlite-driver.c" "$out/sqlite3-pfe.o" -lm
	sh "$top/scripts/bench-scan.sh" "$out/sqlite3-pfe" || : > "$out/missed"
	funcs=${FUNCS:-10000}
	awk -v n="$funcs" 'BEGIN {
		for (i = 0; i < n; i++) {
			printf "__attribute__((noinline)) int f%d(int *v, int n) {\n\tint s = %d;\n", i, i
			printf "\tfor (int k = 0; k < n; k++) {\n\t\ts += v[k] * %d ^ (s >> %d);\n", i % 13 + 3, i % 5 + 1
			printf "\t\tif (s & %d) s -= v[(k + %d) %% n]; else s += k * %d;\n\t}\n", 2 ^ (i % 7), i % 11, i % 9 + 1
			printf "\tswitch (s & 3) { case 0: return s; case 1: return s * 3; case 2: return s ^ %d; }\n\treturn s - n;\n}\n", i
		}
		printf "int main(int argc, char **argv) { int v[4] = { argc, 2, 3, 4 }, s = 0; (void)argv;\n"
		for (i = 0; i < n; i += 97)
			printf "s += f%d(v, 4);\n", i
		printf "return s == 12345; }\n"
	}' > "$out/many.c"
	$cc -O1 -fplugin="$plugin" -fplugin-arg-pfe-entry=4,2 -o "$out/many-pfe" "$out/many.c"
	echo
	sh "$top/scripts/bench-scan.sh" "$out/many-pfe" || : > "$out/missed"
}
rm -f "$out/done" "$out/missed"
(measure; : > "$out/done") | tee "$out/figures.txt"
[ -f "$out/done" ] || { echo "bench: a measurement failed (above)"; exit 1; }
figures_file "$top/testsuite/bench-figures.md" "sh scripts/bench.sh (make bench)" "$out/figures.txt" fence
# A goal missed (bench-scan.sh said which) fails the bench, once its
# figures are written.
[ ! -f "$out/missed" ] || { echo "bench: a goal was missed (above)"; exit 1; }
