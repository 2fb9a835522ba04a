#!/bin/sh
# check-packages.sh [-p PKG]... [-c GCC]... [-t TARGET]... [-m MODE]...:
# the packages tier (make check-packages); check-packages.sh -q: make
# check's quick subset of it (below).  Debian bookworm source packages
# (testsuite/packages; their sources unpacked by scripts/install-deps.sh
# packages) built unmodified with CC/CXX set and Debian's distro flags
# (dpkg-buildflags, hardening=+all; a flag the compiler does not know is
# dropped, and the log says so), their own test suites run, for each GCC
# (gcc-12, gcc-7: GCC 7.5 of scripts/build-gcc7.sh, gcc-14: the sid
# chroot's), TARGET (x86_64; aarch64: cross-built, tests under qemu-user)
# and MODE:
#   native  CC=GCC: the reference; its failing tests are the baseline;
#   a       CC="pfe-cc --pfe GCC", -fpatchable-function-entry=5 (pfe forced);
#   b       a, plus -fplugin-arg-pfe-fentry=pfe_garble_fentry: every
#           function first calls testsuite/pfe.run/garble-fentry-TARGET.S,
#           which garbles every call-clobbered register carrying no
#           argument (linked into each program and library by
#           -Wl,garble-fentry.o in CFLAGS, CXXFLAGS and LDFLAGS);
#   c       a's build, its test suite run under scripts/pfe-trace (the
#           harness's whole command, so every test program runs with
#           libpfe-trace.so preloaded: every function patched, entry and
#           exit handlers; libpfe.so the loader's audit module); on aarch64
#           qemu's QEMU_SET_ENV sets both in the guest only;
#   r       c under `pfe-trace record` (on aarch64 PFE_TRACE_RECORD set
#           in the guest too): every call of every test program recorded,
#           a file a process, then read back by pfe-trace-read report
#           (into ./report; the record files are removed after it);
#   n5      CC=GCC -fpatchable-function-entry=5, GCC's own (GCC 8+).
# gcc-14 builds (programs for sid's glibc, which do not run here) run no
# tests: their a and n5 count records, which must be equal.
#
# Verdicts: a, b and c PASS when the build succeeds, records exist (b: each
# with the hook's call; c: functions were traced; r: calls were recorded,
# and pfe-trace-read read every file back with exit status 0 and nothing
# said: nothing lost, torn or unreadable), and the tests run and
# the names of the failing ones equal native's on the same GCC and target;
# gcc-14's a PASSes when its records equal n5's.  native and n5 rows are
# references ("ref").  Each run appends its row to build/packages/results.tsv
# (a later run of the same package, GCC, target and mode replaces it), from
# which build/packages/results.md is written; the last line printed is this
# invocation's "N passed, N failed".  Exit status 1 if any run failed.
#
# -q, make check's subset (scripts/check-matrix.sh, run "packages"): the
# packages testsuite/packages marks "quick", on gcc-12 x86_64, modes
# native a b c r, in build/packages-quick; each run is one test of
# build/check/packages/pfe.sum, named "PKG gcc-12 x86_64 MODE": PASS for
# a PASS (native: its reference built and its tests ran), UNSUPPORTED for
# a skip, FAIL for anything else (scripts/suite-result.sh reads it).
#
# Debug: each run's files are in build/packages/GCC-TARGET/PKG/MODE: log
# (configure, build, tests), tests (NAME RESULT per test), failed, records
# (pfe-scan list of its libraries), trace (mode c's pfe-trace reports);
# -v prints a failing run's log tail.  Re-run one: -p PKG -c GCC -m MODE.
# -r only writes results.md again from results.tsv.
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
out=$top/build/packages
src_root=${PFE_PACKAGES:-/var/lib/pfe/packages}/src
list=$top/testsuite/packages
gcc7_bin=/var/lib/pfe/gcc-7/bin
jobs=${PFE_JOBS:-2}
pfe_scan=$top/build/pfe-scan

say() { printf 'check-packages: %s\n' "$*"; }
die() { say "$*" >&2; exit 2; }

