#!/bin/sh
# run-suite.sh NAME CC [LEGACY] [CFLAGS] [DIFF]: build pfe for CC and run the
# DejaGnu suite with it in build/check/NAME (DIFF: how much of pfe.diff runs:
# full, quick or sqlite; PFE_ONCE=1: the run that also runs the
# compiler-independent tests, lib/pfe.exp; PFE_PARTS: the .exp files of
# the run, as testsuite/matrix names them, else all; PFE_SUITE_TIMEOUT:
# seconds runtest may take, 2700; PFE_PLUGIN: another plugin than the one
# built for CC, scripts/check-null-plugin.sh); then print the result
# (scripts/suite-result.sh).
#   CC may be a sid compiler (gcc-13..16): it then runs through sid-run.
# Exit status: 0 when the run passed, 1 when anything failed or the suite
# could not run (a missing compiler, a plugin that does not build, a probe
# that disagrees with the compiler's version: each says why).
# Debug: RUNTESTFLAGS="-v -v pfe.compile/compile.exp" scripts/run-suite.sh ...
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
name=$1 cc=$2 legacy=${3:-} cflags=${4:-} diff=${5:-${PFE_DIFF:-full}}
cd "$top"
obj=build/check/$name
# Nothing of an earlier run may be read as this one's.
rm -rf "$obj"
mkdir -p "$obj"
die() {
	echo "run-suite: $name: $*" >&2
	echo "setup: $*" > "$obj/run-status"
	sh scripts/suite-result.sh --subset "$name" "$obj"
	exit 1
}
case $cc in
gcc-1[3-9]) wrap="$top/scripts/sid-run" ;;
*) wrap= ;;
esac
build=build/$(basename "$cc")${legacy:+-legacy}
# Runs of one tree side by side share what they build (pfe-scan; gcc-12's
# plugin for gcc-12 and gcc-12-m32): one build at a time, or one run
# executes a file the other is still writing ("Permission denied").
mkdir -p build
build_locked() { flock build/.build-lock "$@"; }
# Only the plugins in the chroot: pfe-scan is a host tool (libelf).
build_locked $wrap make -s CC="$cc" ${legacy:+LEGACY=1} plugin wrong-version-plugin > "$obj/build.log" 2>&1 ||
	die "make CC=$cc plugin failed: $(tail -5 "$obj/build.log")"
build_locked make -s build/pfe-scan > /dev/null || die "make build/pfe-scan failed"
machine=$($wrap $cc -dumpmachine) || die "$cc -dumpmachine failed"
major=$($wrap $cc -dumpversion | cut -d. -f1)
objdump=objdump
command -v "$machine-objdump" >/dev/null && objdump=$machine-objdump
case $machine in
x86_64-*) target=x86_64 ;;
aarch64-*) target=aarch64 ;;
riscv64-*) target=riscv64 ;;
*) die "no target for $machine" ;;
esac
case " $cflags " in *" -m32 "*) target=i386 ;; esac
# Whether this kernel runs the run's programs: an x86_64 kernel built
# without IA32 emulation, or booted with it off (ia32_emulation=0, some
# hypervisors' guests), runs no i386 program ("Exec format error").
runs_here() {
	echo 'int main(void) { return 0; }' > "$obj/exec-probe.c"
	# shellcheck disable=SC2086
	$wrap $cc $cflags -o "$obj/exec-probe" "$obj/exec-probe.c" > "$obj/exec-probe.log" 2>&1 ||
		die "$cc $cflags links no program: $(tail -3 "$obj/exec-probe.log")"
	"$obj/exec-probe" 2> /dev/null
}
run=
case $target in
aarch64) run="qemu-aarch64 -L /usr/aarch64-linux-gnu" ;;
riscv64) run="qemu-riscv64 -L /usr/riscv64-linux-gnu" ;;
# Then as the other targets' programs are run: suite-result.sh judges the
# run as NAME@qemu-i386, and says so.
i386) runs_here || { run=qemu-i386; echo qemu-i386 > "$obj/run-host"; } ;;
esac
# GCC 8+ has -fpatchable-function-entry: the probe must agree with that.
native=0
[ "$major" -ge 8 ] && native=1
echo 'int f(void){return 0;}' > "$obj/native-probe.c"
# shellcheck disable=SC2086
if probe=$($wrap $cc $cflags -fpatchable-function-entry=1 -S -o /dev/null "$obj/native-probe.c" 2>&1); then
	[ $native = 1 ] || die "GCC $major accepts -fpatchable-function-entry: not the GCC it says it is"
else
	[ $native = 0 ] || die "GCC $major refuses -fpatchable-function-entry: $probe"
fi
cd "$obj"
# shellcheck disable=SC2086
timeout -k 30 "${PFE_SUITE_TIMEOUT:-2700}" runtest --tool pfe --srcdir "$top/testsuite" \
	PFE_CC="$wrap $cc" PFE_PLUGIN="${PFE_PLUGIN:-$top/$build/pfe.so}" \
	PFE_SCAN="$top/build/pfe-scan" PFE_TARGET="$target" \
	PFE_CFLAGS="$cflags" PFE_RUN="$run" PFE_NATIVE="$native" \
	PFE_OBJDUMP="$objdump" PFE_CORPUS="${PFE_CORPUS:-/var/lib/pfe/corpus}" PFE_DIFF="$diff" \
	PFE_ONCE="${PFE_ONCE:-}" \
	${PFE_PARTS:-} ${RUNTESTFLAGS:-} > runtest.out 2>&1
echo $? > run-status
cd "$top"
case ${RUNTESTFLAGS:-} in
*.exp*) subset=--subset ;;
*) subset= ;;
esac
sh scripts/suite-result.sh $subset "$name" "$obj"
