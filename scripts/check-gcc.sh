#!/bin/sh
# check-gcc.sh: GCC's own tests of patchable function entries, run through
# pfe-cc (make check-gcc).
#
# The tests (c-c++-common/patchable_function_entry-*.c, pr89946.c,
# gcc.dg/pr110729.c, gcc.target/i386/pr93492-*, pr98482-*, pr113122-*,
# g++.dg/pr93195[ab].C) and GCC's testsuite lib/ and config/ come from
# Debian's gcc-14-source (trixie's 14.2.0-19): the .deb is fetched once (by
# install-deps.sh in the sid chroot, never installed) into $PFE_GCC_TESTS (/var/lib/pfe/gcc-tests),
# and only those files are unpacked from its GCC tarball, again only when the
# .deb or the list changes.  testsuite/gcc-tests/gcc-tests.exp runs them
# (runtest --tool gcc and --tool g++) as GCC's own drivers do, in these runs:
#     gcc-12 through pfe-cc --pfe, and natively (the comparison)
#     gcc-7 (GCC 7.5) through pfe-cc
#     gcc-16 through pfe-cc --pfe (sid chroot), and natively
# It prints each run's counts and what failed or did not apply, and fails
# when a run through pfe-cc has a FAIL, XPASS, UNRESOLVED, UNTESTED, ERROR or
# WARNING, an UNSUPPORTED that names no reason, no PASS, or did not complete,
# or when gcc-12 through pfe-cc passes no more than natively.  A compiler that
# is not there (GCC 7 not built, no sid chroot) is one UNSUPPORTED run.
# For make check (scripts/check-matrix.sh, run "gcc-tests"), the results of
# the runs through pfe-cc go to build/check/gcc-tests/pfe.sum, each test
# named with its run, and the comparison with native gcc-12 as one test.
#
# Debug: each run is in build/gcc-tests/RUN/testsuite/{gcc,g++}/ (*.sum;
# *.log has every command and its output); build/gcc-tests/bin/ holds the
# compilers the runs name.  One test again, by hand:
#     cd build/gcc-tests/gcc-12-pfe/testsuite/gcc &&
#     runtest --tool gcc gcc-tests.exp=pr93492-5.c   # reads ./site.exp
# sh -x scripts/check-gcc.sh traces this script.
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
cache=${PFE_GCC_TESTS:-/var/lib/pfe/gcc-tests}
sid=${PFE_SID_ROOT:-/var/lib/pfe/sid}
gcc7=${PFE_GCC7:-/var/lib/pfe/gcc-7/bin/gcc-7}
out=$top/build/gcc-tests
TESTS='c-c++-common/patchable_function_entry-*.c c-c++-common/pr89946.c
gcc.dg/pr110729.c gcc.target/i386/pr93492-*.c gcc.target/i386/pr98482-*.c
gcc.target/i386/pr113122-*.c g++.dg/pr93195a.C g++.dg/pr93195b.C'
LIBS='lib/* config/default.exp'

say() { printf 'check-gcc: %s\n' "$*"; }
die() { say "$*"; exit 1; }

# deb: the gcc-14-source .deb scripts/install-deps.sh downloads (its
# GCC_TESTS_VERSION, a fixed version: the same commit runs the same tests).
deb=$cache/gcc-14-source_$(sed -n 's/^GCC_TESTS_VERSION=//p' "$top/scripts/install-deps.sh")_all.deb

# Its tests into $cache/src when the .deb or the list changed (unpacked
# beside and then moved: never half a tree).
prepare() {
	[ -s "$deb" ] || die "no $deb (scripts/install-deps.sh sid downloads it)"
	stamp="$(basename "$deb") $LIBS $TESTS"
	[ "$(cat "$cache/src/.pfe-stamp" 2>/dev/null)" = "$stamp" ] && return 0
	say "unpacking the tests from $(basename "$deb") into $cache/src"
	rm -rf "$cache/src.new"
	mkdir -p "$cache/src.new" || die "cannot write $cache"
	set -f
	members=
	for p in $LIBS $TESTS; do members="$members */gcc/testsuite/$p"; done
	# shellcheck disable=SC2086
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xOf - --wildcards './usr/src/gcc-14/gcc-*.tar.xz' | xz -dc |
		tar -xf - -C "$cache/src.new" --strip-components=3 --no-same-owner --wildcards \
			--no-wildcards-match-slash $members ||
		{ rm -rf "$cache/src.new"; die "unpacking $deb failed"; }
	for p in $LIBS $TESTS; do
		set +f
		# shellcheck disable=SC2086
		set -- "$cache"/src.new/$p
		set -f
		[ -e "$1" ] || { rm -rf "$cache/src.new"; die "$deb has no gcc/testsuite/$p"; }
	done
	set +f
	echo "$stamp" > "$cache/src.new/.pfe-stamp"
	rm -rf "$cache/src" && mv "$cache/src.new" "$cache/src"
}

