#!/bin/sh
# Builds every fuzz target with clang + libFuzzer (address and undefined
# sanitizers) and runs each for SECONDS, starting from its committed corpus.
# New coverage lands in build-fuzz/corpus/TARGET; crashes in build-fuzz/crashes/.
# usage: tests/fuzz/run_libfuzzer.sh SECONDS [TARGET...]
set -eu
seconds=${1:-60}
shift || true
cd "$(dirname "$0")/../.."
targets=${*:-$(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||' | grep -v '^common$')}
out=build-fuzz
mkdir -p "$out/obj" "$out/crashes"
CC=${CLANG:-clang}
# libFuzzer's runtime is a package of its own on Debian (clang alone links nothing)
if [ -z "${CLANG:-}" ] && ! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q "install ok installed"; then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    echo "fuzz: installing clang libclang-rt-14-dev (libFuzzer)"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
fi
FLAGS="-std=c11 -D_GNU_SOURCE -DJUDYERROR_NOTEST -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
lib_src="$(ls graph/*.c core/*/*.c) tests/fuzz/fuzz_common.c tests/unit/graph_fixture.c"
objs=""
for src in $lib_src; do
    obj="$out/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')"
    $CC $FLAGS -c "$src" -o "$obj" # always: a changed header must reach every object
    objs="$objs $obj"
done
for t in $targets; do
    bin="$out/fuzz_$t"
    $CC $FLAGS -fsanitize=fuzzer tests/fuzz/fuzz_$t.c $objs -o "$bin" -lJudy -lxxhash -lz -lm -pthread
    mkdir -p "$out/corpus/$t"
    echo "== fuzz_$t for ${seconds}s"
    "$bin" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$out/crashes/$t-" -print_final_stats=1 \
        "$out/corpus/$t" "tests/fuzz/corpus/$t" 2>&1 | grep -E 'stat::|ERROR|SUMMARY|Done' || true
done
