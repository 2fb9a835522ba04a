# pfe: patchable function entries for any GCC, as a plugin.
#
#   make [CC=gcc-N] [LEGACY=1]   build build/<basename of CC>[-legacy]/pfe.so
#                                and build/pfe-scan (make plugin: pfe.so only)
#   make install [CC=...]        pfe.so to $(CC -print-file-name=plugin),
#                                pfe-scan and pfe-cc to $(PREFIX)/bin
#   make demo                    install deps, build, show the plugin at work
#   make check                   install deps, run the DejaGnu matrix
#   make check-mutants           the suite catches every bug of testsuite/mutants
#   make check-kernel            an arm64 kernel built with pfe boots and traces
#   make bench                   compile-time ratios (sqlite3.c)
#
# The plugin is compiled by the host C++ compiler that matches CC
# (g++-N for gcc-N, else g++) against CC's plugin headers.  V=1 echoes.

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
PLUGIN_DIR := $(shell $(CC) -print-file-name=plugin)
GCC_TARGET := $(shell $(CC) -dumpmachine)
GCC_MAJOR := $(shell $(CC) -dumpversion | cut -d. -f1)
HOST_ARCH := $(shell uname -m)
PLUGIN_CXX ?= $(if $(and $(filter $(HOST_ARCH)-%,$(GCC_TARGET)),$(shell command -v g++-$(GCC_MAJOR))),g++-$(GCC_MAJOR),g++)

# arch-hooks/ has one file per GCC back end (config/<backend> in GCC).
ARCH_BACKEND := $(strip \
	$(if $(filter x86_64-% i%86-%,$(GCC_TARGET)),i386) \
	$(if $(filter aarch64-%,$(GCC_TARGET)),aarch64) \
	$(if $(filter riscv%,$(GCC_TARGET)),riscv))
ARCH_SRC := arch-hooks/$(ARCH_BACKEND).c

PLUGIN_SRCS := gcc-plugin/pfe.c gcc-plugin/plan.c gcc-plugin/emit.c \
	gcc-plugin/kcfi.c gcc-plugin/kcfi-hash.c $(ARCH_SRC)
PLUGIN_HDRS := gcc-plugin/pfe.h gcc-plugin/gcc-compat.h
PLUGIN_CXXFLAGS := -x c++ -fPIC -shared -O2 -fno-rtti -fno-exceptions \
	-Wall -Wextra -Werror -Wno-unused-parameter \
	-I$(PLUGIN_DIR)/include -Igcc-plugin/shim $(if $(LEGACY_ON),-DPFE_LEGACY)

Q := $(if $(V),,@)

all: plugin build/pfe-scan

plugin: $(BUILD)/pfe.so

$(BUILD)/pfe.so: $(PLUGIN_SRCS) $(PLUGIN_HDRS) Makefile
	$(if $(ARCH_BACKEND),,$(error pfe: no arch-hooks for target $(GCC_TARGET)))
	@mkdir -p $(BUILD)
	@echo "  CXX  $@  ($(PLUGIN_CXX), $(GCC_TARGET) GCC $(GCC_MAJOR)$(if $(LEGACY_ON), legacy))"
	$(Q)$(PLUGIN_CXX) $(PLUGIN_CXXFLAGS) -o $@.$$$$ $(PLUGIN_SRCS) && mv -f $@.$$$$ $@

# The same plugin, saying it was built for GCC 0.0.0-pfe-test: pfe.errors
# loads it to see the version error (a plugin of another installed GCC
# would not even load: its C++ symbols differ).
$(BUILD)/wrong-version/pfe.so: $(PLUGIN_SRCS) $(PLUGIN_HDRS) Makefile
	@mkdir -p $(BUILD)/wrong-version
	$(Q)h=$(BUILD)/wrong-version/plugin-version.h; \
	sed 's/^static char basever\[\] = ".*";/static char basever[] = "0.0.0-pfe-test";/' \
		$(PLUGIN_DIR)/include/plugin-version.h > $$h.$$$$ && \
	grep -q '"0.0.0-pfe-test"' $$h.$$$$ && mv -f $$h.$$$$ $$h
	$(Q)$(PLUGIN_CXX) $(PLUGIN_CXXFLAGS) -iquote $(BUILD)/wrong-version -o $@.$$$$ $(PLUGIN_SRCS) && mv -f $@.$$$$ $@

wrong-version-plugin: $(BUILD)/wrong-version/pfe.so

install: $(BUILD)/pfe.so install-scan
	install -m 0755 $(BUILD)/pfe.so $(PLUGIN_DIR)/pfe.so
	install -m 0755 scripts/pfe-cc $(DESTDIR)$(PREFIX)/bin/pfe-cc

deps:
	sh scripts/install-deps.sh

demo:
	sh scripts/install-deps.sh host
	$(MAKE) -s all
	sh scripts/demo.sh $(CURDIR)/$(BUILD)/pfe.so $(CC)

check: deps
	$(MAKE) -s build/pfe-scan build/pfe-scan-fuzz
	sh scripts/check-matrix.sh

# Realistic bugs (testsuite/mutants) the suite must catch; about 15 minutes.
check-mutants: deps
	$(MAKE) -s build/pfe-scan
	sh scripts/check-mutants.sh

# GCC's own tests of the feature (Debian's gcc-14-source) through pfe-cc, on
# gcc-12 (and natively, to compare), GCC 7.5 and gcc-16; under a minute.
check-gcc: deps
	sh scripts/check-gcc.sh

# The arm64 kernel twice: GCC 12 with CC_FLAGS_FTRACE set to the plugin, and
# GCC 7.5 through pfe-cc with Kbuild unmodified.
GCC7_AARCH64 := /var/lib/pfe/gcc-7/bin/aarch64-linux-gnu-gcc-7
check-kernel:
	sh scripts/install-deps.sh kernel
	sh scripts/install-deps.sh toolchains
	sh scripts/check-kernel.sh
	KERNEL_CC=$(GCC7_AARCH64) NATIVE_CC=aarch64-linux-gnu-gcc KERNEL_PFE=wrapper \
		sh scripts/check-kernel.sh

bench: deps all build/pfe-scan
	sh scripts/bench.sh $(CC) $(CURDIR)/$(BUILD)/pfe.so

clean:
	rm -rf build

include scripts/pfe-scan.mk

.PHONY: all plugin wrong-version-plugin install deps demo check check-mutants check-kernel check-gcc bench clean