# The srcdir: a copy of GCC's files (the sid chroot sees the tree, not
# $cache), and the driver under names runtest finds for --tool gcc (gcc.*)
# and --tool g++ (g++.*).
make_srcdir() {
	rm -rf "${out:?}/testsuite" "${out:?}/bin"
	mkdir -p "$out/testsuite" "$out/bin"
	cp -R "$cache/src/." "$out/testsuite/" || die "cannot copy $cache/src"
	rm -f "$out/testsuite/.pfe-stamp"
	ln -s "$top/testsuite/gcc-tests" "$out/testsuite/gcc.pfe"
	ln -s "$top/testsuite/gcc-tests" "$out/testsuite/g++.pfe"
}

# wrapper NAME PLUGIN COMMAND...: build/gcc-tests/bin/NAME runs COMMAND "$@"
# (in the sid chroot for a compiler there), with PFE_PLUGIN=PLUGIN unless -.
wrapper() {
	w=$out/bin/$1 p=$2
	shift 2
	{
		echo '#!/bin/sh'
		echo '# made by scripts/check-gcc.sh: a compiler for GCC_UNDER_TEST'
		[ "$p" = - ] || echo "export PFE_PLUGIN='$p'"
		printf 'exec'
		[ -z "$in" ] || printf " '%s'" "$in"
		printf " '%s'" "$@"
		echo ' "$@"'
	} > "$w" && chmod +x "$w"
}

# in_cc COMMAND...: run COMMAND where the run's compiler is (sid or here).
in_cc() {
	if [ -n "$in" ]; then "$in" "$@"; else "$@"; fi
}

failed=
pfe12=
native12=
# run_failed WHY: the current run failed outside its .sum files: a FAIL line
# in the matrix's .sum too, so that no count can miss it.
run_failed() {
	say "$label: FAIL: $1"
	echo "FAIL: $name: $1" >> "$msum"
	failed="$failed, $label"
}

# run NAME KIND(pfe|native) GCC GXX IN-SID(0|1) LABEL
run() {
	name=$1 kind=$2 cc=$3 cxx=$4 insid=$5 label=$6
	d=$out/$name
	rm -rf "$d"
	mkdir -p "$d/testsuite/gcc" "$d/testsuite/g++"
	in=
	[ "$insid" = 1 ] && in=$top/scripts/sid-run
	if [ "$insid" = 1 ] && [ ! -x "$sid/bin/sh" ]; then
		say "$label: UNSUPPORTED (no sid chroot: scripts/install-deps.sh sid)"
		echo "UNSUPPORTED: $name: no sid chroot" >> "$msum"
		return 0
	fi
	if [ "$insid" = 0 ] && ! command -v "$cc" > /dev/null 2>&1; then
		say "$label: UNSUPPORTED ($cc not there)"
		echo "UNSUPPORTED: $name: $(basename "$cc") not built here" >> "$msum"
		return 0
	fi
	base=$(basename "$cc")
	major=$(cd "$top" && in_cc "$cc" -dumpversion | cut -d. -f1)
	gcc_ut=$cc gxx_ut=$cxx
	if [ "$kind" = pfe ]; then
		# The plugin, as make builds it for this compiler.
		(cd "$top" && in_cc make -s CC="$cc" plugin) > "$d/plugin-build.log" 2>&1 ||
			{ run_failed "the plugin did not build (see $d/plugin-build.log)"; return 0; }
		plugin=$top/build/$base/pfe.so
		opt=--pfe
		[ "$major" -lt 8 ] && opt=
		wrapper "$base-pfe" "$plugin" "$top/scripts/pfe-cc" $opt "$cc"
		wrapper "$(basename "$cxx")-pfe" "$plugin" "$top/scripts/pfe-cc" $opt "$cxx"
		gcc_ut=$out/bin/$base-pfe gxx_ut=$out/bin/$(basename "$cxx")-pfe
	elif [ "$insid" = 1 ]; then
		wrapper "$base" - "$cc"
		wrapper "$(basename "$cxx")" - "$cxx"
		gcc_ut=$out/bin/$base gxx_ut=$out/bin/$(basename "$cxx")
	fi
	# What GCC's configure finds for o_flag_in_section (lib/target-supports.exp
	# reads it from ../../auto-host.h): does the assembler take the 'o' flag?
	printf '.section .foo,"a"\n.byte 0\n.section __patchable_function_entries,"awo",%%progbits,.foo\n.byte 0\n' > "$d/link-order.s"
	o=0
	"$gcc_ut" -c -Wa,--fatal-warnings -o "$d/link-order.o" "$d/link-order.s" > "$d/link-order.log" 2>&1 && o=1
	echo "#define HAVE_GAS_SECTION_LINK_ORDER $o" > "$d/auto-host.h"
	t0=$(date +%s)
	for t in gcc g++; do
		cat > "$d/testsuite/$t/site.exp" <<-EOF
		# made by scripts/check-gcc.sh
		set srcdir "$out/testsuite"
		set tmpdir "$d/testsuite/$t"
		set GCC_UNDER_TEST "$gcc_ut"
		set GXX_UNDER_TEST "$gxx_ut"
		set CFLAGS ""
		set CXXFLAGS ""
		set HAVE_LIBSTDCXX_V3 1
		set pfe_kind $kind
		set pfe_gcc_major $major
		set pfe_gcc_name "$base"
		EOF
		status=0
		(cd "$d/testsuite/$t" && timeout 900 runtest --tool "$t" gcc-tests.exp) \
			> "$d/testsuite/$t/runtest.out" 2>&1 || status=$?
		echo "$status" > "$d/testsuite/$t/runtest.status"
	done
	secs=$(($(date +%s) - t0))
	sums="$d/testsuite/gcc/gcc.sum $d/testsuite/g++/g++.sum"
	# shellcheck disable=SC2086
	pass=$(cat $sums 2>/dev/null | grep -c '^PASS:')
	# shellcheck disable=SC2086
	fails=$(cat $sums 2>/dev/null | grep -E '^(FAIL|XPASS|UNRESOLVED|UNTESTED|ERROR|WARNING):')
	# shellcheck disable=SC2086
	unsup=$(cat $sums 2>/dev/null | grep '^UNSUPPORTED:')
	bad=$(printf '%s\n' "$fails" | grep -c .)
	nunsup=$(printf '%s\n' "$unsup" | grep -c .)
	noreason=$(printf '%s\n' "$unsup" | grep -c '^UNSUPPORTED: [^:]*$')
	broken=
	for t in gcc g++; do
		case $(cat "$d/testsuite/$t/runtest.status") in 0|1) ;; *) broken="$broken $t:runtest-status" ;; esac
		grep -q 'runtest completed' "$d/testsuite/$t/$t.log" 2>/dev/null || broken="$broken $t:not-completed"
	done
	[ "$pass" -gt 0 ] || broken="$broken no-PASS"
	say "$label: $pass PASS, $bad FAIL/XPASS/UNRESOLVED/ERROR, $nunsup UNSUPPORTED ($secs s)${broken:+, broken:$broken}"
	[ "$kind" = native ] && [ "$bad" -gt 0 ] && printf '%s\n' "$fails" | sed 's/^/    (native) /'
	if [ "$kind" = pfe ]; then
		# shellcheck disable=SC2086
		cat $sums 2>/dev/null | sed -n "s/^\([A-Z]*\): /\1: $name: /p" >> "$msum"
		[ "$bad" -gt 0 ] && printf '%s\n' "$fails" | sed 's/^/    /'
		[ "$nunsup" -gt 0 ] && printf '%s\n' "$unsup" | sed 's/^/    /'
		[ "$bad" -eq 0 ] || failed="$failed, $label"
		[ "$noreason" -eq 0 ] ||
			run_failed "$noreason UNSUPPORTED without a reason (an effective-target check said no)"
	fi
	[ -z "$broken" ] || run_failed "runtest broken:$broken"
	case $name in
	gcc-12-pfe) pfe12=$pass ;;
	gcc-12-native) native12=$pass ;;
	esac
}