pkgs= gccs= targets= modes= verbose= launch= report_only= quick=
while getopts p:c:t:m:vrq opt; do
	case $opt in
	p) pkgs="$pkgs $OPTARG" ;;
	c) gccs="$gccs $OPTARG" ;;
	t) targets="$targets $OPTARG" ;;
	m) modes="$modes $OPTARG" ;;
	v) verbose=1 ;;
	r) report_only=1 ;;
	q) quick=1 ;;
	*) die "usage: $0 [-p PKG]... [-c gcc-12|gcc-7|gcc-14]... [-t x86_64|aarch64]... [-m native|a|b|c|r|n5]... [-v] [-r] | -q" ;;
	esac
done
if [ -n "$quick" ]; then
	[ -z "$pkgs$gccs$targets$modes$report_only" ] || die "-q chooses the runs itself"
	pkgs=$(sed 's/#.*//' "$list" | awk '$5 == "quick" { print $1 }')
	gccs=gcc-12 targets=x86_64 modes="native a b c r" out=$top/build/packages-quick
fi
all_pkgs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | awk '{ print $1 }')
pkgs=${pkgs:-$all_pkgs}
for p in $pkgs; do
	printf '%s\n' "$all_pkgs" | grep -qxF "$p" ||
		die "-p $p: not in testsuite/packages (one of: $(echo $all_pkgs))"
done
gccs=${gccs:-gcc-12 gcc-7}
targets=${targets:-x86_64 aarch64}
modes=${modes:-native a b c r}

# pkg_field PKG N: field N of PKG's line of testsuite/packages.
pkg_field() {
	awk -v p="$1" -v n="$2" '$1 == p { print $n; exit }' "$list"
}

# compilers GCC TARGET: set cc and cxx, the C and C++ compilers.
compilers() {
	cross=
	[ "$2" = aarch64 ] && cross=aarch64-linux-gnu-
	case $1 in
	gcc-12) cc=${cross}gcc-12 cxx=${cross}g++-12 ;;
	gcc-7) cc=$gcc7_bin/${cross}gcc-7 cxx=$gcc7_bin/${cross}g++-7 ;;
	gcc-14) [ -z "$cross" ] || return 1
		cc=$(sid_wrapper gcc-14) cxx=$(sid_wrapper g++-14) ;;
	*) return 1 ;;
	esac
}

# sid_wrapper NAME: a command that runs NAME in the sid chroot, as a
# compiler build systems can call by one name.
sid_wrapper() {
	w=$out/bin/sid-$1
	if [ ! -x "$w" ]; then
		mkdir -p "$out/bin"
		printf '#!/bin/sh\nexec "%s/scripts/sid-run" %s "$@"\n' "$top" "$1" > "$w"
		chmod +x "$w"
	fi
	echo "$w"
}

# plugin GCC CC: build/NAME/pfe.so for CC, made anew if its sources changed.
plugin() {
	name=$(basename "$2")
	case $1 in gcc-14) name=gcc-14 ;; esac
	so=$top/build/$name/pfe.so
	if [ "$1" = gcc-14 ]; then
		(cd "$top" && nice -n 15 scripts/sid-run make -s plugin CC=gcc-14)
	else
		nice -n 15 make -s -C "$top" plugin CC="$2"
	fi >&2 || return 1
	echo "$so"
}

# trace_lib TARGET: libpfe-trace.so for TARGET (GCC 12's build of libpfe:
# the runtime does not depend on the compiler of the program it traces),
# made anew if the sources changed (an old build was once taken as it
# was: a whole run traced with a runtime hours old).
trace_lib() {
	c=gcc-12
	[ "$1" = aarch64 ] && c=aarch64-linux-gnu-gcc-12
	lib=$top/build/$c-runtime/libpfe-trace.so
	nice -n 15 make -s -C "$top" runtime CC=$c >&2 || return 1
	echo "$lib"
}

# distro_flags NAME TARGET COMPILER: dpkg-buildflags' NAME (CFLAGS, ...)
# for TARGET with every hardening feature, less the flags COMPILER rejects
# (an error compiling an empty file with it and the flags kept before it:
# -Werror=format-security needs the -Wformat before it).
distro_flags() {
	arch=amd64
	[ "$2" = aarch64 ] && arch=arm64
	kept=
	for f in $(DEB_HOST_ARCH=$arch DEB_BUILD_MAINT_OPTIONS=hardening=+all \
		dpkg-buildflags --get "$1" 2>/dev/null); do
		# shellcheck disable=SC2086
		if $3 $kept "$f" -x c -c /dev/null -o /dev/null 2>/dev/null; then
			kept="$kept $f"
		else
			say "$1: $f dropped: $3 rejects it" >> "$log"
		fi
	done
	echo "$kept"
}

