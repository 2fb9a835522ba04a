#!/bin/sh
# check-null-plugin.sh [--no-run] [EXP...]: the suite against a plugin that does
# nothing (scripts/null-plugin.c: plugin_init returns 0).  Every test whose
# purpose is pfe's output must fail with it; the few that may pass (a
# native GCC control, a test of pfe-scan or pfe-cc alone, ...) are listed
# in testsuite/null-plugin-passes, one a line:
#
#     EXP<TAB>GLOB<TAB>REASON
#
# EXP the .exp file as runtest names it (pfe.wrapper/wrapper.exp), GLOB a
# shell pattern of test names of that file (\ quotes * ? [ of a name).
# gcc-12's run of testsuite/matrix (PFE_ONCE=1) runs with the null plugin
# in build/check/null-plugin (scripts/run-suite.sh, PFE_PLUGIN), its
# pfe.diff quick: the -O0, -Os and second csmith cases it leaves out are
# the same check of other code, so the cases that fail show theirs can
# (full, they were 80 of the run's 190 s, on make check's longest lane).
# A PASS that no line lists is a failure, and so is a line that no PASS
# matches (a test that no longer passes: the line goes), or whose .exp did
# not run, and a run cut short (its exit status).
# With EXP...: only those .exp files run, and only their lines are held
# to it (scripts/check-harness.sh's case).  --no-run: only the comparison,
# of the last run's results (with PFE_NULL_PASSES, another list: the
# harness's check that a difference is caught).  Prints one line per problem
# and "null-plugin: P passed, F failed" (F counts the problems); exit
# status 0 when F is 0.
# Debug: build/check/null-plugin/pfe.sum and pfe.log; the failing tests
# there are what the null plugin is caught by.
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"
export LC_ALL=C
cc=gcc-12
norun=
[ "${1:-}" != --no-run ] || { norun=1; shift; }
list=${PFE_NULL_PASSES:-testsuite/null-plugin-passes}
obj=build/check/null-plugin
plugin=build/null-plugin/$cc/pfe.so
tab=$(printf '\t')

# run_null EXP...: the null plugin, as pfe.so (GCC takes -fplugin-arg-pfe-*
# for pfe.so only), built and run as gcc-12's run of the matrix.
run_null() {
	mkdir -p "$(dirname "$plugin")"
	g++-12 -x c++ -fPIC -shared -O2 -Wall -Wextra -Werror \
		-I"$($cc -print-file-name=plugin)/include" -o "$plugin" scripts/null-plugin.c || {
		echo "null-plugin: 0 passed, 1 failed"
		echo "null-plugin: the null plugin does not build"
		exit 1
	}
	PFE_PLUGIN=$top/$plugin PFE_ONCE=1 PFE_DIFF=quick PFE_PARTS="$*" \
		sh scripts/run-suite.sh null-plugin "$cc" > /dev/null 2>&1
}
[ -n "$norun" ] || run_null "$@"
sum=$obj/pfe.sum
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# EXP<TAB>NAME of every PASS of the run; the .exp files that ran.
awk '/^Running .*\.exp \.\.\.$/ { n = split($2, p, "/"); file = p[n - 1] "/" p[n] }
	/^PASS: / { sub(/^PASS: /, ""); print file "\t" $0 }' "$sum" > "$tmp/passes" 2>/dev/null
sed -n 's|^Running .*/\([^/]*/[^/]*\.exp\) \.\.\.$|\1|p' "$sum" 2>/dev/null | sort -u > "$tmp/ran"
grep -v '^#' "$list" | grep -v '^$' > "$tmp/list"

problems=0
problem() { echo "null-plugin: $*"; problems=$((problems + 1)); }
[ -s "$tmp/ran" ] && grep -q 'runtest completed' "$obj/pfe.log" 2>/dev/null ||
	problem "the suite did not run or did not finish (build/check/null-plugin)"
for exp; do grep -qxF "$exp" "$tmp/ran" || problem "$exp did not run"; done
# runtest exits 1 when a test fails (with the null plugin most do), 0 when
# none does; any other status is a run cut short: killed, DejaGnu still
# writes its summary and "runtest completed", of the .exp files it reached.
status=$(cat "$obj/run-status" 2>/dev/null) || status=
case $status in
0 | 1) ;;
*) problem "runtest exit status ${status:-unknown}: the run was cut short ($obj)" ;;
esac

# Each PASS against the lines of its .exp; the lines that matched.
: > "$tmp/used"
while IFS="$tab" read -r exp name; do
	hit=
	while IFS="$tab" read -r lexp glob reason; do
		[ "$lexp" = "$exp" ] || continue
		# shellcheck disable=SC2254
		case $name in $glob) hit=1; printf '%s\t%s\n' "$lexp" "$glob" >> "$tmp/used"; break ;; esac
	done < "$tmp/list"
	[ -n "$hit" ] || problem "passes, not in $list: $exp: $name"
done < "$tmp/passes"
# Each line matched a PASS; its .exp ran (unless EXP... chose others).
while IFS="$tab" read -r lexp glob reason; do
	if ! grep -qxF "$lexp" "$tmp/ran"; then
		[ $# -gt 0 ] || problem "in $list, $lexp did not run: $glob ($reason)"
		continue
	fi
	grep -qxF "$lexp$tab$glob" "$tmp/used" ||
		problem "in $list, no longer passes: $lexp: $glob ($reason)"
done < "$tmp/list"
echo "null-plugin: $(wc -l < "$tmp/passes") passed, $problems failed"
[ "$problems" -eq 0 ]
