#!/bin/sh
# check-harness.sh [CC]: tests of the test harness itself.  The summary
# line of make check must never say "0 failed" when a run failed, did not
# run or did not finish; each case below makes one of those happen on
# purpose and checks that run-suite.sh / suite-result.sh count it:
#
#   stale-sum       runtest dies at once (exit 127), or stops at an unknown
#                   argument (exit 1, as with failures), after a good run
#                   left its pfe.sum: the old result must not be read
#   unfinished      runtest writes PASS lines and dies before finishing
#   killed          a complete run (summary, "runtest completed") whose
#                   runtest exit status says it was killed
#   gcc-tests-setup GCC's own tests (check-gcc.sh) after a good run of them,
#                   with a setup that fails: the old result must not be read
#   tcl-error       a Tcl error and dg-final checks without output
#                   (testsuite/pfe.harness): ERROR and UNRESOLVED count
#   lint            dg directives that DejaGnu would skip, or cannot run,
#                   a call of atoi, a libpfe file with _GNU_SOURCE that
#                   calls strtol (pfe.lint on crafted files): the lint
#                   fails
#   baseline        a test of the baseline that did not run, a test name
#                   twice: failures; more tests than the baseline: none
#   host            a run under a launcher (run-host) judged by NAME@HOST's
#                   baseline and expected list, a native one not
#   unsupported     a new UNSUPPORTED, an expected one missing, one
#                   reported by another .exp than its line names, a line
#                   naming no .exp: failures; one that is expected, and
#                   one of a .exp that did not run: none
#   missing-tool    uftrace is not there: pfe.uftrace fails, it does not skip
#   timeout         a launcher that never returns: the program runs fail
#   hung-tool       a pfe-scan that never returns: each call times out and
#                   fails its test (every command has a time limit)
#   probe           a compiler of GCC 8+ that refuses the native option:
#                   run-suite.sh stops and says why
#   matrix          make check (check-matrix.sh) on a copy of the tree with
#                   its budget spent, GCC 7.5 missing, a misspelt .exp in
#                   PARTS, a baseline missing and RUNTESTFLAGS set: each
#                   run fails by name, exit status 1;
#                   PFE_MATRIX names the runs it leaves out, and only them
#   null-plugin     gcc-12's whole suite with a plugin that does nothing
#                   (check-null-plugin.sh, make check-null; 2 minutes on
#                   2 cores): only the tests testsuite/null-plugin-passes
#                   lists pass; a list without some of them, with a
#                   line no test matches or of a .exp that did not run,
#                   and a run cut short (runtest killed), are caught
#   plugin-cxx      make CC=gcc-7 with GCC 7.5 first in PATH (its g++-7 has
#                   no library headers) builds the plugin with g++; with no
#                   working C++ compiler make stops naming PLUGIN_CXX
#   bad-cc          make with a CC that does not run, and with one for a
#                   target arch-hooks/ lacks: make stops naming them
#   packages-lock   check-packages.sh while another runs in build/packages:
#                   refused by name, status 2 (two at once mixed results)
#   sid-reclone     a tree deleted and cloned anew at the same path (as CI
#                   does): sid-run must show the new tree in the chroot, not
#                   the deleted one its old mount still holds
#
# CC (default gcc-12) is the real compiler the cases build with.  Results go
# to build/check/harness as a DejaGnu-style pfe.sum, so check-matrix.sh
# counts them like any run; the exit status is 0 only if every case passed.
# Debug: sh -x scripts/check-harness.sh; each case's files stay in
# build/check/harness/CASE.
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
cc=${1:-gcc-12}
cd "$top"
out=build/check/harness
rm -rf "$out"
mkdir -p "$out"
sum=$out/pfe.sum
passes=0 fails=0
result() { # result PASS|FAIL TEXT
	echo "$1: $2" >> "$sum"
	echo "$1: $2"
	if [ "$1" = PASS ]; then passes=$((passes + 1)); else fails=$((fails + 1)); fi
}
# expect CASE OUTPUT GREP-ARGS...: CASE passes when grep GREP-ARGS finds a
# line of OUTPUT; else it fails, OUTPUT shown.
expect() {
	_case=$1 _out=$2
	shift 2
	if echo "$_out" | grep -q "$@"; then
		result PASS "$_case"
	else
		result FAIL "$_case"
		printf '%s\n' "$_out" | sed 's/^/    /'
	fi
}
# expect_failed CASE OUTPUT: OUTPUT's result line counts at least one failure.
expect_failed() { expect "$1" "$2" -E '^[^:]+: [0-9]+ passed, [1-9][0-9]* failed'; }
# expect_line CASE LINE OUTPUT: OUTPUT's result line is LINE.
expect_line() { expect "$1" "$3" -xF "$2"; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
fake() { # fake NAME BODY: an executable NAME in $bin
	printf '#!/bin/sh\n%s\n' "$2" > "$bin/$1"
	chmod +x "$bin/$1"
}
make -s CC="$cc" plugin wrong-version-plugin build/pfe-scan > /dev/null ||
	{ result FAIL "harness: make CC=$cc plugin"; exit 1; }

# good_run DIR: the files of a complete run in DIR that passed one test.
good_run() {
	mkdir -p "$1"
	printf 'PASS: good\n\n\t\t=== pfe Summary ===\n\n# of expected passes\t\t1\n' > "$1/pfe.sum"
	echo "runtest completed at yesterday" > "$1/pfe.log"
	echo 0 > "$1/run-status"
}

# stale-sum: a complete good run's files, then a runtest that dies.
d=build/check/harness-stale
good_run "$d"
fake runtest 'exit 127'
r=$(PATH="$bin:$PATH" sh scripts/run-suite.sh harness-stale "$cc" 2>&1)
expect_failed "harness: a runtest that dies (exit 127) after a good run is a failure" "$r"
rm "$bin/runtest"
# The real runtest, stopped by an argument it does not know before it
# writes anything: its exit status is 1, as a run with failures gets, so
# only the removal of the old run's files tells them apart.
good_run "$d"
r=$(RUNTESTFLAGS=--pfe-no-such-option sh scripts/run-suite.sh harness-stale "$cc" 2>&1)
expect_failed "harness: a runtest that stops at an unknown argument (exit 1) after a good run is a failure" "$r"

# unfinished: PASS lines and a summary, but runtest never completed.
fake runtest 'printf "PASS: a\n# of expected passes\t\t1\n" > pfe.sum; kill -9 $$'
r=$(PATH="$bin:$PATH" sh scripts/run-suite.sh harness-unfinished "$cc" 2>&1)
expect_failed "harness: a runtest killed before it completes is a failure" "$r"
rm "$bin/runtest"

# killed: a complete run, summary and "runtest completed" written, whose
# runtest was killed (timeout's TERM at PFE_SUITE_TIMEOUT: DejaGnu writes
# both as it dies): its exit status alone says so.
d=$out/killed
good_run "$d"
echo 124 > "$d/run-status"
r=$(sh scripts/suite-result.sh harness-killed "$d" 2>&1)
expect_failed "harness: a complete run whose runtest was killed (exit status 124) is a failure" "$r"

# gcc-tests-setup: GCC's own tests after a good run of them, with a setup
# that fails (no cache directory can be made): the old result must not be
# read.  (make check runs check-gcc.sh after this, which redoes the run.)
d=build/check/gcc-tests
good_run "$d"
PFE_GCC_TESTS=/dev/null/cache sh scripts/check-gcc.sh > /dev/null 2>&1
: > "$bin/none-expected"
r=$(PFE_EXPECTED_UNSUPPORTED=$bin/none-expected sh scripts/suite-result.sh gcc-tests "$d" 2>&1)
expect_failed "harness: GCC's own tests whose setup fails after a good run are a failure" "$r"

# tcl-error: the real runtest on pfe.harness.
d=$out/tcl-error
mkdir -p "$d"
(cd "$d" && runtest --tool pfe --srcdir "$top/testsuite" PFE_HARNESS=1 \
	PFE_CC="$cc" PFE_PLUGIN="$top/build/$cc/pfe.so" PFE_SCAN="$top/build/pfe-scan" \
	PFE_TARGET=x86_64 pfe.harness/harness.exp > runtest.out 2>&1; echo $? > run-status)
r=$(sh scripts/suite-result.sh --subset harness-tcl "$d" 2>&1)
if [ "$(grep -c '^UNRESOLVED: missing-output.c' "$d/pfe.sum")" = 2 ] && grep -q '^ERROR:' "$d/pfe.sum" &&
	! grep -q '^FAIL: missing-output.c' "$d/pfe.sum"; then
	expect_failed "harness: a Tcl error (ERROR) and checks of a missing output (UNRESOLVED) are failures" "$r"
else
	result FAIL "harness: pfe.harness did not give 2 UNRESOLVED and an ERROR"
	sed 's/^/    /' "$d/pfe.sum"
fi

# lint: a test file whose directives dg.exp would skip or not run.
d=$out/lint
mkdir -p "$d/tree/pfe.bad"
printf '/* {dg-final { scan-assembler "x" } } */\n/* { dg-final { scan-assembler "x" } */\n/* { dg-final { scan-assembler-nope "x" } } */\nint n(const char *s) { return atoi (s); }\n' > "$d/tree/pfe.bad/bad.c"
# Its libpfe: a file with _GNU_SOURCE that calls strtol (named), one
# without it that calls strtoul (as trace-record.c does: not named).
mkdir -p "$d/runtime"
printf '# libpfe of the lint harness\nRT_SRCS := runtime/gnu.c \\\n\truntime/default.c\nRT_TRACE_SRCS := runtime/default.c\n' > "$d/Makefile"
printf '#define _GNU_SOURCE\n#include <stdlib.h>\nlong n(const char *s) { return strtol(s, 0, 10); }\n' > "$d/runtime/gnu.c"
printf '#define _DEFAULT_SOURCE\n#include <stdlib.h>\nlong n(const char *s) { return strtoul(s, 0, 10); }\n' > "$d/runtime/default.c"
(cd "$d" && runtest --tool pfe --srcdir "$top/testsuite" PFE_ONCE=1 PFE_LINT_DIR="$top/$d/tree" \
	PFE_CC="$cc" PFE_PLUGIN="$top/build/$cc/pfe.so" PFE_SCAN="$top/build/pfe-scan" \
	PFE_TARGET=x86_64 pfe.lint/lint.exp > runtest.out 2>&1; echo $? > run-status)
r=$(sh scripts/suite-result.sh --subset harness-lint "$d" 2>&1)
if grep -q '^FAIL: lint: dg directives of pfe.bad/bad.c$' "$d/pfe.sum" &&
	[ "$(grep -c '^[0-9]*: ' "$d/pfe.log")" = 3 ] &&
	grep -q '^FAIL: lint: no test program calls atoi' "$d/pfe.sum" &&
	grep -q '^pfe.bad/bad.c:4: ' "$d/pfe.log" &&
	grep -q '^FAIL: lint: no file of libpfe with _GNU_SOURCE calls' "$d/pfe.sum" &&
	grep -q '^runtime/gnu.c:3: ' "$d/pfe.log" && ! grep -q '^runtime/default.c' "$d/pfe.log"; then
	expect_failed "harness: a dg directive that DejaGnu would skip or cannot run, or a call of atoi or strtol, fails the lint" "$r"
else
	result FAIL "harness: a dg directive that DejaGnu would skip or cannot run, or a call of atoi or strtol, fails the lint"
	sed 's/^/    /' "$d/pfe.sum"
fi

# baseline: a test of the run's baseline that did not run, and a name that
# occurs twice, are failures; a run with all its baseline's tests and more
# passes.
d=$out/baseline
mkdir -p "$d/run" "$d/baseline"
echo "runtest completed at now" > "$d/run/pfe.log"
echo 0 > "$d/run/run-status"
printf 'a\nb\n' > "$d/baseline/harness-b"
for c in missing twice more; do
	case $c in
	missing) t='PASS: a' ;;
	twice) t='PASS: a
