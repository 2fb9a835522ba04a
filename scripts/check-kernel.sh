#!/bin/sh
# check-kernel.sh: pfe in a real consumer, an arm64 or x86_64 Linux kernel
# with dynamic ftrace (make check-kernel; scripts/install-deps.sh kernel first).
# Linux 6.1 (KERNEL_CONFIG=regs, below) or Linux 6.12 with CALL_OPS
# (KERNEL_CONFIG=callops: DYNAMIC_FTRACE_WITH_ARGS, _WITH_CALL_OPS and
# _WITH_DIRECT_CALLS at -O2, so -fpatchable-function-entry=4,2: an 8-byte
# ops literal in the 2 NOPs before each entry, which must be 8-aligned;
# the direct-call self-test runs within "tracer function_graph"; and
# pfe-scan verify --entry=4,2 --ops-slot checks every record of vmlinux.o),
# or Linux 7.2 with kCFI (KERNEL_CONFIG=cfi: CONFIG_CFI, which only pfe gives
# GCC, in the pfe kernel alone, permissive, and LKDTM: booted with
# lkdtm.cpoint_type=CFI_FORWARD_PROTO, the kernel's own handler must report
# "CFI failure at lkdtm_indirect_call" with the type id Clang 16 gives
# void (int *); that report is the only WARNING the log may have).
# KERNEL_ARCH=x86_64 KERNEL_CONFIG=cfi: Linux 7.2 x86_64 with kCFI, FineIBT,
# retpolines (the kernel finds the checks it rewrites from the calls of
# its retpoline thunks) and CALL_PADDING (-fpatchable-function-entry=11,11
# under CFI, 16,16 natively, where call depth tracking asks for it; x86's
# ftrace itself is GCC's -mfentry), at -O2 (at -Os GCC drops
# -falign-functions, and the native kernel itself dies in its ftrace
# self-tests), with SECTION_MISMATCH_WARN_ONLY (GCC leaves __apply_fineibt,
# a .text function calling __init ones, out of line, where Clang inlines it).
# The pfe kernel boots three times: as it would
# (kCFI, every check and preamble rehashed at boot with a random seed,
# which cfi=debug prints), with cfi=norand (the kernel still rewrites each
# check's first bytes, found 14 bytes before the call, to disable and
# enable the checks) and with cfi=fineibt,norand (every check and preamble
# rewritten into FineIBT's; QEMU's CPU has no IBT, ENDBR is a NOP there).
# Each boot must pass its self-tests and report LKDTM's CFI failure with
# Clang 16's type id (rehashed: xor the seed).  pfe-scan traps must find
# the same checks in vmlinux.o and vmlinux.
#
# Builds Debian's linux-source-6.1 twice out of tree (tinyconfig, a serial
# console, an initramfs, FTRACE, FUNCTION_TRACER, DYNAMIC_FTRACE_WITH_REGS,
# FUNCTION_GRAPH_TRACER, FTRACE_STARTUP_TEST, and the trace event self-tests,
# which run once more with the function tracer on): "native" with Kbuild's
# own CC_FLAGS_FTRACE (-fpatchable-function-entry=2), "pfe" with
# CC_FLAGS_FTRACE set on make's command line to the plugin (entry=2).  Boots
# both under qemu-system-aarch64 with a static init (scripts/kernel-init.c)
# that prints a marker and powers off.  Passes when the pfe kernel's boot
# self-tests all say PASSED (the trace event ones: OK), at least those of the
# native kernel, which must pass too; its boot log has no
# Oops/panic/BUG/WARNING/FAILED; its init ran and powered off; and its ftrace
# record count (boot log and System.map) equals the native kernel's.
#
# Environment:
#   KERNEL_CONFIG  regs (Linux 6.1's DYNAMIC_FTRACE_WITH_REGS, entry=2),
#                  callops (Linux 6.12's CALL_OPS, entry=4,2) or cfi
#                  (Linux 7.2, DYNAMIC_FTRACE_WITH_ARGS, entry=2, and kCFI)
#   KERNEL_ARCH    arm64 (qemu-system-aarch64 -M virt) or x86_64 (qemu-system-x86_64)
#   KERNEL_CC      compiler of both kernels (aarch64-linux-gnu-gcc; x86_64: gcc-12)
#   NATIVE_CC      compiler of the native kernel (KERNEL_CC)
#   KERNEL_PFE     how pfe reaches the compiler: "flags" (CC_FLAGS_FTRACE as
#                  above) or "wrapper" (CC="pfe-cc $KERNEL_CC", Kbuild
#                  unmodified: Kconfig's probe finds -fpatchable-function-entry
#                  through scripts/pfe-cc, which turns it into the plugin;
#                  make check-kernel runs it with GCC 7.5), or "forced"
#                  (the same through pfe-cc --pfe: pfe on a GCC that has
#                  the option, whose native kernel it must equal).  With another
#                  compiler than NATIVE_CC the record counts differ by its
#                  inlining: the pfe kernel's own two counts must agree.
#   PFE_KERNEL_PLUGIN_ARGS  more plugin flags, e.g.
#                  -fplugin-arg-pfe-clobbers=scratch (the check must FAIL)
#   KERNEL_CROSS (aarch64-linux-gnu-: binutils; x86_64: none),
#   INIT_CC (aarch64-linux-gnu-gcc; x86_64: gcc),
#   KERNEL_SRC (/var/lib/pfe/kernel/linux-source-6.1, -6.12 for callops),
#   KERNEL_OUT (build/kernel, build/kernel-callops),
#   KERNEL_JOBS (nproc), KERNEL_BOOT_TIMEOUT (seconds, 180)
# Debug: everything is in $KERNEL_OUT/logs: build-NAME.log, boot-NAME.log,
# selftests-NAME.txt and boot-NAME.sh, the QEMU command line to rerun a boot
# by hand.  A kernel tree is rebuilt from scratch when its compiler, flags or
# pfe.so change (stamp: $KERNEL_OUT/NAME/.pfe-stamp); Kbuild's
# $KERNEL_OUT/NAME/**/.*.o.cmd hold each object's command line.
# shellcheck disable=SC2015 # "A && ok || bad": ok never fails
set -eu
top=$(cd "$(dirname "$0")/.." && pwd -P)
KERNEL_CONFIG=${KERNEL_CONFIG:-regs}
KERNEL_ARCH=${KERNEL_ARCH:-arm64}
# The target's facts: its tools, image, QEMU and console.
case $KERNEL_ARCH in
arm64)
	KERNEL_CC=${KERNEL_CC:-aarch64-linux-gnu-gcc}
	KERNEL_CROSS=${KERNEL_CROSS-aarch64-linux-gnu-}
	INIT_CC=${INIT_CC:-aarch64-linux-gnu-gcc}
	image=Image image_path=arch/arm64/boot/Image clang_target=aarch64-linux-gnu
	qemu="qemu-system-aarch64 -M virt -cpu cortex-a57" console="console=ttyAMA0 earlycon"
	off_line="reboot: Power down" init_args=''
	boot_config="SERIAL_AMBA_PL011 SERIAL_AMBA_PL011_CONSOLE ARM_PSCI_FW" ;;
