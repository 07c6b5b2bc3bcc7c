#!/bin/sh
# Memtrace traces (issue 51): a trace of at least 10^7 events, written by
# tests/bench/memtrace/load.ml under the real library (0.2.3, OCaml 4.13;
# tests/memtrace/setup.sh builds it) at MEMTRACE_RATE=1 into bench-data/
# (kept between runs), then read by leakfind (`info`: every event decoded,
# the live blocks followed; `suspects`) and by the library's own reader
# (tests/bench/memtrace/count.ml: Trace.Reader.iter, backtraces decoded).
# Prints wall seconds, MB/s of trace (by wall time), CPU seconds (user) and
# peak RSS for each, the best of 3 by wall time.
# usage: sh tests/bench/memtrace.sh BUILD_DIR [REQUESTS]   (default 3000000)
set -eu
build=$(cd "${1:-build}" && pwd)
requests=${2:-3000000}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
lib=${LEAKFIND_CACHE:-$HOME/.cache/leakfind}/memtrace-0.2.3-ocaml-4.13
sh tests/memtrace/setup.sh 0.2.3
mkdir -p bench-data/memtrace
trace=bench-data/memtrace/load-$requests.ctf
work=bench-data/memtrace
for prog in load count; do
    if [ ! -x "$work/$prog" ] || [ "tests/bench/memtrace/$prog.ml" -nt "$work/$prog" ]; then
        cp "tests/bench/memtrace/$prog.ml" "$work/"
        (cd "$work" && OCAMLFIND_CONF="$lib/findlib.conf" ocamlfind ocamlopt -O2 -package unix,threads.posix \
            -thread -linkpkg -I "$lib" "$lib/memtrace.cmxa" "$prog.ml" -o "$prog" 2>/dev/null ||
         OCAMLFIND_CONF="$lib/findlib.conf" ocamlfind ocamlopt -package unix,threads.posix \
            -thread -linkpkg -I "$lib" "$lib/memtrace.cmxa" "$prog.ml" -o "$prog")
    fi
done
if [ ! -f "$trace" ]; then
    echo "# tracing $requests requests at MEMTRACE_RATE=1 into $trace"
    MEMTRACE="$trace" MEMTRACE_RATE=1 "$work/load" "$requests" >/dev/null
fi
bytes=$(wc -c <"$trace")
events=$("$build/leakfind" info "$trace" --format tsv | awk -F'\t' '$1 == "events" {print $2}')
cat "$trace" >/dev/null # from the page cache, not the disk
echo "# $trace: $bytes bytes, $events events, $(date -u +%Y-%m-%d), $(nproc) cores"
# best NAME COMMAND...: the best of 3 runs' seconds, and that run's peak RSS
best() {
    name=$1
    shift
    best_s= best_kb= best_user=
    for _ in 1 2 3; do
        /usr/bin/time -f '%e %U %M' -o "$work/time" "$@" >/dev/null 2>&1
        read -r s user kb <"$work/time"
        if [ -z "$best_s" ] || [ "$(echo "$s < $best_s" | bc)" = 1 ]; then
            best_s=$s best_kb=$kb best_user=$user
        fi
    done
    mbs=$(echo "scale=1; $bytes / 1000000 / $best_s" | bc 2>/dev/null || echo "-")
    printf '%-34s %6s s %7s MB/s %6s s CPU %6s MiB peak RSS\n' "$name" "$best_s" "$mbs" \
        "$best_user" "$((best_kb / 1024))"
}
best "leakfind info" "$build/leakfind" info "$trace"
best "leakfind suspects" "$build/leakfind" suspects "$trace"
best "leakfind sites" "$build/leakfind" sites "$trace" -q
best "Memtrace Trace.Reader.iter (0.2.3)" "$work/count" "$trace"