PASS: b
PASS: b' ;;
	more) t='PASS: a
PASS: b
PASS: c' ;;
	esac
	printf '%s\n\n# of expected passes\t\t%s\n' "$t" "$(echo "$t" | grep -c .)" > "$d/run/pfe.sum"
	r=$(PFE_BASELINE_DIR=$d/baseline PFE_EXPECTED_UNSUPPORTED=$bin/none-expected \
		sh scripts/suite-result.sh harness-b "$d/run" 2>&1)
	case $c in
	more)
		expect_line "harness: a run with more tests than its baseline passes" \
			"harness-b: 3 passed, 0 failed, 0 unsupported" "$r" ;;
	missing) expect_failed "harness: a test of the baseline that did not run is a failure" "$r" ;;
	twice) expect_failed "harness: a test name that occurs twice is a failure" "$r" ;;
	esac
done

# host: a run whose programs ran under a launcher (run-host, run-suite.sh)
# is judged as NAME@HOST, against that baseline and expected list; the same
# results of a native run fail (a test of NAME's baseline missing, an
# UNSUPPORTED expected only under the launcher).
d=$out/host
mkdir -p "$d/run" "$d/baseline"
echo "runtest completed at now" > "$d/run/pfe.log"
echo 0 > "$d/run/run-status"
printf 'a\nb\n' > "$d/baseline/harness-h"
printf 'a\nslow\n' > "$d/baseline/harness-h@qemu-x"
printf 'harness-h@qemu-x\tpfe.harness/harness.exp\tslow\n' > "$d/expected"
printf 'Running /x/testsuite/pfe.harness/harness.exp ...\nPASS: a\nUNSUPPORTED: slow\n\n# of expected passes\t\t1\n' > "$d/run/pfe.sum"
echo qemu-x > "$d/run/run-host"
r=$(PFE_BASELINE_DIR=$d/baseline PFE_EXPECTED_UNSUPPORTED=$d/expected \
	sh scripts/suite-result.sh harness-h "$d/run" 2>&1)
