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
# fuzz_serve reaches cmd/serve: cmd/'s objects as an archive (main.c aside,
# so only what serve_handle calls is linked: not serve_http.c and its
# libmicrohttpd) and the embedded pages, made as the Makefile makes them
cmd_lib=""
case " $targets " in
*" serve "*)
    rm -f "$out/libcmd.a"
    cmd_objs=""
    for src in $(ls cmd/*.c cmd/*/*.c | grep -v '^cmd/main\.c$'); do
        obj="$out/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')"
        $CC $FLAGS -c "$src" -o "$obj"
        cmd_objs="$cmd_objs $obj"
    done
    ar rcs "$out/libcmd.a" $cmd_objs
    sh report/embed.sh report/report.html.in report/report.css report/report.js >"$out/obj/report_assets.c"
    cat $(ls serve/js/*.js | LC_ALL=C sort) >"$out/obj/serve.js" # the page's script, joined as the Makefile joins it
    sh report/embed.sh serve/serve.html.in serve/serve.css "$out/obj/serve.js" >"$out/obj/serve_assets.c"
    $CC $FLAGS -c "$out/obj/report_assets.c" -o "$out/obj/report_assets.o"
    $CC $FLAGS -c "$out/obj/serve_assets.c" -o "$out/obj/serve_assets.o"
    cmd_lib="$out/libcmd.a $out/obj/report_assets.o $out/obj/serve_assets.o"
    ;;
esac
for t in $targets; do
    bin="$out/fuzz_$t"
    extra=""
    [ "$t" != serve ] || extra=$cmd_lib
    $CC $FLAGS -fsanitize=fuzzer tests/fuzz/fuzz_$t.c $extra $objs -o "$bin" -lJudy -lxxhash -lz -lm -pthread
    mkdir -p "$out/corpus/$t"
    echo "== fuzz_$t for ${seconds}s"
    "$bin" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$out/crashes/$t-" -print_final_stats=1 \
        "$out/corpus/$t" "tests/fuzz/corpus/$t" 2>&1 | grep -E 'stat::|ERROR|SUMMARY|Done' || true
done