# configure_and_build BUILD TARGET ARGS: configure and build the copy
# in src/ (autoconf: in place; cmake, meson: in build/).
configure_and_build() {
	host= emu= xfile=
	if [ "$2" = aarch64 ]; then
		host=aarch64-linux-gnu
		emu="qemu-aarch64;-L;/usr/aarch64-linux-gnu"
	fi
	args=$(printf '%s' "$3" | tr ',' ' ')
	[ "$args" = - ] && args=
	case $1 in
	autoconf)
		cd src || return 1
		[ -x configure ] || autoreconf -fi || return 1
		# (zlib's own configure knows no --host: CHOST names the target.)
		if grep -q 'Generated by GNU Autoconf' configure; then
			# shellcheck disable=SC2086
			./configure ${host:+--host=$host --build=x86_64-linux-gnu} $args || return 1
		else
			# shellcheck disable=SC2086
			CHOST=$host ./configure $args || return 1
		fi
		nice -n 15 make -j"$jobs" ;;
	cmake)
		# shellcheck disable=SC2086
		cmake -S src -B build -G Ninja -DCMAKE_BUILD_TYPE=None \
			${host:+-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
			"-DCMAKE_CROSSCOMPILING_EMULATOR=$emu"} $args || return 1
		nice -n 15 ninja -C build -j"$jobs" ;;
	meson)
		if [ -n "$host" ]; then
			xfile=$PWD/cross.ini
			printf "[binaries]\nexe_wrapper = ['qemu-aarch64', '-L', '/usr/aarch64-linux-gnu']\npkg-config = 'false'\n[host_machine]\nsystem = 'linux'\ncpu_family = 'aarch64'\ncpu = 'aarch64'\nendian = 'little'\n" > "$xfile"
		fi
		# shellcheck disable=SC2086
		meson setup build src --buildtype=plain ${xfile:+--cross-file "$xfile"} $args || return 1
		nice -n 15 ninja -C build -j"$jobs" ;;
	esac
}

# run_tests BUILD DIR: run the test suite of the build in DIR (its src/ or
# build/), its harness started by $launch (none, or with_trace's), writing
# ./tests: "NAME RESULT" lines.
run_tests() {
	case $1 in
	autoconf)
		check_rc=0
		(cd "$2/src" && nice -n 15 $launch make -k -j"$jobs" check) || check_rc=$?
		find "$2/src" -name '*.trs' | sort | while read -r t; do
			printf '%s %s\n' "${t#"$2"/src/}" "$(sed -n 's/^:test-result: //p' "$t" | head -1)"
		done > tests.new
		# A package without automake's harness: make check is one test.
		[ -s tests.new ] || { [ "$check_rc" = 0 ] && echo "make-check PASS" || echo "make-check FAIL"; } > tests.new ;;
	cmake)
		junit=$PWD/junit.xml
		(cd "$2/build" && nice -n 15 $launch ctest -j"$jobs" --timeout 900 --output-on-failure \
			--output-junit "$junit")
		tr '>' '\n' < junit.xml | sed -n 's/.*<testcase name="\([^"]*\)".*status="\([^"]*\)".*/\1 \2/p' |
			sed 's/ run$/ PASS/; s/ fail$/ FAIL/; s/ disabled$/ SKIP/; s/ notrun$/ SKIP/' > tests.new ;;
	meson)
		# Meson's 30 s default times out under qemu-user with pfe-trace:
		# 900 s, as ctest's.
		(cd "$2/build" && nice -n 15 $launch meson test --no-rebuild --num-processes "$jobs" \
			--timeout-multiplier 30 --print-errorlogs)
		sed -n 's/.*"name": "\([^"]*\)".*"result": "\([^"]*\)".*/\1 \2/p' \
			"$2/build/meson-logs/testlog.json" | sed 's/ OK$/ PASS/' > tests.new ;;
	esac
	sort tests.new > tests && rm -f tests.new
}

