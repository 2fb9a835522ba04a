#!/bin/sh
# check-mutants.sh [NAME...]: the mutation check (make check-mutants).
#
# For each mutant of testsuite/mutants (all, or the NAMEs given): copy the
# tree (tracked and new files, no build/), apply the mutant's sed scripts,
# and run the part of the suite it names (scripts/run-suite.sh, pfe.diff at
# PFE_DIFF=quick) with that run of testsuite/matrix, or for a mutant of the
# harness the harness's own tests (scripts/check-harness.sh, run "harness").
# A mutant is caught when a test of that run fails (FAIL, XPASS,
# UNRESOLVED, ERROR); it prints which tests caught it.  A run that fails
# with no failing test (the mutant broke the build) is BROKEN: the mutant
# tests nothing, rewrite it.  A run that ran no test at all (its part is
# unsupported on this machine: pfe.runtime for i386 where the kernel runs
# no i386 program) is UNTESTABLE here: not caught either.  First, each
# part of the suite runs once on the tree as it is and must pass:
# otherwise every mutant would look caught.  Two runs at a time
# (PFE_JOBS).
#
# Exit status 0 only if the unmutated runs passed and every mutant was
# caught; a mutant whose sed script changes nothing is stale: a failure too.
# --stale [NAME...]: only that check, a line "ok NAME" or "STALE NAME: why"
# per mutant (pfe.lint/mutants.exp runs it in make check).
# Names, test names and logs are printed with printf, never echo (dash's
# echo rewrites the backslashes of scan-assembler patterns).
# Debug: scripts/check-mutants.sh NAME; the copy and its logs stay in
# build/mutants/NAME (build/check/NAME inside it).
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"
work=$top/build/mutants
list=testsuite/mutants
jobs=${PFE_JOBS:-2}

# field NAME KEY: the rest of each "KEY ..." line of mutant NAME.
field() {
	awk -v n="$1" -v k="$2" '
		$1 == "mutant" { cur = $2; next }
		cur == n && $1 == k { sub(/^[^ ]+ /, ""); print }' "$list"
}

# A copy of the tree in DIR: what git tracks and the new files it does not
# ignore, as they are now.
copy_tree() {
	rm -rf "$1"
	mkdir -p "$1"
	git ls-files -z -c -o --exclude-standard | xargs -0 tar cf - | tar xf - -C "$1"
}

# pfe.scan runs the fuzzer built next to pfe-scan: DIR gets the tree's own
# (built below), or its own build when MUTATED (a mutant of pfe-scan or of
# arch-hooks/' plain-C layer it links: arch-hooks/*.[ch], <target>/bytes.c
# and <target>/*.h; not the plugin's <target>/gcc.c).
add_fuzzer() {
	mkdir -p "$1/build"
	if [ -n "$2" ]; then
		make -s -C "$1" build/pfe-scan-fuzz > "$1/build/fuzz-build.log" 2>&1
	else
		cp -p build/pfe-scan-fuzz "$1/build/"
	fi
}

# run_part DIR RUN EXP...: run-suite.sh in the tree DIR for RUN of
# testsuite/matrix on the .exp files; prints its result.  RUN harness (no
# EXP): the harness's own tests, check-harness.sh (about 3 minutes).
run_part() {
	dir=$1 run=$2
	shift 2
	if [ "$run" = harness ]; then
		(cd "$dir" && sh scripts/check-harness.sh > build/harness.log 2>&1
			sh scripts/suite-result.sh harness build/check/harness)
		return
	fi
	line=$(grep -v '^#' testsuite/matrix | awk -v r="$run" '$1 == r')
	[ -n "$line" ] || { printf '%s: not in testsuite/matrix\n' "$run"; return 1; }
	set -- $line "$@"
	name=$1 cc=$2 legacy=$3 cflags=$(printf '%s\n' "$4" | tr , ' ') once=
	[ "$6" = once ] && once=1
	shift 6
	[ "$legacy" = - ] && legacy=
	[ "$cflags" = - ] && cflags=
	(cd "$dir" && PFE_DIFF=quick PFE_ONCE=$once RUNTESTFLAGS="$*" sh scripts/run-suite.sh "$name" "$cc" "$legacy" "$cflags")
}

# stale NAME DIR: why mutant NAME is stale in the tree DIR: it has no sed
# line, or names the files there that a sed script of it leaves as they
# are (or cannot run on, and why).  Prints nothing if it mutates.
stale() {
	field "$1" sed | {
		seen='' files=''
		while read -r file script; do
			seen=1
			if [ ! -f "$2/$file" ]; then
				files="$files $file (no such file)"
			elif ! sed -e "$script" "$2/$file" > "$2/.mutant-out.$1" 2>&1; then
				files="$files $file (sed: $(head -n 1 "$2/.mutant-out.$1"))"
			elif cmp -s "$2/.mutant-out.$1" "$2/$file"; then
				files="$files $file"
			fi
		done
		rm -f "$2/.mutant-out.$1"
		if [ -z "$seen" ]; then
			echo "it has no sed line"
		elif [ -n "$files" ]; then
			echo "its sed scripts change nothing in$files"
		fi
	}
}

