#!/bin/sh
# bench-runtime.sh CC PLUGIN RTDIR: the run-time library against LLVM XRay
# doing the same work (make bench).  One source, scripts/bench-runtime.c:
# a program of 100000 small functions (and one leaf called in a loop),
# all of one int argument, built eight ways at -O2: CC plain; CC with pfe
# (fentry-nop + ops-slot + vector-args: their entries save no vector
# register) and libpfe.a, and the same with exit sleds (exits); clang-16 plain;
# clang-16 -fxray-instrument (entry and exit sleds); clang-16
# -fxray-instrument -fxray-instrumentation-bundle=function-entry (entry
# sleds only); the pfe build and the last again with every function 512
# bytes longer (the padded pair).  pfe links libpfe.a as XRay links its
# runtime (its trampolines within the code's reach); the two pfe builds
# linked again with libpfe.so instead (pfe-so, pfe-exits-so: a veneer's
# indirect jump on every call and exit, as under pfe-trace) give rows of
# their own.
# Each side's entry-only rows run its entry-only build,
# the others its entry-and-exit build.  The handler's work is the same on
# both sides (a per-thread counter incremented), and each program checks
# that it ran once per event.  Rows, pfe against XRay:
#   disabled, one function / 100000 functions: ns per call of the
#       instrumented program (entry and exit), nothing enabled, over the
#       same program built
#       plain by the same compiler (100000 functions called in a shuffled
#       order: the i-cache and iTLB footprint of the NOPs and sleds)
#   entry only: pfe entry handler / XRay function-entry bundle
#   entry+exit: pfe entry and exit handlers / XRay both sleds, the handler
#       called on exit too; each on one function called over and over, on
#       the 100000 functions called in a shuffled order, and on one function
#       called by two threads at once (the slower thread's figure)
#   pfe with libpfe.so: entry only, entry+exit, one function and 100000
#   pfe by lookup (PFE_DEBUG=lookup: the ops slots unused), entry only
#   instructions per call of the one function (disabled, entry only,
#       entry+exit), counted by callgrind over the plain build's: exact,
#       where the clock rows swing from run to run
#   patch / unpatch all 100000, first time and again: pfe_enable_all /
#       pfe_disable_all against __xray_patch / __xray_unpatch, each with its
#       own protections (pfe keeps its scheme; XRay makes the pages RWX);
#       entry only again with a second thread alive (pfe's protocol for
#       threads; alone it writes each site once), and entry only again
#       in the padded pair: the pfe and XRay entry-only builds with 512
#       bytes of NOPs in every function (-DBENCH_PAD), as far apart as a
#       real program's functions (the others are 32 bytes apart)
# ROUNDS (default 7) runs of every program, the two sides taking turns so
# that both meet the same machine; each run takes the fastest of 3 rounds
# of its own.  A row prints each side's best (and worst) run, the ratio of
# the bests and the range of the ratio run by run (its noise).  The table
# is markdown, to paste into runtime/README.md as it is.  Then the 8-thread
# soak of pfe.runtime for 10 s (make check runs 1 s).
# RTDIR holds libpfe.so (make runtime).  Exit status non-zero when a build
# or a run fails (it says which).  Debug: the programs and each run's
# figures (res/*) stay in build/bench-runtime; run one by hand, e.g.
# "./pfe spread both" or "perf record ./xray spread both".
set -eu
cc=$1 plugin=$2 rt=$3
rounds=${ROUNDS:-7}
# The padded pair's NOPs a function (functions some 540 bytes apart).
pad=512
top=$(cd "$(dirname "$0")/.." && pwd -P)
. "$top/scripts/figures.sh"
out=$top/build/bench-runtime
rm -rf "$out"
mkdir -p "$out/res"
cd "$out"
src=$top/scripts/bench-runtime.c
start=$(date +%s)

# The compilers' commands, by build (the main unit's extra
# arguments follow the parts').
gplain="$cc -O2"
pfe="$cc -O2 -fplugin=$plugin -fplugin-arg-pfe-fentry -fplugin-arg-pfe-fentry-nop -fplugin-arg-pfe-ops-slot"
pfe="$pfe -fplugin-arg-pfe-vector-args"
pfe_exits="$pfe -fplugin-arg-pfe-exits"
cplain="clang-16 -O2"
xray="clang++-16 -O2 -x c++ -fxray-instrument -fxray-instruction-threshold=1"
xray_entry="$xray -fxray-instrumentation-bundle=function-entry"
lib="-DBENCH_PFE -I$top/runtime $rt/libpfe.a -lpthread"
lib_so="-DBENCH_PFE -I$top/runtime $rt/libpfe.so -Wl,-rpath,$rt"

