#!/bin/sh
# suite-result.sh [--subset|--names] NAME DIR: the result of one run of the DejaGnu
# suite (one compiler of the matrix), read from DIR/pfe.sum, DIR/pfe.log and
# DIR/run-status (written by run-suite.sh), as one line
#
#     NAME: P passed, F failed, U unsupported
#
# then, for a run under a launcher (below), a line that says so, and one
# line per problem.  Failed counts every FAIL, XPASS,
# UNRESOLVED, UNTESTED, ERROR and WARNING line (DejaGnu's own summary
# leaves ERRORs out: a Tcl error in a dg-final check is one), plus one for
# each of: a runtest that did not run or did not finish (no pfe.sum, no
# "runtest completed" line in pfe.log, an exit status other than 0 or 1, a
# pass count that disagrees with DejaGnu's summary, no pass at all), and
# every UNSUPPORTED line that is not in the expected list for NAME, or
# expected of a .exp that ran and missing (not checked with --subset:
# a run of part of a .exp), every test name that occurs twice, and every
# name of the run's baseline ($PFE_BASELINE_DIR/NAME, default
# testsuite/baseline/NAME: one test name a line, scripts/update-baseline.sh
# writes it) that the run did not produce (not checked with --subset
# either).
#
# The expected list, $PFE_EXPECTED_UNSUPPORTED or
# testsuite/expected-unsupported, holds lines "GLOB<TAB>EXP<TAB>TEXT": TEXT
# is what follows "UNSUPPORTED: " in pfe.sum, expected of every run whose
# NAME matches the shell pattern GLOB and that ran EXP, the .exp that
# reports it (relative to testsuite/, as pfe.sum's "Running" lines name
# them; "-" for a result before any, check-gcc.sh's run); a TEXT that
# starts with "?" may happen and may not (a toolchain that could not be
# built); '#' lines are comments.  Any other line (not three fields, an
# EXP that is not a file of testsuite/) is a problem of every run.
# --names: print the names of the tests of DIR/pfe.sum instead, sorted.
# Exit status 0 when nothing failed, 1 otherwise.
# Debug: sh -x scripts/suite-result.sh gcc-12 build/check/gcc-12
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
subset= names=
case $1 in
--subset) subset=1; shift ;;
--names) names=1; shift ;;
esac
name=$1 dir=$2 expected=${PFE_EXPECTED_UNSUPPORTED:-$top/testsuite/expected-unsupported}
# A run whose programs ran under a launcher because this kernel runs none
# of them (DIR/run-host, run-suite.sh: qemu-i386 for -m32 on a kernel
# without IA32 emulation) is the run NAME@HOST: its expected list's lines
# are those whose GLOB matches that, its baseline NAME@HOST where there is
# one (what runs there differs), else NAME's.
host=$(cat "$dir/run-host" 2>/dev/null) || host=
key=$name${host:+@$host}
baseline=${PFE_BASELINE_DIR:-$top/testsuite/baseline}/$name
[ -z "$host" ] || [ ! -f "$baseline@$host" ] || baseline=$baseline@$host
results='PASS|FAIL|XPASS|XFAIL|KPASS|KFAIL|UNRESOLVED|UNTESTED|UNSUPPORTED'
export LC_ALL=C
sum=$dir/pfe.sum
problems=
problem() { problems="$problems
$name: $*"; }

count() { grep -c -E "^($1): " "$sum" 2>/dev/null; }
# The names of the tests of $sum, sorted, each as often as it occurs.
test_names() { sed -n -E "s/^($results): //p" "$sum" | sort; }
[ -z "$names" ] || { test_names; exit 0; }
# listed WHAT FILE: a problem "WHAT: LINE" for each line of FILE, the first 20.
listed() {
	n=$(wc -l < "$2")
	[ "$n" -gt 0 ] || return 0
	problems="$problems
$(awk -v p="$name: $1: " 'NR <= 20 { print p $0 }' "$2")"
	[ "$n" -le 20 ] || problem "$1: ... and $((n - 20)) more"
}

# unkey "EXP<TAB>TEXT": "TEXT (EXP)", as a problem names it.
unkey() { printf '%s (%s)' "${1#*	}" "${1%%	*}"; }
# The lines of the expected list that say nothing it could check: not
# three fields, or an EXP that names no .exp of testsuite/.
malformed() {
	grep -v '^#' "$expected" 2>/dev/null | awk -F '\t' -v exps="$(cd "$top/testsuite" && ls -- */*.exp)" '
		BEGIN { n = split(exps, e, "\n"); for (i = 1; i <= n; i++) known[e[i]] = 1; known["-"] = 1 }
		NF && (NF != 3 || !known[$2])
	'
}

passed=0 failed=0 unsupported=0
status=$(cat "$dir/run-status" 2>/dev/null) || status=
if [ ! -s "$sum" ]; then
	problem "no $sum: runtest did not run (status ${status:-unknown})"
	failed=1
else
	passed=$(count PASS)
	failed=$(count 'FAIL|XPASS|UNRESOLVED|UNTESTED|ERROR|WARNING')
	unsupported=$(count UNSUPPORTED)
	grep -q '^runtest completed at' "$dir/pfe.log" 2>/dev/null ||
		{ problem "runtest did not finish (status ${status:-unknown})"; failed=$((failed + 1)); }
	case $status in
	0 | 1) ;;
	*) problem "runtest exit status ${status:-unknown}"; failed=$((failed + 1)) ;;
	esac
	summary=$(awk '/^# of expected passes/ { print $NF }' "$sum")
	[ "${summary:-0}" = "$passed" ] ||
		{ problem "$passed PASS lines, DejaGnu's summary says ${summary:-none}"; failed=$((failed + 1)); }
	[ "$passed" -gt 0 ] || [ "$unsupported" -gt 0 ] ||
		{ problem "no test passed"; failed=$((failed + 1)); }

	# Expected and actual UNSUPPORTED results, "EXP<TAB>TEXT" a line,
	# sorted: EXP the .exp that reported it, as pfe.sum's "Running" line
	# names it (relative to testsuite/), "-" before any.  An expected one
	# is wanted only where its .exp ran.
	tmp=$(mktemp -d)
	tab=$(printf '\t')
	echo - > "$tmp/ran"
	awk -v tab="$tab" -v ran="$tmp/ran" '
		/^Running .*\.exp \.\.\.$/ { file = $2; sub(/.*\/testsuite\//, "", file); print file >> ran }
		/^UNSUPPORTED: / { sub(/^UNSUPPORTED: /, ""); print (file == "" ? "-" : file) tab $0 }
	' "$sum" | sort -u > "$tmp/got"
	grep -v '^#' "$expected" 2>/dev/null | awk -F "$tab" -v ran="$tmp/ran" '
		BEGIN { while ((getline e < ran) > 0) run[e] = 1 }
		NF == 3 && run[$2] { print $1 "\t" $2 "\t" $3 }
	' | while IFS="$tab" read -r glob exp text; do
		# shellcheck disable=SC2254
		case $key in $glob) printf '%s\t%s\n' "$exp" "$text" ;; esac
	done > "$tmp/list"
	grep -v "$tab?" "$tmp/list" | sort -u > "$tmp/want"
	sed -n "s/$tab?/$tab/p" "$tmp/list" | sort -u > "$tmp/may"
	sort -u "$tmp/want" "$tmp/may" | comm -23 "$tmp/got" - > "$tmp/new"
	if [ -n "$subset" ]; then : > "$tmp/gone"; else comm -13 "$tmp/got" "$tmp/want" > "$tmp/gone"; fi
	while IFS= read -r l; do problem "unexpected UNSUPPORTED: $(unkey "$l")"; done < "$tmp/new"
	while IFS= read -r l; do problem "expected UNSUPPORTED missing: $(unkey "$l")"; done < "$tmp/gone"
	failed=$((failed + $(wc -l < "$tmp/new") + $(wc -l < "$tmp/gone")))
	malformed > "$tmp/malformed"
	listed "expected-unsupported line that names no .exp (GLOB<TAB>EXP<TAB>TEXT)" "$tmp/malformed"
	failed=$((failed + $(wc -l < "$tmp/malformed")))

	# Every test name once; every name of the run's baseline there.
	test_names > "$tmp/names"
	uniq -d "$tmp/names" > "$tmp/dups"
	: > "$tmp/missing"
	[ -n "$subset" ] || [ ! -f "$baseline" ] || sort -u "$baseline" | comm -23 - "$tmp/names" > "$tmp/missing"
	listed "duplicate test name" "$tmp/dups"
	listed "missing test (in ${baseline#"$top/"})" "$tmp/missing"
	failed=$((failed + $(wc -l < "$tmp/dups") + $(wc -l < "$tmp/missing")))
	rm -rf "$tmp"
fi
echo "$name: $passed passed, $failed failed, $unsupported unsupported"
[ -z "$host" ] || echo "$name: its programs ran under $host (this kernel runs none of them), judged as $key against ${baseline#"$top/"}"
[ -z "$problems" ] || printf '%s\n' "$problems" | grep -v '^$'
[ "$failed" -eq 0 ]