x86_64)
	KERNEL_CC=${KERNEL_CC:-gcc-12}
	KERNEL_CROSS=${KERNEL_CROSS-}
	INIT_CC=${INIT_CC:-gcc}
	image=bzImage image_path=arch/x86/boot/bzImage clang_target=x86_64-linux-gnu
	qemu=qemu-system-x86_64 console=console=ttyS0
	off_line="reboot: Restarting system" init_args="-- restart"	# no ACPI (kernel-init.c)
	boot_config="64BIT SERIAL_8250 SERIAL_8250_CONSOLE" ;;
*) echo "check-kernel: KERNEL_ARCH=$KERNEL_ARCH: arm64 or x86_64" >&2; exit 1 ;;
esac
NATIVE_CC=${NATIVE_CC:-$KERNEL_CC}
KERNEL_PFE=${KERNEL_PFE:-flags}
PFE_KERNEL_PLUGIN_ARGS=${PFE_KERNEL_PLUGIN_ARGS:-}
# entry: the padding Kbuild asks of the pfe kernel's compiler;
# native_entry: of the native kernel's.
case $KERNEL_ARCH-$KERNEL_CONFIG in
arm64-regs) version=6.1 out=kernel entry=2 ;;
arm64-callops) version=6.12 out=kernel-callops entry=4,2 ;;
arm64-cfi) version=7.2 out=kernel-cfi entry=2 ;;
x86_64-cfi) version=7.2 out=kernel-x86-cfi entry=11,11 native_entry=16,16 ;;
*) echo "check-kernel: KERNEL_CONFIG=$KERNEL_CONFIG: regs, callops or cfi (x86_64: cfi)" >&2; exit 1 ;;
esac
native_entry=${native_entry:-$entry}
KERNEL_SRC=${KERNEL_SRC:-/var/lib/pfe/kernel/linux-source-$version}
KERNEL_OUT=${KERNEL_OUT:-$top/build/$out}
KERNEL_JOBS=${KERNEL_JOBS:-$(nproc)}
KERNEL_BOOT_TIMEOUT=${KERNEL_BOOT_TIMEOUT:-180}
pfe_tree=pfe-$KERNEL_PFE-$(basename "$KERNEL_CC")
logs=$KERNEL_OUT/logs/$KERNEL_PFE-$(basename "$KERNEL_CC")

