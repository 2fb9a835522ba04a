#!/bin/sh
# install-deps.sh: install everything pfe's build, demo and test matrix need.
#
# Idempotent and quick when all is present: each step first checks what is
# installed and only then asks apt.  Debian packages only:
#   - bookworm: dejagnu, libelf-dev, gcc-11/12 with plugin headers, gcc-12-multilib
#     (alone: the gcc-multilib metapackage would remove the cross compilers),
#     the aarch64/riscv64 cross compilers with plugin headers, qemu-user, csmith,
#     uftrace (0.13: entry=5), clang-16 and its compiler-rt (libFuzzer: make fuzz;
#     Clang 16's kCFI, pfe.kcfi's peer);
#   - bullseye, pinned to priority 100 so nothing installed from bookworm moves:
#     gcc-9/10 with plugin headers;
#   - a Debian sid chroot (debootstrap --variant=minbase) at $PFE_SID_ROOT
#     holding gcc-13..16 with plugin headers, GCC 14's aarch64 cross
#     compiler (pfe.diff's aarch64 oracle), uftrace (0.19: ENDBR64 before the
#     NOPs too), sid's clang (riscv64 kCFI, C23) and riscv64 binutils (pfe.diff
#     disassembles with them: bookworm's take minutes on sqlite3.o);
#     scripts/sid-run enters it;
#   - GCC 7.5 built from ../shared/toolchains by scripts/build-gcc7.sh,
#     once: for x86_64 (make check; 4.5 to 6.5 minutes on 2 cores), and
#     for aarch64 too only for "toolchains" (make check-full, check-kernel,
#     check-packages; side by side, about 10 minutes): make check on a new
#     machine of the slowest kind seen takes 67 minutes without it;
#   - the test corpus in $PFE_CORPUS: sqlite3.c from the npm package
#     better-sqlite3 (pinned version) and pigz 2.8's sources (Debian's
#     upstream tarball from the mirror's pool, checked by its sha256);
#   - for make check, the packages testsuite/packages marks "quick" (make
#     check's subset of make check-packages): bookworm deb-src lines, their
#     build tools and their sources, unpacked once by apt-get source into
#     $PFE_PACKAGES (scripts/check-packages.sh builds copies of them);
#   - only for "packages" (make check-packages): the same for every package
#     that testsuite/packages lists, with every build tool (cmake, meson,
#     dpkg-dev, ...) and GTest for arm64 (a foreign architecture: yaml-cpp's
#     aarch64 tests);
#   - only for "kernel" (make check-kernel): linux-source-6.1,
#     linux-source-6.12 (bookworm-security's, as trixie's) and sid's
#     linux-source-7.2 (in the sid chroot), each unpacked once into
#     $PFE_KERNEL, qemu-system-arm and -x86, clang-16 (the kCFI type ids' oracle)
#     and the kernel build tools.
# Debug: run with "sh -x"; apt's own output is in /tmp/pfe-install.log.
set -eu

PFE_SID_ROOT=${PFE_SID_ROOT:-/var/lib/pfe/sid}
SID_GCCS=${SID_GCCS:-"13 14 15 16"}
PFE_CORPUS=${PFE_CORPUS:-/var/lib/pfe/corpus}
PFE_KERNEL=${PFE_KERNEL:-/var/lib/pfe/kernel}
PFE_PACKAGES=${PFE_PACKAGES:-/var/lib/pfe/packages}
PFE_GCC_TESTS=${PFE_GCC_TESTS:-/var/lib/pfe/gcc-tests}
GCC_TESTS_VERSION=14.2.0-19
SQLITE_NPM=better-sqlite3@12.11.1
# pigz: pfe.trace's real multi-threaded program (trixie's upstream tarball,
# checked against the sha256 its .dsc gives).
PIGZ=pigz_2.8.orig.tar.xz
PIGZ_SHA256=bec34f9d61e28b9b069da9efd53e73d22cd207a4798ed664832dc9b17aa486aa
LOG=/tmp/pfe-install.log
MIRROR=http://deb.debian.org/debian
export DEBIAN_FRONTEND=noninteractive

