# leakfind - heap-dump leak finder.
#   make            build build/leakfind
#   make setup      install the Debian packages it needs (when missing), then build
#   make check      every suite once, in two lanes (about 1-2 minutes on 2 cores): unit,
#                   CLI goldens, OCaml agent, conveniences, report, fuzz corpora replay
#   make check-all  what CI runs: check plus the spilled and wide reruns of the goldens,
#                   then all of it again built with -fsanitize=address,undefined (asan)
#   make asan       the check-all tests built with -fsanitize=address,undefined
#   make bench      synthetic and real benchmarks (see BENCHMARKS.md)
#   make bench-scale  on request only (not in bench, not in CI): a synthetic JVM dump of
#                   SCALE million objects (100 default, or 1000: about 46 GB), written
#                   once into bench-data/, then dominators and classes timed (issue 23)
#   make bench-huge on request only: HUGE_SCALE (default 1000) million objects, 4-byte ids,
#                   refused when the disk cannot take the dump and the arrays' files;
#                   dominators --top 10 (MEMORY=: its --memory) sampled and checked (issue 52)
#   make fuzz       libFuzzer campaign, FUZZ_SECONDS per target (clang)

CC      ?= cc
OPT     ?= -O2 -g
# JUDYERROR_NOTEST: Judy's macros return JERR/PJERR, which the code checks,
# instead of printing and exiting inside the library.
STD     := -std=c11 -D_GNU_SOURCE -DJUDYERROR_NOTEST -Wall -Wextra -Werror
CFLAGS  += $(OPT) $(STD) -pthread
LDLIBS  := -lJudy -lxxhash -lz -lm -pthread
# `leakfind serve` only: the HTTP server library (DESIGN 16), loaded with
# dlopen when a server starts (cmd/serve/mhd_lib.c), so not linked
CMD_LDLIBS := -ldl
BUILD   ?= build

