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
# The ladder (issue 39, gen_synth.c): a list whose cells also hang from the
# list's owner, where the old Semi-NCA walk was quadratic (24 s at 0.4M
# objects). Three sizes: the dominators' time should double with the size.
for m in 1 2 4; do
    f=bench-data/ladder-${m}m.lfs
    if [ ! -f "$f" ] || [ tests/bench/gen_synth.c -nt "$f" ]; then
        "$build/gen_synth" $((m * 1000000)) "$f" ladder >&2
    fi
    cat "$f" >/dev/null
    echo "## ladder, ${m}M objects ($(du -h "$f" | cut -f1))"
    "$build/bench_stage" "$f" | column -t
done
# end_to_end FILE: leakfind commands on FILE, with time and peak RSS, and the
# time `cat` takes to read FILE from the page cache (the floor to compare with).
end_to_end() {
    cat "$1" >/dev/null
    t0=$(date +%s.%N); cat "$1" >/dev/null; t1=$(date +%s.%N)
    echo "cat $1 > /dev/null: $(awk "BEGIN {printf \"%.3f\", $t1 - $t0}") s"
    for cmd in "info" "classes --top 0" "dominators" "dominators --top 10" "suspects"; do
        /usr/bin/env time -f "leakfind $cmd: %e s, peak RSS %M KiB" "$build/leakfind" $cmd "$1" >/dev/null
    done
}
# real_dump TITLE FILE: a dump a runtime wrote: its stages, end to end, and
# the dominators on one thread and on two.
real_dump() {
    echo "## $1: $2 ($(du -h "$2" | cut -f1))"
    "$build/bench_stage" "$2" | column -t
    end_to_end "$2"
    for t in 1 2; do
        /usr/bin/env time -f "leakfind dominators --threads $t: %e s, peak RSS %M KiB" \
            "$build/leakfind" dominators "$2" --threads $t >/dev/null
    done
}
f=bench-data/synth-$(echo "$sizes" | awk '{print $NF}')m.lfs
echo "## end to end on $f"
end_to_end "$f"

# Holder lookups (issue 19): a JVM dump of 4 arrays of 2^18 and 3 of 2^20
# small objects (tests/bench/gen_arrays.c, 3.6M objects, 138 MB), listed
# whole, diff --owners against the same program 4096 elements later, and
# the path to every Item.
# Each should take about as long as --top 10 plus writing the rows.
a1=bench-data/arrays-1.hprof a2=bench-data/arrays-2.hprof
if [ ! -f "$a1" ] || [ tests/bench/gen_arrays.c -nt "$a1" ]; then
    "$build/gen_arrays" "$a1" 4 3
    "$build/gen_arrays" "$a2" 4 3 262144 1048576 4096
fi
echo "## holders: $a1 ($(du -h "$a1" | cut -f1))"
for cmd in "dominators --flat --top 10 --min 0" "dominators --flat --top 0 --min 0" "dominators --top 0 --min 0 --depth 0"; do
    /usr/bin/env time -f "leakfind $cmd: %e s, peak RSS %M KiB" "$build/leakfind" $cmd "$a1" >/dev/null
done
/usr/bin/env time -f "leakfind diff --owners: %e s, peak RSS %M KiB" "$build/leakfind" diff "$a1" "$a2" --owners >/dev/null
for cmd in "path --class Item --top 0" "path --class Item --top 0 --merge"; do
    /usr/bin/env time -f "leakfind $cmd: %e s, peak RSS %M KiB" "$build/leakfind" $cmd "$a1" >/dev/null
done

sh tests/bench/listing.sh "$build"

# A real dump written by the JVM: 30 million objects of realistic shapes
# (tests/bench/java/BigHeap.java), about 1.4 GB of HPROF.
objects=${BENCH_JAVA_OBJECTS:-30000000}
h=bench-data/big-$((objects / 1000000))m.hprof
if [ ! -f "$h" ] && command -v javac >/dev/null; then
    echo "# writing $h with the JVM"
    mkdir -p bench-data/java
    javac -d bench-data/java tests/bench/java/BigHeap.java
    java -Xmx8g -XX:+UseParallelGC -cp bench-data/java BigHeap "$objects" "$h" >&2
