#!/bin/sh
# check-matrix.sh: run the DejaGnu suite for every compiler of the matrix,
# normal and LEGACY builds, two at a time; print one DejaGnu summary per
# compiler and, last, one line "N passed, N failed" summed over all.
#
# The differential test (pfe.diff) is what costs: normal builds run it on
# the own corpus and csmith programs at every -O level and M,N; LEGACY
# builds (whose emitting code is the same) at -O2 only; the sqlite3
# amalgamation runs on one compiler per target (PFE_DIFF=sqlite): gcc-13 for
# x86_64, the GCC 12 cross compilers for aarch64 and riscv64.
#
# Debug: PFE_MATRIX="gcc-12 gcc-12 - - full" scripts/check-matrix.sh runs one
# line of the table; each run's logs are in build/check/NAME/pfe.log.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"

# name compiler legacy cflags(comma-separated) diff
DEFAULT_MATRIX="
gcc-13 gcc-13 - - sqlite
gcc-12 gcc-12 - - full
gcc-9 gcc-9 - - full
gcc-10 gcc-10 - - full
gcc-11 gcc-11 - - full
gcc-14 gcc-14 - - full
gcc-15 gcc-15 - - full
gcc-16 gcc-16 - - full
gcc-12-m32 gcc-12 - -m32 full
aarch64-linux-gnu-gcc aarch64-linux-gnu-gcc - - sqlite
aarch64-linux-gnu-gcc-11 aarch64-linux-gnu-gcc-11 - - full
riscv64-linux-gnu-gcc riscv64-linux-gnu-gcc - - sqlite
riscv64-rv64g riscv64-linux-gnu-gcc - -march=rv64g,-mabi=lp64d full
gcc-9-legacy gcc-9 1 - quick
gcc-10-legacy gcc-10 1 - quick
gcc-11-legacy gcc-11 1 - quick
gcc-12-legacy gcc-12 1 - quick
gcc-13-legacy gcc-13 1 - quick
gcc-14-legacy gcc-14 1 - quick
gcc-15-legacy gcc-15 1 - quick
gcc-16-legacy gcc-16 1 - quick
gcc-12-m32-legacy gcc-12 1 -m32 quick
aarch64-linux-gnu-gcc-legacy aarch64-linux-gnu-gcc 1 - quick
aarch64-linux-gnu-gcc-11-legacy aarch64-linux-gnu-gcc-11 1 - quick
riscv64-linux-gnu-gcc-legacy riscv64-linux-gnu-gcc 1 - quick
"
MATRIX=${PFE_MATRIX:-$DEFAULT_MATRIX}
JOBS=${PFE_JOBS:-2}

make -s build/pfe-scan
scripts/sid-run true		# make the chroot's mounts before the jobs race

echo "$MATRIX" | grep -v '^$' | xargs -P "$JOBS" -L 1 sh -c '
	name=$0 cc=$1 legacy=$2 cflags=$3 diff=$4
	[ "$legacy" = - ] && legacy=
	[ "$cflags" = - ] && cflags=
	cflags=$(echo "$cflags" | tr , " ")
	PFE_DIFF=$diff scripts/run-suite.sh "$name" "$cc" "$legacy" "$cflags" > "build/check-$name.summary" 2>&1 ||
		echo "run-suite.sh failed" >> "build/check-$name.summary"'

passed=0 failed=0
for name in $(echo "$MATRIX" | awk 'NF { print $1 }'); do
	f=build/check-$name.summary
	echo "=== $name"
	grep -E '^#|failed' "$f" || echo "no summary (see build/check/$name)"
	[ -f "build/check/$name/diff-stats.txt" ] &&
		echo "pfe.diff: $(cat "build/check/$name/diff-stats.txt")"
	p=$(awk '/^# of expected passes/ { print $NF }' "$f")
	x=$(awk '/^# of (unexpected failures|unexpected successes|unresolved testcases)/ { n += $NF } END { print n + 0 }' "$f")
	[ -n "$p" ] || { p=0; x=$((x + 1)); }
	grep -q 'run-suite.sh failed' "$f" && x=$((x + 1))
	passed=$((passed + p))
	failed=$((failed + x))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
