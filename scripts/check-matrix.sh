#!/bin/sh
# check-matrix.sh [standard|full]: run the DejaGnu suite for every run of
# testsuite/matrix, two at a time, after the harness's own tests
# (check-harness.sh) then GCC's own tests (check-gcc.sh), beside the quick
# subset of the packages tier (check-packages.sh -q); print one DejaGnu
# summary and result per run (suite-result.sh: every FAIL, XPASS,
# UNRESOLVED, ERROR, a run that did not run or finish, an UNSUPPORTED that
# is not expected or an expected one that is missing, a test of the run's
# baseline that did not run, counts as failed) and, last, one line
# "TIER: N passed, N failed" summed over all.
#
# Tiers: standard (make check) runs each line of the matrix as it says
# (a line whose PARTS is "-" not at all, and says so in times.txt);
# full (make check-full) runs every line with the whole suite and the whole
# differential test (PARTS all, DIFF full; sqlite stays sqlite, and a DIFF
# written STANDARD/FULL is FULL).
#
# Everything must finish within the time budget: PFE_BUDGET seconds (4800
# for standard: CI stops at 90 minutes; 7200 for full)
# from PFE_CHECK_START (seconds since the epoch, set by make check before
# it installs anything; else now).  A run that cannot start before the
# budget is spent, or has not finished when it is, is a failure that names
# it; so is a run of testsuite/matrix that has no baseline
# (testsuite/baseline/NAME, scripts/update-baseline.sh), and every variable
# of the environment that changes what runs (PFE_MATRIX, RUNTESTFLAGS, ...:
# .ci/run clears them).
#
# Debug: PFE_MATRIX="gcc-12 gcc-12 - - full all" scripts/check-matrix.sh
# runs one line of the table (and says that the others did not run); each
# run's logs are in build/check/NAME/pfe.log.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"
. scripts/figures.sh

tier=${1:-standard}
# What each tier is: its make target, its budget, its figures.
case $tier in
standard) target=check budget=4800 figures=testsuite/figures.md ;;
full) target=check-full budget=7200 figures=testsuite/figures-full.md ;;
*) echo "check-matrix: tier $tier: standard or full" >&2; exit 1 ;;
esac
ALL=$(grep -v '^#' testsuite/matrix | grep -v '^ *$')
# PARTS "-": a run make check-full alone makes (testsuite/matrix says why).
full_only=
if [ "$tier" = standard ]; then
	full_only=$(echo "$ALL" | awk '$6 == "-" { printf "%s%s", s, $1; s = ", " }')
	ALL=$(echo "$ALL" | awk '$6 != "-"')
fi
MATRIX=${PFE_MATRIX:-$ALL}
JOBS=${PFE_JOBS:-2}
start=${PFE_CHECK_START:-$(date +%s)}
deadline=$((start + ${PFE_BUDGET:-$budget}))
# Variables that change which tests run or what they are held to.
STEERING="PFE_MATRIX RUNTESTFLAGS PFE_DIFF PFE_ONCE PFE_EXPECTED_UNSUPPORTED
 PFE_BASELINE_DIR PFE_SUITE_TIMEOUT PFE_FUZZ_RUNS PFE_PLUGIN PFE_CC"
names() { echo "$1" | awk 'NF { print $1 }'; }

# No file of an earlier check can be read as this one's: every run's
# directory and result go first (a run that then never starts has none).
for name in harness gcc-tests packages $(names "$ALL"); do
	rm -rf "build/check/$name" "build/check-$name.result"
done
mkdir -p build/check

# within_budget CMD...: CMD, stopped when the budget is spent (status 124,
# at once when it is spent already).
within_budget() {
	left=$((deadline - $(date +%s)))
	[ "$left" -gt 0 ] || return 124
	timeout -k 10 "$left" "$@"
}
# not_run NAME WHY: run NAME's files say that it did not run, and why.
not_run() {
	mkdir -p "build/check/$1"
	echo "not run: $2" > "build/check/$1/run-status"
}