# The matrix's view of this: one DejaGnu-style run (suite-result.sh); the
# last one's files go first, so that a setup that fails leaves none.
mdir=$top/build/check/gcc-tests
rm -rf "$mdir" && mkdir -p "$mdir"
msum=$mdir/pfe.sum
: > "$msum"
prepare
make_srcdir
start=$(date +%s)
run gcc-12-pfe pfe gcc-12 g++-12 0 "gcc-12 through pfe-cc --pfe"
run gcc-12-native native gcc-12 g++-12 0 "gcc-12 natively"
run gcc-7-pfe pfe "$gcc7" "$(dirname "$gcc7")/g++-7" 0 "GCC 7.5 through pfe-cc"
run gcc-16-pfe pfe gcc-16 g++-16 1 "gcc-16 through pfe-cc --pfe"
run gcc-16-native native gcc-16 g++-16 1 "gcc-16 natively"
secs=$(($(date +%s) - start))
if [ -z "$pfe12" ] || [ -z "$native12" ]; then
	failed="$failed, no gcc-12 counts to compare"
elif [ "$pfe12" -le "$native12" ]; then
	failed="$failed, gcc-12 passes $pfe12 through pfe-cc, natively $native12: not more"
fi
compare="gcc-12 passes more through pfe-cc than natively"
say "gcc-12: $pfe12 passes through pfe-cc, $native12 natively"
case $failed in
*"gcc-12"*) echo "FAIL: $compare" >> "$msum" ;;
*) echo "PASS: $compare" >> "$msum" ;;
esac
printf '\n\t\t=== pfe Summary ===\n\n# of expected passes\t\t%s\n' "$(grep -c '^PASS:' "$msum")" >> "$msum"
echo "runtest completed at $(date)" > "$mdir/pfe.log"
if [ -n "$failed" ]; then
	echo 1 > "$mdir/run-status"
	say "FAIL: ${failed#, } ($secs s)"
	exit 1
fi
echo 0 > "$mdir/run-status"
say "PASS: every test that applies passes through pfe-cc; gcc-12: $pfe12 passes through pfe-cc, $native12 natively ($secs s)"
