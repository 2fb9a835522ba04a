# pfe: patchable function entries for any GCC, as a plugin.
#
#   make [CC=gcc-N] [LEGACY=1]   build build/<basename of CC>[-legacy]/pfe.so
#                                and build/pfe-scan (make plugin: pfe.so only)
#   make install [CC=...]        pfe.so to $(CC -print-file-name=plugin),
#                                pfe-scan and pfe-cc to $(PREFIX)/bin
#   make demo                    install deps, build, show the plugin at work
#   make check                   install deps, run the DejaGnu matrix (within
#                                80 minutes, installs included)
#   make check-full              the same, every run with the whole suite
#   make check-mutants           the suite catches every bug of testsuite/mutants
#   make check-null              gcc-12's suite with a plugin that does nothing
#                                passes only testsuite/null-plugin-passes
#   make check-kernel            arm64 and x86_64 kernels built with pfe boot,
#                                trace and check kCFI
#   make check-packages          Debian packages built through pfe-cc pass
#                                their own tests as natively (testsuite/packages)
#   make bench                   compile-time ratios (sqlite3.c); libpfe
#                                against LLVM XRay (scripts/bench-runtime.sh);
#                                pfe-trace record against uftrace and XRay
#                                (scripts/bench-trace.sh)
#   make layouts-table           the layouts of pfe, GCC 16 and Clang 21, each
#                                cell measured (testsuite/layouts-table.md)
#   make runtime [CC=...]        build/<CC>-runtime/libpfe.a, libpfe.so,
#                                libpfe-trace.so (runtime/, scripts/pfe-trace)
#                                for CC's target (x86_64, aarch64, riscv64);
#                                build/pfe-trace-read, its record reader
#
# The plugin is compiled by the host C++ compiler that matches CC
# (g++-N for gcc-N if it works, else g++; PLUGIN_CXX= to choose) against
# CC's plugin headers.  V=1 echoes.

# make's built-in default CC is cc: pfe's is gcc.
ifeq ($(origin CC),default)
CC := gcc
endif
PREFIX ?= /usr/local
CC_NAME := $(notdir $(firstword $(CC)))
# LEGACY=1 builds the GCC 4.9-7 code paths; LEGACY=0 or none, the normal.
ifneq ($(filter-out 0 1,$(LEGACY)),)
$(error LEGACY=$(LEGACY): use LEGACY=1 (GCC 4.9-7 code paths) or LEGACY=0)
endif
LEGACY_ON := $(filter 1,$(LEGACY))
BUILD := build/$(CC_NAME)$(if $(LEGACY_ON),-legacy)
# Quiet when CC does not run: on a new machine make demo and make check
# install it first (the build says so if it still does not).
PLUGIN_DIR := $(shell $(CC) -print-file-name=plugin 2>/dev/null)
GCC_TARGET := $(shell $(CC) -dumpmachine 2>/dev/null)
GCC_MAJOR := $(shell $(CC) -dumpversion 2>/dev/null | cut -d. -f1)
HOST_ARCH := $(shell uname -m)
# The plugin's C++ compiler: the first of g++-N (CC's version, for the
# host) and g++ that compiles C++ with its library's headers (GCC 7.5 as
# scripts/build-gcc7.sh builds it has a g++-7 but no libstdc++ headers);
# PLUGIN_CXX= chooses another.
cxx_works = $(shell $(1) -x c++ -fsyntax-only -include new -include string /dev/null \
	> /dev/null 2>&1 && echo $(1))
ifndef PLUGIN_CXX
PLUGIN_CXX := $(firstword $(foreach c,$(if $(filter $(HOST_ARCH)-%,$(GCC_TARGET)),g++-$(GCC_MAJOR)) g++,$(call cxx_works,$(c))))
endif