expect_line "harness: a run under a launcher is judged by NAME@HOST's baseline and expected list" \
	"harness-h: 1 passed, 0 failed, 1 unsupported" "$r"
rm "$d/run/run-host"
r=$(PFE_BASELINE_DIR=$d/baseline PFE_EXPECTED_UNSUPPORTED=$d/expected \
	sh scripts/suite-result.sh harness-h "$d/run" 2>&1)
expect_failed "harness: a native run is not judged by what a launcher's run may leave out" "$r"

# unsupported: crafted sums against a crafted expected list.
d=$out/unsupported
mkdir -p "$d"
echo "runtest completed at now" > "$d/pfe.log"
echo 0 > "$d/run-status"
ran="Running /x/testsuite/pfe.harness/harness.exp ..."
printf 'harness-u*\tpfe.harness/harness.exp\tknown (a reason)\nharness-u*\tpfe.lint/lint.exp\telsewhere (a reason)\n' > "$d/expected"
for c in new missing known other-exp; do
	case $c in
	new) u='UNSUPPORTED: known (a reason)
UNSUPPORTED: surprise (no reason)' ;;
	missing) u= ;;
	known) u='UNSUPPORTED: known (a reason)' ;;
	other-exp) u="Running /x/testsuite/pfe.lint/lint.exp ...
