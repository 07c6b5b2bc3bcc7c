#!/bin/sh
# Spilling (--memory): every golden CLI case again with every big array in a
# file (--memory 1K), which must give byte-identical stdout, stderr and exit
# codes; outputs written to files compared with and without spilling; a
# TMPDIR that cannot take the spill refused before reading (exit 4); and no
# file left in TMPDIR after a run, an interrupt or a kill -9 mid-analysis.
# usage: tests/spill/run.sh BUILD_DIR       (prints "N passed, M failed" last)
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
LEAKFIND="$root/$build/leakfind"
export LEAKFIND SPILL_SCRATCH SPILL_TMPDIR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/cli/rerun.sh

# 1. The golden cases through a leakfind that spills everything.
# The goldens hold the plain run's output (run_all.sh checks it): passing them
# here is being byte-identical to it.
SPILL_SCRATCH=$tmp SPILL_TMPDIR=${TMPDIR:-} LF="$root/tests/spill/leakfind-spilling" \
    sh tests/cli/run.sh "$build" >"$tmp/spilled.log" 2>&1
golden_tally spilled "$tmp/spilled.log"

# 2. Files written, and every command on every format, with and without spilling.
G=fixtures/graphs
J=fixtures/java/dumps
same() { # same NAME ARGS... : stdout and exit code equal with --memory 1K
    name=$1 cmd=$2
    shift 2
    "$LEAKFIND" "$cmd" -q "$@" >"$tmp/plain.out" 2>&1 </dev/null
    a=$?
    "$LEAKFIND" "$cmd" --memory 1K -q "$@" >"$tmp/spill.out" 2>&1 </dev/null
    b=$?
    if [ $a = $b ] && [ $a -le 1 ] && cmp -s "$tmp/plain.out" "$tmp/spill.out"; then ok
    else bad "$name: exit $a vs $b"; diff "$tmp/plain.out" "$tmp/spill.out" | head -5; fi
}
# the readers and views added with issues 50 and 51, spilled: a caller
# tree, a Memtrace window, a .nettrace, a .NET finalizer queue series
same "sites --by caller sites.txt" sites $G/sites.txt --by caller
same "sites compiler.ctf" sites fixtures/memtrace/compiler-4.13.ctf --allocated-between 25% 75%
same "suspects requests.ctf" suspects fixtures/memtrace/requests-leak-4.13.ctf
same "sites allocs.nettrace" sites fixtures/dotnet/dumps/allocs.nettrace.gz
same "trend finalizer_queue" trend $G/finalizer_queue-1.txt $G/finalizer_queue-2.txt $G/finalizer_queue-3.txt
same "roots roots_repeats" roots $G/roots_repeats.txt
gzip -c $J/planted_leak.hprof >"$tmp/planted.hprof.gz"
gzip -c fixtures/v8/tiny.heapsnapshot >"$tmp/tiny.heapsnapshot.gz"
"$LEAKFIND" convert $G/leak_after.txt -o "$tmp/leak.lfs" 2>/dev/null
for dump in $G/leak_after.txt "$tmp/leak.lfs" $J/planted_leak.hprof "$tmp/planted.hprof.gz" \
            fixtures/v8/tiny.heapsnapshot "$tmp/tiny.heapsnapshot.gz"; do
    n=$(basename "$dump")
    same "info $n" info "$dump"
    same "classes $n" classes "$dump" --top 0
    same "dominators $n" dominators "$dump" --top 0 --min 0
    same "dominators --flat $n" dominators "$dump" --flat --top 0 --min 0
    same "dominators --root $n" dominators "$dump" --root "$("$LEAKFIND" dominators "$dump" --flat --top 1 --min 0 | awk -F'\t' 'NR == 2 {print $2}')"
    same "roots $n" roots "$dump" --top 0
    same "suspects $n" suspects "$dump"
    same "sites $n" sites "$dump"
    top=$("$LEAKFIND" dominators "$dump" --flat --top 2 --min 0 | awk -F'\t' 'NR == 3 {print $2}')
    same "path $n" path "$dump" "$top"
    same "inspect $n" inspect "$dump" "$top"
    same "diff $n" diff "$dump" "$dump"
    same "trend $n" trend "$dump" "$dump" "$dump"
    same "convert $n" convert "$dump" -o -
    "$LEAKFIND" report "$dump" -o "$tmp/plain.html" >/dev/null 2>&1
    "$LEAKFIND" report --memory 1K "$dump" -o "$tmp/spill.html" >/dev/null 2>&1
    cmp -s "$tmp/plain.html" "$tmp/spill.html" && [ -s "$tmp/plain.html" ] && ok || bad "report $n differs"
done

