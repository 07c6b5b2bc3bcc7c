#!/bin/sh
# Series (issue 52): `suspects` on one snapshot, then `suspects` and `trend`
# over three, on a 30M-object JVM series and a 14M-object OCaml series, each
# written once into bench-data/ and kept. Target: three snapshots at most
# 3.5x one snapshot's `suspects`.
#  - JVM: gen_hprof_big (BigHeap's shape) at 28M, 29M and 30M objects, the
#    same seed, with 2000, 4000 and 6000 planted entries: the units appended
#    and the planted map grow;
#  - OCaml: tests/bench/ocaml/bigheap.ml's "series" mode with the OCaml 4
#    agent (the table at 80%, 90% and all of its entries; 16,500,000 gives
#    about 14M live blocks in the last), when ocamlfind and the agent are there.
# Prints wall, user and system seconds and peak RSS per command.
# usage: tests/bench/series.sh BUILD_DIR
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."
mkdir -p bench-data
abs_build=$(cd "$build" && pwd)

# run LABEL ARGS...: one leakfind command, timed
run() {
    label=$1
    shift
    /usr/bin/env time -f "$label: %e s wall, %U s user, %S s sys, peak RSS %M KiB" \
        "$build/leakfind" "$@" --no-progress >/dev/null
}

# series TITLE A B C: one snapshot's suspects, then the three (C the last)
series() {
    echo "## series: $1"
    shift
    for f in "$@"; do cat "$f" >/dev/null; done
    run "suspects on the last" suspects "$3"
    run "suspects over three" suspects "$3" "$1" "$2"
    run "trend over three" trend "$1" "$2" "$3"
}

j=bench-data/series-jvm
if [ ! -f "$j-3.hprof" ] || [ tests/bench/gen_hprof_big.c -nt "$j-3.hprof" ]; then
    "$build/gen_hprof_big" "$j-1.hprof" 28000000 42 2000 >/dev/null
    "$build/gen_hprof_big" "$j-2.hprof" 29000000 42 4000 >/dev/null
    "$build/gen_hprof_big" "$j-3.hprof" 30000000 42 6000 >/dev/null
fi
series "JVM, 28M, 29M and 30M objects" "$j-1.hprof" "$j-2.hprof" "$j-3.hprof"

o=bench-data/series-ocaml
if command -v ocamlfind >/dev/null && [ -f "$build/ocaml/leakfind/leakfind.cmxa" ]; then
    if [ ! -f "$o/bigheap.3.lfs" ] || [ tests/bench/ocaml/bigheap.ml -nt "$o/bigheap.3.lfs" ]; then
        mkdir -p "$o"
        cp tests/bench/ocaml/bigheap.ml "$o/"
        (cd "$o" && OCAMLPATH="$abs_build/ocaml" \
            ocamlfind ocamlopt -O2 -package leakfind,unix -linkpkg bigheap.ml -o bigheap 2>/dev/null &&
            LEAKFIND_NAMES=/dev/null ./bigheap 16500000 series)
    fi
    series "OCaml 4, bigheap 16500000 series" "$o/bigheap.1.lfs" "$o/bigheap.2.lfs" "$o/bigheap.3.lfs"
fi