UNSUPPORTED: elsewhere (a reason)
UNSUPPORTED: known (a reason)" ;;
	esac
	printf '%s\nPASS: a\n%s\n\n# of expected passes\t\t1\n' "$ran" "$u" > "$d/pfe.sum"
	r=$(PFE_EXPECTED_UNSUPPORTED=$d/expected sh scripts/suite-result.sh harness-u "$d" 2>&1)
	case $c in
	known)
		expect_line "harness: an expected UNSUPPORTED is not a failure (another .exp's, which did not run, is not expected)" \
			"harness-u: 1 passed, 0 failed, 1 unsupported" "$r" ;;
	other-exp) expect_failed "harness: an expected UNSUPPORTED reported by another .exp is a failure" "$r" ;;
	*) expect_failed "harness: an UNSUPPORTED that is $c is a failure" "$r" ;;
	esac
done
# A line of the expected list that could never be checked.
printf 'PASS: a\n\n# of expected passes\t\t1\n' > "$d/pfe.sum"
printf 'harness-u\tpfe.none/none.exp\tknown (a reason)\n' > "$d/expected"
r=$(PFE_EXPECTED_UNSUPPORTED=$d/expected sh scripts/suite-result.sh harness-u "$d" 2>&1)
expect_failed "harness: an expected-unsupported line naming no .exp is a failure" "$r"