# step NAME SCRIPT ARGS...: run NAME, sh SCRIPT ARGS within the budget
# (its output build/check-NAME.result), its seconds in
# build/check/NAME/seconds; one that left no pfe.sum did not run.
step() {
	name=$1 b=$(date +%s)
	shift
	what=$*
	within_budget sh "$@" > "build/check-$name.result" 2>&1 ||
		[ -s "build/check/$name/pfe.sum" ] || not_run "$name" "${what#scripts/} stopped (time budget)"
	mkdir -p "build/check/$name"
	echo "$name $(($(date +%s) - b))" > "build/check/$name/seconds"
}

t0=$(date +%s)
make -s build/pfe-scan
# What the three steps below all build (gcc-12's plugins and libpfe),
# built before they run side by side, so that two makes never write one
# file (each step still builds, and says so, what fails here).
within_budget make -s CC=gcc-12 plugin wrong-version-plugin runtime > /dev/null 2>&1 || :
scripts/sid-run true		# make the chroot's mounts before the jobs race
# Two lanes, as the matrix below runs two jobs: the harness (one command
# at a time), then GCC's own tests of the feature through pfe-cc (run
# "gcc-tests": after the harness, whose gcc-tests-setup case writes their
# directory); beside them Debian packages built through pfe-cc, their own
# tests run (run "packages").
( step harness scripts/check-harness.sh; step gcc-tests scripts/check-gcc.sh ) &
lane=$!
step packages scripts/check-packages.sh -q
wait "$lane" || :
t3=$(date +%s)

# A compiler built here (GCC 7.5) that is not there is a failed run: the
# pre-8 GCC this project exists for cannot drop out.  So is a run whose
# PARTS names a .exp that is not there (a misspelt but: would run all).
runs=
drop() { # drop NAME WHY: NAME does not run, and fails saying WHY
	not_run "$1" "$2"
	MATRIX=$(echo "$MATRIX" | awk -v n="$1" '$1 != n')
}
for name in $(names "$MATRIX"); do
	runs="$runs $name"
	cc=$(echo "$MATRIX" | awk -v n="$name" '$1 == n { print $2 }')
	parts=$(echo "$MATRIX" | awk -v n="$name" '$1 == n { print $6 }')
	for exp in $(echo "${parts#but:}" | tr , " "); do
		case $exp in all | once | -) continue ;; esac
		[ -f "testsuite/$exp" ] || drop "$name" "testsuite/matrix names $exp: no such file"
	done
	case $cc in
	/*) [ -x "$cc" ] ||
		drop "$name" "$cc not built (scripts/build-gcc7.sh: are its sources beside the checkout?)" ;;
	esac
done

# Each job starts only with budget left, and runtest stops when it is spent.
export tier deadline
echo "$MATRIX" | grep -v '^$' | xargs -P "$JOBS" -L 1 sh -c '
	name=$0 cc=$1 legacy=$2 cflags=$3 diff=$4 parts=$5
	left=$((deadline - $(date +%s)))
	if [ "$left" -lt 60 ]; then
		mkdir -p "build/check/$name"
		echo "not run: not started within the time budget" > "build/check/$name/run-status"
		exit 0
	fi
	[ "$legacy" = - ] && legacy=
	[ "$cflags" = - ] && cflags=
	cflags=$(echo "$cflags" | tr , " ")
	once=
	[ "$parts" = once ] && once=1
	# DIFF STANDARD/FULL: FULL in make check-full; else sqlite stays.
	if [ "$tier" = full ]; then
		parts=all
		case $diff in */*) diff=${diff#*/} ;; sqlite) ;; *) diff=full ;; esac
	else
		diff=${diff%/*}
	fi
	case $parts in
	all | once) exps= ;;
	but:*) exps=$(cd testsuite && ls pfe.*/*.exp | grep -vxF "$(echo "${parts#but:}" | tr , "\n")") ;;
	*) exps=$(echo "$parts" | tr , " ") ;;
	esac
	begin=$(date +%s)
	PFE_SUITE_TIMEOUT=$left PFE_DIFF=$diff PFE_ONCE=$once PFE_PARTS="$exps" \
		scripts/run-suite.sh "$name" "$cc" "$legacy" "$cflags" > "build/check-$name.result" 2>&1
	echo "$name $(($(date +%s) - begin))" > "build/check/$name/seconds"' ||
	: # a failed run is counted below, from its own files
t4=$(date +%s)

# Each run's result line (scripts/suite-result.sh), read again from its
# files: a run whose xargs job died says so there too.
passed=0 failed=0
: > build/check/results.txt
count() { # count RESULT: add RESULT's first line to the totals
	set -- $(echo "$1" | head -n 1 | sed 's/^[^:]*: //; s/[^0-9 ]//g')
	passed=$((passed + ${1:-0}))
	failed=$((failed + ${2:-1}))
}
for name in harness gcc-tests packages $runs; do
	echo "=== $name"
	sed -n '/=== pfe Summary ===/,$p' "build/check/$name/pfe.sum" 2>/dev/null | grep '^#' || :
	[ ! -f "build/check/$name/diff-stats.txt" ] ||
		echo "pfe.diff: $(cat "build/check/$name/diff-stats.txt")"
	result=$(sh scripts/suite-result.sh "$name" "build/check/$name") || :
	echo "$result"
	echo "$result" | head -n 1 >> build/check/results.txt
	count "$result"
done

# What make check is: every run of the matrix, each with its baseline, and
# nothing in the environment that changes it.
problems=
for name in harness gcc-tests packages $(names "$ALL"); do
	[ -f "testsuite/baseline/$name" ] || problems="$problems
check: $name: no baseline (testsuite/baseline/$name: scripts/update-baseline.sh)"
	case $name in harness | gcc-tests | packages) continue ;; esac
	case " $runs " in *" $name "*) ;;
	*) problems="$problems