fail() {
	echo "bench-runtime: $1 failed:"
	cat "$2"
	exit 1
}
# part NAME K CC...: unit K of NAME's 100000 functions.
part() {
	name=$1 k=$2
	shift 2
	"$@" -c -DBENCH_PART=$k "$src" -o $name-$k.o 2> $name-$k.log && return
	echo "bench-runtime: building $name-$k.o failed:"
	cat $name-$k.log
	return 1
}
# link NAME PARTS "CC..." MAIN-ARGS...: the main unit linked with the
# ten units of PARTS into NAME.
link() {
	name=$1 parts=$2 cmd=$3
	shift 3
	$cmd "$src" "$@" -x none $parts-[0-9]*.o -o $name 2> $name.log || fail "building $name" $name.log
}
# build NAME "CC..." MAIN-ARGS...: the ten units two at a time (the
# machine's cores), then the main unit linked with them.
build() {
	name=$1 cmd=$2
	for k in 1 3 5 7 9; do
		part $name $k $cmd &
		p=$!
		part $name $((k + 1)) $cmd || { wait $p || :; exit 1; }
		wait $p || exit 1
	done
	shift
	link $name $name "$@"
}
echo "bench-runtime: building eight programs of 100000 functions (a few minutes)"
build gplain "$gplain"
build pfe "$pfe" $lib
build pfe-exits "$pfe_exits" $lib
link pfe-so pfe "$pfe" $lib_so
link pfe-exits-so pfe-exits "$pfe_exits" $lib_so
build cplain "$cplain"
build xray "$xray" -DBENCH_XRAY
build xray-entry "$xray_entry" -DBENCH_XRAY
build pfe-pad "$pfe -DBENCH_PAD=$pad" $lib
build xray-pad "$xray_entry -DBENCH_PAD=$pad" -DBENCH_XRAY
$cc -O2 -fplugin=$plugin -fplugin-arg-pfe-fentry -fplugin-arg-pfe-fentry-nop -I$top/runtime \
	"$top/testsuite/pfe.runtime/rt-soak.c" $rt/libpfe.so -Wl,-rpath,$rt -lpthread -o soak 2> soak.log ||
	fail "building soak" soak.log
built=$(date +%s)

# run KEY PROGRAM ARGS...: append each "NAME value" PROGRAM prints to
# res/KEY.NAME.
run() {
	key=$1
	shift
	"$@" > run.out 2>&1 || fail "$*" run.out
	awk -v k="res/$key." '{ print $2 >> (k $1) }' run.out
}
echo "bench-runtime: $rounds rounds, pfe and XRay taking turns"
for r in $(seq "$rounds"); do
	for m in calls spread; do
		run $m-off-gplain ./gplain $m off
		run $m-off-pfe ./pfe-exits $m off
		run $m-off-cplain ./cplain $m off
		run $m-off-xray ./xray $m off
		run $m-entry-pfe ./pfe $m entry
		run $m-entry-xray ./xray-entry $m entry
		run $m-both-pfe ./pfe-exits $m both
		run $m-both-xray ./xray $m both
		run $m-entry-pfe-so ./pfe-so $m entry
		run $m-both-pfe-so ./pfe-exits-so $m both
	done
	run pair-entry-pfe ./pfe pair entry
	run pair-entry-xray ./xray-entry pair entry
	run pair-both-pfe ./pfe-exits pair both
	run pair-both-xray ./xray pair both
	run spread-entry-lookup env PFE_DEBUG=lookup ./pfe spread entry
	run patch-entry-pfe ./pfe patch entry
	run patch-entry-xray ./xray-entry patch entry
	run patch-both-pfe ./pfe-exits patch both
	run patch-both-xray ./xray patch both
	run patch2-entry-pfe ./pfe patch2 entry
	run patch2-entry-xray ./xray-entry patch2 entry
	run patch-pad-pfe ./pfe-pad patch entry
	run patch-pad-xray ./xray-pad patch entry
