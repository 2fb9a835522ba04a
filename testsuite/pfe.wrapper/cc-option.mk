# cc-option.mk: the shape of Kbuild's compiler probe (scripts/Makefile.compiler
# in Linux: try-run runs a command and picks one of two results, cc-option
# compiles an empty file with -Werror and the flag), as wrapper.exp runs it:
#     make -s -f cc-option.mk CC="pfe-cc gcc-7" FLAG=-fpatchable-function-entry=2
# prints "cc-option: FLAG" when CC accepts FLAG, "cc-option:" when not.
TMPOUT ?= ./
try-run = $(shell set -e; TMP=$(TMPOUT).tmp_$$$$; \
	if ($(1)) >/dev/null 2>&1; then echo "$(2)"; else echo "$(3)"; fi; rm -f "$$TMP")
cc-option = $(call try-run,$(CC) -Werror $(1) -c -x c /dev/null -o "$$TMP",$(1),$(2))

probe:
	@echo "cc-option: $(call cc-option,$(FLAG))"