# count_records DIR: pfe-scan list of the shared libraries built in DIR
# into records; prints how many.  Only ELF files: Meson keeps a
# lib*.so*.symbols text file beside each library.
count_records() {
	find "$1" -name 'lib*.so*' -type f ! -path '*/CMakeFiles/*' | sort | while read -r l; do
		head -c 4 "$l" | grep -q ELF || continue
		"$pfe_scan" list "$l" 2>&1 | sed "s|^|${l#"$1"/}: |"
	done > records
	wc -l < records | tr -d ' '
}

# with_trace TARGET LIB BUILD DIR [RECORD]: run_tests BUILD DIR with LIB
# preloaded into every TARGET program its harness runs, and libpfe.so
# beside it as the loader's audit module (scripts/pfe-trace; on aarch64
# qemu's QEMU_SET_ENV, so that the host's programs do not get them), the
# reports of all of them into ./trace through a FIFO (each process adds
# its report to PFE_TRACE_OUTPUT); with RECORD, a directory, every call
# recorded there instead (pfe-trace record).
with_trace() {
	rm -f trace.fifo && mkfifo trace.fifo || return 1
	cat trace.fifo > trace &
	reader=$!
	exec 8> trace.fifo
	PFE_TRACE_OUTPUT=$PWD/trace.fifo
	export PFE_TRACE_OUTPUT
	if [ "$1" = aarch64 ]; then
		launch="env QEMU_SET_ENV=LD_PRELOAD=$2,LD_AUDIT=${2%/*}/libpfe.so${5:+,PFE_TRACE_RECORD=$5}"
		[ -z "${5:-}" ] || { rm -rf "$5" && mkdir -p "$5"; } || return 1
	else
		launch="env PFE_TRACE_LIB=$2 $top/scripts/pfe-trace${5:+ record -o $5}"
	fi
	rc=0
	run_tests "$3" "$4" || rc=$?
	launch=
	unset PFE_TRACE_OUTPUT
	exec 8>&-
	wait "$reader"
	rm -f trace.fifo
	return $rc
}

# failed_of FILE: the names of FILE's failing tests, sorted.
failed_of() {
	awk '$NF != "PASS" && $NF != "SKIP" && $NF != "XFAIL" && $NF != "EXPECTEDFAIL" { sub(/ [^ ]*$/, ""); print }' "$1" | sort
}

# one_run PKG GCC TARGET MODE: build and test; append the row to results.tsv.
one_run() {
	pkg=$1 gcc=$2 target=$3 mode=$4
	dir=$out/$gcc-$target/$pkg/$mode
	build=$(pkg_field "$pkg" 2) lang=$(pkg_field "$pkg" 3) args=$(pkg_field "$pkg" 4)
	note= records=- ntests=- nfail=- native_failed=- verdict=FAIL read_problem=
	unset CC CXX CFLAGS CXXFLAGS CPPFLAGS LDFLAGS PFE_PLUGIN
	rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || return 1
	log=$dir/log
	say "$pkg $gcc $target $mode"
	if ! run_mode "$pkg" "$gcc" "$target" "$mode" >> "$log" 2>&1; then
		[ -z "$verbose" ] || tail -30 "$log" >&2
	fi
	row "$pkg" "$gcc" "$target" "$mode" "$ntests" "$nfail" "$native_failed" "$records" "$verdict" "$note"
	cd "$top" || exit 2
}

