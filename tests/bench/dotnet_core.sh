#!/bin/sh
# A 5M-object .NET core (tests/bench/dotnet/Chains: 5,000 chains of 1,000
# nodes) taken with dotnet-dump into bench-data/ (kept between runs), then:
# leakfind converting it (the .NET agent, ClrMD) and analysing it, each with
# its time and peak RSS; leakfind on the converted .lfs; and SOS's
# `dumpheap -stat` (dotnet-dump analyze) on the same core. Not in CI: on
# request (BENCHMARKS.md 1.18).
# usage: tests/bench/dotnet_core.sh [BUILD_DIR]
set -eu
build=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.."
tools="$HOME/.dotnet/tools"
dump=$(command -v dotnet-dump || echo "$tools/dotnet-dump")
mkdir -p bench-data
core=bench-data/chains-5m.core
if [ ! -f "$core" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work" tests/bench/dotnet/Chains/obj tests/bench/dotnet/Chains/bin' EXIT
    dotnet build -nologo -v q -c Release -o "$work/chains" tests/bench/dotnet/Chains >/dev/null
    mkfifo "$work/in" "$work/out"
    dotnet "$work/chains/Chains.dll" <"$work/in" >"$work/out" &
    pid=$!
    exec 3>"$work/in"
    read -r line <"$work/out"
    "$dump" collect -p "$pid" --type Full -o "$core" >/dev/null
    echo go >&3
    exec 3>&-
    wait "$pid"
fi
cat "$core" >/dev/null # from the page cache, as a second look at a core would be
echo "# .NET core bench, $(date -u +%Y-%m-%d), $(nproc) cores, core $(du -h "$core" | cut -f1), load $(cut -d" " -f1-3 /proc/loadavg)"
# run LABEL COMMAND...: wall seconds, CPU seconds (user + system, the
# agent's included) and peak RSS (MB, the largest process's) of one command
run() {
    label=$1
    shift
    /usr/bin/time -f "%e %U %S %M" -o bench-data/time.txt "$@" >bench-data/out.txt 2>bench-data/err.txt ||
        { echo "$label: failed"; cat bench-data/err.txt; return; }
    read -r secs user sys kb <bench-data/time.txt
    printf '%-52s %7s s wall %7s s cpu %6d MB\n' "$label" "$secs" "$(echo "$user $sys" | awk '{ print $1 + $2 }')" $((kb / 1024))
}
rm -f bench-data/chains-5m.lfs
run "leakfind convert core -o chains.lfs (agent + analysis)" "$build/leakfind" convert "$core" -o bench-data/chains-5m.lfs
run "  the agent alone (ClrMD: core to .lfs)" dotnet "$build/dotnet/leakfind-dotnet.dll" "$core" bench-data/chains-agent.lfs
run "  ClrMD's heap walk alone (agent --stat)" dotnet "$build/dotnet/leakfind-dotnet.dll" --stat "$core"
run "leakfind classes core (agent + analysis)" "$build/leakfind" classes "$core"
run "leakfind dominators core --top 5" "$build/leakfind" dominators "$core" --top 5
run "leakfind classes chains.lfs (converted)" "$build/leakfind" classes bench-data/chains-5m.lfs
run "leakfind dominators chains.lfs --top 5" "$build/leakfind" dominators bench-data/chains-5m.lfs --top 5
run "dotnet-dump analyze core -c 'dumpheap -stat'" "$dump" analyze "$core" -c "dumpheap -stat" -c exit
grep -E "Total|Bench.Node" bench-data/out.txt | tail -2
"$build/leakfind" classes bench-data/chains-5m.lfs --top 3 2>/dev/null
ls -l bench-data/chains-5m.lfs | awk '{ print "converted .lfs:", $5, "bytes" }'