# Every mutant (or those named): "ok NAME" if its sed scripts change their
# files, else "STALE NAME: ..." (pfe.lint/mutants.exp, in make check, runs
# this: a mutant that stopped matching its code fails there, not only here).
stale_check() {
	status=0
	for n in "$@"; do
		why=$(stale "$n" "$top")
		if [ -z "$why" ]; then
			printf 'ok %s\n' "$n"
		else
			printf 'STALE %s: %s\n' "$n" "$why"
			status=1
		fi
	done
	return $status
}

# One mutant: copy, mutate, run; a line "caught NAME: ...", or BROKEN,
# UNTESTABLE or SURVIVED.
one() {
	n=$1
	dir=$work/$n
	copy_tree "$dir"
	why=$(stale "$n" "$dir")
	if [ -n "$why" ]; then
		printf 'STALE %s: %s\n' "$n" "$why"
		return
	fi
	field "$n" sed > "$dir/.mutant-seds"
	while read -r file script; do
		sed -i -e "$script" "$dir/$file"
	done < "$dir/.mutant-seds"
	add_fuzzer "$dir" "$(grep -E '^(pfe-scan/|arch-hooks/([^ /]+|[^ /]+/bytes\.c|[^ /]+/[^ /]+\.h) )' "$dir/.mutant-seds")"
	# shellcheck disable=SC2046
	out=$(run_part "$dir" $(field "$n" where) 2>&1)
	run=$(field "$n" where | awk '{ print $1 }')
	sum=$dir/build/check/$run/pfe.sum
	caught=$(grep -E '^(FAIL|XPASS|UNRESOLVED|ERROR):' "$sum" 2>/dev/null)
	if [ -n "$caught" ]; then
		printf 'caught %s: %s tests, e.g. %s\n' "$n" "$(printf '%s\n' "$caught" | wc -l)" \
			"$(printf '%s\n' "$caught" | head -n 3 | sed 's/^[A-Z]*: //' | paste -sd ';' -)"
	elif printf '%s\n' "$out" | grep -q ' [1-9][0-9]* failed'; then
		printf 'BROKEN %s: the run failed, no test did (a build error?): %s\n' "$n" "$(printf '%s\n' "$out" | sed -n 2p)"
	elif printf '%s\n' "$out" | head -n 1 | grep -q ': 0 passed, 0 failed'; then
		printf 'UNTESTABLE %s: its run ran no test here: %s\n' "$n" "$(printf '%s\n' "$out" | head -n 2 | paste -sd ' ' -)"
	else
		printf 'SURVIVED %s: %s\n' "$n" "$(printf '%s\n' "$out" | head -n 1)"
	fi
}

case ${1:-} in
--one) one "$2"; exit 0 ;;
--base) shift; run_part "$work/unmutated" "$@"; exit ;;
--stale) only_stale=1; shift ;;
*) only_stale= ;;
esac

# The names of the mutants, or of those asked for.
names=$(awk '$1 == "mutant" { print $2 }' "$list")
[ $# -gt 0 ] && names=$*
for n in $names; do
	awk -v n="$n" '$1 == "mutant" && $2 == n { found = 1 } END { exit !found }' "$list" ||
		{ printf 'check-mutants: no mutant %s in %s\n' "$n" "$list" >&2; exit 2; }
done
# shellcheck disable=SC2086 # one name a word
[ -z "$only_stale" ] || { stale_check $names; exit; }

make -s build/pfe-scan-fuzz || { echo "check-mutants: make build/pfe-scan-fuzz failed" >&2; exit 2; }
mkdir -p "$work"
copy_tree "$work/unmutated"
add_fuzzer "$work/unmutated" ""
echo "check-mutants: the suite's parts, unmutated"
# One part per run: the .exp files of all its mutants.
parts=$(for n in $names; do field "$n" where; done |
	awk '{ if (!($1 in exps)) exps[$1] = ""; for (i = 2; i <= NF; i++) if (!seen[$1 " " $i]++) exps[$1] = exps[$1] " " $i }
	     END { for (r in exps) print r exps[r] }')
printf '%s\n' "$parts" | xargs -P "$jobs" -L 1 sh "$0" --base > "$work/base.txt" 2>&1 || :
if grep -q ' [1-9][0-9]* failed' "$work/base.txt" ||
	[ "$(grep -c ' 0 failed' "$work/base.txt")" -ne "$(printf '%s\n' "$parts" | wc -l)" ]; then
	cat "$work/base.txt"
	echo "check-mutants: the unmutated parts do not pass: no mutant can be judged"
	exit 1
fi
printf '%s\n' "$names" | tr ' ' '\n' | grep -v '^$' | xargs -P "$jobs" -I{} sh "$0" --one {} > "$work/results.txt" 2>&1 || :
cat "$work/results.txt"
total=$(printf '%s\n' "$names" | wc -w)
caught=$(grep -c '^caught ' "$work/results.txt")
printf '%s mutants, %s caught, %s not caught\n' "$total" "$caught" "$((total - caught))"
[ "$caught" -eq "$total" ]
