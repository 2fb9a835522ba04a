#!/bin/sh
# layouts-table.sh CC PLUGIN: the table "pfe vs GCC 16 vs Clang 21" of the
# entry layouts kernels ask for, each cell measured here by compiling a
# probe and reading the object (make layouts-table; README.md links the
# result, testsuite/layouts-table.md).  x86_64 (aarch64 for the ops slot):
#   pfe        CC with PLUGIN (-fplugin-arg-pfe-*, pfe-cc's spellings)
#   GCC 16     the sid chroot's gcc-16, its own options
#   Clang 21   the sid chroot's clang-21, its own options
# A cell says what the object shows (the relocation of a record, the
# register of a kCFI preamble), "refused" with the compiler's first error
# line when the compiler rejects the options, or "no option" where the
# compiler has no way to ask for it (then nothing is compiled).
# Exit status non-zero when a probe that pfe must pass fails.
# Debug: the probes and objects stay in build/layouts-table.
set -eu
cc=$1 plugin=$2
top=$(cd "$(dirname "$0")/.." && pwd -P)
. "$top/scripts/figures.sh"
out=$top/build/layouts-table
sid="$top/scripts/sid-run"
rm -rf "$out"
mkdir -p "$out"
cd "$out"
status=0

cat > one.c <<'EOF'
long one(long a) { return a + 1; }
long (*ptr)(long) = one;
EOF
cp "$top/testsuite/pfe.kcfi/run/kcfi-fused.c" fused.c

# compile NAME WHO ARGS...: NAME.o by WHO (pfe, gcc16, clang21) from
# ARGS; the first error line in NAME.err when it fails (status 1).
compile() {
	name=$1 who=$2
	shift 2
	case $who in
	pfe) set -- "$cc" -fplugin="$plugin" "$@" ;;
	gcc16) set -- "$sid" gcc-16 "$@" ;;
	clang21) set -- "$sid" clang-21 "$@" ;;
	aarch64-pfe) set -- aarch64-linux-gnu-gcc -fplugin="$top/build/aarch64-linux-gnu-gcc/pfe.so" "$@" ;;
	esac
	"$@" -c -o "$name.o" > "$name.err" 2>&1
}

# What refused NAME: its first error line, shortened.
refused() {
	printf 'refused (%s)' "$(grep -m1 -o 'error: .*' "$name.err" | cut -c8-)"
}

# The relocation type and size of the records of NAME.o's SECTION.
record_kind() {
	rel=$(readelf -rW "$name.o" | awk -v s=".rela$2" '/^Relocation section/ { on = index($0, "'"'"'" s "'"'"'") > 0; next } on && /R_X86_64/ { print $3; exit }')
	size=$(readelf -SW "$name.o" | awk -v s="$2" '$2 == s || $3 == s { for (i = 1; i <= NF; i++) if ($i == "PROGBITS") { print $(i + 3); exit } }')
	echo "${rel:-none}, $((0x${size:-0})) bytes"
}

# The register of the kCFI preamble of "one" in NAME.o (movl $HASH, %REG).
preamble_reg() {
	objdump -d "$name.o" | awk '/<__cfi_one>:/ { on = 1; next } on && /mov / { sub(/.*,%/, "%"); print; exit }'
}