HOST_PKGS="make g++ dejagnu libelf-dev debootstrap xz-utils csmith binutils
 gcc-11 g++-11 gcc-11-plugin-dev gcc-12 g++-12 gcc-12-plugin-dev gcc-12-multilib
 gcc-9 g++-9 gcc-9-plugin-dev gcc-10 g++-10 gcc-10-plugin-dev
 qemu-user libcsmith-dev time clang-16 libclang-rt-16-dev
 gcc-aarch64-linux-gnu g++-aarch64-linux-gnu gcc-riscv64-linux-gnu g++-riscv64-linux-gnu
 gcc-12-aarch64-linux-gnu g++-12-aarch64-linux-gnu gcc-12-plugin-dev-aarch64-linux-gnu
 gcc-11-aarch64-linux-gnu g++-11-aarch64-linux-gnu gcc-11-plugin-dev-aarch64-linux-gnu
 gcc-12-riscv64-linux-gnu g++-12-riscv64-linux-gnu gcc-12-plugin-dev-riscv64-linux-gnu
 libc6-dev-arm64-cross libc6-dev-riscv64-cross uftrace valgrind
 libgmp-dev libmpfr-dev libmpc-dev zlib1g-dev curl"

# make check-kernel: arm64 kernels built with the aarch64 cross compiler (also
# in HOST_PKGS), an x86_64 one with gcc-12, their inits linked -static, booted
# under qemu-system-aarch64 and qemu-system-x86_64.
KERNEL_VERSIONS="6.1 6.12"
SID_KERNEL=7.2
KERNEL_PKGS="make gcc libc6-dev g++ flex bison bc cpio xz-utils libelf-dev linux-source-6.1 linux-source-6.12
 clang-16 qemu-system-arm qemu-system-x86 gcc-12-aarch64-linux-gnu gcc-12-plugin-dev-aarch64-linux-gnu
 libc6-dev-arm64-cross"

# make check-packages: the build systems and tools of testsuite/packages's
# packages (their sources come from apt-get source, see install_packages).
PACKAGES_PKGS="make gcc-12 g++-12 dpkg-dev cmake meson ninja-build pkg-config
 autoconf automake libtool gettext autopoint python3 qemu-user libgtest-dev libgmock-dev
 gcc-12-aarch64-linux-gnu g++-12-aarch64-linux-gnu libc6-dev-arm64-cross"

# make check's subset of them (check-packages.sh -q): what zlib, jansson
# (autoreconf) and pugixml (CMake) need.
QUICK_PACKAGES_PKGS="dpkg-dev cmake ninja-build autoconf automake libtool pkg-config"

# GCC 7.5's build (scripts/build-gcc7.sh; also in HOST_PKGS): make check-kernel
# builds it without the rest.
GCC7_PKGS="make gcc-12 g++-12 libgmp-dev libmpfr-dev libmpc-dev zlib1g-dev xz-utils
 binutils-aarch64-linux-gnu libc6-dev-arm64-cross"

say() { printf 'install-deps: %s\n' "$*"; }

missing_pkgs() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || printf '%s ' "$p"
	done
}

add_bullseye() {
	src=/etc/apt/sources.list.d/pfe-bullseye.list
	pin=/etc/apt/preferences.d/pfe-bullseye
	[ -f "$src" ] && [ -f "$pin" ] && return 0
	echo "deb $MIRROR bullseye main" > "$src"
	printf 'Package: *\nPin: release n=bullseye\nPin-Priority: 100\n' > "$pin"
	apt_updated=
}

apt_updated=
apt_update_once() {
	[ -n "$apt_updated" ] && return 0
	say "apt-get update"
	apt-get update >>"$LOG" 2>&1
	apt_updated=1
}

# install_pkgs PKG...: apt-get install those of PKG... that are missing.
install_pkgs() {
	need=$(missing_pkgs "$@")
	[ -z "$need" ] && return 0
	apt_update_once
	say "installing: $need"
	# shellcheck disable=SC2086
	apt-get install -y --no-install-recommends $need >>"$LOG" 2>&1 ||
		{ say "apt-get install failed, see $LOG"; tail -20 "$LOG"; exit 1; }
}

