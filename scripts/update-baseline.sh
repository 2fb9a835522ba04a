#!/bin/sh
# update-baseline.sh [NAME...]: write testsuite/baseline/NAME, the names of
# the tests run NAME of make check must produce, from that run's last
# build/check/NAME/pfe.sum (GCC's compare_tests idea: a test that
# disappears is a failure; scripts/suite-result.sh checks it).
#
# With no NAME: every run of testsuite/matrix, plus harness, gcc-tests and
# packages.
# A run is taken only when it passed by everything but its baseline
# (suite-result.sh against an empty baseline): a run that failed, stopped
# early or was a subset would write a list of what happened to run.  New
# tests need no update (a run may produce more than its baseline); a test
# renamed or removed does: run make check, then this, and commit the diff,
# which shows what went.
# Debug: sh -x scripts/update-baseline.sh gcc-12
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"
export LC_ALL=C
[ $# -gt 0 ] || set -- harness gcc-tests packages $(grep -v '^#' testsuite/matrix | awk 'NF { print $1 }')
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
mkdir -p testsuite/baseline
status=0
for name in "$@"; do
	dir=build/check/$name
	if ! r=$(PFE_BASELINE_DIR=$empty sh scripts/suite-result.sh "$name" "$dir" 2>&1); then
		printf 'update-baseline: %s not taken: its run did not pass\n%s\n' "$name" "$r" >&2
		status=1
		continue
	fi
	# A run under a launcher (suite-result.sh) writes NAME@HOST's.
	host=$(cat "$dir/run-host" 2>/dev/null) || host=
	file=testsuite/baseline/$name${host:+@$host}
	sh scripts/suite-result.sh --names "$name" "$dir" | uniq > "$file"
	echo "update-baseline: $file: $(wc -l < "$file") tests"
done
exit $status