fi
# query (issue 37) over every object of the largest dump, beside classes:
# a histogram by @class (no field read), two fields of every BigHeap$Tree
# read from their records, and the 20 largest byte[] no static field reaches.
query_bench() {
    for q in "select @class, count(), sum(@shallow), sum(@retained) from * group by @class" \
             "select count(), sum(@retained) from BigHeap\$Tree where key > 0 and payload is not null" \
             "from byte[] where not reachable('static field') order by @retained desc limit 20"; do
        /usr/bin/env time -f "leakfind query \"$q\": %e s, peak RSS %M KiB" "$build/leakfind" query "$1" "$q" >/dev/null
    done
    /usr/bin/env time -f "leakfind classes --top 0: %e s, peak RSS %M KiB" "$build/leakfind" classes --top 0 "$1" >/dev/null
}
if [ -f "$h" ]; then
    real_dump "HPROF written by the JVM" "$h"
    sh tests/bench/serve.sh "$build" "$h"
    echo "## query on $h"
    query_bench "$h"
    if [ -d /usr/share/visualvm ] && [ -n "${BENCH_VISUALVM:-}" ]; then
        echo "## VisualVM's heap library on $h"
        sh tests/bench/visualvm/run.sh "$h"
    fi
fi

# Scale (issue 8): the same program writing about 4 and 8 GB of HPROF (88 and
# 176 million objects; the JVM needs up to 18 GB for the larger) with
# BENCH_SCALE=1. Per dump: read and analysis seconds per million objects,
# `dominators` end to end and its peak RSS (the mapped dump's pages included).
if [ -n "${BENCH_SCALE:-}" ] && command -v javac >/dev/null && [ -f "$h" ]; then
    for m in 88 176; do
        big=bench-data/big-${m}m.hprof
        if [ ! -f "$big" ]; then
            echo "# writing $big with the JVM"
            java -Xmx18g -XX:+UseParallelGC -cp bench-data/java BigHeap "${m}000000" "$big" >&2
        fi
    done
    echo "## scale: HPROF at three sizes"
    echo "dump	bytes	objects	cat_s	read_s	analysis_s	read_s_per_M	analysis_s_per_M	dominators_s	peak_rss_bytes"
    for big in "$h" bench-data/big-88m.hprof bench-data/big-176m.hprof; do
        cat "$big" >/dev/null
        t0=$(date +%s.%N); cat "$big" >/dev/null; t1=$(date +%s.%N)
        "$build/leakfind" info -v "$big" >"$big.info" 2>/dev/null
        objects=$(awk -F'\t' '$1 == "objects" {print $2}' "$big.info")
        read_s=$(awk -F'\t' '$1 == "read_seconds" {print $2}' "$big.info")
        analysis_s=$(awk -F'\t' '$1 == "analysis_seconds" {print $2}' "$big.info")
        rm -f "$big.info"
        /usr/bin/env time -f "%e %M" -o bench-data/time.txt "$build/leakfind" dominators "$big" >/dev/null
        read -r dom_s rss_k <bench-data/time.txt
        awk -v d="$big" -v b="$(stat -c %s "$big")" -v o="$objects" -v c="$(awk "BEGIN {print $t1 - $t0}")" \
            -v r="$read_s" -v a="$analysis_s" -v w="$dom_s" -v k="$rss_k" 'BEGIN {
            printf "%s\t%.0f\t%.0f\t%.3f\t%.2f\t%.2f\t%.3f\t%.3f\t%.2f\t%.0f\n",
                d, b, o, c, r, a, r / (o / 1e6), a / (o / 1e6), w, k * 1024 }'
    done
fi

# A V8 heap snapshot written by Node (tests/bench/node/big_heap.js), about
# 1 GB: 14 million nodes, 41 million edges. Writing it takes about a minute
# and 6 GB.
v=bench-data/big-1g.heapsnapshot
if [ ! -f "$v" ] && command -v node >/dev/null; then
    echo "# writing $v with Node"
    node --max-old-space-size=14000 --expose-gc tests/bench/node/big_heap.js "$v" 1.5 >&2
fi
if [ -f "$v" ]; then
    real_dump "V8 snapshot written by Node" "$v"
    sh tests/bench/serve.sh "$build" "$v"
    # Chrome DevTools' own worker (tests/v8/devtools, needs its npm build).
    if [ -n "${BENCH_DEVTOOLS:-}" ] && [ -f tests/v8/devtools/dist/harness.mjs ]; then
        /usr/bin/env time -f "DevTools heap snapshot worker (load and initialize): %e s, peak RSS %M KiB" \
            node --max-old-space-size=16000 tests/v8/devtools/dist/harness.mjs --load-only "$v" >/dev/null
    fi