# missing-tool: no uftrace.
fake uftrace 'echo "uftrace: not installed" >&2; exit 127'
d=$out/missing-tool
mkdir -p "$d"
(cd "$d" && PATH="$bin:$PATH" runtest --tool pfe --srcdir "$top/testsuite" \
	PFE_CC="$cc" PFE_PLUGIN="$top/build/$cc/pfe.so" PFE_SCAN="$top/build/pfe-scan" \
	PFE_TARGET=x86_64 PFE_NATIVE=1 pfe.uftrace/uftrace.exp > runtest.out 2>&1; echo $? > run-status)
r=$(sh scripts/suite-result.sh --subset harness-tool "$d" 2>&1)
if grep -q '^FAIL: uftrace ' "$d/pfe.sum"; then
	expect_failed "harness: a missing tool (uftrace) fails its tests" "$r"
else
	result FAIL "harness: a missing tool (uftrace) fails its tests (no FAIL: uftrace ...)"
fi

# timeout: every program run goes through a launcher that hangs.
fake hang 'sleep 600'
d=$out/timeout
mkdir -p "$d"
(cd "$d" && runtest --tool pfe --srcdir "$top/testsuite" PFE_RUN_TIMEOUT=2 PFE_RUN="$bin/hang" \
	PFE_CC="$cc" PFE_PLUGIN="$top/build/$cc/pfe.so" PFE_SCAN="$top/build/pfe-scan" \
	PFE_TARGET=x86_64 pfe.link/link.exp > runtest.out 2>&1; echo $? > run-status)
r=$(sh scripts/suite-result.sh --subset harness-timeout "$d" 2>&1)
if grep -q '^FAIL: .*: runs$' "$d/pfe.sum"; then
	expect_failed "harness: a program that does not finish in time is a failure" "$r"
else
	result FAIL "harness: a program that does not finish in time is a failure (no FAIL ... runs)"
fi

# hung-tool: every pfe-scan call hangs: each times out (PFE_EXEC_TIMEOUT)
# and fails its test; the run finishes.
d=$out/hung-tool
mkdir -p "$d"
(cd "$d" && timeout -k 5 300 runtest --tool pfe --srcdir "$top/testsuite" PFE_EXEC_TIMEOUT=2 \
	PFE_CC="$cc" PFE_PLUGIN="$top/build/$cc/pfe.so" PFE_SCAN="$bin/hang" \
	PFE_TARGET=x86_64 pfe.link/link.exp > runtest.out 2>&1; echo $? > run-status)
r=$(sh scripts/suite-result.sh --subset harness-hung "$d" 2>&1)
if grep -q 'runtest completed' "$d/pfe.log" 2>/dev/null && grep -q '^FAIL: ' "$d/pfe.sum"; then
	expect_failed "harness: a tool that hangs (pfe-scan) fails its tests, the run goes on" "$r"
else
	result FAIL "harness: a tool that hangs (pfe-scan) fails its tests, the run goes on"
	tail -5 "$d/runtest.out" | sed 's/^/    /'
fi

