#!/bin/sh
# bench-trace.sh CC PLUGIN RTDIR: what recording every call costs, pfe-trace
# record against uftrace record and LLVM XRay's basic mode, side by side in
# one run (make bench, after bench-runtime.sh).  Two workloads, each built
# four ways at -O2:
#   calls    scripts/bench-trace.c: fib and loops of small calls (about
#            1.3 million calls of a few ns each)
#   sqlite   testsuite/pfe.run/sqlite-driver.c with the amalgamation
#            ($PFE_CORPUS/sqlite3.c, /var/lib/pfe/corpus by default:
#            scripts/install-deps.sh); without it, said and skipped
#   spread   scripts/bench-runtime.c "trace": 100000 functions called in
#            a shuffled order, 5 passes; linked from bench-runtime.sh's
#            parts (build/bench-runtime, the same flags: make bench runs it
#            first); without them, said and skipped
# gplain: CC; pfe: CC with pfe fentry-nop + ops-slot (bench-runtime's
# layout); cplain: clang-16; xray: clang-16 -fxray-instrument
# -fxray-instruction-threshold=1.  The tracers:
#   pfe-trace record       scripts/pfe-trace on the pfe program
#   uftrace record         /usr/bin/uftrace -P . --no-libcall --no-sched on
#                          the same pfe program: uftrace patches its 5-byte
#                          NOP entries at start (its "fpatchable" mode,
#                          testsuite/pfe.uftrace); the program's functions
#                          only, as pfe-trace
#   XRay basic             the xray program with XRAY_OPTIONS="patch_premain=
#                          true xray_mode=xray-basic" and XRAY_BASIC_OPTIONS=
#                          "func_duration_threshold_us=0 max_stack_depth=
#                          4096": every call kept (by default basic mode
#                          drops calls under 5 us and deeper than 64)
# ROUNDS (default 7) rounds, the five runs of a workload taking turns in
# each; a run is the whole process, wall clock (start-up, patching and
# writing the record included).  Per workload: each run's best (worst) ms,
# the slow-down (traced best / the same compiler's plain best), the cost of
# a call (the extra time over the calls that tracer recorded: pfe-trace's
# and uftrace's reports, XRay's log of 32-byte records), the record's size
# on disk, and pfe-trace's run time and cost per call over each other's.
# The table goes to runtime/trace-bench-figures.md (scripts/figures.sh).
# Exit status non-zero when a build or a run fails, a traced run prints
# other than the plain one, or uftrace recorded other calls than pfe-trace.
# Debug: the programs, records (*.rec) and each run's figures (res/*) stay
# in build/bench-trace; e.g. "perf record -g pfe-trace record ./calls-pfe".
set -eu
cc=$1 plugin=$2 rt=$3
rounds=${ROUNDS:-7}
top=$(cd "$(dirname "$0")/.." && pwd -P)
. "$top/scripts/figures.sh"
corpus=${PFE_CORPUS:-/var/lib/pfe/corpus}
out=$top/build/bench-trace
rm -rf "$out"
mkdir -p "$out/res"
cd "$out"
start=$(date +%s)

pfe_flags="-fplugin=$plugin -fplugin-arg-pfe-fentry -fplugin-arg-pfe-fentry-nop -fplugin-arg-pfe-ops-slot"
xray_flags="-fxray-instrument -fxray-instruction-threshold=1"
pfe_trace="$top/scripts/pfe-trace"
export PFE_TRACE_LIB="$rt/libpfe-trace.so" PFE_TRACE_READ="$top/build/pfe-trace-read"

fail() {
	echo "bench-trace: $1:"
	cat "$2"
	exit 1
}

# compile OUT CC... : one build, its messages in OUT.log.
compile() {
	o=$1
	shift
	"$@" -o "$o" 2> "$o.log" || fail "building $o failed" "$o.log"
}
# build W "SOURCES" LINK-ARGS...: W-gplain, W-pfe, W-cplain and W-xray from
# SOURCES (and their -I), two builds at a time (the machine's cores).
build() {
	w=$1 srcs=$2
	shift 2
	compile $w-gplain $cc -O2 $srcs "$@" &
	p=$!
	compile $w-pfe $cc -O2 $pfe_flags $srcs "$@" || { wait $p || :; exit 1; }
	wait $p || exit 1
	compile $w-cplain clang-16 -O2 $srcs "$@" &
	p=$!
	compile $w-xray clang-16 -O2 $xray_flags $srcs "$@" || { wait $p || :; exit 1; }
	wait $p || exit 1
}

