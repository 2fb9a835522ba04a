# pfe-scan/pfe-scan.mk: build, fuzz, bench and install pfe-scan.
# Included by the top Makefile; paths are relative to the top of the tree.
# pfe-scan links arch-hooks/' plain-C layer (ARCH_PLAIN_SRCS, the top
# Makefile): every target's facts and the reader of an entry's layout
# (layout.c), which it shares with the run-time library and the tests.
#   make build/pfe-scan        the tool (HOSTCC, libelf)
#   make fuzz                  build/pfe-scan-fuzz (clang + libFuzzer)
#   make fuzz-run FUZZ_TIME=60 bounded fuzz run from seeds built here
#   make install-scan          $(DESTDIR)$(PREFIX)/bin/pfe-scan
# Debug build: make build/pfe-scan SCAN_CFLAGS='-O0 -g'
HOSTCC ?= gcc
PREFIX ?= /usr/local
DESTDIR ?=
SCAN_CFLAGS ?= -O2
FUZZ_CC ?= clang-16
FUZZ_TIME ?= 60
FUZZ_RUNS ?= -1
# Compilers whose output seeds the fuzzer (those missing are skipped).
FUZZ_SEED_CCS ?= gcc gcc@-m32 aarch64-linux-gnu-gcc-12 riscv64-linux-gnu-gcc-12

SCAN_LIB_SRCS := pfe-scan/pfe-scan-elf.c pfe-scan/pfe-scan-site.c pfe-scan/pfe-scan-cfi.c \
	pfe-scan/pfe-scan-list.c pfe-scan/pfe-scan-verify.c pfe-scan/pfe-scan-collect.c \
	pfe-scan/pfe-scan-sort.c pfe-scan/pfe-scan-traps.c $(ARCH_PLAIN_SRCS)
SCAN_HDRS := pfe-scan/pfe-scan.h $(ARCH_PLAIN_HDRS)

build/pfe-scan: pfe-scan/pfe-scan.c $(SCAN_LIB_SRCS) $(SCAN_HDRS)
	@mkdir -p build
	$(HOSTCC) -std=c11 $(SCAN_CFLAGS) -Wall -Wextra -Werror -Iarch-hooks -o $@ pfe-scan/pfe-scan.c $(SCAN_LIB_SRCS) -lelf

build/pfe-scan-fuzz: pfe-scan/pfe-scan-fuzz.c $(SCAN_LIB_SRCS) $(SCAN_HDRS)
	@mkdir -p build
	$(FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -Iarch-hooks -o $@ pfe-scan/pfe-scan-fuzz.c $(SCAN_LIB_SRCS) -lelf

# Seeds: objects, a shared object (RELATIVE relocations) and a static
# executable per compiler, from the testsuite's C source; Clang's kCFI
# objects (hashes before the entries).
build/fuzz-seeds/.stamp: testsuite/pfe.scan/scan-basic.c
	@mkdir -p build/fuzz-seeds build/fuzz-corpus
	@for cc in $(FUZZ_SEED_CCS); do \
		c=$$(echo $$cc | tr @ ' '); n=$$(echo $$cc | tr -c 'a-z0-9\n' _); \
		$$c -O2 -fpatchable-function-entry=3,1 -c $< -o build/fuzz-seeds/$$n.o 2>/dev/null || continue; \
		$$c -O2 -fpatchable-function-entry=2 -fPIC -shared -nostdlib $< -o build/fuzz-seeds/$$n.so 2>/dev/null; \
		$$c -O2 -fpatchable-function-entry=2 -static -nostdlib -Wl,-e,0 $< -o build/fuzz-seeds/$$n.x 2>/dev/null; \
	done; true
	@for t in x86_64-linux-gnu aarch64-linux-gnu; do \
		$(FUZZ_CC) --target=$$t -O2 -fsanitize=kcfi -fpatchable-function-entry=4,2 -c $< \
			-o build/fuzz-seeds/kcfi_$$t.o 2>/dev/null; \
	done; true
	@touch $@

.PHONY: fuzz fuzz-run install-scan
fuzz: build/pfe-scan-fuzz

# Exit status is libFuzzer's: non-zero if it found a crash (saved as
# build/fuzz-crash-*).  FUZZ_RUNS=N bounds executions instead of time.
fuzz-run: build/pfe-scan-fuzz build/fuzz-seeds/.stamp
	build/pfe-scan-fuzz -max_total_time=$(FUZZ_TIME) -runs=$(FUZZ_RUNS) -max_len=65536 \
		-artifact_prefix=build/fuzz- -print_final_stats=1 build/fuzz-corpus build/fuzz-seeds

install-scan: build/pfe-scan
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 build/pfe-scan $(DESTDIR)$(PREFIX)/bin/pfe-scan