# How many of the kCFI checks in NAME.o come right before their call (the
# instruction the check's je goes to is the call through the checked
# register, or a register move into the call's register then the call):
# "fused/checks".
fused_checks() {
	objdump -d --no-show-raw-insn "$name.o" | awk '
		/^ *[0-9a-f]+:/ { addr = $1; sub(/:$/, "", addr); n++; a[n] = addr; line[addr] = n
			sub(/^ *[0-9a-f]+:[ \t]*/, ""); text[n] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				if (text[i] !~ /^add +-0x[0-9a-f]+\(%[a-z0-9]+\),%r10d/) continue
				reg = text[i]; sub(/^add +-0x[0-9a-f]+\(/, "", reg); sub(/\).*/, "", reg)
				j = text[i + 1]; if (j !~ /^je /) continue
				target = j; sub(/^je +/, "", target); sub(/ .*/, "", target)
				checks++
				k = line[target]; via = reg
				if (text[k] ~ /^mov +%[a-z0-9]+,%[a-z0-9]+$/) {
					split(substr(text[k], index(text[k], "%")), r, ",")
					if (r[1] == reg) { via = r[2]; k++ }
				}
				if (text[k] ~ ("^(call|jmp) +\\*" via "$")) fused++
			}
			printf "%d/%d", fused, checks
		}'
}

# A line-table row at the first NOP of "one" in NAME.o (-g, 2 NOPs of 1
# byte before its label): "yes"/"no".
first_nop_row() {
	at=$(nm "$name.o" | awk '$3 == "one" { print $1 }')
	at=$(printf %x $((0x${at:-2} - 2)))
	if objdump --dwarf=decodedline "$name.o" 2>/dev/null | awk -v want="0x$at" '{ a = $3 == "0" ? "0x0" : $3 } a == want { found = 1 } END { exit !found }'; then
		echo yes
	else
		echo no
	fi
}

# row LABEL CELL CELL CELL
rows=rows.md
: > "$rows"
row() {
	printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" >> "$rows"
}

# cell_by WHO NAME ARGS... then MEASURE: the cell.
cell() {
	who=$1 name=$2 measure=$3
	shift 3
	if compile "$name" "$who" "$@"; then
		$measure
	else
		refused
	fi
}

want() {
	case $2 in
	$3) ;;
	*) echo "layouts-table: pfe: $1: $2 (want $3)" >&2; status=1 ;;
	esac
}

records() { record_kind "$name" __patchable_function_entries; }
row "entry NOPs and records, M,N" \
	"$(cell pfe p1 records -O2 -fplugin-arg-pfe-patchable-function-entry=4,2 one.c)" \
	"$(cell gcc16 g1 records -O2 -fpatchable-function-entry=4,2 one.c)" \
	"$(cell clang21 c1 records -O2 -fpatchable-function-entry=4,2 one.c)"

section() { record_kind "$name" probe_sec | sed 's/^/in probe_sec: /'; }
p=$(cell pfe p2 section -O2 -fplugin-arg-pfe-patchable-function-entry=4,2,probe_sec one.c)
want "record section per function" "$p" "in probe_sec: R_X86_64_64, 8 bytes"
row "a record section of its own (M,N,SECTION; Clang 21)" "$p" \
	"$(cell gcc16 g2 section -O2 -fpatchable-function-entry=4,2,probe_sec one.c)" \
	"$(cell clang21 c2 section -O2 -fpatchable-function-entry=4,2,probe_sec one.c)"

rel32() { record_kind "$name" __patchable_function_entries_rel32; }
p=$(cell pfe p3 rel32 -O2 -fplugin-arg-pfe-entry=4,2 -fplugin-arg-pfe-record=rel32 one.c)
want "PC-relative records" "$p" "R_X86_64_PC32, 4 bytes"
row "32-bit PC-relative records (pfe: record=rel32)" "$p" "no option" "no option"

kcfi() { [ -n "$(preamble_reg)" ] && echo "yes, __cfi_one" || echo "no preamble"; }
p=$(cell pfe p4 kcfi -O2 -fplugin-arg-pfe-cfi=kcfi one.c)
want "kCFI" "$p" "yes, __cfi_one"
row "kCFI (-fsanitize=kcfi)" "$p" \
	"$(cell gcc16 g4 kcfi -O2 -fsanitize=kcfi one.c)" \
	"$(cell clang21 c4 kcfi -O2 -fsanitize=kcfi one.c)"

