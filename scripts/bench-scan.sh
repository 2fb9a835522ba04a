#!/bin/sh
# bench-scan.sh BINARY: how much faster `pfe-scan list` finds the patch
# sites of BINARY than disassembling it (`objdump -d | grep`, the way the
# kernel's recordmcount proposal of seed 001 collects them), in one run.
#
# Prints both times and the ratio; exits 1 if the ratio is below BENCH_MIN
# (default 50).  pfe-scan is run REPEAT times (default 20) and averaged,
# as one run is too short to time alone; its peak memory (max RSS) is
# printed with the number of records.  Environment: PFE_SCAN (default
# build/pfe-scan next to this script's tree), OBJDUMP (default: the one for
# BINARY's machine).  Debug: sh -x scripts/bench-scan.sh BINARY
set -eu

[ $# -eq 1 ] || { echo "usage: $0 BINARY" >&2; exit 2; }
bin=$1
top=$(cd "$(dirname "$0")/.." && pwd)
scan=${PFE_SCAN:-$top/build/pfe-scan}
repeat=${REPEAT:-20}
min=${BENCH_MIN:-50}

# objdump that can disassemble BINARY's machine.
pick_objdump() {
	case $(readelf -h "$bin" | sed -n 's/^ *Machine: *//p') in
	AArch64) echo aarch64-linux-gnu-objdump ;;
	RISC-V) echo riscv64-linux-gnu-objdump ;;
	*) echo objdump ;;
	esac
}
objdump=${OBJDUMP:-$(pick_objdump)}

now() { date +%s%N; }

# Seconds (as a decimal) between two now() stamps, divided by $3.
seconds() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.4f", (b - a) / 1e9 / n }'; }

t0=$(now)
i=0
while [ $i -lt "$repeat" ]; do
	"$scan" list "$bin" > /dev/null
	i=$((i + 1))
done
t1=$(now)
records=$("$scan" list "$bin" | wc -l)
/usr/bin/time -f %M -o "${TMPDIR:-/tmp}/pfe-bench-rss.$$" "$scan" list "$bin" > /dev/null
rss=$(cat "${TMPDIR:-/tmp}/pfe-bench-rss.$$")
rm -f "${TMPDIR:-/tmp}/pfe-bench-rss.$$"

# The disassembly way: every function label and every NOP line, then the
# entries picked out of that text.
t2=$(now)
sites=$("$objdump" -d "$bin" | grep -cE '^[0-9a-f]+ <[^>]+>:$|[[:space:]](c\.)?nop[lw]?([[:space:]]|$)' || true)
t3=$(now)

scan_s=$(seconds "$t0" "$t1" "$repeat")
objdump_s=$(seconds "$t2" "$t3" 1)
ratio=$(awk -v a="$objdump_s" -v b="$scan_s" 'BEGIN { printf "%.0f", (b > 0) ? a / b : 0 }')

echo "binary:              $bin"
echo "pfe-scan list:       $scan_s s ($records records, mean of $repeat runs), max RSS $rss KiB"
echo "$objdump -d | grep: $objdump_s s ($sites lines)"
echo "ratio:               ${ratio}x (goal >= ${min}x)"
[ "$ratio" -ge "$min" ]