# arch-hooks/<target>/ has two layers: gcc.c, the plugin's hooks for one
# GCC back end (config/i386 serves x86), and bytes.c, the plain-C facts
# (arch-hooks/arch.h) pfe-scan, libpfe and the tests use, every target's.
# arch-hooks/*.c (arch.c, layout.c, the reader of an entry's layout) are
# plain C on those facts, no target's own: the plain-C layer with bytes.c.
ARCH_BACKEND := $(strip \
	$(if $(filter x86_64-% i%86-%,$(GCC_TARGET)),x86) \
	$(if $(filter aarch64-%,$(GCC_TARGET)),aarch64) \
	$(if $(filter riscv%,$(GCC_TARGET)),riscv))
ARCH_SRC := $(if $(ARCH_BACKEND),arch-hooks/$(ARCH_BACKEND)/gcc.c)
ARCH_PLAIN_SRCS := $(sort $(wildcard arch-hooks/*.c)) $(sort $(wildcard arch-hooks/*/bytes.c))
ARCH_PLAIN_HDRS := $(wildcard arch-hooks/*.h arch-hooks/*/*.h)

PLUGIN_SRCS := gcc-plugin/pfe.c gcc-plugin/plan.c gcc-plugin/emit.c \
	gcc-plugin/kcfi.c gcc-plugin/kcfi-hash.c gcc-plugin/lto.c $(ARCH_SRC)