# The arguments of workload W's program.
args() {
	case $1 in
	spread) echo trace ;;
	esac
}
# Each tracer's command for program P, its record in REC.
tracer() {
	t=$1 p=$2 rec=$3
	case $t in
	gplain | cplain) echo "./$p" ;;
	pfe) echo "$pfe_trace record -o $rec ./$p" ;;
	uftrace) echo "uftrace record -d $rec -P . --no-libcall --no-sched ./$p" ;;
	xray) echo "env XRAY_OPTIONS=patch_premain=true:xray_mode=xray-basic:xray_logfile_base=$rec/xray-log." \
		"XRAY_BASIC_OPTIONS=func_duration_threshold_us=0:max_stack_depth=4096 ./$p" ;;
	esac
}
program() {
	case $2 in
	pfe | uftrace) echo "$1-pfe" ;;
	*) echo "$1-$2" ;;
	esac
}
# run W T ARGS...: one run of tracer T on workload W's program, its record
# in W-T.rec (made empty first); appends the microseconds it took to
# res/W-T.us and checks that it printed what the plain run printed.
run() {
	w=$1 t=$2
	shift 2
	rec=$w-$t.rec
	# uftrace makes its own (an existing one it keeps as REC.old).
	rm -rf "$rec"
	[ "$t" = uftrace ] || mkdir "$rec"
	cmd="$(tracer $t "$(program $w $t)" "$rec") $(args $w)"
	t0=$(date +%s%N)
	$cmd > run.out 2> run.err || fail "$cmd failed" run.err
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000)) >> res/$w-$t.us
	if [ "$t" = gplain ] && [ ! -f $w.out ]; then
		cp run.out $w.out
	fi
	cmp -s run.out $w.out || fail "$cmd printed other than $w-gplain" run.out
	du -sk "$rec" | cut -f1 > res/$w-$t.kib
}
# calls W T: the calls tracer T recorded in its last run of W.
calls() {
	case $2 in
	pfe) "$PFE_TRACE_READ" report "$1-pfe.rec" 2> /dev/null | awk '$1 ~ /^[0-9]+$/ { n += $1 } END { print n + 0 }' ;;
	uftrace) uftrace report -d "$1-uftrace.rec" 2> /dev/null |
		awk '$5 ~ /^[0-9]+$/ && $6 !~ /^linux:/ { n += $5 } END { print n + 0 }' ;;
	xray) for f in "$1"-xray.rec/xray-log.*; do wc -c < "$f"; done |
		awk '{ n += ($1 - 32) / 64 } END { print n }' ;;
	esac
}

workloads=calls
echo "bench-trace: building the workloads (a few minutes with sqlite3.c)"
build calls "$top/scripts/bench-trace.c"
if [ -f "$corpus/sqlite3.c" ]; then
	build sqlite "-I$corpus $top/testsuite/pfe.run/sqlite-driver.c $corpus/sqlite3.c" -lm
	workloads="calls sqlite"
else
	echo "bench-trace: no $corpus/sqlite3.c (scripts/install-deps.sh, or PFE_CORPUS=): the sqlite workload skipped"
fi
# spread: bench-runtime.sh's parts, each variant's main unit built here.
parts=$top/build/bench-runtime
if [ -f "$parts/gplain-1.o" ] && [ -f "$parts/xray-1.o" ]; then
	src=$top/scripts/bench-runtime.c
	compile spread-gplain $cc -O2 "$src" $parts/gplain-*.o &
	p=$!
	compile spread-pfe $cc -O2 $pfe_flags "$src" $parts/pfe-[0-9]*.o || { wait $p || :; exit 1; }
	wait $p || exit 1
	compile spread-cplain clang-16 -O2 "$src" $parts/cplain-*.o &
	p=$!
	# bench-runtime.sh's XRay parts are C++ (its XRay half is).
	compile spread-xray clang++-16 -O2 -x c++ $xray_flags "$src" -x none $parts/xray-[0-9]*.o || { wait $p || :; exit 1; }
	wait $p || exit 1
	workloads="$workloads spread"
else
	echo "bench-trace: no $parts/*-K.o (scripts/bench-runtime.sh first, as make bench does): the spread workload skipped"
fi
built=$(date +%s)