# run_mode PKG GCC TARGET MODE: one_run's work, in the run's directory;
# sets ntests, nfail, native_failed, records, verdict and note.
run_mode() {
	if ! compilers "$gcc" "$target"; then
		verdict=skip note="no $gcc for $target"
		return 0
	fi
	if [ "$lang" = c++ ] && ! $cxx -x c++ -fsyntax-only -include new /dev/null 2>/dev/null; then
		verdict=skip note="$cxx cannot compile C++ (no library headers)"
		return 0
	fi
	if [ "$target" = aarch64 ] && [ "$build" = autoconf ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
		verdict=skip note="no binfmt_misc for qemu-aarch64: make check runs cross-built programs directly"
		return 0
	fi
	[ -d "$src_root/${pkg%%/*}" ] || { note="no source (scripts/install-deps.sh packages)"; return 1; }
	# The host's valgrind cannot run aarch64 programs: a harness that uses
	# it when installed (json-c's, unless USE_VALGRIND=0) runs them without.
	if [ "$target" = aarch64 ]; then
		USE_VALGRIND=0
		export USE_VALGRIND
	else
		unset USE_VALGRIND
	fi
	native_dir=$out/$gcc-$target/$pkg/native
	if [ "$mode" = c ] || [ "$mode" = r ]; then
		trace_run
		return
	fi
	mode_env || return 1
	cp -a "$src_root/$pkg" src || return 1
	if ! configure_and_build "$build" "$target" "$args"; then
		note="build failed"
		return 1
	fi
	cd "$dir" || return 1
	records=$(count_records "$dir")
	if [ "$gcc" = gcc-14 ]; then
		records_verdict
		return
	fi
	run_tests "$build" "$dir"
	compare_tests
}

# mode_env: export CC, CXX and the flags of $mode.
mode_env() {
	pfe_flags=
	CC=$cc CXX=$cxx
	case $mode in
	native) ;;
	n5) pfe_flags=-fpatchable-function-entry=5 ;;
	a|b)
		PFE_PLUGIN=$(plugin "$gcc" "$cc") || { note="no plugin for $cc"; return 1; }
		export PFE_PLUGIN
		CC="$top/scripts/pfe-cc --pfe $cc" CXX="$top/scripts/pfe-cc --pfe $cxx"
		pfe_flags=-fpatchable-function-entry=5 ;;
	*) note="unknown mode"; return 1 ;;
	esac
	CFLAGS="$(distro_flags CFLAGS "$target" "$cc") $pfe_flags"
	CXXFLAGS="$(distro_flags CXXFLAGS "$target" "$cc") $pfe_flags"
	CPPFLAGS=$(distro_flags CPPFLAGS "$target" "$cc")
	LDFLAGS=$(distro_flags LDFLAGS "$target" "$cc")
	if [ "$mode" = b ]; then
		$cc -c -o "$dir/garble-fentry.o" "$top/testsuite/pfe.run/garble-fentry-$target.S" || return 1
		# In CFLAGS too: some Makefiles replace LDFLAGS (jansson's test/bin).
		# Meson drops "-Wl,FILE" from both but keeps a plain FILE in
		# LDFLAGS, which is where it links (its sanity check too).
		hook=-Wl,$dir/garble-fentry.o
		[ "$build" != meson ] || hook=
		CFLAGS="$CFLAGS -fplugin-arg-pfe-fentry=pfe_garble_fentry $hook"
		CXXFLAGS="$CXXFLAGS -fplugin-arg-pfe-fentry=pfe_garble_fentry $hook"
		LDFLAGS="$LDFLAGS ${hook:-$dir/garble-fentry.o}"
	fi
	export CC CXX CFLAGS CXXFLAGS CPPFLAGS LDFLAGS
	printf 'CC=%s\nCXX=%s\nCFLAGS=%s\nCXXFLAGS=%s\nCPPFLAGS=%s\nLDFLAGS=%s\n' \
		"$CC" "$CXX" "$CFLAGS" "$CXXFLAGS" "$CPPFLAGS" "$LDFLAGS"
}

# trace_run: modes c and r, the tests of mode a's build under pfe-trace
# (r: pfe-trace record, the files read back).
trace_run() {
	a_dir=$out/$gcc-$target/$pkg/a
	[ -s "$a_dir/records" ] || { note="no build of mode a to trace"; return 1; }
	lib=$(trace_lib "$target") || { note="no libpfe-trace.so"; return 1; }
	records=$(wc -l < "$a_dir/records" | tr -d ' ')
	if [ "$mode" = r ]; then
		with_trace "$target" "$lib" "$build" "$a_dir" "$dir/rec"
		read_records
	else
		with_trace "$target" "$lib" "$build" "$a_dir"
		traced=$(sed -n 's/^pfe-trace: *[0-9][0-9]* *[0-9.][0-9.]*  //p' trace | sort -u | wc -l)
		note="$traced functions traced"
	fi
	compare_tests || return 1
	[ "$verdict" = skip ] || [ -z "$read_problem" ] || { verdict=FAIL note="$note; $read_problem"; return 1; }
	[ "$verdict" = skip ] || [ "$traced" -gt 0 ] || { verdict=FAIL note="nothing traced"; return 1; }
}

