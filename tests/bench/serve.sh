#!/bin/sh
# `leakfind serve` on a big dump (BENCHMARKS.md 1.17): start-up to the first
# view with the --cache file already made (three starts), the first
# referrers request (it builds the index of referrers), then 32 clients at
# once for SECONDS (build/serve_load: the children of the node with the
# most children a page at a time, then those objects' object, referrers and
# paths views), p50/p95/max per kind. Targets: each p95 and the start-up
# under 100 ms on 2 cores.
# usage: tests/bench/serve.sh BUILD_DIR DUMP [SECONDS]
set -eu
build=$1 dump=$2 seconds=${3:-20}
out=$(mktemp -d)
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$out"' EXIT

# start: serve in the background; sets pid and url once the URL is printed
start() {
    "$build/leakfind" serve --cache --no-progress "$dump" >"$out/url" 2>"$out/err" &
    pid=$!
    url=""
    while [ -z "$url" ]; do
        kill -0 "$pid" 2>/dev/null || { cat "$out/err" >&2; exit 1; }
        sleep 0.01
        url=$(head -1 "$out/url")
    done
}
stop() { kill "$pid"; wait "$pid" || true; pid=""; }
now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }

echo "## serve: $dump ($(du -h "$dump" | cut -f1))"
cat "$dump" >/dev/null
t0=$(now); start; t1=$(now)
echo "first start, the cache written: $(ms "$t0" "$t1") ms to the URL"
stop
cat "$dump".leakfind-cache >/dev/null 2>&1 || true
for run in 1 2 3; do
    t0=$(now)
    start
    base=${url%%/\?t=*} token=${url##*\?t=}
    curl -s -o /dev/null "$base/api/overview?t=$token"
    curl -s -o /dev/null "$base/api/children?t=$token&id=root&count=100"
    t1=$(now)
    echo "start-up with --cache to the first view (overview and the root's children), run $run: $(ms "$t0" "$t1") ms"
    [ "$run" = 3 ] || stop
done
first=$(curl -s "$base/api/children?t=$token&id=root&count=1" |
    sed -n 's/.*{"object":{"id":"\([^"]*\)".*/\1/p' | head -1)
echo "first referrers request (builds the index of referrers): $(curl -s -o /dev/null -w '%{time_total}' \
    "$base/api/referrers?t=$token&id=$first") s"
/usr/bin/env time -f "serve_load: %e s, client CPU %U+%S s" "$build/serve_load" "$url" --clients 32 \
    --seconds "$seconds" | column -t
echo "server peak RSS: $(awk '/VmHWM/ {print $2, $3}' /proc/"$pid"/status)"
stop