echo "bench-trace: $rounds rounds, the tracers taking turns"
for _ in $(seq "$rounds"); do
	for w in $workloads; do
		for t in gplain pfe uftrace cplain xray; do
			run $w $t
		done
	done
done
for w in $workloads; do
	for t in pfe uftrace xray; do
		calls $w $t > res/$w-$t.calls
	done
	[ "$(cat res/$w-pfe.calls)" = "$(cat res/$w-uftrace.calls)" ] ||
		fail "$w: uftrace recorded $(cat res/$w-uftrace.calls) calls, pfe-trace $(cat res/$w-pfe.calls)" /dev/null
done

# best W T, worst W T: the fastest and slowest run in ms.
best() { sort -n res/$1-$2.us | head -n 1 | awk '{ printf "%.1f", $1 / 1000 }'; }
worst() { sort -n res/$1-$2.us | tail -n 1 | awk '{ printf "%.1f", $1 / 1000 }'; }
# ns_per_call W T PLAIN: T's extra time over PLAIN's, per call recorded.
ns_per_call() {
	echo "$(best $1 $2) $(best $1 $3) $(cat res/$1-$2.calls)" | awk '{ printf "%.1f", ($1 - $2) * 1e6 / $3 }'
}
ratio() { echo "$1 $2" | awk '{ printf "%.2fx", $1 / $2 }'; }
mib() { awk '{ printf "%.1f MiB", $1 / 1024 }' res/$1-$2.kib; }
name() {
	case $1 in
	calls) echo "many small calls (scripts/bench-trace.c)" ;;
	sqlite) echo "sqlite3 driver (testsuite/pfe.run/sqlite-driver.c, sqlite3.c)" ;;
	spread) echo "100000 functions in a shuffled order (scripts/bench-runtime.c trace)" ;;
	esac
}
# row W T PLAIN LABEL: a tracer's row.
row() {
	w=$1 t=$2 plain=$3
	pt=$(best $w pfe) pn=$(ns_per_call $w pfe gplain)
	b=$(best $w $t) n=$(ns_per_call $w $t $plain)
	if [ $t = pfe ]; then
		against="| | |"
	else
		against="| $(ratio "$pt" "$b") | $(ratio "$pn" "$n") |"
	fi
	echo "| $4 | $b ($(worst $w $t)) | $(ratio $b "$(best $w $plain)") | $(cat res/$w-$t.calls)" \
		"| $n | $(mib $w $t) $against"
}
# goal W: whether pfe-trace was no slower than either, per call.
goal() {
	pn=$(ns_per_call $1 pfe gplain)
	un=$(ns_per_call $1 uftrace gplain)
	xn=$(ns_per_call $1 xray cplain)
	echo "$pn $un $xn" | awk '{ print ($1 <= $2 && $1 <= $3) ? "met" : "not met" }'
}
table() {
	echo "bench-trace: pfe-trace record ($cc, pfe fentry-nop + ops-slot) against uftrace record"
	echo "($(uftrace --version | head -n 1 | cut -d'(' -f1| sed 's/ *$//'), -P . on the same program) and LLVM XRay basic mode (clang-16), -O2, best of $rounds"
	for w in $workloads; do
		echo
		echo "$(name $w):"
		echo
		echo "| run | ms: best (worst) | traced / plain | calls recorded | ns per call | record on disk | pfe-trace / it: time | per call |"
		echo "|---|---|---|---|---|---|---|---|"
		echo "| plain, $cc | $(best $w gplain) ($(worst $w gplain)) | | | | | | |"
		row $w pfe gplain "pfe-trace record"
		row $w uftrace gplain "uftrace record"
		echo "| plain, clang-16 | $(best $w cplain) ($(worst $w cplain)) | | | | | | |"
		row $w xray cplain "XRay basic"
		echo
		echo "Goal, pfe-trace record no slower per call than either: $(goal $w)."
	done
	echo
	echo "A run: the whole process, wall clock, start-up and writing the record included."
	echo "ns per call: (traced best - plain best of the same compiler) / calls recorded."
	echo "pfe-trace / it: pfe-trace's best run time and ns per call over the other's."
	echo
}
table | tee table.md
figures_file "$top/runtime/trace-bench-figures.md" "sh scripts/bench-trace.sh (make bench)" table.md
echo "bench-trace: $(($(date +%s) - start)) s: building $((built - start)) s, measuring $(($(date +%s) - built)) s"
