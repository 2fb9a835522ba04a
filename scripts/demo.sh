#!/bin/sh
# demo.sh PLUGIN [CC]: compile scripts/demo.c with pfe and show what it did:
# the NOPs in the disassembly, the record section, the program running, and
# running again under pfe-trace (the run-time library, runtime/).
set -eu
plugin=$1 cc=${2:-gcc}
top=$(cd "$(dirname "$0")/.." && pwd -P)
out=$top/build/demo
mkdir -p "$out"
set -x
$cc -O2 -fplugin="$plugin" -fplugin-arg-pfe-entry=4,2 -o "$out/demo" "$top/scripts/demo.c"
{ set +x; } 2>/dev/null
echo
echo "== The records (pfe-scan list): function, first NOP, bytes before/after the entry:"
"$top/build/pfe-scan" list "$out/demo"
echo
echo "== Each padded function, whole, from its first NOP: two NOPs, the entry"
echo "   label, two NOPs, the function's code:"
"$top/build/pfe-scan" list --json "$out/demo" |
	sed 's/.*"address":\([0-9]*\).*"function":"\([^"]*\)".*/\1 \2/' |
while read -r addr fn; do
	# The function's end: its symbol's value plus size (nm -S).
	sym=$(nm -S --defined-only "$out/demo" | awk -v f="$fn" '$4 == f { print $1, $2 }')
	[ -n "$sym" ] || { echo "demo: no symbol $fn" >&2; exit 1; }
	# shellcheck disable=SC2086
	set -- $sym
	end=$((0x$1 + 0x$2))
	objdump -d --no-show-raw-insn --start-address="$addr" --stop-address="$end" "$out/demo" |
		sed -n '/^[0-9a-f]* <.*>:$/,$p'
	echo
done
echo
echo "== The record section, as stored in the file (little-endian pointers):"
readelf -W -x __patchable_function_entries "$out/demo" | sed 1,2d
echo
echo "== Running it:"
"$out/demo"
echo
echo "== The same program built with entry=5 (room for a call on x86), run under"
echo "   pfe-trace: libpfe patches every entry while it runs, and prints each"
echo "   function's calls and time at exit:"
set -x
$cc -O2 -fplugin="$plugin" -fplugin-arg-pfe-entry=5 -o "$out/demo-trace" "$top/scripts/demo.c"
CC=$(basename "$cc") sh "$top/scripts/pfe-trace" "$out/demo-trace"