# probe: GCC 8+ that refuses -fpatchable-function-entry.
fake "$cc" "for a; do case \$a in -fpatchable-function-entry=*) echo 'unrecognized option' >&2; exit 1 ;; esac; done
exec $(command -v "$cc") \"\$@\""
r=$(PATH="$bin:$PATH" sh scripts/run-suite.sh harness-probe "$cc" 2>&1)
if echo "$r" | grep -q 'refuses -fpatchable-function-entry: unrecognized option'; then
	expect_failed "harness: a native-option probe that disagrees with the GCC version stops the run" "$r"
else
	result FAIL "harness: a native-option probe that disagrees with the GCC version stops the run"
	printf '%s\n' "$r" | sed 's/^/    /'
fi
rm -rf build/check/harness-stale build/check/harness-unfinished build/check/harness-probe

# matrix: make check itself (check-matrix.sh, on a copy of the tree) with
# its time budget spent before it starts, GCC 7.5 not built, a run whose
# PARTS names a .exp that is not there, a run with no baseline and
# RUNTESTFLAGS set: every run fails by name, the summary line counts them,
# the exit status is not 0; a line whose PARTS is "-" is named as left to
# make check-full, and not run.
d=$out/matrix
mkdir -p "$d/tree"
# The tree as it is, but its builds and git's files (not git ls-files:
# check-mutants.sh's copies, which mutate this harness's scripts, are no
# clones).
tar cf - --exclude=./build --exclude=./.git . | tar xf - -C "$d/tree"
sed -i 's#/var/lib/pfe/gcc-7/bin/gcc-7#/nonexistent/gcc-7#' "$d/tree/testsuite/matrix"
sed -i '/^gcc-10 /s#pfe\.trace/trace\.exp#pfe.trace/trcae.exp#' "$d/tree/testsuite/matrix"
sed -i '/^gcc-11 /s/ [^ ]*$/ -/' "$d/tree/testsuite/matrix"
rm -f "$d/tree/testsuite/baseline/gcc-9"
# (PFE_MATRIX unset: a make check of one line, PFE_MATRIX=..., runs this too.)
r=$(cd "$d/tree" && unset PFE_MATRIX && PFE_CHECK_START=1 RUNTESTFLAGS=x sh scripts/check-matrix.sh standard 2>&1; echo "exit $?")
missing=
for want in 'gcc-12: no .* (status not run: not started within the time budget)' \
	'gcc-7: no .* (status not run: /nonexistent/gcc-7 not built' \
	'gcc-10: no .* (status not run: testsuite/matrix names pfe.trace/trcae.exp: no such file)' \
	'harness: no .* (status not run: check-harness.sh stopped (time budget))' \
	'packages: no .* (status not run: check-packages.sh -q stopped (time budget))' \
	'not in make check (make check-full runs it): .*gcc-11' \
	'check: gcc-9: no baseline' 'check: RUNTESTFLAGS=x in the environment' \
	'^standard: 0 passed, [1-9][0-9]* failed$' '^exit [1-9]'; do
	echo "$r" | grep -q -- "$want" || missing="$missing
$want"
done
# A line make check-full alone runs (PARTS -) is not run, nor failed.
! echo "$r" | grep -q '^=== gcc-11$' || missing="$missing
gcc-11 (PARTS -) run by make check"
# PFE_MATRIX: the runs it leaves out (and only they) fail by name.
! echo "$r" | grep -q 'not run (PFE_MATRIX' || missing="$missing
a run not left out said to be left out"
r=$(cd "$d/tree" && PFE_CHECK_START=1 PFE_MATRIX="gcc-12 gcc-12 - - full once" sh scripts/check-matrix.sh standard 2>&1)
echo "$r" | grep -q '^check: gcc-9: not run (PFE_MATRIX chose the runs)$' || missing="$missing
gcc-9 left out by PFE_MATRIX, not named"
! echo "$r" | grep -q '^check: harness: not run' || missing="$missing
harness said to be left out by PFE_MATRIX"
if [ -z "$missing" ]; then
	result PASS "harness: make check with its budget spent, GCC 7.5 missing, a misspelt part, a baseline missing, RUNTESTFLAGS or PFE_MATRIX set fails by name; a line left to make check-full is not run"
