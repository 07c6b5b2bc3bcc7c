#!/bin/sh
# Wide edge offsets: graphs of 2^32 edges and more keep 64-bit offsets, which
# no fixture is big enough to need, so LEAKFIND_WIDE_OFFSETS=1 forces them on
# every graph. Every golden CLI case again that way must give byte-identical
# stdout, stderr and exit codes; the switch must reach every reader (the big
# arrays' peak grows); files written must not depend on the width (.lfs 1.2
# stores EOF4 whenever the edges fit).
# usage: tests/wide/run.sh BUILD_DIR       (prints "N passed, M failed" last)
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
LEAKFIND="$root/$build/leakfind"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/cli/rerun.sh

# 1. The golden cases with wide offsets (the goldens hold the narrow run's output).
LEAKFIND_WIDE_OFFSETS=1 sh tests/cli/run.sh "$build" >"$tmp/wide.log" 2>&1
golden_tally wide "$tmp/wide.log"

# 2. Every reader takes the switch: 4 more bytes per object at the peak.
# On one thread: the V8 reader's two threads allocate in an order that
# moves its peak by up to 80 bytes from run to run (seen before this
# change too), more than the 48 the width adds to tiny.heapsnapshot's peak.
G=fixtures/graphs
J=fixtures/java/dumps
"$LEAKFIND" convert $G/leak_after.txt -o "$tmp/leak.lfs" 2>/dev/null
peak() { "$LEAKFIND" info -v --threads 1 "$1" | awk -F'\t' '$1 == "big_arrays_ram_peak_bytes" {print $2}'; }
for dump in $G/leak_after.txt "$tmp/leak.lfs" $J/planted_leak.hprof fixtures/v8/tiny.heapsnapshot; do
    narrow=$(peak "$dump")
    wide=$(LEAKFIND_WIDE_OFFSETS=1 peak "$dump")
    [ -n "$narrow" ] && [ -n "$wide" ] && [ "$wide" -gt "$narrow" ] && ok ||
        bad "$(basename "$dump"): peak narrow $narrow, wide $wide"
done

# 3. Files written do not depend on the width: 32-bit offsets (EOF4), no EOFF.
chunks() { od -A n -c -j 64 -N 2048 "$1" | tr -d ' \n'; }
for dump in $G/leak_after.txt fixtures/example/app.lfs $J/planted_leak.hprof fixtures/v8/tiny.heapsnapshot; do
    n=$(basename "$dump")
    "$LEAKFIND" convert "$dump" -o "$tmp/narrow.lfs" 2>/dev/null
    LEAKFIND_WIDE_OFFSETS=1 "$LEAKFIND" convert "$dump" -o "$tmp/wide.lfs" 2>/dev/null
    cmp -s "$tmp/narrow.lfs" "$tmp/wide.lfs" && ok || bad "convert $n: the files differ"
    c=$(chunks "$tmp/narrow.lfs")
    case $c in *EOF4*EOFF* | *EOFF*) bad "convert $n: EOFF written" ;; *EOF4*) ok ;; *) bad "convert $n: no EOF4" ;; esac
done

# 4. Wide and spilled at once.
for dump in $J/planted_leak.hprof fixtures/v8/tiny.heapsnapshot "$tmp/leak.lfs"; do
    "$LEAKFIND" dominators -q --top 0 --min 0 "$dump" >"$tmp/plain.out" 2>&1
    LEAKFIND_WIDE_OFFSETS=1 "$LEAKFIND" dominators --memory 1K -q --top 0 --min 0 "$dump" >"$tmp/both.out" 2>&1
    cmp -s "$tmp/plain.out" "$tmp/both.out" && ok || bad "wide and spilled: $(basename "$dump") differs"
done

echo "wide: $pass passed, $fail failed"
[ $fail = 0 ]