fused() { fused_checks "$name" | sed 's/$/ checks right before their call/'; }
p=$(cell pfe p5 fused -O2 -fplugin-arg-pfe-cfi=kcfi fused.c)
want "fused checks" "$p" "5/5 checks right before their call"
row "kCFI check fused with its call, under register pressure (testsuite/pfe.kcfi/run/kcfi-fused.c)" "$p" \
	"$(cell gcc16 g5 fused -O2 -fsanitize=kcfi fused.c)" \
	"$(cell clang21 c5 fused -O2 -fsanitize=kcfi fused.c)"

arity() { echo "movl to $(preamble_reg) for one argument"; }
p=$(cell pfe p6 arity -O2 -fplugin-arg-pfe-cfi=kcfi -fplugin-arg-pfe-cfi-arity one.c)
want "kcfi-arity" "$p" "movl to %ecx for one argument"
row "kcfi-arity (-fsanitize-kcfi-arity)" "$p" \
	"$(cell gcc16 g6 arity -O2 -fsanitize=kcfi -fsanitize-kcfi-arity one.c)" \
	"$(cell clang21 c6 arity -O2 -fsanitize=kcfi -fsanitize-kcfi-arity one.c)"

row_nop() { first_nop_row "$name"; }
p=$(cell pfe p7 row_nop -O2 -g -fplugin-arg-pfe-patchable-function-entry=4,2 one.c)
want "line row at the first NOP" "$p" yes
row "a line-table row at the first NOP (-g)" "$p" \
	"$(cell gcc16 g7 row_nop -O2 -g -fpatchable-function-entry=4,2 one.c)" \
	"$(cell clang21 c7 row_nop -O2 -g -fpatchable-function-entry=4,2 one.c)"

# Where the slot and the hash of NAME.o's functions are, as pfe-scan reads
# them (aarch64, 2 NOPs before the entry: the slot): the thread's layout
# (verify --ops-slot --cfi=fixed passes), or Clang's (the hash before the
# NOPs: verify --cfi=clang passes; list --ops-slot says what the 8 bytes
# before the entry are).
slot_and_hash() {
	scan=$top/build/pfe-scan
	if "$scan" verify --entry=4,2 --ops-slot --cfi=fixed --all "$name.o" > "$name.scan" 2>&1; then
		echo "slot (the 2 NOPs) 8-aligned at E-12, hash at E-4"
	elif "$scan" verify --entry=4,2 --cfi=clang --all "$name.o" > /dev/null 2>&1; then
		echo "hash at E-12, then the 2 NOPs: slot=$("$scan" list --ops-slot "$name.o" |
			sed -n 's/^one .* slot=\([^ ]*\).*/\1/p')"
	else
		echo "wrong: $(head -1 "$name.scan")"
	fi
}
p=$(cell aarch64-pfe p8 slot_and_hash -O2 -fplugin-arg-pfe-entry=4,2 -fplugin-arg-pfe-ops-slot \
	-fplugin-arg-pfe-cfi=kcfi -fplugin-arg-pfe-cfi-layout=fixed one.c)
want "the ops slot and kCFI" "$p" "slot (the 2 NOPs) 8-aligned at E-12, hash at E-4"
row "aarch64: the ops slot (CALL_OPS: -fpatchable-function-entry=4,2, functions 8-aligned) and kCFI together" "$p" \
	"no option (no kCFI)" \
	"$(cell clang21 c8 slot_and_hash --target=aarch64-linux-gnu -O2 -falign-functions=8 \
		-fpatchable-function-entry=4,2 -fsanitize=kcfi one.c)"

{
	echo "Layouts, x86_64 unless said: pfe ($cc), the sid chroot's gcc-16 and clang-21."
	echo
	echo "| layout | pfe | GCC 16 | Clang 21 |"
	echo "|---|---|---|---|"
	cat "$rows"
} > table.md
cat table.md
figures_file "$top/testsuite/layouts-table.md" "make layouts-table" table.md
exit $status