# read_records: mode r's record files (./rec) read back by pfe-trace-read
# report into ./report, what it says into ./said, then removed (a test
# suite's calls are GBs); traced: the functions the report has; note;
# read_problem: the reader's status and words if it failed or said
# anything (a lost exit, a torn block, a file it cannot read).
read_records() {
	files=$(find rec -name '*.pfetrace' | wc -l | tr -d ' ')
	mb=$(du -sm rec | cut -f1)
	rc=0
	"$top/build/pfe-trace-read" report rec > report 2> said || rc=$?
	rm -rf rec
	traced=$(awk 'NR > 1' report | wc -l | tr -d ' ')
	note="$files record files, $mb MB, $traced functions recorded"
	read_problem=
	[ "$rc" = 0 ] && [ ! -s said ] ||
		read_problem="the reader: status $rc, $(wc -l < said | tr -d ' ') lines said: $(head -3 said | tr '\n' ' ')"
}

# records_verdict: gcc-14's a against n5 (records only).
records_verdict() {
	verdict=ref
	[ "$mode" = a ] || return 0
	n5=$(wc -l < "$out/$gcc-$target/$pkg/n5/records" 2>/dev/null | tr -d ' ')
	note="native -fpatchable-function-entry=5: ${n5:-not run}"
	verdict=FAIL
	[ "$records" -gt 0 ] && [ "$records" = "${n5:-}" ] && verdict=PASS
}

# compare_tests: ntests, nfail and the verdict from ./tests against
# native's.
compare_tests() {
	ntests=$(awk '$NF != "SKIP"' tests | wc -l | tr -d ' ')
	failed_of tests > failed
	nfail=$(wc -l < failed | tr -d ' ')
	if [ "$mode" = native ] || [ "$mode" = n5 ]; then
		verdict=ref native_failed=$nfail
		[ "$ntests" -gt 0 ] || { verdict=FAIL note="no test ran"; return 1; }
		return 0
	fi
	[ -f "$native_dir/failed" ] || { note="${note:+$note; }no native run to compare with"; return 1; }
	native_failed=$(wc -l < "$native_dir/failed" | tr -d ' ')
	native_tests=$(awk '$NF != "SKIP"' "$native_dir/tests" | wc -l | tr -d ' ')
	# Equal failures prove nothing where every test fails natively.
	if [ "$native_failed" = "$native_tests" ]; then
		verdict=skip note="${note:+$note; }every test fails natively here: nothing to compare"
		return 0
	fi
	[ "$ntests" -gt 0 ] || { note="${note:+$note; }no test ran"; return 1; }
	[ "$records" != - ] && [ "$records" -gt 0 ] || { note="${note:+$note; }no records"; return 1; }
	if [ "$mode" = b ]; then
		hooked=$(grep -c 'call=pfe_garble_fentry' records)
		[ "$hooked" = "$records" ] || { note="${note:+$note; }$hooked of $records records call the hook"; return 1; }
	fi
	[ "$ntests" = "$native_tests" ] || { note="${note:+$note; }$ntests tests ran, native $native_tests"; return 1; }
	cmp -s failed "$native_dir/failed" || { note="${note:+$note; }failing: $(tr '\n' ' ' < failed)"; return 1; }
	verdict=PASS
}

# row FIELD...: replace this run's row of results.tsv.
row() {
	key=$(printf '%s\t%s\t%s\t%s\t' "$1" "$2" "$3" "$4")
	touch "$out/results.tsv"
	awk -F '\t' -v k="$key" 'index($0, k) != 1' "$out/results.tsv" > "$out/results.tsv.new"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$out/results.tsv.new"
	mv "$out/results.tsv.new" "$out/results.tsv"
	printf '%s\t%s\n' "$9" "$1 $2 $3 $4" >> "$out/this-run"
	say "$1 $2 $3 $4: $9 (tests $5, failures $6, native $7, records $8${10:+; ${10}})"
	write_md
}

