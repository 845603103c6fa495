# demoplay -- one Makefile. `make` builds ./demoplay; `make test` runs every test
# twice: once plain, once under AddressSanitizer + UndefinedBehaviorSanitizer.
# Sources are found by folder, so a new .c file needs no edit here.

CC      ?= cc
PKGS    := sdl2 openal zlib stb libpng
CSTD    := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter
CFLAGS  ?= -O2 -g
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS  = $(CSTD) $(WARN) $(CFLAGS) $(PKG_CFLAGS) -pthread -I. -MMD -MP
LIBS        = $(PKG_LIBS) -pthread -lm

SRC      := $(wildcard engine/*.c formats/*.c assets/*.c render/*.c audio/*.c)
MAIN_SRC := engine/main.c
LIB_SRC  := $(filter-out $(MAIN_SRC),$(SRC))
TEST_SRC := $(wildcard tests/test_*.c)
TEST_LIB := tests/testutil.c

# The built-in content generator (assets/builtin/): run at build time, writes build/builtin/id1/
GEN_SRC  := $(wildcard assets/builtin/*.c)
GEN_OBJ  := $(GEN_SRC:%.c=build/rel/%.o)
BUILTIN  := build/builtin/id1/demos/builtin.dem

SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# build/rel: the release build; build/san: the sanitizer build
REL_OBJ  := $(LIB_SRC:%.c=build/rel/%.o)
SAN_OBJ  := $(LIB_SRC:%.c=build/san/%.o)
REL_TESTS := $(TEST_SRC:tests/%.c=build/rel/tests/%)
SAN_TESTS := $(TEST_SRC:tests/%.c=build/san/tests/%)

# build/pentium: `make pentium`, the original hardware class: 32-bit, Pentium instructions only
# (no MMX, no SSE: floats on the x87), the headless commands (timedemo, shot, info, dump,
# compile) with no SDL, OpenAL, libpng or threads; headless/ holds the two files only it
# compiles (a silent snd.h, stb compiled in). zlib and cmocka are Debian's i386 libraries
# (tools/deps.sh pentium), linked by file name: their headers come from the 64-bit -dev packages.
P_ARCH    := -m32 -march=pentium -mno-mmx -mno-sse -mno-sse2 -mfpmath=387
P_EXCL    := $(MAIN_SRC) engine/cmd_play.c engine/cmd_export.c engine/encode.c engine/shelf.c $(wildcard audio/*.c)
P_SRC     := $(filter-out $(P_EXCL),$(SRC)) headless/snd_none.c headless/stb_impl.c
P_OBJ     := $(P_SRC:%.c=build/pentium/%.o)
P_CFLAGS   = $(CSTD) $(WARN) $(CFLAGS) $(P_ARCH) -DDEMOPLAY_HEADLESS -I/usr/include/stb -I. -MMD -MP
P_LIBS    := -l:libz.so.1 -lm
# The test programs of sound, the encoder, the window's shelf and export's joins are left out; tests that drive play or export
# skip themselves there (TU_REQUIRE_FULL_BUILD in tests/testutil.h).
P_TEST_EXCL := test_audio test_encode test_ui test_export_join test_goldsrc_bounce test_goldsrc_impact test_cs_shells
P_TESTS   := $(filter-out $(P_TEST_EXCL:%=build/pentium/tests/%),$(TEST_SRC:tests/%.c=build/pentium/tests/%))

.PHONY: all deps builtin test test-rel test-san run bench fidelity fuzz clean check-warnings pentium pentium-test

all: demoplay $(BUILTIN)

deps:
	@sh tools/deps.sh

demoplay: $(REL_OBJ) build/rel/engine/main.o
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

build/rel/mkbuiltin: $(GEN_OBJ) $(REL_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

# Written to a temporary folder first, so an interrupted run leaves no half game folder.
# MKBUILTIN: make pentium's own, built without SDL (its output is the same bytes).
MKBUILTIN ?= build/rel/mkbuiltin
$(BUILTIN): $(MKBUILTIN)
	@echo "GEN     build/builtin"
	@rm -rf build/builtin.tmp && $(MKBUILTIN) build/builtin.tmp && rm -rf build/builtin && mv build/builtin.tmp build/builtin

builtin: $(BUILTIN)

build/san/demoplay: $(SAN_OBJ) build/san/engine/main.o
	$(CC) $(SAN_FLAGS) -o $@ $^ $(LIBS)

build/rel/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "CC      $<"
	@$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/san/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "CC san  $<"
	@$(CC) $(CSTD) $(WARN) $(SAN_FLAGS) $(PKG_CFLAGS) -I. -MMD -MP -c -o $@ $<

build/rel/tests/%: tests/%.c $(TEST_LIB) $(REL_OBJ)
	@mkdir -p $(dir $@)
	@echo "TEST    $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(TEST_LIB) $(REL_OBJ) $(LIBS) -lcmocka

build/san/tests/%: tests/%.c $(TEST_LIB) $(SAN_OBJ)
	@mkdir -p $(dir $@)
	@echo "TEST san $@"
	@$(CC) $(CSTD) $(WARN) $(SAN_FLAGS) $(PKG_CFLAGS) -I. -o $@ $< $(TEST_LIB) $(SAN_OBJ) $(LIBS) -lcmocka

# Each test binary runs with DEMOPLAY_BIN pointing at the matching demoplay build.
# As for run: deps first, then new makes that see what deps installed.
test:
	@sh tools/deps.sh test
	@$(MAKE) --no-print-directory test-rel
	@$(MAKE) --no-print-directory test-san
	@$(MAKE) --no-print-directory pentium

test-rel: demoplay $(BUILTIN) $(REL_TESTS) build/xdnd_drop
	@sh tools/run_tests.sh rel ./demoplay $(REL_TESTS)

test-san: build/san/demoplay $(BUILTIN) $(SAN_TESTS) build/xdnd_drop
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  sh tools/run_tests.sh san ./build/san/demoplay $(SAN_TESTS)

build/pentium/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "CC 32   $<"
	@$(CC) $(P_CFLAGS) -c -o $@ $<

build/pentium/demoplay: $(P_OBJ) build/pentium/engine/main.o
	@echo "LD 32   $@"
	@$(CC) $(CFLAGS) -m32 -o $@ $^ $(P_LIBS)

# The built-in content is made by a build-machine program (native, headless, no SDL either):
# a generator built for the x87 rounds its floats otherwise and writes a different demo.
build/pentium/host/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "CC host $<"
	@$(CC) $(CSTD) $(WARN) $(CFLAGS) -DDEMOPLAY_HEADLESS -I/usr/include/stb -I. -MMD -MP -c -o $@ $<

build/pentium/host/mkbuiltin: $(GEN_SRC:%.c=build/pentium/host/%.o) $(P_SRC:%.c=build/pentium/host/%.o)
	@$(CC) $(CFLAGS) -o $@ $^ -lz -lm

build/pentium/tests/%: tests/%.c $(TEST_LIB) $(P_OBJ)
	@mkdir -p $(dir $@)
	@echo "TEST 32 $@"
	@$(CC) $(P_CFLAGS) -o $@ $< $(TEST_LIB) $(P_OBJ) $(P_LIBS) -l:libcmocka.so.0

# deps first, then a new make (as for test).
pentium:
	@sh tools/deps.sh pentium
	@$(MAKE) --no-print-directory MKBUILTIN=build/pentium/host/mkbuiltin pentium-test

# Nothing newer than the Pentium in the binary: objdump finds no MMX/SSE register and none of
# the P6's cmov/fcomi.
pentium-test: build/pentium/demoplay $(BUILTIN) $(P_TESTS)
	@n=$$(objdump -d build/pentium/demoplay | grep -cE '%x?mm[0-9]|\scmov|\sfu?comip?\s'); \
	  echo "pentium: $$n MMX/SSE/P6 instructions in build/pentium/demoplay (objdump)"; [ $$n -eq 0 ]
	@sh tools/run_tests.sh pentium ./build/pentium/demoplay $(P_TESTS)

# deps first, then a new make: its pkg-config flags see the packages deps just installed.
run: deps
	@$(MAKE) --no-print-directory demoplay $(BUILTIN)
	@sh tools/run.sh

# tests/play_xvfb.sh drops a file on the window with it (XDND: xdotool cannot drag files)
build/xdnd_drop: tools/xdnd_drop.c
	@mkdir -p build
	@echo "CC      $@"
	@$(CC) -std=c11 -D_DEFAULT_SOURCE -O1 -Wall -Wextra -o $@ $< -lX11

build/rel/bench_decode: tools/bench_decode.c $(REL_OBJ)
	@echo "BENCH   $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(REL_OBJ) $(LIBS)

build/rel/bench_seek: tools/bench_seek.c $(REL_OBJ)
	@echo "BENCH   $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(REL_OBJ) $(LIBS)

build/rel/bench_bands: tools/bench_bands.c $(REL_OBJ)
	@echo "BENCH   $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $< $(REL_OBJ) $(LIBS)

bench: demoplay $(BUILTIN) build/rel/bench_decode build/rel/bench_seek build/rel/bench_bands
	@sh tools/bench.sh

# The table of ../shared/tools/fidelity.py over every reference folder (frames drawn
# by the games' own software renderers); Quake's must be >= 40 dB and >= 98 % identical,
# Quake II's at or above each demo's floor (tools/fidelity.sh).
fidelity: demoplay
	@sh tools/fidelity.sh --check

# libFuzzer harnesses for every decoder and loader (clang); FUZZ_SECONDS=60 each by default.
fuzz:
	@sh tools/fuzz.sh

# Both compilers, warnings as errors: what "warning-free" means here (the fuzz harnesses too, with clang).
check-warnings:
	@for c in gcc clang; do echo "== $$c"; $(MAKE) --no-print-directory clean >/dev/null; \
	  $(MAKE) --no-print-directory CC=$$c CFLAGS="-O2 -Werror" demoplay build/rel/mkbuiltin $(REL_TESTS) || exit 1; done; \
	sh tools/fuzz.sh --syntax

clean:
	rm -rf build demoplay

-include $(shell find build -name '*.d' 2>/dev/null)
