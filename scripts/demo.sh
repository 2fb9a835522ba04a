#!/bin/sh
# demo.sh PLUGIN [CC]: compile scripts/demo.c with pfe and show what it did:
# the NOPs in the disassembly, the record section, and the program running.
set -eu
plugin=$1 cc=${2:-gcc}
top=$(cd "$(dirname "$0")/.." && pwd -P)
out=$top/build/demo
mkdir -p "$out"
set -x
$cc -O2 -fplugin="$plugin" -fplugin-arg-pfe-entry=4,2 -o "$out/demo" "$top/scripts/demo.c"
{ set +x; } 2>/dev/null
echo
echo "== Two NOPs before each entry label, two after it:"
objdump -d --no-show-raw-insn "$out/demo" | awk '/^$/ { p = 0 } /<(square|add|main)>:/ { p = 1; print prev } p { print } { prev = $0 }' | grep -v '^--'
echo
echo "== The records: one pointer per function, to its first NOP:"
readelf -W -x __patchable_function_entries "$out/demo"
readelf -W -r "$out/demo" | grep -A1 -i 'relative' | head -5 || true
if [ -x "$top/build/pfe-scan" ]; then
	echo
	echo "== pfe-scan list:"
	"$top/build/pfe-scan" list "$out/demo"
fi
echo
echo "== Running it:"
"$out/demo"