LIB_SRC  := $(wildcard graph/*.c core/*/*.c)
CMD_SRC  := $(wildcard cmd/*.c cmd/*/*.c)
UNIT_SRC := $(wildcard tests/unit/*.c)
FUZZ_TARGETS := $(filter-out common,$(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ  := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
DEPS     := $(shell find $(BUILD) -name "*.d" 2>/dev/null)

# Keep object files that only a pattern rule names (fuzz targets).
.SECONDARY:

.PHONY: all setup check check-slow check-all unit cli fuzz-replay asan bench bench-scale bench-huge fuzz clean install FORCE

all: $(BUILD)/leakfind

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# The git revision `leakfind --version` prints. Rewritten only when it changes,
# so a new commit (or a tree turning dirty) rebuilds main.o and nothing else;
# a tree without .git (a tarball) says "unknown".
$(BUILD)/version.h: FORCE
	@mkdir -p $(BUILD)
	@rev=$$( { [ -e .git ] && git describe --always --dirty; } 2>/dev/null || echo unknown); \
	  printf '#define LF_REVISION "%s"\n' "$$rev" >$@.tmp; \
	  if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/cmd/main.o: $(BUILD)/version.h
$(BUILD)/cmd/main.o: CFLAGS += -I$(BUILD)

$(BUILD)/libleakfind.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/leakfind: $(CMD_OBJ) $(BUILD)/gen/report_assets.o $(BUILD)/gen/serve_assets.o $(BUILD)/libleakfind.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/gen/report_assets.o $(BUILD)/gen/serve_assets.o \
	  $(BUILD)/libleakfind.a $(CMD_LDLIBS) $(LDLIBS)

# `leakfind report`'s page: template, style and script are files in report/,
# made into byte arrays so the binary needs nothing at run time. The script
# is report/common.js (what serve's page draws alike) then report.js.
$(BUILD)/gen/report.js: report/common.js report/report.js
	@mkdir -p $(dir $@)
	cat $^ > $@.tmp && mv $@.tmp $@
REPORT_ASSETS := report/report.html.in report/report.css $(BUILD)/gen/report.js
$(BUILD)/gen/report_assets.c: $(REPORT_ASSETS) report/embed.sh
	@mkdir -p $(dir $@)
	sh report/embed.sh $(REPORT_ASSETS) > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/report_assets.o: $(BUILD)/gen/report_assets.c
	$(CC) $(CFLAGS) -c $< -o $@

# `leakfind serve`'s page, embedded the same way. Its script is one file
# per view in serve/js/, joined in name order (00-util.js first) into
# serve.js after the report's report/common.js: small files with one job
# each, one <script> on the page.
SERVE_JS := report/common.js $(sort $(wildcard serve/js/*.js))
$(BUILD)/gen/serve.js: $(SERVE_JS)
	@mkdir -p $(dir $@)
	cat $(SERVE_JS) > $@.tmp && mv $@.tmp $@
SERVE_ASSETS := serve/serve.html.in serve/serve.css $(BUILD)/gen/serve.js
$(BUILD)/gen/serve_assets.c: $(SERVE_ASSETS) report/embed.sh
	@mkdir -p $(dir $@)
	sh report/embed.sh $(SERVE_ASSETS) > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/serve_assets.o: $(BUILD)/gen/serve_assets.c
	$(CC) $(CFLAGS) -c $< -o $@

# the table's width trade is plain arithmetic over widths: unit-tested too,
# with the ids offered, the callers' names and the progress line's turns
# between threads (cmd/'s archive: only what those tests name is linked)
$(BUILD)/unit_tests: $(UNIT_OBJ) $(BUILD)/libleakfind_cmd.a $(BUILD)/libleakfind.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(BUILD)/libleakfind_cmd.a $(BUILD)/libleakfind.a $(LDLIBS)

# Each fuzz target also links with a replay driver so gcc builds can run the corpora.
FUZZ_SUPPORT := $(BUILD)/tests/fuzz/fuzz_common.o $(BUILD)/tests/unit/graph_fixture.o
$(BUILD)/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay_driver.o $(FUZZ_SUPPORT) $(BUILD)/libleakfind.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# fuzz_serve drives `leakfind serve`'s serve_handle, which lives in cmd/:
# cmd/'s objects as an archive (main.o aside), so only what serve_handle
# reaches is linked and serve_http.o, the one that needs libmicrohttpd, not.
$(BUILD)/libleakfind_cmd.a: $(filter-out $(BUILD)/cmd/main.o,$(CMD_OBJ))
	rm -f $@
	ar rcs $@ $^
$(BUILD)/fuzz_serve: $(BUILD)/tests/fuzz/fuzz_serve.o $(BUILD)/tests/fuzz/replay_driver.o $(FUZZ_SUPPORT) \
	  $(BUILD)/libleakfind_cmd.a $(BUILD)/gen/report_assets.o $(BUILD)/gen/serve_assets.o $(BUILD)/libleakfind.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# many clients at once against `leakfind serve` (tests/serve/load.sh, make bench)
$(BUILD)/serve_load: $(patsubst %.c,$(BUILD)/%.o,tests/serve/load.c tests/serve/load_http.c tests/serve/load_run.c)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm -pthread

$(BUILD)/gen_synth: $(BUILD)/tests/bench/gen_synth.o $(BUILD)/libleakfind.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/bench_stage: $(BUILD)/tests/bench/bench_stage.o $(BUILD)/libleakfind.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/gen_gcdump: $(BUILD)/tests/bench/gen_gcdump.o $(BUILD)/tests/unit/gcdump_writer.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

$(BUILD)/graph_listing: $(BUILD)/tests/dotnet/graph_listing.o $(BUILD)/libleakfind.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the damaged copies of a file that tests/cli/mutation.sh reads
$(BUILD)/mutants: $(BUILD)/tests/cli/mutants.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

$(BUILD)/gen_arrays: $(BUILD)/tests/bench/gen_arrays.o $(BUILD)/tests/unit/hprof_writer.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

GEN_BIG_OBJ := $(patsubst %.c,$(BUILD)/%.o,tests/bench/gen_hprof_big.c tests/bench/big_shapes.c \
	tests/bench/big_out.c tests/bench/big_classes.c tests/unit/hprof_writer.c)
$(BUILD)/gen_hprof_big: $(GEN_BIG_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

setup:
	@sh tests/setup.sh
	@$(MAKE) --no-print-directory all

TEST_TOOLS = $(BUILD)/leakfind $(BUILD)/unit_tests $(BUILD)/mutants $(BUILD)/gen_arrays $(BUILD)/gen_hprof_big \
	$(BUILD)/graph_listing $(BUILD)/serve_load \
	$(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)
# the .NET agent joins TEST_TOOLS where dotnet is: included before the rules
# that list TEST_TOOLS as prerequisites (make reads those at once), so the
# sanitized build (BUILD=build-asan) has its agent too
include agents/dotnet/dotnet.mk

check: $(TEST_TOOLS)
	@sh tests/run_all.sh $(BUILD)

# every suite and the reruns, on this build
check-slow: $(TEST_TOOLS)
	@sh tests/run_all.sh $(BUILD) --all

# OCaml 5.3, 5.2 and 5.1 first (tests/ocaml/setup5.sh: once per machine,
# into ~/.cache/leakfind; the README's first command does not build them;
# 5.2 only where ../shared/toolchains has its source), the Memtrace library
# (tests/memtrace/setup.sh, from ../shared/toolchains too), then a new make,
# which finds them and builds the OCaml 5 agents.
check-all:
	@sh tests/ocaml/setup5.sh 5.3.0
	@sh tests/ocaml/setup5.sh 5.2.0
	@sh tests/ocaml/setup5.sh 5.1.4
	@sh tests/memtrace/setup.sh || true
	@$(MAKE) --no-print-directory check-slow
	@$(MAKE) --no-print-directory asan

# every suite once under the sanitizers (the spilled and wide reruns, which
# compare outputs, stay with the plain build: CI stays under 30 minutes)
asan:
	@LEAKFIND_SANITIZED=1 $(MAKE) --no-print-directory BUILD=build-asan \
	  OPT="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" check

bench: $(BUILD)/leakfind $(BUILD)/gen_synth $(BUILD)/bench_stage $(BUILD)/gen_arrays $(BUILD)/gen_gcdump $(BUILD)/serve_load $(BUILD)/gen_hprof_big
	@sh tests/bench/run.sh $(BUILD)

SCALE ?= 100
bench-scale: $(BUILD)/leakfind $(BUILD)/gen_hprof_big
	@sh tests/bench/scale.sh $(BUILD) $(SCALE)

bench-huge: $(BUILD)/leakfind $(BUILD)/gen_hprof_big
	@sh tests/bench/huge.sh $(BUILD) $(or $(HUGE_SCALE),1000) $(MEMORY)

FUZZ_SECONDS ?= 60
fuzz:
	@sh tests/fuzz/run_libfuzzer.sh $(FUZZ_SECONDS)

# make install PREFIX=DIR: the binary, its man page, its bash completion, and
# for each OCaml runtime built (4, 5 for 5.3, 52 for 5.2, 51 for 5.1) the
# agent for `leakfind record` (PREFIX/lib/leakfind, with record --follow's
# follower), the names tool (PREFIX/bin) and the findlib package `leakfind`
# of that compiler (PREFIX/lib/ocaml for 4, PREFIX/lib/ocaml5, ocaml52 and
# ocaml51 for OCaml 5:
# OCAMLPATH=PREFIX/lib/ocaml ocamlfind ocamlopt -package leakfind ...), and
# the .NET agent where it was built (PREFIX/lib/leakfind/dotnet).
PREFIX ?= /usr/local
install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/leakfind $(DESTDIR)$(PREFIX)/bin/leakfind
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 docs/leakfind.1 $(DESTDIR)$(PREFIX)/share/man/man1/leakfind.1
	install -m 644 completions/leakfind.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/leakfind
	for runtime in 4:ocaml 5:ocaml5 52:ocaml52 51:ocaml51; do \
	  label=$${runtime%%:*} dir=$${runtime#*:} names=leakfind-$${runtime#*:}-names; \
	  [ $$label = 4 ] && names=leakfind-ocaml-names; \
	  [ -f $(BUILD)/leakfind-agent-ocaml$$label.so ] || continue; \
	  install -d $(DESTDIR)$(PREFIX)/lib/leakfind $(DESTDIR)$(PREFIX)/lib/$$dir/leakfind && \
	  install -m 644 $(BUILD)/leakfind-agent-ocaml$$label.so $(DESTDIR)$(PREFIX)/lib/leakfind/ && \
	  { [ ! -f $(BUILD)/$$names ] || install -m 755 $(BUILD)/$$names $(DESTDIR)$(PREFIX)/bin/; } && \
	  install -m 644 $(BUILD)/$$dir/leakfind/META $(BUILD)/$$dir/leakfind/leakfind.cmxa \
	    $(BUILD)/$$dir/leakfind/leakfind.a $(BUILD)/$$dir/leakfind/leakfind.cmi \
	    $(BUILD)/$$dir/leakfind/leakfind.cmx $(BUILD)/$$dir/leakfind/leakfind.mli \
	    $(BUILD)/$$dir/leakfind/libleakfind_ocaml.a $(DESTDIR)$(PREFIX)/lib/$$dir/leakfind/ || exit 1; \
	done
	[ ! -f $(BUILD)/leakfind-follow.so ] || \
	  install -m 644 $(BUILD)/leakfind-follow.so $(DESTDIR)$(PREFIX)/lib/leakfind/
	[ ! -f $(BUILD)/dotnet/leakfind-dotnet.dll ] || { \
	  install -d $(DESTDIR)$(PREFIX)/lib/leakfind/dotnet && \
	  cp -R $(BUILD)/dotnet/. $(DESTDIR)$(PREFIX)/lib/leakfind/dotnet/ && \
	  rm -f $(DESTDIR)$(PREFIX)/lib/leakfind/dotnet/build.log; }

clean:
	rm -rf build build-asan build-fuzz

include agents/ocaml/ocaml.mk

-include $(DEPS)
