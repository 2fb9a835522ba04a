#!/bin/sh
# check-matrix.sh: run the DejaGnu suite for every compiler of the matrix,
# normal and LEGACY builds, two at a time, after the harness's own tests
# (check-harness.sh); print one DejaGnu summary and result per run
# (suite-result.sh: every FAIL, XPASS, UNRESOLVED, ERROR, a run that did not
# run or finish, an UNSUPPORTED that is not expected or an expected one that
# is missing counts as failed) and, last, one line "N passed, N failed"
# summed over all.
# The runs are the lines of testsuite/matrix.
#
# Debug: PFE_MATRIX="gcc-12 gcc-12 - - full" scripts/check-matrix.sh runs one
# line of the table; each run's logs are in build/check/NAME/pfe.log.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"

MATRIX=${PFE_MATRIX:-$(grep -v '^#' testsuite/matrix)}
JOBS=${PFE_JOBS:-2}

# No file of an earlier check can be read as this one's: every run's
# directory and result go first (a run that then never starts has none).
for name in harness gcc-tests $(echo "$MATRIX" | awk 'NF { print $1 }'); do
	rm -rf "build/check/$name" "build/check-$name.result"
done
make -s build/pfe-scan
scripts/sid-run true		# make the chroot's mounts before the jobs race
sh scripts/check-harness.sh > build/check-harness.result 2>&1 || :
# GCC's own tests of the feature through pfe-cc (run "gcc-tests").
sh scripts/check-gcc.sh > build/check-gcc-tests.result 2>&1 || :

# A compiler built here (GCC 7.5) that could not be built (no sources: see
# scripts/build-gcc7.sh): its run is one UNSUPPORTED, the others go on.
runs=
for name in $(echo "$MATRIX" | awk 'NF { print $1 }'); do
	cc=$(echo "$MATRIX" | awk -v n="$name" '$1 == n { print $2 }')
	case $cc in
	/*) [ -x "$cc" ] || {
		rm -rf "build/check/$name" && mkdir -p "build/check/$name"
		echo "UNSUPPORTED: $name (compiler not built: no sources, see scripts/build-gcc7.sh)" > "build/check/$name/pfe.sum"
		echo "runtest completed at $(date) (not run)" > "build/check/$name/pfe.log"
		echo 0 > "build/check/$name/run-status"
		: > "build/check/$name/not-built"
		MATRIX=$(echo "$MATRIX" | awk -v n="$name" '$1 != n')
		runs="$runs $name"
		continue
	} ;;
	esac
	runs="$runs $name"
done

echo "$MATRIX" | grep -v '^$' | xargs -P "$JOBS" -L 1 sh -c '
	name=$0 cc=$1 legacy=$2 cflags=$3 diff=$4
	[ "$legacy" = - ] && legacy=
	[ "$cflags" = - ] && cflags=
	cflags=$(echo "$cflags" | tr , " ")
	PFE_DIFF=$diff scripts/run-suite.sh "$name" "$cc" "$legacy" "$cflags" > "build/check-$name.result" 2>&1' ||
	: # a failed run is counted below, from its own files

# Each run's result line (scripts/suite-result.sh), read again from its
# files: a run whose xargs job died says so there too.
passed=0 failed=0
for name in harness gcc-tests $runs; do
	echo "=== $name"
	sed -n '/=== pfe Summary ===/,$p' "build/check/$name/pfe.sum" 2>/dev/null | grep '^#' || :
	[ ! -f "build/check/$name/diff-stats.txt" ] ||
		echo "pfe.diff: $(cat "build/check/$name/diff-stats.txt")"
	result=$(sh scripts/suite-result.sh "$name" "build/check/$name") || :
	echo "$result"
	set -- $(echo "$result" | head -n 1 | sed 's/^[^:]*: //; s/[^0-9 ]//g')
	passed=$((passed + ${1:-0}))
	failed=$((failed + ${2:-1}))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