# What must be =y in .config: boots on QEMU with a serial console and an
# initramfs, and has every piece of ftrace the self-tests exercise (and
# what must not be: CALL_OPS is GCC's at -O2 only).
WANTED="PRINTK PRINTK_TIME TTY $boot_config
 BLK_DEV_INITRD BINFMT_ELF KALLSYMS
 FTRACE FUNCTION_TRACER DYNAMIC_FTRACE
 FUNCTION_GRAPH_TRACER FTRACE_STARTUP_TEST EVENT_TRACE_STARTUP_TEST"
# PFE_BOOTS: the pfe kernel's boots, "NAME:APPEND" each (its logs' name
# after the tree's, what it adds to the command line), separated by "|".
UNWANTED='' PFE_WANTED='' PFE_BOOTS=''
lkdtm_cfi="lkdtm.cpoint_name=DIRECT lkdtm.cpoint_type=CFI_FORWARD_PROTO"
case $KERNEL_ARCH-$KERNEL_CONFIG in
*-regs) WANTED="$WANTED DYNAMIC_FTRACE_WITH_REGS" ;;
*-callops) WANTED="$WANTED CC_OPTIMIZE_FOR_PERFORMANCE DYNAMIC_FTRACE_WITH_ARGS
 DYNAMIC_FTRACE_WITH_CALL_OPS DYNAMIC_FTRACE_WITH_DIRECT_CALLS"
	UNWANTED=CC_OPTIMIZE_FOR_SIZE ;;
arm64-cfi) WANTED="$WANTED DYNAMIC_FTRACE_WITH_ARGS RUNTIME_TESTING_MENU DEBUG_KERNEL
 DEBUG_FS LKDTM"
	PFE_WANTED="CFI CFI_PERMISSIVE"
	PFE_BOOTS=":$lkdtm_cfi" ;;
x86_64-cfi) WANTED="$WANTED CC_OPTIMIZE_FOR_PERFORMANCE DYNAMIC_FTRACE_WITH_ARGS
 DYNAMIC_FTRACE_WITH_DIRECT_CALLS RUNTIME_TESTING_MENU DEBUG_KERNEL DEBUG_FS LKDTM
 CPU_MITIGATIONS MITIGATION_RETPOLINE MITIGATION_CALL_DEPTH_TRACKING CALL_PADDING
 X86_KERNEL_IBT SECTION_MISMATCH_WARN_ONLY"
	UNWANTED=CC_OPTIMIZE_FOR_SIZE
	PFE_WANTED="CFI CFI_PERMISSIVE FINEIBT"
	PFE_BOOTS="rehashed:cfi=debug $lkdtm_cfi|norand:cfi=norand $lkdtm_cfi|fineibt:cfi=fineibt,norand $lkdtm_cfi" ;;
esac
# The self-tests the issue names; the native boot may add more.
NAMED_TESTS="tracer function|dynamic ftrace|dynamic ftrace ops #1|dynamic ftrace ops #2|tracer function_graph"

say() { printf 'check-kernel: %s\n' "$*"; }
die() { say "logs: $logs"; say "FAIL ($*)"; exit 1; }
tab=$(printf '\t')
now() { date +%s; }

[ -f "$KERNEL_SRC/Makefile" ] ||
	die "no kernel source in $KERNEL_SRC: run sh scripts/install-deps.sh kernel"
for t in "$KERNEL_CC" "$NATIVE_CC" "$INIT_CC" "$qemu" cpio timeout; do
	command -v "${t%% *}" >/dev/null || die "$t not found: run sh scripts/install-deps.sh kernel"