fi
# An Express-shaped snapshot (issue 52): many strings, closures and small
# objects, where the 1 GB synthetic one has few (tests/bench/v8_express.sh).
sh tests/bench/v8_express.sh "$build"

# The same program with allocation tracking (issue 20): a smaller heap
# (scale 0.3, about 220 MB, 2.8M nodes) whose nodes carry allocation stacks.
# Reading the trace data should add at most 10% to the load stage.
vt=bench-data/big-tracked.heapsnapshot
if [ ! -f "$vt" ] && command -v node >/dev/null; then
    echo "# writing $vt with Node (--track-heap-objects)"
    node --max-old-space-size=8000 --track-heap-objects --expose-gc tests/bench/node/big_heap.js "$vt" 0.3 >&2
fi
if [ -f "$vt" ]; then
    echo "## V8 snapshot with allocation tracking: $vt ($(du -h "$vt" | cut -f1))"
    cat "$vt" >/dev/null
    "$build/bench_stage" "$vt" | column -t
    /usr/bin/env time -f "leakfind sites: %e s, peak RSS %M KiB" "$build/leakfind" sites "$vt" >/dev/null
fi

# .NET (issue 35): a .gcdump of 10M nodes, the most dotnet-gcdump writes
# (tests/bench/gen_gcdump.c), read and analysed; beside it the time of
# `dotnet-gcdump report` (a type histogram only) when the tool is installed.
f=bench-data/gcdump-10m.gcdump
if [ ! -f "$f" ] || [ tests/bench/gen_gcdump.c -nt "$f" ]; then
    "$build/gen_gcdump" 10000000 "$f" >&2
fi
cat "$f" >/dev/null
echo "## .gcdump, 10M nodes: $f ($(du -h "$f" | cut -f1))"
"$build/bench_stage" "$f" | column -t
end_to_end "$f"
gcdump_tool=$(command -v dotnet-gcdump || echo "$HOME/.dotnet/tools/dotnet-gcdump")
if [ -x "$gcdump_tool" ]; then
    /usr/bin/env time -f "dotnet-gcdump report on it: %e s, peak RSS %M KiB" "$gcdump_tool" report "$f" >/dev/null
fi

# The OCaml agent (issue 18): a program with about 10 million live blocks
# (tests/bench/ocaml/bigheap.ml) writes its snapshot; the agent reports the
# walk and write times and its own memory (marks, stack, maps: not the
# writer's buffers). Target: under 2 s, under 16 bytes per block.
# bigheap_bench LABEL PACKAGE_DIR NAMES_TOOL: with the ocamlfind set up by
# the caller (OCAMLFIND_CONF picks OCaml 5's compiler).
bigheap_bench() {
    o=$(mktemp -d)
    cp tests/bench/ocaml/bigheap.ml "$o/"
    (cd "$o" && OCAMLPATH="$2" \
        ocamlfind ocamlopt -O2 -bin-annot -package leakfind,unix -linkpkg bigheap.ml -o bigheap 2>/dev/null &&
        "$3" bigheap.cmt > bigheap.leakfind-names)
    echo "## OCaml agent ($1): bigheap (10M live blocks), untyped (no names file)"
    (cd "$o" && LEAKFIND_NAMES=/dev/null LEAKFIND_AGENT_VERBOSE=1 \
        /usr/bin/env time -f "program peak RSS %M KiB" ./bigheap) 2>&1
    # The same heap labelled by its types (the names file's shapes): the
    # typing pass is the walk's "of which typing" part.
    echo "## OCaml agent ($1): bigheap, typed (bigheap.leakfind-names)"
    (cd "$o" && LEAKFIND_AGENT_VERBOSE=1 /usr/bin/env time -f "program peak RSS %M KiB" ./bigheap) 2>&1
    /usr/bin/env time -f "leakfind dominators on it: %e s, peak RSS %M KiB" \
        "$build/leakfind" dominators "$o/bigheap.lfs" --top 3 >/dev/null
    rm -rf "$o"
}
abs_build=$(cd "$build" && pwd)
if command -v ocamlfind >/dev/null && [ -f "$build/ocaml/leakfind/leakfind.cmxa" ]; then
    bigheap_bench "$(ocamlfind ocamlopt -version)" "$abs_build/ocaml" "$abs_build/leakfind-ocaml-names"