done

# count KEY PROGRAM MODE: the instructions a call of bench_leaf takes in
# PROGRAM with MODE's handlers (loop and leaf included), as callgrind
# counts them inside counted_calls alone (the program's "count": its
# calls, untimed; startup left out), into res/KEY.ir_per_call.  Exact
# where the clock is not: one run is the figure.  libpfe writes through
# mprotect there (valgrind runs copies of the code, which writes through
# /proc/self/mem would not reach: libpfe's probe sees it).
count() {
	valgrind --tool=callgrind --callgrind-out-file=callgrind.out --toggle-collect='*counted_calls*' \
		--smc-check=all "./$2" count "$3" > run.out 2>&1 || fail "valgrind ./$2 count $3" run.out
	n=$(awk '$1 == "counted_calls" { print $2 }' run.out)
	awk -v n="$n" '$1 == "summary:" { printf "%.1f\n", $2 / n; found = 1 }
		END { exit !found || !n }' callgrind.out > res/$1.ir_per_call ||
		fail "callgrind's count of ./$2 count $3" run.out
}
echo "bench-runtime: instructions per call, counted by callgrind"
count off-gplain gplain off
count off-pfe pfe-exits off
count off-cplain cplain off
count off-xray xray off
count entry-pfe pfe entry
count entry-xray xray-entry entry
count both-pfe pfe-exits both
count both-xray xray both