PLUGIN_HDRS := gcc-plugin/pfe.h gcc-plugin/gcc-compat.h arch-hooks/names.h $(wildcard arch-hooks/*/*.h)
PLUGIN_CXXFLAGS := -x c++ -fPIC -shared -O2 -fno-rtti -fno-exceptions \
	-Wall -Wextra -Werror -Wno-unused-parameter \
	-I$(PLUGIN_DIR)/include -Igcc-plugin/shim $(if $(LEGACY_ON),-DPFE_LEGACY)

Q := $(if $(V),,@)

all: plugin build/pfe-scan runtime

plugin: $(BUILD)/pfe.so

# Which GCC the plugin is built against: its plugin headers' directory and
# the sum of their plugin-version.h and configargs.h (what
# plugin_default_version_check compares).  The file changes only when they
# do, so a GCC rebuilt or reinstalled under the same name rebuilds the
# plugin, rather than leaving one the new GCC refuses.
GCC_ID := $(PLUGIN_DIR) $(shell cd $(PLUGIN_DIR)/include 2>/dev/null && cat plugin-version.h configargs.h | cksum)
$(BUILD)/gcc-id: FORCE
	@mkdir -p $(BUILD)
	@echo '$(GCC_ID)' | cmp -s - $@ || echo '$(GCC_ID)' > $@

$(BUILD)/pfe.so: $(PLUGIN_SRCS) $(PLUGIN_HDRS) Makefile $(BUILD)/gcc-id
	$(if $(GCC_TARGET),,$(error pfe: CC=$(CC) does not run (make demo or make check installs gcc)))
	$(if $(ARCH_BACKEND),,$(error pfe: no arch-hooks for target $(GCC_TARGET)))
	$(if $(PLUGIN_CXX),,$(error pfe: no C++ compiler builds the plugin for $(CC): neither g++-$(GCC_MAJOR) nor g++ compiles C++ with its headers; set PLUGIN_CXX=))
	@mkdir -p $(BUILD)
	@echo "  CXX  $@  ($(PLUGIN_CXX), $(GCC_TARGET) GCC $(GCC_MAJOR)$(if $(LEGACY_ON), legacy))"
	$(Q)$(PLUGIN_CXX) $(PLUGIN_CXXFLAGS) -o $@.$$$$ $(PLUGIN_SRCS) && mv -f $@.$$$$ $@

# The same plugin, saying it was built by a GCC of the same version with
# the date stamp 00000000-pfe-test (a GCC rebuilt, not upgraded): pfe.errors
# loads it to see the version error name what differs (a plugin of another
# installed GCC would not even load: its C++ symbols differ).
$(BUILD)/wrong-version/pfe.so: $(PLUGIN_SRCS) $(PLUGIN_HDRS) Makefile $(BUILD)/gcc-id
	@mkdir -p $(BUILD)/wrong-version
	$(Q)h=$(BUILD)/wrong-version/plugin-version.h; \
	sed 's/^static char datestamp\[\] = ".*";/static char datestamp[] = "00000000-pfe-test";/' \
		$(PLUGIN_DIR)/include/plugin-version.h > $$h.$$$$ && \
	grep -q '"00000000-pfe-test"' $$h.$$$$ && mv -f $$h.$$$$ $$h
	$(Q)$(PLUGIN_CXX) $(PLUGIN_CXXFLAGS) -iquote $(BUILD)/wrong-version -o $@.$$$$ $(PLUGIN_SRCS) && mv -f $@.$$$$ $@

wrong-version-plugin: $(BUILD)/wrong-version/pfe.so

install: $(BUILD)/pfe.so install-scan install-runtime
	install -m 0755 $(BUILD)/pfe.so $(PLUGIN_DIR)/pfe.so
	install -m 0755 scripts/pfe-cc $(DESTDIR)$(PREFIX)/bin/pfe-cc

# The run-time library (runtime/README.md), for CC's target.  Its code is
# not instrumented; libpfe.a holds it as one object whose code fills whole
# pages (tramp-<target>.S ends it page-aligned), so that patching a
# program's page never makes libpfe's own code non-executable.
RT_TARGET := $(strip \
	$(if $(filter x86_64-%,$(GCC_TARGET)),x86_64) \
	$(if $(filter i386-% i486-% i586-% i686-%,$(GCC_TARGET)),i386) \
	$(if $(filter aarch64-%,$(GCC_TARGET)),aarch64) \
	$(if $(filter riscv64-%,$(GCC_TARGET)),riscv64))
RT_BUILD := build/$(CC_NAME)-runtime
# libpfe's C sources; the suite's build of it (testsuite/pfe.runtime/
# rt-lib.tcl) reads this assignment: one list, in one ":=" here.
RT_SRCS := runtime/object.c runtime/patch.c runtime/dispatch.c runtime/pool.c runtime/unwind.c runtime/api.c \
	runtime/audit.c runtime/signals.c
# What libpfe's shared libraries link with (the suite's build reads this
# too).  -z defs: every symbol they use is found now, not by the loader
# when first called (an atomic exchange of a byte on riscv64 is a call of
# libatomic's __atomic_exchange_1, which killed a process the first time
# a record could not be written).
RT_LDLIBS := -Wl,-z,defs -lpthread -ldl
# pfe-trace's library adds these to libpfe's (read by the suite too).
RT_TRACE_SRCS := runtime/trace.c runtime/trace-record.c
RT_HDRS := runtime/pfe.h runtime/internal.h runtime/tramp-layout.h $(ARCH_PLAIN_HDRS) runtime/trace.h runtime/trace-format.h
RT_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC -fasynchronous-unwind-tables \
	-fno-reorder-functions -fno-reorder-blocks-and-partition
RT_ARCH_OBJS := $(patsubst arch-hooks/%.c,$(RT_BUILD)/arch-hooks/%.o,$(ARCH_PLAIN_SRCS))
RT_OBJS := $(patsubst runtime/%.c,$(RT_BUILD)/%.o,$(RT_SRCS)) $(RT_ARCH_OBJS) \
	$(RT_BUILD)/tramp.o

runtime: $(if $(RT_TARGET),$(RT_BUILD)/libpfe.a $(RT_BUILD)/libpfe.so $(RT_BUILD)/libpfe-trace.so build/pfe-trace-read)

$(RT_BUILD)/%.o: runtime/%.c $(RT_HDRS) Makefile
	@mkdir -p $(RT_BUILD)
	$(Q)$(CC) $(RT_CFLAGS) -c -o $@ $<

# The plain-C layer (the targets' tables, the layout reader) is libpfe's,
# not its interface: hidden.
$(RT_BUILD)/arch-hooks/%.o: arch-hooks/%.c $(ARCH_PLAIN_HDRS) Makefile
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RT_CFLAGS) -fvisibility=hidden -c -o $@ $<

$(RT_BUILD)/tramp.o: runtime/tramp-$(RT_TARGET).S runtime/tramp-layout.h Makefile
	@mkdir -p $(RT_BUILD)
	$(Q)$(CC) -fPIC -c -o $@ $<

$(RT_BUILD)/libpfe.so: $(RT_OBJS)
	@echo "  LD   $@"
	$(Q)$(CC) -shared -o $@ $(RT_OBJS) $(RT_LDLIBS)

# pfe-trace's LD_PRELOAD library: libpfe and runtime/trace*.c in one.
RT_TRACE_OBJS := $(patsubst runtime/%.c,$(RT_BUILD)/%.o,$(RT_TRACE_SRCS))
$(RT_BUILD)/libpfe-trace.so: $(RT_OBJS) $(RT_TRACE_OBJS)
	@echo "  LD   $@"
	$(Q)$(CC) -shared -o $@ $(RT_TRACE_OBJS) $(RT_OBJS) $(RT_LDLIBS)

# pfe-trace's reader of record files: a host tool (they are the same on
# every target).
build/pfe-trace-read: runtime/trace-read.c runtime/trace-format.h Makefile
	@mkdir -p build
	$(HOSTCC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ runtime/trace-read.c

$(RT_BUILD)/libpfe.a: $(RT_OBJS)
	@echo "  AR   $@"
	$(Q)$(CC) -r -nostdlib -o $(RT_BUILD)/libpfe-all.o $(RT_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $(RT_BUILD)/libpfe-all.o

install-runtime: runtime
	$(if $(RT_TARGET),install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin)
	$(if $(RT_TARGET),install -m 0644 $(RT_BUILD)/libpfe.a $(DESTDIR)$(PREFIX)/lib/libpfe.a)
	$(if $(RT_TARGET),install -m 0755 $(RT_BUILD)/libpfe.so $(DESTDIR)$(PREFIX)/lib/libpfe.so)
	$(if $(RT_TARGET),install -m 0755 $(RT_BUILD)/libpfe-trace.so $(DESTDIR)$(PREFIX)/lib/libpfe-trace.so)
	$(if $(RT_TARGET),install -m 0644 runtime/pfe.h $(DESTDIR)$(PREFIX)/include/pfe.h)
	$(if $(RT_TARGET),install -m 0755 scripts/pfe-trace $(DESTDIR)$(PREFIX)/bin/pfe-trace)
	$(if $(RT_TARGET),install -m 0755 build/pfe-trace-read $(DESTDIR)$(PREFIX)/bin/pfe-trace-read)

deps:
	sh scripts/install-deps.sh

demo:
	sh scripts/install-deps.sh host
	$(MAKE) -s all
	sh scripts/demo.sh $(CURDIR)/$(BUILD)/pfe.so $(CC)

# The layouts pfe, GCC 16 and Clang 21 give, measured: testsuite/layouts-table.md.
layouts-table: deps all
	$(MAKE) -s CC=aarch64-linux-gnu-gcc plugin
	sh scripts/layouts-table.sh $(CC) $(CURDIR)/$(BUILD)/pfe.so

# The time budget (check-matrix.sh, PFE_BUDGET) counts from before the installs.
check check-full: export PFE_CHECK_START := $(shell date +%s)
check:
	sh scripts/install-deps.sh
	$(MAKE) -s build/pfe-scan build/pfe-scan-fuzz
	sh scripts/check-matrix.sh standard

# Every run of the matrix with the whole suite and differential test.
check-full:
	sh scripts/install-deps.sh
	sh scripts/install-deps.sh toolchains
	$(MAKE) -s build/pfe-scan build/pfe-scan-fuzz
	sh scripts/check-matrix.sh full

# Realistic bugs (testsuite/mutants) the suite must catch; about 15 minutes.
check-mutants: deps
	$(MAKE) -s build/pfe-scan
	sh scripts/check-mutants.sh

# gcc-12's run of the suite with a plugin that does nothing
# (scripts/null-plugin.c): every test whose purpose is pfe's output fails;
# what may pass, and why, is testsuite/null-plugin-passes.
check-null: deps
	$(MAKE) -s build/pfe-scan
	sh scripts/check-null-plugin.sh

# GCC's own tests of the feature (Debian's gcc-14-source) through pfe-cc, on
# gcc-12 (and natively, to compare), GCC 7.5 and gcc-16; under a minute.
check-gcc: deps
	sh scripts/check-gcc.sh

# The arm64 Linux 6.1 kernel twice: GCC 12 with CC_FLAGS_FTRACE set to the
# plugin, and GCC 7.5 through pfe-cc with Kbuild unmodified; Linux 6.12 with
# CALL_OPS twice: GCC 7.5 through pfe-cc, GCC 12 through pfe-cc --pfe; Linux
# 7.2 with kCFI (CONFIG_CFI), GCC 12 through pfe-cc.
GCC7_AARCH64 := /var/lib/pfe/gcc-7/bin/aarch64-linux-gnu-gcc-7
check-kernel:
	sh scripts/install-deps.sh kernel
	sh scripts/install-deps.sh toolchains
	sh scripts/check-kernel.sh
	KERNEL_CC=$(GCC7_AARCH64) NATIVE_CC=aarch64-linux-gnu-gcc KERNEL_PFE=wrapper \
		sh scripts/check-kernel.sh
	KERNEL_CONFIG=callops KERNEL_CC=$(GCC7_AARCH64) NATIVE_CC=aarch64-linux-gnu-gcc \
		KERNEL_PFE=wrapper sh scripts/check-kernel.sh
	KERNEL_CONFIG=callops KERNEL_PFE=forced sh scripts/check-kernel.sh
	KERNEL_CONFIG=cfi KERNEL_PFE=wrapper sh scripts/check-kernel.sh
	KERNEL_ARCH=x86_64 KERNEL_CONFIG=cfi KERNEL_PFE=wrapper sh scripts/check-kernel.sh

# Debian bookworm packages (testsuite/packages) built unmodified through
# pfe-cc on GCC 12 and 7.5, x86_64 and aarch64, their own tests as native
# (a: -fpatchable-function-entry=5, b: a garbling fentry hook, c: under
# pfe-trace); build/packages/results.md.  PACKAGES_ARGS= chooses (e.g.
# "-c gcc-12 -t x86_64"); see scripts/check-packages.sh.  An hour or more.
check-packages:
	sh scripts/install-deps.sh packages
	sh scripts/install-deps.sh toolchains
	$(MAKE) -s build/pfe-scan
	sh scripts/check-packages.sh $(PACKAGES_ARGS)

# Each bench runs (and writes its figures) whether or not one before it
# missed a goal; make bench fails after them if one did.
bench: deps all build/pfe-scan
	status=0; \
	sh scripts/bench.sh $(CC) $(CURDIR)/$(BUILD)/pfe.so || status=1; \
	sh scripts/bench-runtime.sh $(CC) $(CURDIR)/$(BUILD)/pfe.so $(CURDIR)/$(RT_BUILD) || status=1; \
	sh scripts/bench-trace.sh $(CC) $(CURDIR)/$(BUILD)/pfe.so $(CURDIR)/$(RT_BUILD) || status=1; \
	exit $$status

clean:
	rm -rf build

include pfe-scan/pfe-scan.mk

# A prerequisite that is never up to date: its target's recipe always runs
# (and leaves the file alone when nothing changed).
FORCE:

.PHONY: all plugin runtime install-runtime wrong-version-plugin install deps demo check check-full check-mutants check-null check-kernel check-packages check-gcc bench layouts-table clean FORCE