done
mkdir -p "$logs"
rm -f "$logs"/*

# How pfe reaches the compiler: $pfe_mark is what every traced object's
# command line must then contain.
t0=$(now)
case $KERNEL_PFE in
flags)
	make -s -C "$top" CC="$KERNEL_CC" plugin >"$logs/plugin.log" 2>&1 ||
		die "building pfe.so for $KERNEL_CC, see $logs/plugin.log"
	so=$top/build/$(basename "$KERNEL_CC")/pfe.so
	pfe_flags="-fplugin=$so -fplugin-arg-pfe-entry=$entry${PFE_KERNEL_PLUGIN_ARGS:+ $PFE_KERNEL_PLUGIN_ARGS}"
	set -- "CC=$KERNEL_CC" "CC_FLAGS_FTRACE=$pfe_flags"
	pfe_mark="-fplugin=$so"
	pfe_sum=$(cksum <"$so")
	how="entry=$entry${PFE_KERNEL_PLUGIN_ARGS:+ $PFE_KERNEL_PLUGIN_ARGS}" ;;
wrapper|forced)
	make -s -C "$top" CC="$KERNEL_CC" plugin >"$logs/plugin.log" 2>&1 ||
		die "building pfe.so for $KERNEL_CC, see $logs/plugin.log"
	PFE_PLUGIN=$top/build/$(basename "$KERNEL_CC")/pfe.so
	export PFE_PLUGIN
	wrapper="$top/scripts/pfe-cc"
	[ "$KERNEL_PFE" = wrapper ] || wrapper="$wrapper --pfe"
	set -- "CC=$wrapper $KERNEL_CC"
	# Kbuild's own command lines: pfe-cc, with the option Kconfig found.
	pfe_mark="pfe-cc .*-fpatchable-function-entry=$entry"
	pfe_sum="$(cksum <"$PFE_PLUGIN") $(cksum <"$top/scripts/pfe-cc")"
	how="${wrapper#"$top/scripts/"}, Kbuild unmodified" ;;
*) die "KERNEL_PFE=$KERNEL_PFE: flags, wrapper or forced" ;;
esac
say "pfe for $KERNEL_CC ($KERNEL_PFE): $(( $(now) - t0 ))s"

# build_kernel NAME MAKE-VARIABLE...: configure and build $KERNEL_OUT/NAME.
build_kernel() {
	name=$1; shift
	obj=$KERNEL_OUT/$name
	log=$logs/build-$name.log
	cc=${1#CC=}
	wanted="$WANTED $extra"
	stamp="$* | $wanted | $($cc --version | head -1) | $(cat "$KERNEL_SRC/.pfe-version" 2>/dev/null) | ${sum:-}"
	[ "$(cat "$obj/.pfe-stamp" 2>/dev/null)" = "$stamp" ] || rm -rf "$obj"
	mkdir -p "$obj"
	t=$(now)
	{
		make -C "$KERNEL_SRC" O="$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$KERNEL_CROSS" "$@" tinyconfig &&
		for o in $wanted; do "$KERNEL_SRC/scripts/config" --file "$obj/.config" -e "$o"; done &&
		for o in $UNWANTED; do "$KERNEL_SRC/scripts/config" --file "$obj/.config" -d "$o"; done &&
		make -C "$KERNEL_SRC" O="$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$KERNEL_CROSS" "$@" olddefconfig
	} >"$log" 2>&1 || die "configuring the $name kernel, see $log"
	for o in $wanted; do
		grep -qx "CONFIG_$o=y" "$obj/.config" ||
			die "$name kernel: CONFIG_$o is not =y after olddefconfig ($obj/.config)"
	done
	for o in $UNWANTED; do
		! grep -qx "CONFIG_$o=y" "$obj/.config" ||
			die "$name kernel: CONFIG_$o is =y after olddefconfig ($obj/.config)"
	done
	make -C "$KERNEL_SRC" O="$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$KERNEL_CROSS" "$@" \
		-j"$KERNEL_JOBS" "$image" >>"$log" 2>&1 ||
		{ tail -20 "$log"; die "building the $name kernel, see $log"; }
	echo "$stamp" >"$obj/.pfe-stamp"
	say "$name kernel built: $(( $(now) - t ))s (${cc})"
}

# ftrace_cmds NAME PATTERN: how many C objects of the kernel were compiled with
# a command line containing PATTERN (Kbuild's .o.cmd files: cmd_X.o, since
# Linux 6.2 savedcmd_X.o).
ftrace_cmds() {
	find "$KERNEL_OUT/$1" -name '.*.o.cmd' -exec grep -l -e "^\(saved\)\{0,1\}cmd_.*\.o := .*$2" {} + |
		wc -l
}

sum='' extra=''; build_kernel native "CC=$NATIVE_CC"
sum=$pfe_sum extra=$PFE_WANTED; build_kernel "$pfe_tree" "$@"

fails=0 why=
ok() { say "ok    $*"; }
bad() { say "FAIL  $2"; fails=$((fails + 1)); why="${why:+$why, }$1"; }

# The pfe objects: as many compiled through pfe as natively padded ones in
# the native tree, none with GCC's own padding.
n_native=$(ftrace_cmds native "-fpatchable-function-entry=$native_entry")
[ "$n_native" -gt 0 ] && ok "native objects: $n_native compiled with -fpatchable-function-entry=$native_entry" ||
	bad "native flags" "native objects: none compiled with -fpatchable-function-entry=$native_entry"
# (With options of its own, PFE_WANTED, the pfe kernel has more objects.)
n=$(ftrace_cmds "$pfe_tree" "$pfe_mark")
if [ "$n" = "$n_native" ] || { [ -n "$PFE_WANTED" ] && [ "$n" -gt "$n_native" ]; }; then
	ok "pfe objects: $n compiled with $pfe_mark${PFE_WANTED:+ (native, without $PFE_WANTED: $n_native)}"
else
	bad "pfe flags" "pfe objects: $n compiled with $pfe_mark, native: $n_native"
fi
if [ "$KERNEL_PFE" = flags ]; then
	n=$(ftrace_cmds "$pfe_tree" -fpatchable-function-entry)
	[ "$n" = 0 ] && ok "pfe objects: none compiled with -fpatchable-function-entry" ||
		bad "native padding" "pfe objects: $n compiled with -fpatchable-function-entry ($KERNEL_OUT/$pfe_tree/**/.*.o.cmd)"
