#!/bin/sh
# run-suite.sh NAME CC [LEGACY] [CFLAGS] [DIFF]: build pfe for CC, run the DejaGnu
# suite with it in build/check/NAME (DIFF: how much of pfe.diff runs: full,
# quick or sqlite); prints DejaGnu's summary.
#   CC may be a sid compiler (gcc-13..16): it then runs through sid-run.
# Debug: RUNTESTFLAGS="-v -v pfe.compile/compile.exp" scripts/run-suite.sh ...
set -eu
top=$(cd "$(dirname "$0")/.." && pwd -P)
name=$1 cc=$2 legacy=${3:-} cflags=${4:-} diff=${5:-${PFE_DIFF:-full}}
cd "$top"
case $cc in
gcc-1[3-9]) wrap="$top/scripts/sid-run" ;;
*) wrap= ;;
esac
ccname=$cc
build=build/$ccname${legacy:+-legacy}
# Only the plugin in the chroot: pfe-scan is a host tool (libelf).
$wrap make -s CC="$cc" ${legacy:+LEGACY=1} plugin >/dev/null
make -s build/pfe-scan
machine=$($wrap $cc -dumpmachine)
objdump=objdump
command -v "$machine-objdump" >/dev/null && objdump=$machine-objdump
case $machine in
x86_64-*) target=x86_64 ;;
aarch64-*) target=aarch64 ;;
riscv64-*) target=riscv64 ;;
*) target=unknown ;;
esac
case " $cflags " in *" -m32 "*) target=i386 ;; esac
run=
case $target in
aarch64) run="qemu-aarch64 -L /usr/aarch64-linux-gnu" ;;
riscv64) run="qemu-riscv64 -L /usr/riscv64-linux-gnu" ;;
esac
native=0
echo 'int f(void){return 0;}' > /tmp/pfe-native-probe.c
$wrap $cc -fpatchable-function-entry=1 -S -o /dev/null /tmp/pfe-native-probe.c 2>/dev/null && native=1
obj=build/check/$name
mkdir -p "$obj"
cd "$obj"
# shellcheck disable=SC2086
runtest --tool pfe --srcdir "$top/testsuite" \
	PFE_CC="$wrap $cc" PFE_PLUGIN="$top/$build/pfe.so" \
	PFE_SCAN="$top/build/pfe-scan" PFE_TARGET="$target" \
	PFE_CFLAGS="$cflags" PFE_RUN="$run" PFE_NATIVE="$native" \
	PFE_OBJDUMP="$objdump" PFE_CORPUS="${PFE_CORPUS:-/var/lib/pfe/corpus}" PFE_DIFF="$diff" \
	${RUNTESTFLAGS:-} > runtest.out 2>&1 || true
sed -n '/=== pfe Summary ===/,$p' pfe.sum
