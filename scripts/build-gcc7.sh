#!/bin/sh
# build-gcc7.sh [TARGET...]: build plugin-enabled GCC 7.5 compilers for the
# test matrix (and for users who want pfe on a real pre-8 GCC).
#
#   TARGET  x86_64 (the host compiler, C and C++, with libgcc) and/or
#           aarch64 (a cross compiler aarch64-linux-gnu-gcc-7, C and C++,
#           with libgcc, binutils and libc from Debian's cross packages).
#           Default: both, built side by side.
#   Sources: $PFE_GCC7_SRC, else ../shared/toolchains/gcc-7.5.0-c.tar.xz
#           beside the checkout (checked against its SHA256SUMS); the full
#           GNU gcc-7.5.0.tar.xz works too.
#   Result: $PFE_GCC7_PREFIX (default /var/lib/pfe/gcc-7)/bin/gcc-7,
#           .../bin/aarch64-linux-gnu-gcc-7; a stamp file per target makes a
#           second run instant.  No libstdc++: C++ tests use no std headers.
#
# Exit status 2 (and a message) when no source tarball is there: the suite
# reports the GCC 7 runs as UNSUPPORTED then, not failed.
# Debug: the build logs stay in $PFE_GCC7_PREFIX/build-TARGET.log; rerun with
# "sh -x"; delete the stamp (.done-TARGET) to rebuild.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd -P)
PREFIX=${PFE_GCC7_PREFIX:-/var/lib/pfe/gcc-7}
SRC=${PFE_GCC7_SRC:-$top/../shared/toolchains/gcc-7.5.0-c.tar.xz}
JOBS=${PFE_JOBS:-$(nproc)}
say() { printf 'build-gcc7: %s\n' "$*"; }

# Flags every configure gets (a C compiler with the C++ front end, plugins,
# nothing the suite does not use).  GCC 7 is C++98 code: newer g++ default to
# C++17, which it does not compile under.
COMMON="--disable-bootstrap --enable-languages=c,c++ --enable-plugin
 --disable-multilib --enable-lto --disable-nls --disable-decimal-float
 --disable-libssp --disable-libquadmath --disable-libgomp --disable-libatomic
 --disable-libitm --disable-libsanitizer --disable-libvtv --disable-libcilkrts
 --disable-libmpx --with-system-zlib --program-suffix=-7"

unpack() {
	[ -d "$PREFIX/src/gcc-7.5.0" ] && return 0
	[ -f "$SRC" ] || { say "no GCC 7.5 sources at $SRC (set PFE_GCC7_SRC)"; exit 2; }
	sums=$(dirname "$SRC")/SHA256SUMS
	if [ -f "$sums" ] && grep -q "$(basename "$SRC")" "$sums"; then
		(cd "$(dirname "$SRC")" && grep "$(basename "$SRC")" SHA256SUMS | sha256sum -c --quiet) ||
			{ say "$SRC: checksum mismatch"; exit 1; }
	fi
	say "unpacking $SRC"
	mkdir -p "$PREFIX/src"
	tar xJf "$SRC" -C "$PREFIX/src"
}

# A sysroot made of links to Debian's cross libc: the driver then finds the
# aarch64 crt files, libc and headers, never the host's.
aarch64_sysroot() {
	root=$PREFIX/aarch64-sysroot
	mkdir -p "$root/usr"
	for d in include lib lib64; do
		[ -e "$root/$d" ] || ln -s /usr/aarch64-linux-gnu/${d%64} "$root/$d"
	done
	[ -e "$root/usr/aarch64-linux-gnu" ] || ln -s /usr/aarch64-linux-gnu "$root/usr/aarch64-linux-gnu"
	echo "$root"
}

# The stamp of TARGET's build: it names what the build has (a build from
# before LTO is redone).
stamp() { echo "$PREFIX/.done-$1-lto"; }

# build TARGET CONFIGURE-ARGS... (the sources unpacked; the caller has
# seen that TARGET has no stamp)
build() {
	t=$1
	shift
	log=$PREFIX/build-$t.log
	obj=$PREFIX/obj-$t
	rm -rf "$obj"
	mkdir -p "$obj"
	say "building GCC 7.5 ($t) into $PREFIX, log $log (6 to 15 minutes)"
	# -O1: on a new machine these builds are most of make check's
	# installs; at -O1 one took 6.3 minutes instead of 7.2 on 2 cores,
	# and the compiler compiles sqlite3.c at -O2 in 24.6 s instead of
	# 21.3 (2026-11-29): a minute a build saved, seconds lost a run.
	# shellcheck disable=SC2086
	(cd "$obj" &&
		CC=gcc-12 CXX="g++-12 -std=gnu++98" CFLAGS="-O1 -g0" CXXFLAGS="-O1 -g0" \
		"$PREFIX/src/gcc-7.5.0/configure" --prefix="$PREFIX" $COMMON "$@" &&
		make -j"$JOBS" all-gcc all-lto-plugin all-target-libgcc &&
		flock "$PREFIX/.install-lock" make install-gcc install-lto-plugin install-target-libgcc) >"$log" 2>&1 ||
		{ say "GCC 7.5 ($t) build failed; last lines of $log:"; tail -30 "$log"; exit 1; }
	rm -rf "$obj"
	touch "$(stamp "$t")"
}

build_target() {
	case $1 in
	x86_64) build x86_64 ;;
	aarch64)
		build aarch64 --target=aarch64-linux-gnu \
			--with-sysroot="$(aarch64_sysroot)" --with-native-system-header-dir=/include \
			--with-as=/usr/bin/aarch64-linux-gnu-as --with-ld=/usr/bin/aarch64-linux-gnu-ld \
			--program-prefix=aarch64-linux-gnu- ;;
	esac
}

targets=${*:-x86_64 aarch64}
# One build at a time: install-deps.sh runs this in the background, and an
# install started meanwhile must wait for it, then find its stamps.
mkdir -p "$PREFIX"
exec 9> "$PREFIX/.build-lock"
flock 9
missing=
for t in $targets; do
	case $t in
	x86_64 | aarch64) [ -f "$(stamp "$t")" ] || missing="$missing $t" ;;
	*) say "unknown target $t (x86_64, aarch64)"; exit 1 ;;
	esac
done
# The targets side by side: each build leaves a core idle for minutes
# (configure steps, links), which the other fills: both in 10m00s on 2
# cores, one after the other 11m37s (2026-11-29).  Their installs into
# the one prefix take turns (the lock above).
if [ -n "$missing" ]; then
	unpack
	pids=
	for t in $missing; do
		build_target "$t" &
		pids="$pids $!"
	done
	status=0
	for p in $pids; do wait "$p" || status=1; done
	[ "$status" = 0 ] || exit 1
fi
say "GCC 7.5 ready in $PREFIX/bin"