fi

# CALL_OPS: every record's 2 NOPs are the 8-aligned literal right before
# its entry, in vmlinux.o (vmlinux keeps its records in .init.data, among
# other data).  Of pfe-scan verify's problems only the ops slot's count
# here: ld -r links the merged record section to one text section (a
# problem per function elsewhere), and some records point at code with no
# symbol (native's as pfe's); those are in verify-NAME.txt.  The native
# kernel's slot problems are a figure (GCC before 14 drops
# -falign-functions in cold functions; pfe-cc gives GCC 7.5 Kbuild's
# -fmin-function-alignment).
# slot_problems NAME: "SLOT OTHER", pfe-scan verify's problems in NAME's
# vmlinux.o with the ops slot, and the others.
slot_problems() {
	"$top/build/pfe-scan" verify "$KERNEL_OUT/$1/vmlinux.o" --entry="$entry" --ops-slot \
		>"$logs/verify-$1.txt" 2>&1 || :
	echo "$(grep -c 'ops slot' "$logs/verify-$1.txt") $(grep -vc 'ops slot' "$logs/verify-$1.txt")"
}
case $KERNEL_CONFIG in callops|cfi)
	make -s -C "$top" build/pfe-scan >"$logs/pfe-scan.log" 2>&1 ||
		die "building pfe-scan, see $logs/pfe-scan.log" ;;
esac
if [ "$KERNEL_CONFIG" = callops ]; then
	# shellcheck disable=SC2046 # four numbers
	set -- $(slot_problems native) $(slot_problems "$pfe_tree")
	[ "$3" = 0 ] && [ -s "$KERNEL_OUT/$pfe_tree/vmlinux.o" ] &&
		ok "ops slots: pfe-scan verify --entry=$entry --ops-slot vmlinux.o: every one 8-aligned before its entry ($4 other lines; native: $1 slot problems, $2 others)" ||
		bad "ops slots" "ops slots: pfe-scan verify --ops-slot vmlinux.o: $3 slot problems, e.g. $(grep -m 3 'ops slot' "$logs/verify-$pfe_tree.txt" | tr '\n' ' ')"
fi

# kCFI's checks where the kernel lists them (x86_64: arm64 has none, the
# brk says it all): pfe-scan traps decodes each entry's check, the same in
# vmlinux.o (ld -r merged the objects' .kcfi_traps) and vmlinux
# (__kcfi_traps).
if [ "$KERNEL_ARCH-$KERNEL_CONFIG" = x86_64-cfi ]; then
	for f in vmlinux.o vmlinux; do
		"$top/build/pfe-scan" traps "$KERNEL_OUT/$pfe_tree/$f" 2>&1 | sort >"$logs/traps-$f.txt"
	done
	n=$(wc -l <"$logs/traps-vmlinux.txt")
	if [ "$n" -gt 0 ] && cmp -s "$logs/traps-vmlinux.txt" "$logs/traps-vmlinux.o.txt" &&
		! grep -qv ' 0x[0-9a-f]\{8\}$' "$logs/traps-vmlinux.txt"; then
		ok "kCFI checks: pfe-scan traps: $n in vmlinux.o, the same in vmlinux, each with its hash"
	else
		bad "traps" "kCFI checks: pfe-scan traps: $n in vmlinux, not all decoded or not those of vmlinux.o ($logs/traps-*.txt)"
	fi
fi

# The init and its initramfs (no device node: the init makes /dev/console).
mkdir -p "$KERNEL_OUT/initramfs"
"$INIT_CC" -std=c11 -O2 -Wall -Wextra -Werror -static \
	-o "$KERNEL_OUT/initramfs/init" "$top/scripts/kernel-init.c" ||
	die "building scripts/kernel-init.c with $INIT_CC"