install_host() {
	add_bullseye
	# shellcheck disable=SC2086
	install_pkgs $HOST_PKGS
	# The machine's own Node.js may ship npm (and conflict with Debian's).
	command -v npm >/dev/null 2>&1 || install_pkgs npm
}

sid_pkgs() {
	printf 'make binutils libc6-dev zlib1g-dev file uftrace clang '
	# GCC 14's aarch64 cross compiler: pfe.diff's native oracle for aarch64
	# (arm64 CALL_OPS, and GCC 7's layouts).
	printf 'gcc-14-aarch64-linux-gnu g++-14-aarch64-linux-gnu libc6-dev-arm64-cross '
	# pfe.diff's riscv64 disassembler (bookworm's 2.40 is quadratic in
	# local labels: 72 s for sqlite3.o, 2.47 under a second).
	printf 'binutils-riscv64-linux-gnu '
	for v in $SID_GCCS; do printf 'gcc-%s g++-%s gcc-%s-plugin-dev ' "$v" "$v" "$v"; done
}

install_sid() {
	if [ ! -x "$PFE_SID_ROOT/usr/bin/apt-get" ]; then
		say "debootstrap sid into $PFE_SID_ROOT (about 2 minutes)"
		mkdir -p "$PFE_SID_ROOT"
		debootstrap --variant=minbase sid "$PFE_SID_ROOT" "$MIRROR" >>"$LOG" 2>&1 ||
			{ say "debootstrap failed, see $LOG"; tail -20 "$LOG"; exit 1; }
	fi
	need=
	for p in $(sid_pkgs); do
		chroot "$PFE_SID_ROOT" dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || need="$need $p"
	done
	[ -z "$need" ] && return 0
	say "installing in sid chroot:$need"
	# The mirror may serve a snapshot whose Release file is past Valid-Until.
	echo 'Acquire::Check-Valid-Until "false";' > "$PFE_SID_ROOT/etc/apt/apt.conf.d/99pfe"
	chroot "$PFE_SID_ROOT" sh -c "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $need" >>"$LOG" 2>&1 ||
		{ say "sid install failed, see $LOG"; tail -20 "$LOG"; exit 1; }
}

# GCC's own tests (scripts/check-gcc.sh) come from this gcc-14-source, a
# fixed version (trixie's: it does not move as sid's does), downloaded once
# through the sid chroot's apt into $PFE_GCC_TESTS, never installed.
install_gcc_tests() {
	deb=$PFE_GCC_TESTS/gcc-14-source_${GCC_TESTS_VERSION}_all.deb
	[ -s "$deb" ] && return 0
	src=$PFE_SID_ROOT/etc/apt/sources.list.d/pfe-trixie.list
	if [ ! -f "$src" ]; then
		echo "deb $MIRROR trixie main" > "$src"
		printf 'Package: *\nPin: release n=trixie\nPin-Priority: 1\n' > "$PFE_SID_ROOT/etc/apt/preferences.d/pfe-trixie"
		chroot "$PFE_SID_ROOT" apt-get update >>"$LOG" 2>&1 ||
			{ say "apt-get update (sid chroot, trixie) failed, see $LOG"; exit 1; }
	fi
	say "downloading gcc-14-source $GCC_TESTS_VERSION into $PFE_GCC_TESTS"
	mkdir -p "$PFE_GCC_TESTS"
	tmp=$(mktemp -d /tmp/pfe-gcc14.XXXXXX)
	sidrun=$(cd "$(dirname "$0")" && pwd -P)/sid-run
	(cd "$tmp" && "$sidrun" apt-get download -q "gcc-14-source=$GCC_TESTS_VERSION") >>"$LOG" 2>&1 &&
		mv "$tmp/gcc-14-source_${GCC_TESTS_VERSION}_all.deb" "$deb" ||
		{ rm -rf "$tmp"; say "apt-get download gcc-14-source=$GCC_TESTS_VERSION failed, see $LOG"; exit 1; }
	rm -rf "$tmp"
}