else
	result FAIL "harness: make check with its budget spent, GCC 7.5 missing, a misspelt part, a baseline missing, RUNTESTFLAGS or PFE_MATRIX set fails by name; a line left to make check-full is not run"
	printf 'missing:%s\n' "$missing" | sed 's/^/    /'
	printf '%s\n' "$r" | tail -n 30 | sed 's/^/    /'
fi

# null-plugin: gcc-12's suite with a plugin that does nothing: what passes
# is what the list says; a list without the lines of tests that pass, and
# with a line no test matches, fails.
r=$(sh scripts/check-null-plugin.sh 2>&1)
if [ $? = 0 ]; then
	result PASS "harness: a plugin that does nothing passes only the listed tests"
else
	result FAIL "harness: a plugin that does nothing passes only the listed tests"
	printf '%s\n' "$r" | sed 's/^/    /'
fi
d=$out/null-plugin
mkdir -p "$d"
# pfe.run's lines out (its native controls pass), a line in that matches
# nothing, one of a .exp that did not run.
grep -v '^#' testsuite/null-plugin-passes | awk -F '\t' '$1 != "pfe.run/run.exp"' > "$d/list"
printf 'pfe.run/run.exp\tno such test\ta line no test matches\n' >> "$d/list"
printf 'pfe.none/none.exp\t*\ta .exp that did not run\n' >> "$d/list"
r=$(PFE_NULL_PASSES=$d/list sh scripts/check-null-plugin.sh --no-run 2>&1)
if [ $? != 0 ] && echo "$r" | grep -q 'passes, not in' && echo "$r" | grep -q 'no longer passes: pfe.run/run.exp: no such test' &&
	echo "$r" | grep -q 'pfe.none/none.exp did not run'; then
	result PASS "harness: a null-plugin pass not listed, and a listed test that does not pass, are failures"
else
	result FAIL "harness: a null-plugin pass not listed, and a listed test that does not pass, are failures"
	printf '%s\n' "$r" | sed 's/^/    /'
fi
# The same run as if killed (status 143): DejaGnu still writes its summary
# and "runtest completed", of the .exp files it reached (a CI run stopped
# by hand passed the case above so).
st=build/check/null-plugin/run-status
cp "$st" "$d/run-status" 2>/dev/null
echo 143 > "$st"
r=$(sh scripts/check-null-plugin.sh --no-run 2>&1)
rc=$?
cp "$d/run-status" "$st" 2>/dev/null
if [ $rc != 0 ] && echo "$r" | grep -q 'runtest exit status 143'; then
	result PASS "harness: a null-plugin run cut short (runtest killed) is a failure"
else
	result FAIL "harness: a null-plugin run cut short (runtest killed) is a failure"
	printf '%s\n' "$r" | sed 's/^/    /'
fi

# plugin-cxx: make CC=gcc-7 with GCC 7.5's bin first in PATH, as README's
# kernel recipe sets it: its g++-7 has no library headers, so the plugin is
# built with g++; with no C++ compiler that works, make stops and says
# PLUGIN_CXX.  (make -n: the choice, not a build.)
g7=/var/lib/pfe/gcc-7/bin
if [ -x "$g7/gcc-7" ]; then
	r=$(PATH=$g7:$PATH make -n -B CC=gcc-7 build/gcc-7/pfe.so 2>&1)
	if printf '%s\n' "$r" | grep -q '^g++ -x c++ '; then
		result PASS "harness: make CC=gcc-7 with GCC 7.5 first in PATH builds the plugin with g++"
	else
		result FAIL "harness: make CC=gcc-7 with GCC 7.5 first in PATH builds the plugin with g++"
		printf '%s\n' "$r" | sed 's/^/    /'
	fi
	fake g++ 'exit 1'
	r=$(PATH=$bin:$g7:$PATH make -n -B CC=gcc-7 build/gcc-7/pfe.so 2>&1)
	if printf '%s\n' "$r" | grep -q 'no C++ compiler builds the plugin for gcc-7: .*set PLUGIN_CXX='; then
		result PASS "harness: with no C++ compiler that works, make names PLUGIN_CXX"
	else
		result FAIL "harness: with no C++ compiler that works, make names PLUGIN_CXX"
		printf '%s\n' "$r" | sed 's/^/    /'
	fi
	rm -f "$bin/g++"