(cd "$KERNEL_OUT/initramfs" && echo init | cpio -o -H newc -R 0:0 --quiet) \
	>"$KERNEL_OUT/initramfs.cpio" || die "packing $KERNEL_OUT/initramfs.cpio"

# boot NAME TREE [APPEND]: boot $KERNEL_OUT/TREE (APPEND: more of its
# command line), log in $logs/boot-NAME.log (no CRs).
boot() {
	cat >"$logs/boot-$1.sh" <<-EOF
	timeout $KERNEL_BOOT_TIMEOUT $qemu -m 512M \\
		-nographic -nic none -no-reboot -kernel $KERNEL_OUT/$2/$image_path \\
		-initrd $KERNEL_OUT/initramfs.cpio -append '$console panic=-1 oops=panic${3:+ $3}${init_args:+ $init_args}'
	EOF
	t=$(now)
	rc=0
	sh "$logs/boot-$1.sh" </dev/null >"$logs/boot-$1.raw" 2>&1 || rc=$?
	tr -d "\r" <"$logs/boot-$1.raw" >"$logs/boot-$1.log" && rm "$logs/boot-$1.raw"
	boot_time=$(( $(now) - t ))
}

# selftests NAME: one line per "Testing X: " of the boot log, "X<TAB>verdict":
# the PASSED or FAILED that follows (pr_cont, maybe after lines of its own;
# the trace event and filter tests say OK), else "none" (the next test began
# or the log ended first).
selftests() {
	awk '
	function verdict(v) { if (name != "") print name "\t" v; name = "" }
	/(^|\] )Testing [^:]*:/ {
		verdict("none")
		name = $0; sub(/.*Testing /, "", name); sub(/:.*/, "", name)
		$0 = substr($0, index($0, "Testing " name ":") + length(name) + 9)
	}
	name != "" && /PASSED/ { verdict("PASSED") }
	name != "" && /FAILED/ { verdict("FAILED") }
	name != "" && / OK$/ { verdict("OK") }
	END { verdict("none") }' "$logs/boot-$1.log" >"$logs/selftests-$1.txt"
}

# records NAME TREE: the ftrace record count, "BOOTLOG MAP": the boot log
# NAME's "ftrace: allocating N entries" and (__stop_mcount_loc - __start_mcount_loc)/8
# from TREE's System.map (the kernel collects __patchable_function_entries there),
# less, from Linux 6.6 on, the entries that are 0 in vmlinux (those of
# overridden weak functions, zeroed at build time, and padding): the kernel
# skips them, and leaves them out of that count.
# mcount_zeros NAME: how many entries of NAME's mcount table are 0.
mcount_zeros() {
	range=$(awk '$3 == "__start_mcount_loc" { s = $1 } $3 == "__stop_mcount_loc" { e = $1 }
		END { if (s != "" && e != "") print "--start-address=0x" s, "--stop-address=0x" e }' \
		"$KERNEL_OUT/$1/System.map")
	[ -n "$range" ] || { echo 0; return; }
	# shellcheck disable=SC2086 # two options
	"${KERNEL_CROSS}objdump" -s $range "$KERNEL_OUT/$1/vmlinux" |
		awk '/^ [0-9a-f]+ / { for (i = 2; i <= 5; i += 2)
			if ($i == "00000000" && $(i + 1) == "00000000") z++ }
		END { print z + 0 }'
}

records() {
	r_log=$(sed -n 's/.*ftrace: allocating \([0-9]*\) entries.*/\1/p' "$logs/boot-$1.log")
	shift
	r_map=$(awk '$3 == "__start_mcount_loc" { s = substr($1, 9) }
		$3 == "__stop_mcount_loc" { e = substr($1, 9) }
		END { if (s != "" && e != "") print s, e }' "$KERNEL_OUT/$1/System.map" |
		{ read -r s e && echo $(( (0x$e - 0x$s + 0x100000000) % 0x100000000 / 8 )); })
	skip=0
	[ "$KERNEL_CONFIG" = regs ] || skip=$(mcount_zeros "$1")
	[ -z "$r_map" ] || r_map=$((r_map - skip))
	echo "${r_log:-none} ${r_map:-none}"
}

