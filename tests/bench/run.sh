#!/bin/sh
# make bench: synthetic heaps at 1M, 10M and 30M objects (written once into
# bench-data/, kept between runs), each analysed stage by stage in a fresh
# process, then leakfind end to end on the 30M snapshot. Prints, per stage,
# seconds, objects per second and peak RSS (file-backed pages included), and
# the memory budget of the design: 50 bytes per object + 8 per reference.
# usage: tests/bench/run.sh BUILD_DIR [SIZES...]   (sizes in millions)
set -eu
build=${1:-build}
shift || true
sizes=${*:-"1 10 30"}
cd "$(dirname "$0")/../.."
mkdir -p bench-data
echo "# leakfind bench, $(date -u +%Y-%m-%d), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
for m in $sizes; do
    f=bench-data/synth-${m}m.lfs
    if [ ! -f "$f" ] || [ tests/bench/gen_synth.c -nt "$f" ]; then
        echo "# generating $f"
        "$build/gen_synth" $((m * 1000000)) "$f" >&2
    fi
    # warm the page cache so 'load' measures the reader, not the disk
    cat "$f" >/dev/null
    echo "## ${m}M objects ($(du -h "$f" | cut -f1))"
    "$build/bench_stage" "$f" | column -t
done
f=bench-data/synth-$(echo "$sizes" | awk '{print $NF}')m.lfs
echo "## end to end on $f"
for cmd in "info" "classes --top 0" "dominators"; do
    /usr/bin/env time -f "leakfind $cmd: %e s, peak RSS %M KiB" "$build/leakfind" $cmd "$f" >/dev/null
done
t0=$(date +%s.%N); cat "$f" >/dev/null; t1=$(date +%s.%N)
echo "cat $f > /dev/null: $(awk "BEGIN {printf \"%.3f\", $t1 - $t0}") s"