# write_md: build/packages/results.md from results.tsv, in the order of
# testsuite/packages, GCC, target and mode (a subshell: its loop variable
# must not be the caller's p, one_run runs it after every run).
write_md() (
	{
		echo "# make check-packages: results"
		echo
		echo "Written by scripts/check-packages.sh from build/packages/results.tsv (every run so far)."
		echo
		echo "| package | GCC | target | mode | tests run | failures | native failures | records | verdict | note |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		for p in $all_pkgs; do
			awk -F '\t' -v p="$p" '$1 == p' "$out/results.tsv" |
				sort -t '	' -k2,2r -k3,3 -k4,4 |
				awk -F '\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
		done
		echo
		awk -F '\t' '$9 == "PASS" { p++ } $9 == "FAIL" { f++ } END { printf "%d passed, %d failed\n", p, f }' "$out/results.tsv"
	} > "$out/results.md"
)

# aarch64 autoconf packages run their cross-built test programs directly
# (make check): binfmt_misc hands them to qemu-aarch64, registered for
# this run where the kernel has binfmt_misc and nothing is registered (and
# removed at exit), QEMU_LD_PREFIX giving it the loader and libraries.
binfmt=/proc/sys/fs/binfmt_misc
qemu_aarch64_magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
qemu_aarch64_mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
register_qemu_aarch64() {
	[ ! -e "$binfmt/qemu-aarch64" ] || return 0
	[ -e "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null || return 0
	qemu=$(command -v qemu-aarch64) || return 0
	printf ':qemu-aarch64:M::%s:%s:%s:F\n' "$qemu_aarch64_magic" "$qemu_aarch64_mask" "$qemu" \
		>"$binfmt/register" 2>/dev/null || return 0
	trap 'echo -1 >"$binfmt/qemu-aarch64"' EXIT
}
case " $targets " in *" aarch64 "*) register_qemu_aarch64 ;; esac
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu

# quick_sum: this run as make check's run "packages" (-q), a DejaGnu-style
# pfe.sum, pfe.log and run-status in build/check/packages.
quick_sum() {
	qdir=$top/build/check/packages
	rm -rf "$qdir" && mkdir -p "$qdir"
	awk -F '\t' '{ r = $1 == "PASS" || $1 == "ref" ? "PASS" : $1 == "skip" ? "UNSUPPORTED" : "FAIL"
		print r ": " $2 }' "$out/this-run" > "$qdir/pfe.sum"
	printf '\n\t\t=== pfe Summary ===\n\n# of expected passes\t\t%s\n' \
		"$(grep -c '^PASS:' "$qdir/pfe.sum")" >> "$qdir/pfe.sum"
	echo "runtest completed at $(date)" > "$qdir/pfe.log"
	grep -q '^FAIL:' "$qdir/pfe.sum" && echo 1 > "$qdir/run-status" || echo 0 > "$qdir/run-status"
}

[ -x "$pfe_scan" ] || nice -n 15 make -s -C "$top" build/pfe-scan || die "cannot build pfe-scan"
mkdir -p "$out"
# One invocation at a time in $out: two at once would mix their rows of
# results.tsv and their this-run, and build in the same folders (on
# 2026-12-07 a run of GCC 12's printed a run of GCC 7.5's failures as
# its own).
exec 9> "$out/.lock"
flock -n 9 || die "another check-packages is running in $out (wait for it to end)"
if [ -n "$report_only" ]; then
	write_md
	say "results: $out/results.md"
	exit 0
fi
: > "$out/this-run"
for g in $gccs; do
	for t in $targets; do
		for p in $pkgs; do
			for m in $modes; do
				one_run "$p" "$g" "$t" "$m"
			done
		done
	done
done
write_md
say "results: $out/results.md"
passed=$(grep -c '^PASS' "$out/this-run")
failed=$(grep -c '^FAIL' "$out/this-run")
grep '^FAIL' "$out/this-run" | sed 's/^FAIL\t/check-packages: FAIL: /'
echo "$passed passed, $failed failed"
[ -z "$quick" ] || quick_sum
[ "$failed" = 0 ]