check: $name: not run (PFE_MATRIX chose the runs)" ;;
	esac
done
for v in $STEERING; do
	eval "val=\${$v:-}"
	[ -z "$val" ] || problems="$problems
check: $v=$val in the environment changes what runs"
done
# Where the time went, and what sid gave (it cannot be pinned: no snapshot
# archive is reachable); these lines and each run's result are also
# testsuite/figures.md (scripts/figures.sh), the figures README gives
# (make check-full's: testsuite/figures-full.md).
{
	echo "time: $((t4 - start)) s in all (budget $((deadline - start)) s): installs $((t0 - start)) s, harness then gcc-tests beside packages $((t3 - t0)) s, the runs $((t4 - t3)) s"
	echo "times: $(cat build/check/*/seconds 2>/dev/null | sort -k2,2nr | awk '{ printf "%s%s %s s", sep, $1, $2; sep = ", " }')"
	echo "parts: $(cat build/check/*/pfe.log 2>/dev/null | awk '$1 == "pfe-time:" { t[$2] += $3 }
	END { for (f in t) print f, t[f] }' | sort -k2,2nr | awk '{ printf "%s%s %s s", sep, $1, $2; sep = ", " }')"
	echo "sid: $(scripts/sid-run dpkg-query -W -f '${Status} ${Package} ${Version}\n' 'gcc-1[3-9]' 'clang-[0-9]*' uftrace \
	gcc-14-aarch64-linux-gnu binutils-riscv64-linux-gnu 2>/dev/null | awk '$3 == "installed" { printf "%s%s %s", s, $4, $5; s = ", " }')"
	[ -z "$full_only" ] || echo "not in make check (make check-full runs it): $full_only"
} > build/check/times.txt
cat build/check/times.txt
n=$(printf '%s' "$problems" | grep -c . || :)
echo "=== check"
echo "check: 0 passed, $n failed, 0 unsupported$problems"
failed=$((failed + n))
echo "$tier: $passed passed, $failed failed" | tee -a build/check/times.txt
cat build/check/times.txt build/check/results.txt > build/check/figures.txt
# Only a run of the whole matrix: a subset would stand for make check.
[ -n "${PFE_MATRIX:-}" ] || figures_file "$figures" "make $target" build/check/figures.txt fence
[ "$failed" -eq 0 ]