# check_boot NAME: the boot of NAME on its own: QEMU ended by the init's power
# off in time, the init ran, no Oops/panic/FAILED, every self-test passed.
bad_lines='Oops|Kernel panic|Unable to handle|FAILED|BUG:|WARNING:|Call trace:'
check_boot() {
	if [ "$rc" = 124 ]; then
		bad "$1 timeout" "$1 boot: timed out after ${KERNEL_BOOT_TIMEOUT}s, last kernel line: $(grep -v "^qemu-system" "$logs/boot-$1.log" | tail -1)"
	elif [ "$rc" != 0 ]; then
		bad "$1 qemu" "$1 boot: ${qemu%% *} exited with status $rc"
	elif ! grep -q "$off_line" "$logs/boot-$1.log"; then
		# panic=-1 reboots at once, and -no-reboot then ends QEMU.
		bad "$1 power off" "$1 boot: QEMU ended after ${boot_time}s without the init's power off"
	else
		ok "$1 boot: powered off in ${boot_time}s"
	fi
	grep -q '^pfe-kernel-init: userland reached' "$logs/boot-$1.log" &&
		ok "$1 boot: the init ran" ||
		bad "$1 init" "$1 boot: no init marker (pfe-kernel-init: userland reached)"
	line=$(grep -E -m1 "$bad_lines" "$logs/boot-$1.log" || true)
	if ! grep -q 'Linux version' "$logs/boot-$1.log"; then
		bad "$1 no output" "$1 boot: no kernel output (no banner, 'Linux version')"
	elif [ -n "$line" ]; then
		bad "$1 oops" "$1 boot: $line"
	else
		ok "$1 boot: no Oops, panic, BUG, WARNING or FAILED"
	fi
	selftests "$1"
	total=$(wc -l <"$logs/selftests-$1.txt")
	failed=$(awk -F'\t' '$2 != "PASSED" && $2 != "OK" {
		printf "%s%s: %s", n++ ? ", " : "", $1, $2 }' "$logs/selftests-$1.txt")
	[ "$total" -gt 0 ] && [ -z "$failed" ] &&
		ok "$1 self-tests: all $total passed ($(grep -c "${tab}PASSED\$" "$logs/selftests-$1.txt") PASSED, the trace event ones OK)" ||
		bad "$1 self-tests" "$1 self-tests: $total, not passed: ${failed:-no self-test ran}"
}

# take_cfi_report NAME: LKDTM's CFI_FORWARD_PROTO, from its first line to
# its last (its verdict on a permissive kernel), moved out of the boot log
# (boot-NAME.full.log keeps it whole) into cfi-NAME.txt: the WARNING and
# call trace there are what the test provokes, not a fault.
lkdtm_block='/lkdtm: Calling matched prototype/,/lkdtm: \(Unexpected!\|This is probably expected\)/'
take_cfi_report() {
	mv "$logs/boot-$1.log" "$logs/boot-$1.full.log"
	sed -n "${lkdtm_block}p" "$logs/boot-$1.full.log" >"$logs/cfi-$1.txt"
	sed "${lkdtm_block}d" "$logs/boot-$1.full.log" >"$logs/boot-$1.log"
}

# check_cfi_report NAME APPEND: the kernel's own CFI handler decoded pfe's
# check (arm64: the brk's ESR names the registers of target and type) and
# named the caller, the target and the type id of void (int *), which must
# be Clang 16's; x86_64 rehashes every type id at boot unless cfi=norand:
# Clang's xor the seed cfi=debug prints.  FineIBT checks in the callee's
# preamble, and the report names the callee.
check_cfi_report() {
	at=lkdtm_indirect_call
	case $2 in *fineibt*) at=lkdtm_increment_int ;; esac
	printf 'extern void f(int *p);\nvoid (*g)(int *) = f;\n' >"$KERNEL_OUT/typeid.c"
	clang-16 --target=$clang_target -fsanitize=kcfi -c "$KERNEL_OUT/typeid.c" \
		-o "$KERNEL_OUT/typeid.o" || die "clang-16 -fsanitize=kcfi failed"
	want=$(nm "$KERNEL_OUT/typeid.o" | awk '$3 == "__kcfi_typeid_f" { print substr($1, 9) }')
	type=$want whose="Clang 16's"
	case $KERNEL_ARCH-$2 in
	x86_64-*norand*|arm64-*) ;;
	*)	seed=$(sed -n 's/.*CFI: cfi_seed: 0x\([0-9a-f]\{8\}\).*/\1/p' "$logs/boot-$1.log" | head -1)
		[ -n "$seed" ] || { bad "$1 kCFI seed" "$1 kCFI: no cfi_seed in the boot log (cfi=debug prints it)"; return; }
		type=$(printf %08x $((0x$want ^ 0x$seed))) whose="Clang 16's 0x$want rehashed with the boot's seed 0x$seed" ;;
	esac
	line=$(grep -m1 'CFI failure at' "$logs/cfi-$1.txt" || true)
	case $line in
	*"CFI failure at $at+"*"(target: lkdtm_increment_int+"*"; expected type: 0x$type)")
		ok "$1 kCFI: LKDTM's CFI_FORWARD_PROTO caught by the kernel's handler at $at, type 0x$type, $whose" ;;
	*) bad "$1 kCFI" "$1 kCFI: no report at $at of lkdtm_indirect_call calling lkdtm_increment_int with type 0x$type ($whose, void (int *)): ${line:-none, see $logs/cfi-$1.txt}" ;;
	esac
}