# pigz's sources into $PFE_CORPUS/pigz-2.8 (unpacked beside it, then moved).
install_pigz() {
	[ -s "$PFE_CORPUS/pigz-2.8/pigz.c" ] && return 0
	say "fetching $PIGZ into $PFE_CORPUS"
	mkdir -p "$PFE_CORPUS"
	tmp=$(mktemp -d)
	curl -fsS -o "$tmp/$PIGZ" "$MIRROR/pool/main/p/pigz/$PIGZ" >>"$LOG" 2>&1 &&
		echo "$PIGZ_SHA256  $tmp/$PIGZ" | sha256sum -c --quiet >>"$LOG" 2>&1 &&
		tar xJf "$tmp/$PIGZ" -C "$tmp" ||
		{ say "fetching $PIGZ failed, see $LOG"; rm -rf "$tmp"; exit 1; }
	rm -rf "$PFE_CORPUS/pigz-2.8" && mv "$tmp/pigz-2.8" "$PFE_CORPUS/" && rm -rf "$tmp"
}

install_corpus() {
	install_pigz
	[ -s "$PFE_CORPUS/sqlite3.c" ] && return 0
	say "fetching $SQLITE_NPM (sqlite3 amalgamation) into $PFE_CORPUS"
	tmp=$(mktemp -d)
	# --loglevel=error, not --silent: npm's reason for a failure (a TLS
	# proxy's certificate, no network) goes to $LOG, not nowhere.
	(cd "$tmp" && npm pack --loglevel=error "$SQLITE_NPM" >>"$LOG" 2>&1 &&
		tar xzf ./*.tgz package/deps/sqlite3/sqlite3.c \
			package/deps/sqlite3/sqlite3.h) ||
		{ say "npm pack $SQLITE_NPM failed, see $LOG"; rm -rf "$tmp"; exit 1; }
	mkdir -p "$PFE_CORPUS"
	mv "$tmp/package/deps/sqlite3/sqlite3.h" "$tmp/package/deps/sqlite3/sqlite3.c" "$PFE_CORPUS/"
	rm -rf "$tmp"
}

# Each kernel source once into $PFE_KERNEL/linux-source-V (stamped with the
# package's version; unpacked beside it and then moved, so a half-unpacked
# tree is never taken for a whole one).
install_kernel() {
	# shellcheck disable=SC2086
	install_pkgs $KERNEL_PKGS
	for v in $KERNEL_VERSIONS; do unpack_kernel "$v" ""; done
	install_sid
	chroot "$PFE_SID_ROOT" dpkg-query -W -f='${Status}\n' "linux-source-$SID_KERNEL" 2>/dev/null |
		grep -q '^install ok installed$' ||
		chroot "$PFE_SID_ROOT" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends linux-source-$SID_KERNEL" >>"$LOG" 2>&1 ||
		{ say "installing linux-source-$SID_KERNEL in the sid chroot failed, see $LOG"; exit 1; }
	unpack_kernel "$SID_KERNEL" "$PFE_SID_ROOT"
}

# unpack_kernel V ROOT: linux-source-V, installed under ROOT (/ or the sid
# chroot), into $PFE_KERNEL/linux-source-V.
unpack_kernel() {
	tarball=$2/usr/src/linux-source-$1.tar.xz
	version=$(chroot "${2:-/}" dpkg-query -W -f='${Version}' "linux-source-$1")
	src=$PFE_KERNEL/linux-source-$1
	[ "$(cat "$src/.pfe-version" 2>/dev/null)" = "$version" ] && return 0
	[ -f "$tarball" ] || { say "$tarball missing (linux-source-$1 $version)"; exit 1; }
	say "unpacking $tarball ($version) into $src (about a minute)"
	mkdir -p "$PFE_KERNEL"
	rm -rf "$src.new" && mkdir "$src.new"
	tar xJf "$tarball" -C "$src.new" --strip-components=1 ||
		{ say "unpacking $tarball failed"; rm -rf "$src.new"; exit 1; }
	echo "$version" > "$src.new/.pfe-version"
	rm -rf "$src" && mv "$src.new" "$src"
}

# make check-packages: every package of testsuite/packages, its build tools
# and sources.
install_packages() {
	# shellcheck disable=SC2086
	install_pkgs $PACKAGES_PKGS
	# yaml-cpp's tests cross-built for aarch64 need GTest found for the
	# target (Debian's CMakeLists then builds /usr/src/googletest itself),
	# as a Debian cross build has it: arm64 a foreign architecture.
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		apt_updated=
	fi
	install_pkgs libgtest-dev:arm64 libgmock-dev:arm64
	install_sources ''
}

# make check's packages (testsuite/packages: quick).
install_quick_packages() {
	# shellcheck disable=SC2086
	install_pkgs $QUICK_PACKAGES_PKGS
	install_sources quick
}

# install_sources MARK: the sources of testsuite/packages's lines whose
# fifth field is MARK (all of them when MARK is empty), by the first word
# of each line up to a "/" (a bookworm source package); each unpacked
# once by apt-get source into $PFE_PACKAGES/src/NAME (downloaded and
# unpacked beside it, then moved, so a half-unpacked tree is never taken
# for a whole one).
install_sources() {
	# deb-src beside the machine's deb lines, with their key (apt refuses
	# two Signed-By values for one suite).
	src_list=/etc/apt/sources.list.d/pfe-bookworm-src.sources
	if [ ! -f "$src_list" ]; then
		key=$(sed -n 's/^Signed-By: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
		{ printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\n' "$MIRROR"
		  [ -z "$key" ] || printf 'Signed-By: %s\n' "$key"; } > "$src_list"
		apt_updated=
	fi
	list=$(dirname "$0")/../testsuite/packages
	for name in $(sed 's/#.*//' "$list" | awk -v m="$1" 'NF && (m == "" || $5 == m) { sub("/.*", "", $1); print $1 }'); do
		[ -d "$PFE_PACKAGES/src/$name" ] && continue
		apt_update_once
		say "apt-get source $name into $PFE_PACKAGES/src/$name"
		tmp=$PFE_PACKAGES/src/.$name.tmp
		rm -rf "$tmp" && mkdir -p "$tmp"
		(cd "$tmp" && apt-get source -q "$name/bookworm") >>"$LOG" 2>&1 ||
			{ say "apt-get source $name failed, see $LOG"; rm -rf "$tmp"; exit 1; }
		tree=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
		[ -n "$tree" ] || { say "apt-get source $name unpacked nothing"; exit 1; }
		mv "$tree" "$PFE_PACKAGES/src/$name" && rm -rf "$tmp"
	done
}

# GCC 7.5 for TARGETS (build-gcc7.sh's: x86_64, aarch64; none: both) built
# from ../shared/toolchains, cached in /var/lib/pfe/gcc-7.  Without its
# sources the installs go on and make check fails its runs by name ("not
# built": check-matrix.sh); any other failure stops here.
# start_toolchains starts the build in the background: it is minutes of
# compiling that leave a core idle in its configure steps and links, and
# "all" lets the downloads and unpacking of the corpus, the packages' and
# the sid chroot's run beside it (build-gcc7.sh's lock keeps a second
# build, of an install started meanwhile, waiting for this one).
start_toolchains() {
	# shellcheck disable=SC2086
	install_pkgs $GCC7_PKGS
	sh "$(dirname "$0")/build-gcc7.sh" "$@" &
	toolchains_pid=$!
}
finish_toolchains() {
	status=0
	wait "$toolchains_pid" || status=$?
	case $status in
	0) ;;
	2) say "GCC 7.5 not built (no sources): make check will fail its runs" ;;
	*) exit "$status" ;;
	esac
}
install_toolchains() {
	start_toolchains "$@"
	finish_toolchains
}

[ "$(id -u)" = 0 ] || { say "run as root (apt-get, debootstrap, chroot)"; exit 1; }
case "${1:-all}" in
host) install_host; install_corpus ;;
sid) install_sid; install_gcc_tests ;;
kernel) install_kernel ;;
packages) install_packages ;;
toolchains) install_toolchains ;;
all) install_host; start_toolchains x86_64; install_corpus; install_quick_packages
	[ "${PFE_NO_SID:-}" ] || { install_sid; install_gcc_tests; }; finish_toolchains ;;
*) say "usage: $0 [host|sid|kernel|packages|toolchains|all]"; exit 1 ;;
esac
say "all dependencies present"
