#!/bin/sh
# bench-runtime.sh CC PLUGIN RTDIR: the run-time library against LLVM XRay
# (make bench), on the same C source (scripts/bench-runtime.c), side by
# side in one run:
#   disabled   ns per call: no instrumentation, pfe's NOP forms (fentry-nop
#              with the ops slot; entry=5 NOPs), XRay's sleds (Clang 16)
#   enabled    ns per call with an empty handler: pfe ops-slot dispatch,
#              pfe lookup dispatch, XRay; once calling one function of a
#              small program over and over (all in the caches), once
#              calling the 100000 functions of a large one in a shuffled
#              order (what a tracer of a large program meets); lookup is
#              the same program with PFE_DEBUG=lookup (the slots unused)
#   patch      ms to patch and unpatch 100000 functions: pfe, XRay; twice
#              (the first patch takes page faults the second does not)
#   soak       the 8-thread soak of pfe.runtime for 10 s (make check runs 1 s)
# with the ratios.  The fastest of 7 rounds of each; noisy on a busy machine.
# RTDIR holds libpfe.so (make runtime).  Exit status non-zero when a build
# or a run fails (it says which).  Debug: the programs stay in
# build/bench-runtime; run one with "calls on" or "patch".
set -eu
cc=$1 plugin=$2 rt=$3
top=$(cd "$(dirname "$0")/.." && pwd -P)
out=$top/build/bench-runtime
mkdir -p "$out"
cd "$out"
src=$top/scripts/bench-runtime.c
pfe="-fplugin=$plugin -fplugin-arg-pfe-fentry -fplugin-arg-pfe-fentry-nop"
lib="-DBENCH_PFE -I$top/runtime $rt/libpfe.so -Wl,-rpath,$rt"
xray="-x c++ -fxray-instrument -fxray-instruction-threshold=1 -DBENCH_XRAY"

build() {
	name=$1
	shift
	"$@" -o "$name" 2> "$name.log" || { echo "bench-runtime: building $name failed:"; cat "$name.log"; exit 1; }
}
echo "bench-runtime: building (the 100000-function programs take a while)"
build plain $cc -O2 "$src"
build pfe-slot $cc -O2 $pfe -fplugin-arg-pfe-ops-slot "$src" $lib
build pfe-lookup $cc -O2 $pfe "$src" $lib
build pfe-nops $cc -O2 -fplugin=$plugin -fplugin-arg-pfe-entry=5 "$src" $lib
build clang-plain clang-16 -O2 "$src"
build xray clang++-16 -O2 $xray "$src"
# The 100000 functions: ten units of 10000.
parts() {
	name=$1
	shift
	for k in 1 2 3 4 5 6 7 8 9 10; do
		"$@" -c -DBENCH_PART=$k -o $name-$k.o 2> $name-$k.log ||
			{ echo "bench-runtime: building $name-$k.o failed:"; cat $name-$k.log; exit 1; }
	done
}
parts pfe-part $cc -O1 $pfe -fplugin-arg-pfe-ops-slot "$src"
parts xray-part clang++-16 -O1 $xray "$src"
build pfe-many $cc -O1 $pfe -fplugin-arg-pfe-ops-slot -DBENCH_MANY "$src" pfe-part-*.o $lib
build xray-many clang++-16 -O1 $xray -DBENCH_MANY "$src" -x none xray-part-*.o
build soak $cc -O2 $pfe -I$top/runtime "$top/testsuite/pfe.runtime/rt-soak.c" $rt/libpfe.so -Wl,-rpath,$rt -lpthread

# value KEY PROGRAM ARGS...: the number after KEY in PROGRAM's output.
value() {
	key=$1
	shift
	r=$("$@" 2>&1) || { echo "bench-runtime: $* failed: $r" >&2; exit 1; }
	echo "$r" | awk -v k="$key" '$1 == k { print $2 }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'
}
plain=$(value ns_per_call ./plain calls off)
slot_off=$(value ns_per_call ./pfe-slot calls off)
nops_off=$(value ns_per_call ./pfe-nops calls off)
cplain=$(value ns_per_call ./clang-plain calls off)
xray_off=$(value ns_per_call ./xray calls off)
slot_on=$(value ns_per_call ./pfe-slot calls on)
lookup_on=$(value ns_per_call ./pfe-lookup calls on)
xray_on=$(value ns_per_call ./xray calls on)
echo "bench-runtime: ns per call (fastest of 7 x 5M calls)"
echo "  disabled: $cc plain $plain; pfe fentry-nop+slot $slot_off ($(ratio "$slot_off" "$plain")); pfe entry=5 $nops_off ($(ratio "$nops_off" "$plain"))"
echo "            clang-16 plain $cplain; XRay sleds $xray_off ($(ratio "$xray_off" "$cplain"))"
echo "  enabled, empty handler: pfe ops slot $slot_on, pfe lookup $lookup_on, XRay $xray_on"
echo "            ops slot / XRay $(ratio "$slot_on" "$xray_on"); lookup / ops slot $(ratio "$lookup_on" "$slot_on")"
spread_off=$(value ns_per_call ./pfe-many spread off)
spread_slot=$(value ns_per_call ./pfe-many spread on)
spread_lookup=$(value ns_per_call env PFE_DEBUG=lookup ./pfe-many spread on)
xspread_off=$(value ns_per_call ./xray-many spread off)
xspread_on=$(value ns_per_call ./xray-many spread on)
echo "bench-runtime: ns per call, 100000 functions called in a shuffled order (fastest of 7 x 5 x 100000)"
echo "  disabled: pfe fentry-nop+slot $spread_off; XRay sleds $xspread_off"
echo "  enabled, empty handler: pfe ops slot $spread_slot, pfe lookup $spread_lookup, XRay $xspread_on"
echo "            ops slot / XRay $(ratio "$spread_slot" "$xspread_on"); lookup / ops slot $(ratio "$spread_lookup" "$spread_slot")"
pm=$(./pfe-many patch) || { echo "bench-runtime: pfe-many patch failed: $pm"; exit 1; }
xm=$(./xray-many patch) || { echo "bench-runtime: xray-many patch failed: $xm"; exit 1; }
echo "bench-runtime: patching every function"
echo "  pfe:  $(echo "$pm" | awk '{ printf "%s %s  ", $1, $2 }')"
echo "  XRay: $(echo "$xm" | awk '{ printf "%s %s  ", $1, $2 }')"
echo "bench-runtime: soak, 8 threads x 1000 functions toggled for 10 s"
./soak 10 | sed 's/^/  /'