else
	result FAIL "harness: make CC=gcc-7 with GCC 7.5 first in PATH (no GCC 7.5 at $g7)"
fi

# bad-cc: make with a CC that does not run (a new machine before make demo
# installs gcc), and with one for a target arch-hooks/ lacks: make stops
# naming CC, and the target.  (make -n: the checks come before a build.)
fake sparc64-gcc 'case $1 in -dumpmachine) echo sparc64-linux-gnu ;; -dumpversion) echo 12 ;; *) echo /none ;; esac'
r=$(make -n -B CC=pfe-no-such-gcc build/pfe-no-such-gcc/pfe.so 2>&1)
expect "harness: make CC=pfe-no-such-gcc stops: CC=pfe-no-such-gcc does not run" "$r" -F 'pfe: CC=pfe-no-such-gcc does not run'
r=$(PATH=$bin:$PATH make -n -B CC=sparc64-gcc build/sparc64-gcc/pfe.so 2>&1)
expect "harness: make CC=sparc64-gcc stops: no arch-hooks for target sparc64-linux-gnu" "$r" -F 'pfe: no arch-hooks for target sparc64-linux-gnu'

# packages-lock: check-packages.sh while another holds build/packages
# refuses, naming the folder, status 2 (-r: it would only write
# results.md); two at once summed each other's runs.
mkdir -p build/packages
sh -c 'exec 9> build/packages/.lock && flock 9 && exec sleep 60' &
holder=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
	flock -n build/packages/.lock true || break
	sleep 0.5
done
r=$(sh scripts/check-packages.sh -r 2>&1; echo "status $?")
kill "$holder"
expect "harness: check-packages.sh while another runs in build/packages: refused by name, status 2" \
	"$(printf '%s\n' "$r" | grep -F 'another check-packages is running in' >/dev/null &&
	   printf '%s\n' "$r" | tail -n 1)" -xF 'status 2'

# sid-reclone: a tree outside /tmp and outside this tree (both are mounted
# in the chroot already), entered, then deleted and made again.
sid=${PFE_SID_ROOT:-/var/lib/pfe/sid}
reclone() { # reclone WORD: the tree at $t anew, its file mark saying WORD
	rm -rf "$t" && mkdir -p "$t/scripts" && cp scripts/sid-run "$t/scripts/" && echo "$1" > "$t/mark"
}
if [ -x "$sid/bin/sh" ]; then
	# Its own path: two copies of the tree may run this at once (check-mutants.sh).
	t=$(mktemp -d /var/tmp/pfe-harness-sid.XXXXXX)
	reclone old
	(cd "$t" && scripts/sid-run cat mark) > /dev/null 2>&1
	reclone new
	r=$(cd "$t" && scripts/sid-run sh -c 'pwd -P && cat mark' 2>&1)
	if [ "$r" = "$t
new" ]; then
		result PASS "harness: sid-run in a tree cloned anew at the same path sees the new tree"
	else
		result FAIL "harness: sid-run in a tree cloned anew at the same path sees the new tree"
		printf '%s\n' "$r" | sed 's/^/    /'
	fi
	! mountpoint -q "$sid$t" || umount -l "$sid$t"
	rm -rf "$t"
	rmdir "$sid$t" 2>/dev/null || :
else
	result FAIL "harness: sid-run in a tree cloned anew (no sid chroot at $sid)"
fi

printf '\n\t\t=== pfe Summary ===\n\n# of expected passes\t\t%s\n' "$passes" >> "$sum"
[ "$fails" -eq 0 ] || printf '# of unexpected failures\t%s\n' "$fails" >> "$sum"
echo "runtest completed at $(date)" > "$out/pfe.log"
echo 0 > "$out/run-status"
[ "$fails" -eq 0 ]