# 3. A spill directory that cannot take the files: refused before reading, exit 4.
refused() { # refused NAME TMPDIR WORDS DUMP
    TMPDIR=$2 "$LEAKFIND" dominators --memory 1K "$4" >"$tmp/out" 2>"$tmp/err" </dev/null
    code=$?
    if [ $code = 4 ] && [ ! -s "$tmp/out" ] && grep -q "$3" "$tmp/err"; then ok
    else bad "$1: exit $code: $(cat "$tmp/err")"; fi
}
refused "missing TMPDIR" "$tmp/none" "cannot make spill files in '$tmp/none'" $J/planted_leak.hprof
touch "$tmp/plainfile"
refused "TMPDIR a file" "$tmp/plainfile" "cannot make spill files" $J/planted_leak.hprof
# a dump bigger than the free space (sparse: a real HPROF header, 10 TiB long)
head -c 4096 $J/planted_leak.hprof >"$tmp/huge.hprof" && truncate -s 10T "$tmp/huge.hprof"
refused "no room" "$tmp" "free to spill to: give a bigger --memory" "$tmp/huge.hprof"
rm -f "$tmp/huge.hprof"
# a 64 KiB tmpfs, where a private mount namespace allows one
mkdir "$tmp/tiny"
if unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1"' sh "$tmp/tiny" 2>/dev/null; then
    unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" && TMPDIR="$1" "$2" dominators --memory 1K "$3"' \
        sh "$tmp/tiny" "$LEAKFIND" $J/planted_leak.hprof >"$tmp/out" 2>"$tmp/err"
    code=$?
    [ $code = 4 ] && [ ! -s "$tmp/out" ] && grep -q "has only 64.0 KiB free to spill to" "$tmp/err" && ok ||
        bad "tiny tmpfs: exit $code: $(cat "$tmp/err")"
else
    echo "skip: no private mount namespace for a tiny tmpfs"
fi
# -q keeps the note quiet; without it, the note names the directory once
mkdir "$tmp/spilldir"
TMPDIR="$tmp/spilldir" "$LEAKFIND" classes --memory 1K $G/diamond.txt >/dev/null 2>"$tmp/err"
[ "$(grep -c "spilling big arrays to files in $tmp/spilldir (removed at exit)" "$tmp/err")" = 1 ] && ok || bad "note: $(cat "$tmp/err")"
TMPDIR="$tmp/spilldir" "$LEAKFIND" classes --memory 1K -q $G/diamond.txt >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] && ok || bad "note with -q: $(cat "$tmp/err")"
# a big enough budget: no note, no spill
"$LEAKFIND" info -v --memory 1G $G/diamond.txt 2>"$tmp/err" | grep -q "^spilled	no$" && [ ! -s "$tmp/err" ] && ok || bad "1G spilled"
"$LEAKFIND" info -v --memory 1K -q $G/diamond.txt | grep -q "^spilled	yes$" && ok || bad "info -v spilled yes"
"$LEAKFIND" info --memory 0 $G/diamond.txt >/dev/null 2>&1; [ $? = 2 ] && ok || bad "--memory 0 is a usage error"

# 4. Nothing left in TMPDIR: after a run, after SIGINT, after kill -9 mid-analysis.
empty() { [ -z "$(ls -A "$tmp/spilldir")" ] && ok || bad "$1: left $(ls -A "$tmp/spilldir")"; }
TMPDIR="$tmp/spilldir" "$LEAKFIND" dominators --memory 1K -q $J/planted_leak.hprof >/dev/null
empty "after a run"
"$root/$build/gen_arrays" "$tmp/big.hprof" 4 3
# waits until the process has a spill file open in $tmp/spill, then signals it
kill_mid() { # kill_mid NAME SIGNAL
    # a script's background job ignores SIGINT unless told otherwise
    TMPDIR="$tmp/spilldir" env --default-signal=INT "$LEAKFIND" dominators --memory 1K -q --threads 1 \
        "$tmp/big.hprof" >/dev/null 2>&1 &
    pid=$!
    seen=0
    for _ in $(seq 400); do
        if ls -l /proc/$pid/fd 2>/dev/null | grep -q "$tmp/spilldir/"; then seen=1; break; fi
        sleep 0.05
    done
    kill -"$2" $pid 2>/dev/null
    wait $pid
    code=$?
    [ $seen = 1 ] && [ $code -gt 128 ] && ok || bad "$1: spill file seen: $seen, exit $code"
    empty "$1"
}
kill_mid "SIGINT" INT
kill_mid "kill -9" KILL

# 5. In a memory cgroup smaller than what the arrays take in RAM (a
# container, a CI job), the default budget comes from the cgroup, not from
# the machine's MemAvailable: the run puts its results in files, spills,
# and prints what a run outside prints, where leakfind used to be killed.
# The arrays-4-3 dump takes about 168 MiB of anonymous memory with
# everything in RAM; the cgroup allows 100 MiB for everything.
cgroup_test() {
    mem=$(awk -F: '$2 == "memory" {print $3}' /proc/self/cgroup)
    cg=/sys/fs/cgroup/memory${mem%/}/leakfind-test-$$
    mkdir "$cg" 2>/dev/null && echo 100M >"$cg/memory.limit_in_bytes" 2>/dev/null || {
        rmdir "$cg" 2>/dev/null
        echo "skip: no memory cgroup (v1) to make here"
        return
    }
    "$LEAKFIND" dominators --top 10 "$tmp/big.hprof" >"$tmp/outside.out" 2>/dev/null
    sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" dominators --top 10 "$3"' sh "$cg" "$LEAKFIND" \
        "$tmp/big.hprof" >"$tmp/inside.out" 2>"$tmp/inside.err"
    code=$?
    [ $code = 0 ] && cmp -s "$tmp/outside.out" "$tmp/inside.out" && grep -q "spilling big arrays" "$tmp/inside.err" &&
        ok || bad "in a 100 MiB cgroup: exit $code: $(cat "$tmp/inside.err")"
    rmdir "$cg"
}
cgroup_test

echo "spill: $pass passed, $fail failed"
[ $fail = 0 ]
