# ralab - one Makefile, quiet by default (V=1 shows commands).
#
#   make            libralab.a and ./ralab
#   make check      every test, with -Werror, then again under ASan+UBSan
#   make bench      benchmarks (speed, instructions per read, memory)
#   make fuzz       build the libFuzzer targets (clang)
#   make format     clang-format the sources

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes \
	   -Wmissing-prototypes -Wwrite-strings -Wpointer-arith -Wformat=2 \
	   -Wundef -Wvla -Wno-unused-parameter
override CFLAGS += $(WARN) -Iinclude -Isrc -MMD -MP
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	   -fno-omit-frame-pointer

O       ?= build
LIB_SRC := $(wildcard src/*.c src/*/*.c)
CLI_SRC := $(wildcard cli/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(O)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(O)/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)
EX_SRC  := $(wildcard examples/*.c)
EX_BIN  := $(EX_SRC:examples/%.c=$(O)/examples/%)

ifeq ($(V),1)
Q :=
else
Q := @
endif

all: ralab libralab.a examples

ralab: $(O)/ralab
	$(Q)cp $< $@

$(O)/libralab.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

libralab.a: $(O)/libralab.a
	$(Q)cp $< $@

$(O)/ralab: $(CLI_OBJ) $(O)/libralab.a
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(O)/tests/%: tests/unit/%.c $(O)/libralab.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(O)/libralab.a -lm

units: $(UNIT_BIN)

# Programs on the public API alone (include/ralab.h, no -Isrc).  With
# liburing (liburing-dev) direct-cache reads through io_uring, without it
# through preads.
HAVE_LIBURING := $(shell printf '\043include <liburing.h>\n' | \
	$(CC) -E -x c - >/dev/null 2>&1 && echo 1)
EX_CFLAGS := $(if $(HAVE_LIBURING),-DHAVE_LIBURING)
EX_LIBS := $(if $(HAVE_LIBURING),-luring)
$(O)/examples/%: examples/%.c $(O)/libralab.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(filter-out -Isrc,$(CFLAGS)) $(EX_CFLAGS) $(LDFLAGS) -o $@ $< \
		$(O)/libralab.a $(EX_LIBS) -lm

examples: $(EX_BIN)

# The test suite: unit tests, then the scripted tests against the CLI.
# Its two builds use every CPU unless make was given -j already.
CHECK_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))
check:
	$(Q)$(MAKE) --no-print-directory $(CHECK_J) O=build/check CFLAGS="-O2 -g -Werror" \
		build/check/ralab units examples
	$(Q)tests/run.sh build/check
	$(Q)$(MAKE) --no-print-directory $(CHECK_J) O=build/san \
		CFLAGS="-O1 -g -Werror $(SAN)" LDFLAGS="$(SAN)" build/san/ralab units examples
	$(Q)RALAB_SANITIZED=1 tests/run.sh build/san

$(O)/bench/bench: bench/bench.c $(O)/libralab.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(O)/libralab.a -lm

bench: $(O)/ralab $(O)/bench/bench
	$(Q)bench/run.sh $(O)/ralab $(O)/bench/bench

fuzz:
	$(Q)$(MAKE) --no-print-directory O=build/fuzz CC=clang \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" \
		build/fuzz/libralab.a
	@echo "  CC      fuzz/fuzz_ops.c"
	$(Q)clang -O1 -g -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
		-o build/fuzz/fuzz_ops fuzz/fuzz_ops.c build/fuzz/libralab.a -lm
	@echo "  CC      fuzz/fuzz_api.c"
	$(Q)clang -O1 -g -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
		-o build/fuzz/fuzz_api fuzz/fuzz_api.c build/fuzz/libralab.a -lm
	$(Q)for f in fio fiocmd strace iolog rawlog; do \
		echo "  CC      fuzz/fuzz_formats.c ($$f)"; \
		clang -O1 -g -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
			-DFUZZ_$$(echo $$f | tr a-z A-Z) -o build/fuzz/fuzz_$$f \
			fuzz/fuzz_formats.c build/fuzz/libralab.a -lm || exit 1; \
	done

format:
	$(Q)clang-format -i $(LIB_SRC) $(CLI_SRC) $(wildcard src/*.h src/*/*.h include/*.h cli/*.h)

clean:
	$(Q)rm -rf build ralab libralab.a

.PHONY: all check bench fuzz format clean units examples libralab.a
.DELETE_ON_ERROR:

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
