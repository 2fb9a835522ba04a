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

make -s build/pfe-scan
scripts/sid-run true		# make the chroot's mounts before the jobs race
sh scripts/check-harness.sh > build/check-harness.result 2>&1 || :

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
for name in harness $(echo "$MATRIX" | awk 'NF { print $1 }'); do
	echo "=== $name"
	[ -f "build/check/$name/pfe.sum" ] && sed -n '/=== pfe Summary ===/,$p' "build/check/$name/pfe.sum" | grep '^#'
	[ -f "build/check/$name/diff-stats.txt" ] &&
		echo "pfe.diff: $(cat "build/check/$name/diff-stats.txt")"
	result=$(sh scripts/suite-result.sh "$name" "build/check/$name")
	echo "$result"
	set -- $(echo "$result" | head -n 1 | sed 's/^[^:]*: //; s/[^0-9 ]//g')
	passed=$((passed + ${1:-0}))
	failed=$((failed + ${2:-1}))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