boot native native; check_boot native
# The pfe kernel's boots (PFE_BOOTS).
pfe_boots='' rest=$PFE_BOOTS
while :; do
	spec=${rest%%|*}
	label=${spec%%:*} append=${spec#*:} name=$pfe_tree
	[ -z "$label" ] || name=$pfe_tree-$label
	pfe_boots="$pfe_boots $name"
	boot "$name" "$pfe_tree" "$append"
	case $append in *lkdtm.cpoint_type=CFI*) take_cfi_report "$name" ;; esac
	check_boot "$name"
	case $append in *lkdtm.cpoint_type=CFI*) check_cfi_report "$name" "$append" ;; esac
	[ "$rest" != "${rest#*|}" ] || break
	rest=${rest#*|}
done

# compare_native NAME: the pfe boot NAME against native: the same
# self-tests (the named ones among them), the same ftrace records.
compare_native() {
	missing=$(awk -F'\t' -v named="$NAMED_TESTS" '
		BEGIN { n = split(named, a, "|"); for (i = 1; i <= n; i++) want[a[i]] = isnamed[a[i]] = 1 }
		FILENAME == ARGV[1] { want[$1] = 1; next }
		$2 == "PASSED" || $2 == "OK" { passed[$1] = 1 }
		END {
			for (i = 1; i <= n; i++) if (!(a[i] in passed)) { m++; printf "%s; ", a[i] }
			for (t in want) if (!(t in passed) && !(t in isnamed) && m++ < 5) printf "%s; ", t
			if (m > 5) printf "... (%d in all)", m
		}' "$logs/selftests-native.txt" "$logs/selftests-$1.txt")
	n_pfe=$(grep -c -e "${tab}PASSED\$" -e "${tab}OK\$" "$logs/selftests-$1.txt" || true)
	n_native=$(grep -c -e "${tab}PASSED\$" -e "${tab}OK\$" "$logs/selftests-native.txt" || true)
	[ -z "$missing" ] && [ "$n_pfe" -ge "$n_native" ] &&
		ok "$1 self-tests: $n_pfe passed >= native $n_native, each native and named one among them" ||
		bad "$1 self-tests vs native" "$1 self-tests: $n_pfe passed, native $n_native; not passed in pfe: ${missing:-none}"
	# shellcheck disable=SC2046 # four numbers
	set -- $(records native native) $(records "$1" "$pfe_tree") "$1"
	if [ "$1" = none ] || [ "$2" = none ] || [ "$1" != "$2" ]; then
		bad "native records" "native records: boot log $1, System.map $2 (must be equal numbers; see records())"
	elif { [ "$KERNEL_CC" != "$NATIVE_CC" ] || [ -n "$PFE_WANTED" ]; } && [ "$3" = "$4" ] && [ "$3" -gt 0 ]; then
		ok "$5 records: boot log $3 = System.map $4 (native $1 from $NATIVE_CC${PFE_WANTED:+, without $PFE_WANTED})"
	elif [ "$3" = "$1" ] && [ "$4" = "$2" ]; then
		ok "$5 records: boot log $3, System.map $4 = native $1, $2"
	else
		bad "$5 records" "$5 records: boot log $3, System.map $4; native $1, $2"
	fi
	r_native=$1 r_pfe=$3
}
for name in $pfe_boots; do compare_native "$name"; done

v=$($KERNEL_CC -dumpversion | cut -d. -f1)
[ "$fails" = 0 ] || die "pfe gcc-$v $how: $why"
say "logs: $logs"
n_ftrace=$(grep -c "${tab}PASSED\$" "$logs/selftests-$name.txt")
same="= native"
[ "$KERNEL_CC" = "$NATIVE_CC" ] && [ -z "$PFE_WANTED" ] || same="= its System.map (native, $NATIVE_CC${PFE_WANTED:+ without $PFE_WANTED}: $r_native)"
each='' boots=$(echo "$pfe_boots" | wc -w)
[ "$boots" = 1 ] || each=", in each of $boots boots"
say "PASS (pfe gcc-$v $KERNEL_ARCH $how: $n_ftrace ftrace self-tests PASSED, $((n_pfe - n_ftrace)) trace event ones OK, $r_pfe records $same$each)"