# row LABEL PFE XRAY: a table row of res/PFE against res/XRAY, a figure a
# line, one line a run: each side's best (and worst), the ratio of the
# bests, the range of the ratio run by run.
row() {
	paste "res/$2" "res/$3" | awk -v label="$1" '
		NR == 1 || $1 < bp { bp = $1 }
		NR == 1 || $1 > wp { wp = $1 }
		NR == 1 || $2 < bx { bx = $2 }
		NR == 1 || $2 > wx { wx = $2 }
		{ r = $1 / $2 }
		NR == 1 || r < lo { lo = r }
		NR == 1 || r > hi { hi = r }
		END { printf "| %s | %.2f (%.2f) | %.2f (%.2f) | %.2fx | %.2fx-%.2fx |\n",
			label, bp, wp, bx, wx, bp / bx, lo, hi }'
}
# disabled LABEL M: the instrumented programs over the plain ones (M:
# calls or spread): each side's best instrumented / best plain, and the
# ratio of those two overheads, best and run by run.
disabled() {
	paste res/$2-off-pfe.ns_per_call res/$2-off-gplain.ns_per_call \
		res/$2-off-xray.ns_per_call res/$2-off-cplain.ns_per_call | awk -v label="$1" '
		NR == 1 || $1 < bp { bp = $1 }
		NR == 1 || $2 < bg { bg = $2 }
		NR == 1 || $3 < bx { bx = $3 }
		NR == 1 || $4 < bc { bc = $4 }
		{ r = ($1 / $2) / ($3 / $4) }
		NR == 1 || r < lo { lo = r }
		NR == 1 || r > hi { hi = r }
		END { printf "| %s | %.2f / %.2f = %.2fx | %.2f / %.2f = %.2fx | %.2fx | %.2fx-%.2fx |\n",
			label, bp, bg, bp / bg, bx, bc, bx / bc, (bp / bg) / (bx / bc), lo, hi }'
}
# counted LABEL MODE: instructions per call with MODE's handlers (off:
# none) over the plain build's, each side's (res/MODE-pfe against
# res/off-gplain, res/MODE-xray against res/off-cplain), and the ratio of
# the two.
counted() {
	paste res/$2-pfe.ir_per_call res/off-gplain.ir_per_call res/$2-xray.ir_per_call res/off-cplain.ir_per_call |
		awk -v label="$1" '{ d = $3 - $4; r = d ? sprintf("%.2fx", ($1 - $2) / d) : "-"
			printf "| %s | %.1f - %.1f = %.1f | %.1f - %.1f = %.1f | %s | exact |\n",
				label, $1, $2, $1 - $2, $3, $4, d, r }'
}
# label MODE, sleds MODE: what a row of MODE (entry or both) says.
label() {
	case $1 in
	entry) echo "entry only" ;;
	both) echo "entry+exit" ;;
	esac
}
sleds() {
	case $1 in
	entry) echo 100000 ;;
	both) echo 200000 ;;
	esac
}
# patch_rows MODE WHAT KEY STEP...: a row of each patch STEP (patch,
# unpatch, ...) of a MODE build, res/KEY-pfe.STEP_ms against
# res/KEY-xray.STEP_ms, WHAT after the step in its label.
patch_rows() {
	mode=$1 what=$2 key=$3
	shift 3
	for step in "$@"; do
		row "$(label $mode) (XRay: $(sleds $mode) sleds), $step $what: ms" \
			$key-pfe.${step}_ms $key-xray.${step}_ms
	done
}
# The table and its legend, as printed, also into runtime/bench-figures.md
# (with where and when it was measured): runtime/README.md's figures are
# that file, written here, not by hand.
table() {
	echo "bench-runtime: pfe ($cc, fentry-nop + ops-slot + vector-args, + exits for entry+exit; libpfe.a unless the row says libpfe.so) against LLVM XRay (clang-16), $rounds runs each, -O2"
	echo
	echo "| row | pfe: best (worst) | XRay: best (worst) | pfe / XRay | run by run |"
	echo "|---|---|---|---|---|"
	disabled "disabled, one function: ns per call, instrumented / plain" calls
	disabled "disabled, 100000 functions: ns per call, instrumented / plain" spread
	for m in entry both; do
		row "$(label $m), one function: ns per call" calls-$m-pfe.ns_per_call calls-$m-xray.ns_per_call
		row "$(label $m), 100000 functions: ns per call" spread-$m-pfe.ns_per_call spread-$m-xray.ns_per_call
		row "$(label $m), one function, 2 threads at once: ns per call" \
			pair-$m-pfe.ns_per_call pair-$m-xray.ns_per_call
	done
	for m in entry both; do
		row "$(label $m), one function, pfe with libpfe.so: ns per call" \
			calls-$m-pfe-so.ns_per_call calls-$m-xray.ns_per_call
		row "$(label $m), 100000 functions, pfe with libpfe.so: ns per call" \
			spread-$m-pfe-so.ns_per_call spread-$m-xray.ns_per_call
	done
	row "entry only, 100000 functions, pfe by lookup: ns per call" \
		spread-entry-lookup.ns_per_call spread-entry-xray.ns_per_call
	counted "disabled, one function: instructions per call, over plain" off
	for m in entry both; do
		counted "$(label $m), one function: instructions per call, over plain" $m
	done
	for m in entry both; do
		patch_rows $m 100000 patch-$m patch unpatch repatch reunpatch
	done
	patch_rows entry "100000, a second thread alive" patch2-entry patch repatch
	patch_rows entry "100000 functions $pad bytes longer" patch-pad patch unpatch repatch reunpatch
	echo
	echo "Disabled rows: each side's instrumented program over the same program built"
	echo "plain by the same compiler; pfe / XRay is the ratio of those two overheads."
	echo "Other rows: pfe's time over XRay's.  Best: the fastest of $rounds runs (each the"
	echo "fastest of 3 rounds); run by run: the ratio in each run, the two sides taking turns."
	echo "Patch rows: repatch and reunpatch are the second time in the same process;"
	echo "the process is one thread (libpfe writes each site once) unless the row says"
	echo "a second thread is alive (libpfe's protocol for threads: x86's int3 protocol)."
	echo "The last four: every function $pad bytes of NOPs longer, as far apart as a real"
	echo "program's (the others are 32 bytes apart, 128 on a page of code)."
	echo "Instruction rows: what callgrind counts in a call of the one function (the"
	echo "loop and the function included) over the plain build's by the same compiler;"
	echo "exact, so one run is the figure; the clock rows say what they cost in time."
	echo
}
table | tee table.md
figures_file "$top/runtime/bench-figures.md" "sh scripts/bench-runtime.sh (make bench)" table.md
measured=$(date +%s)
echo "bench-runtime: soak, 8 threads x 1000 functions toggled for 10 s"
./soak 10 > soak.out 2>&1 || fail "soak" soak.out
sed 's/^/  /' soak.out
echo "bench-runtime: $(($(date +%s) - start)) s: building $((built - start)) s, measuring $((measured - built)) s"
