#!/bin/sh
# Mutation test: every fixture cut at many lengths and with bytes changed at
# many places must give exit 0 or 3 (never a signal, never 4 from a bogus huge
# allocation), and exit 3 must come with a position: "at offset N (0x...)" or
# "line N:". Sourced by run.sh (uses $LF, $build, $tmp, pass, fail); the
# damaged copies come from $build/mutants (tests/cli/mutants.c, which says
# where the cuts and the changed bytes fall).
# With PARTIAL_FROM (a percentage), every cut past that share of the file must
# also read with --partial (exit 0); before it, --partial gives 0 or 3.
# MUTATION_PART=K/N: only every Nth file from the Kth (run_all.sh shares the
# files between its two lanes). LEAKFIND_SANITIZED=1 (the sanitized build,
# several times slower): half the mutations of each file.
mutation_part=${MUTATION_PART:-1/1}
# Under the sanitizers without the leak check at exit (half of each run's
# time there): these cases ask only for exit codes, and the readers' error
# paths are checked for leaks by their fuzz targets (replayed with it on).
mutation_asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
mutation_index=0
check_exit() { # check_exit CODE: 0, or 3 with a position
    code=$1
    if [ $code = 3 ]; then
        grep -Eq 'at offset [0-9]+ \(0x[0-9a-f]+\)|line [0-9]+:' "$tmp/merr" || code=33
    fi
    [ $code = 0 ] || [ $code = 3 ]
}
mutate_file() { # mutate_file FILE CUTS FLIPS [PARTIAL_FROM]
    f=$1 cuts=$2 flips=$3 partial_from=${4:-}
    mutation_index=$((mutation_index + 1))
    [ $(( (mutation_index - 1) % ${mutation_part#*/} + 1 )) = "${mutation_part%/*}" ] || return 0
    if [ "${LEAKFIND_SANITIZED:-}" = 1 ]; then
        cuts=$(( (cuts + 1) / 2 )) flips=$(( (flips + 1) / 2 ))
    fi
    size=$(wc -c <"$f")
    bad=0
    rm -rf "$tmp/mutants" && mkdir "$tmp/mutants"
    "$build/mutants" "$f" "$cuts" "$flips" "$tmp/mutants" >"$tmp/mutants.list" || bad=1
    while read -r m kind i at; do
        ASAN_OPTIONS=$mutation_asan "$LF" info "$m" --no-progress >/dev/null 2>"$tmp/merr" </dev/null
        code=$?
        if ! check_exit $code; then
            [ $bad -lt 3 ] && echo "  $f: mutation $i (at $at) gave exit $code: $(head -c 200 "$tmp/merr")"
            bad=$((bad + 1))
        fi
        if [ "$kind" = cut ]; then
            ASAN_OPTIONS=$mutation_asan "$LF" info "$m" --partial --no-progress >/dev/null 2>"$tmp/merr" </dev/null
            code=$?
            if ! check_exit $code || { [ -n "$partial_from" ] && [ $code != 0 ] &&
                                       [ $at -ge $((size * partial_from / 100)) ]; }; then
                [ $bad -lt 3 ] && echo "  $f: cut $i (at $at) with --partial gave exit $code: $(head -c 200 "$tmp/merr")"
                bad=$((bad + 1))
            fi
        fi
        rm -f "$m"
    done <"$tmp/mutants.list"
    if [ $bad = 0 ]; then ok; else bad "mutation $f: $bad bad"; fi
}

"$LF" convert fixtures/graphs/weak_cache.txt -o "$tmp/mut.lfs" 2>/dev/null
for f in fixtures/graphs/*.txt "$tmp/mut.lfs" fixtures/example/app.lfs fixtures/ocaml/snapshots/finaliser.lfs \
         fixtures/ocaml/snapshots/threaded.lfs; do
    mutate_file "$f" 40 40
done
# The OCaml 5 agent's (continuations, domain-local roots), fewer: the
# sanitized spilled rerun of these is the longest lane of CI.
mutate_file fixtures/ocaml/snapshots5/fibers.lfs 12 12
# HotSpot writes its heap dump segments after about a third of these files
# (strings, classes, traces first): cuts from 50% on must read partially
# (from 70% in gzip files, whose strings compress best).
for f in fixtures/java/dumps/planted_leak.hprof fixtures/java/dumps/weak_cache.hprof \
         fixtures/java/dumps/stack_local.hprof fixtures/java/dumps/class_loader_leak.hprof \
         fixtures/java/dumps/planted_leak_nocoops.hprof; do
    mutate_file "$f" 30 30 50
done
for f in fixtures/java/series/dumps/*.hprof; do
    mutate_file "$f" 10 10 50
done
mutate_file fixtures/java/dumps/planted_leak.hprof.gz 30 30 70
mutate_file fixtures/java/dumps/linked_list_1m.hprof.gz 8 8 70
mutate_file tests/fuzz/corpus/open/hotspot-threads.hprof 30 30
# V8: by hand, a seven-field layout with escapes, one written by Node (and its gzip).
tail -c +2 tests/fuzz/corpus/v8/seven-fields >"$tmp/mut7.heapsnapshot"
gzip -dc fixtures/node/weak_cache.heapsnapshot.gz >"$tmp/mutnode.heapsnapshot"
for f in fixtures/v8/tiny.heapsnapshot "$tmp/mut7.heapsnapshot"; do
    mutate_file "$f" 40 40
done
# Node's snapshots: the nodes take the first quarter or so; cuts from 50% on
# fall in the edges or strings and must read partially.
for f in "$tmp/mutnode.heapsnapshot" fixtures/node/weak_cache.heapsnapshot.gz \
         fixtures/node/listener_leak-1.heapsnapshot.gz fixtures/node/listener_leak-2.heapsnapshot.gz; do
    mutate_file "$f" 20 20 50
done
mutate_file fixtures/node/linked_list.heapsnapshot.gz 6 6 50
