#!/bin/sh
# Full listings (issue 33 item 5): every object of a 4M-object heap
# (gen_synth: 4M objects, 9.3M references, graph only, so each run computes
# the dominators) as one row each, in TSV and JSON, against --top 10 on the
# same file. A full listing should take at most twice as long as --top 10.
# Median of 3 runs each: the VM's 2 cores are often shared.
# usage: tests/bench/listing.sh BUILD_DIR   (run by tests/bench/run.sh)
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."
mkdir -p bench-data
f=bench-data/synth-4m.lfs
if [ ! -f "$f" ] || [ tests/bench/gen_synth.c -nt "$f" ]; then
    "$build/gen_synth" 4000000 "$f" >&2
fi
cat "$f" >/dev/null
# median_s ARGS...: the median wall time of three runs of leakfind ARGS.
median_s() {
    for i in 1 2 3; do
        /usr/bin/env time -f %e -o bench-data/listing-time.txt "$build/leakfind" "$@" >/dev/null 2>&1
        cat bench-data/listing-time.txt
    done | sort -n | sed -n 2p
}
echo "## full listings: $f ($(du -h "$f" | cut -f1))"
top10=$(median_s dominators --flat --top 10 --min 0 "$f")
echo "leakfind dominators --flat --top 10 --min 0: $top10 s"
for fmt in tsv json table; do
    all=$(median_s dominators --flat --top 0 --min 0 --format $fmt "$f")
    echo "leakfind dominators --flat --top 0 --min 0 --format $fmt: $all s, $(awk "BEGIN {printf \"%.2f\", $all / $top10}") x --top 10"
done
rm -f bench-data/listing-time.txt