fi
# ocaml5_bench PREFIX LABEL: bigheap on the OCaml 5 at PREFIX, whose agent
# is built as LABEL (5: 5.3, 52: 5.2, 51: 5.1), then record's cost on a real OCaml 5
# program: that compiler's own ocamlopt.opt compiling camlinternalFormat.ml
# (3,000 lines), alone, under record (no snapshot asked for), and on 5.3
# sampling at 1e-4: 7 rounds, the runs of a round one after the other (the
# machine's drift hits them alike), the median of each.
ocaml5_bench() {
    prefix=$1 label=$2
    command -v ocamlfind >/dev/null && [ -f "$build/ocaml$label/leakfind/leakfind.cmxa" ] || return 0
    version=$("$prefix/bin/ocamlopt.opt" -version)
    OCAMLFIND_CONF="$prefix/findlib.conf" bigheap_bench "$version" \
        "$abs_build/ocaml$label" "$abs_build/leakfind-ocaml$label-names"
    hows="alone record"
    [ "$label" = 5 ] && hows="$hows sample"
    o=$(mktemp -d)
    cp "$prefix/lib/ocaml/camlinternalFormat.ml" "$o/cif.ml"
    echo "## OCaml $version: ocamlopt.opt -c camlinternalFormat.ml, wall time, median of 7"
    for _ in 1 2 3 4 5 6 7; do
        for how in $hows; do
            s=$(date +%s%N)
            case $how in
            alone) (cd "$o" && "$prefix/bin/ocamlopt.opt" -c cif.ml) ;;
            record) (cd "$o" && "$abs_build/leakfind" record -q -o r -- "$prefix/bin/ocamlopt.opt" -c cif.ml) ;;
            sample) (cd "$o" && "$abs_build/leakfind" record -q --sample 1e-4 -o r -- "$prefix/bin/ocamlopt.opt" -c cif.ml) ;;
            esac
            echo $(( ($(date +%s%N) - s) / 1000000 )) >>"$o/$how.ms"
        done
    done
    for how in $hows; do
        echo "$how: $(sort -n "$o/$how.ms" | sed -n 4p) ms"
    done
    rm -rf "$o"
}
ocaml5_bench "${OCAML5_PREFIX:-$HOME/.cache/leakfind/ocaml-5.3.0}" 5
ocaml5_bench "${OCAML52_PREFIX:-$HOME/.cache/leakfind/ocaml-5.2.0}" 52
ocaml5_bench "${OCAML51_PREFIX:-$HOME/.cache/leakfind/ocaml-5.1.4}" 51

# Series (issue 52): suspects and trend over three snapshots against one
# snapshot's suspects, on a 30M-object JVM series and a 14M-object OCaml one.
sh tests/bench/series.sh "$build"

# The compiler's heap (issue 39): ocamlopt.opt compiling a generated module
# of 15,000 top-level functions, recorded every 3rd major cycle with only
# the first and the last two snapshots kept (about 370 MB). Its last
# snapshot, about 6M objects, took Semi-NCA 16-22 s; the dominators
# should take about as long per object as synth's.
if command -v ocamlopt.opt >/dev/null && [ -f "$build/leakfind-agent-ocaml4.so" ]; then
    o=$(mktemp -d)
    awk 'BEGIN { print "let f0 x = x"
                 for (i = 1; i < 15000; i++)
                     printf "let f%d x = if x > %d then f%d (x - 1) + %d else x * %d\n", i, i, i - 1, i, i }' \
        >"$o/gen.ml"
    abs_build=$(cd "$build" && pwd)
    (cd "$o" && "$abs_build/leakfind" record -q --every-major 3 --max-snapshots 3 -o snap -- \
        "$(command -v ocamlopt.opt)" -c gen.ml 2>/dev/null)
    last=$(ls "$o"/snap.*.lfs | sort -t. -k2 -n | tail -1)
    echo "## ocamlopt.opt's heap compiling 15,000 top-level functions: $(basename "$last") ($(du -h "$last" | cut -f1))"
    "$build/bench_stage" "$last" | column -t
    rm -rf "$o"
fi
