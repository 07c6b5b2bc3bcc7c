#!/bin/sh
# make bench-scale (issue 23): a synthetic JVM dump of SCALE million objects in
# BigHeap's shape (tests/bench/gen_hprof_big.c; 100M is about 4.6 GB, 1000M
# about 46 GB), written once into bench-data/ and kept, then `dominators
# --top 10`, `classes` and `info -v` on it, each in a fresh process: seconds,
# peak RSS (the mapped dump's pages included), peak anonymous memory (RssAnon
# sampled every 0.2 s) and that per object.
# usage: tests/bench/scale.sh BUILD_DIR [SCALE]
set -eu
build=${1:-build}
scale=${2:-100}
cd "$(dirname "$0")/../.."
mkdir -p bench-data
f=bench-data/scale-${scale}m.hprof
echo "# leakfind bench-scale, $(date -u +%Y-%m-%d), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
newest=$(ls -t tests/bench/gen_hprof_big.c tests/bench/big_*.[ch] | head -1)
if [ ! -f "$f" ] || [ "$newest" -nt "$f" ]; then
    echo "# generating $f"
    t0=$(date +%s.%N)
    "$build/gen_hprof_big" "$f" $((scale * 1000000)) >"$f.plan"
    t1=$(date +%s.%N)
    echo "generated	$(awk "BEGIN {printf \"%.1f\", $t1 - $t0}") s" >>"$f.plan"
fi
objects=$(awk -F'\t' '$1 == "objects" {print $2}' "$f.plan")
bytes=$(stat -c %s "$f")
echo "## $f: $objects objects, $(awk -v b="$bytes" 'BEGIN {printf "%.2f GB", b / 1e9}'), generated in $(awk -F'\t' '$1 == "generated" {print $2}' "$f.plan")"
# warm the page cache when the dump fits in half the available memory
avail=$(awk '/MemAvailable/ {printf "%.0f", $2 * 1024}' /proc/meminfo)
if [ "$bytes" -lt $((avail / 2)) ]; then
    cat "$f" >/dev/null
    echo "(dump read once into the page cache first)"
fi

# measure NAME ARGS...: leakfind ARGS under /usr/bin/time, RssAnon sampled.
measure() {
    name=$1
    shift
    /usr/bin/env time -f "%e %M" -o bench-data/scale-time.txt "$build/leakfind" "$@" "$f" \
        >bench-data/scale-out.txt 2>/dev/null &
    tpid=$!
    anon=0
    while kill -0 "$tpid" 2>/dev/null; do
        for c in $(cat /proc/"$tpid"/task/*/children 2>/dev/null); do
            a=$(awk '/RssAnon/ {print $2}' /proc/"$c"/status 2>/dev/null || true)
            [ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
        done
        sleep 0.2
    done
    wait "$tpid"
    read -r secs rss_k <bench-data/scale-time.txt
    awk -v n="$name" -v s="$secs" -v r="$rss_k" -v a="$anon" -v o="$objects" 'BEGIN {
        printf "%-24s %9.1f %12.2f %12.2f %12.1f\n", n, s, r / 1048576, a / 1048576, a * 1024 / o }'
}
printf "%-24s %9s %12s %12s %12s\n" command seconds "peak RSS GiB" "peak anon GiB" "anon B/object"
measure "dominators --top 10" dominators --top 10
measure "classes" classes
measure "info -v" info -v
awk -F'\t' '$1 ~ /^(read_seconds|analysis_seconds|peak_rss_bytes|references|spilled|resident_releases)$/ {printf "info -v: %s %s\n", $1, $2}' \
    bench-data/scale-out.txt
rm -f bench-data/scale-time.txt bench-data/scale-out.txt
