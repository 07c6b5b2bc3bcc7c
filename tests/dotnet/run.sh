#!/bin/sh
# The .NET heap dump reader on real dumps of real .NET 10 processes
# (fixtures/dotnet, README.md there): the graph equals the one Microsoft's
# own reader gives, node for node and edge for edge; the planted leaks are
# found by trend, suspects and path; counts agree with dotnet-gcdump report;
# broken files give their exact error and exit 3.
# usage: tests/dotnet/run.sh [BUILD_DIR]
set -u
build=$(cd "${1:-build}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
lf="$build/leakfind"
d="$top/fixtures/dotnet/dumps"
. "$top/tests/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Microsoft's listing (fixtures/dotnet/Reference) turned into graph_listing's
# lines by docs/DOTNET.md's rules, against leakfind's graph.
check_reference() {
    for ref in "$d"/*.reference.gz; do
        name=$(basename "$ref" .reference.gz)
        dump=$(ls "$d/$name".gcdump* | head -1)
        gunzip -c "$ref" | awk -f "$top/tests/dotnet/reference_graph.awk" | LC_ALL=C sort >"$work/want"
        "$build/graph_listing" "$dump" | LC_ALL=C sort >"$work/got"
        if cmp -s "$work/want" "$work/got"; then
            ok "$name: the graph equals Microsoft's reader's ($(grep -c '^object' "$work/got") objects, $(grep -c '^edge' "$work/got") references, $(grep -c '^root' "$work/got") roots)"
        else
            bad "$name: the graph equals Microsoft's reader's" "$(diff "$work/want" "$work/got" | head -5)"
        fi
    done
}

flagged() { # flagged NAME: the series' flagged rows, "slope counts class|"
    "$lf" trend "$d/$1.1.$2" "$d/$1.2.$2" "$d/$1.3.$2" --workload 100,200,300 --format tsv 2>/dev/null |
        awk -F'\t' '$4 == "yes" { printf "%s %s %s|", $1, $5, $6 }'
}

# Leaky/Program.cs: per operation one Listener and its EventHandler (the
# multicast delegate is one more), one CacheEntry and its byte[100] (the
# runtime keeps 2 other byte arrays), one Session, its closure, its
# TimerCallback, and the Timer, TimerHolder and TimerQueueTimer.
check_trend() {
    expect "leaky: trend flags exactly the planted types, 1.00 per operation" \
"1.00 100,200,300 <>c__DisplayClass0_0|1.00 100,200,300 Acme.CacheEntry|1.00 100,200,300 Acme.Listener|\
1.00 100,200,300 Acme.Session|1.00 102,202,302 System.Byte[]|1.00 101,201,301 System.EventHandler|\
1.00 100,200,300 System.Threading.Timer|1.00 100,200,300 System.Threading.TimerCallback|\
1.00 100,200,300 System.Threading.TimerHolder|1.00 100,200,300 System.Threading.TimerQueueTimer|" \
        "$(flagged leaky gcdump)"
    expect "control: the same work undone, trend flags nothing" "" "$(flagged control gcdump)"
    # WebLeak/Program.cs: an OrderRecord and its byte[256] per request (the
    # server's own byte arrays, about 110, come and go: their counts not checked)
    expect "web (gzip): trend flags the record kept per request and its body" \
        "Shop.OrderRecord 1.00 100,200,300|System.Byte[] 1.00|" \
        "$(flagged web gcdump.gz | tr '|' '\n' | awk 'NF { print $3, $1, ($3 == "System.Byte[]" ? "" : $2) }' |
            sed 's/ $//' | LC_ALL=C sort | tr '\n' '|')"
}

check_owners() {
    expect "leaky: suspects leads with a growth held by a static field, named" "growth static field" \
        "$("$lf" suspects "$d/leaky.3.gcdump" "$d/leaky.1.gcdump" "$d/leaky.2.gcdump" --format tsv 2>/dev/null |
            awk -F'\t' 'NR == 2 { split($15, p, " "); print $2, p[1], p[2] }')"
    expect "leaky: every path to a Listener starts at the static event's field" "static field Changed" \
        "$("$lf" path "$d/leaky.3.gcdump" --class Acme.Listener --format tsv 2>/dev/null |
            awk -F'\t' 'NR > 1 && $4 == 0 { print $10 }' | sort -u)"
    expect "leaky: the cache's entries are found from Cache.Entries" "static field Entries" \
        "$("$lf" path "$d/leaky.3.gcdump" --class Acme.CacheEntry --format tsv 2>/dev/null |
            awk -F'\t' 'NR > 1 && $4 == 0 { print $10 }' | sort -u)"
    expect "web: the orders are found from Orders.Recent" "static field Recent" \
        "$("$lf" path "$d/web.3.gcdump.gz" --class Shop.OrderRecord --format tsv 2>/dev/null |
            awk -F'\t' 'NR > 1 && $4 == 0 { print $10 }' | sort -u)"
}

# dotnet-gcdump report lists one row per type entry (a size bucket is an
# entry of its own); its counts, summed by class, are leakfind's. (Its
# "Object Bytes" is the first object's size, not the total: not compared.)
check_report_counts() {
    awk 'NR > 4 && NF >= 3 {
            line = $0; sub(/^ *[0-9,]+ +[0-9,]+  /, "", line); sub(/  \[[^]]*\]$/, "", line)
            count = $2; gsub(/,/, "", count); name[line] += count }
        END { for (n in name) print n "\t" name[n] }' "$d/leaky.3.report.txt" |
        awk -F'\t' '{ n = $1; sub(/ \(Bytes > [0-9]+[KM]?\)$/, "", n); c[n] += $2 }
            END { for (k in c) print k "\t" c[k] }' | LC_ALL=C sort >"$work/report"
    "$lf" classes "$d/leaky.3.gcdump" --top 0 --format tsv 2>/dev/null |
        awk -F'\t' 'NR > 1 { print $5 "\t" $1 }' | LC_ALL=C sort >"$work/classes"
    # the report's names keep the collector's "[]c" and "<,>": compare those as leakfind repairs them
    sed 's/\[\]\([A-Za-z0-9_]\)/<>\1/g; s/<\(,\{1,\}\)>/[\1]/g' "$work/report" | LC_ALL=C sort >"$work/report.fixed"
    if cmp -s "$work/report.fixed" "$work/classes"; then
        ok "leaky.3: per-class counts equal dotnet-gcdump report's ($(wc -l <"$work/classes" | tr -d ' ') classes)"
    else
        bad "leaky.3: per-class counts equal dotnet-gcdump report's" "$(diff "$work/report.fixed" "$work/classes" | head -6)"
    fi
}

bad_file() { # bad_file FILE MESSAGE
    out=$("$lf" info "$top/fixtures/dotnet/bad/$1" 2>&1 >/dev/null)
    expect "bad input $1: exit 3 and the message" "3 leakfind: error: '$top/fixtures/dotnet/bad/$1': $2" "$? $out"
}

# fixtures/dotnet/bad, made from dumps/control.1.gcdump:
#   head -c 200 control.1.gcdump > header-only.gcdump (and version8.gcdump, then
#     printf '\x08' | dd of=version8.gcdump bs=1 seek=27 conv=notrunc)
#   head -c 100000 control.1.gcdump > truncated.gcdump
#   total-size.gcdump: a copy, printf '\x0f\x27\0\0\0\0\0\0' at offset 84 (0x54)
check_bad_input() {
    bad_file header-only.gcdump "truncated .gcdump at offset 96 (0x60): the type table: 539 of at least 12 bytes each, 100 bytes left"
    bad_file truncated.gcdump "truncated .gcdump at offset 90119 (0x16007): the node addresses: 3763 of at least 8 bytes each, 9877 bytes left"
    total=$(gunzip -c "$d/control.1.reference.gz" | head -1 | sed 's/.* total_size //')
    bad_file total-size.gcdump "bad .gcdump at offset 84 (0x54): the graph's total size says 9999 bytes, its nodes add up to $total"
    bad_file version8.gcdump "unsupported .gcdump at offset 24 (0x18): GCHeapDump version 8: versions 9 and 10 are read (what dotnet-gcdump, dotnet-monitor and PerfView write)"
}

# leakfind record on a .NET program, when the SDK and dotnet-gcdump are here:
# Leaky's timed mode leaks for some seconds; a dump every second, and one on
# SIGUSR1 (sent until one is written: a loaded machine starts dotnet slowly).
check_record() {
    tool=$(command -v dotnet-gcdump || echo "$HOME/.dotnet/tools/dotnet-gcdump")
    if ! command -v dotnet >/dev/null 2>&1 || [ ! -x "$tool" ]; then
        ok "record on .NET: skipped (no dotnet SDK or dotnet-gcdump; tests/setup.sh installs the tool)"
        return
    fi
    if ! dotnet build -nologo -v q -c Release -o "$work/leaky" "$top/fixtures/dotnet/Leaky" >"$work/build.log" 2>&1; then
        bad "record on .NET: Leaky builds" "$(tail -3 "$work/build.log")"
        return
    fi
    rm -rf "$top/fixtures/dotnet/Leaky/obj" "$top/fixtures/dotnet/Leaky/bin"
    (cd "$work" && "$lf" record -q --every 1 -o every -- dotnet "$work/leaky/Leaky.dll" timed 6000)
    expect "record --every 1 on a .NET program: its exit status" 0 $?
    n=$(ls "$work"/every.*.gcdump 2>/dev/null | wc -l | tr -d ' ')
    expect "record --every 1: a dump a second, each a .gcdump leakfind reads" "yes" \
        "$([ "$n" -ge 2 ] && for f in "$work"/every.*.gcdump; do "$lf" info "$f" >/dev/null 2>&1 || exit 1; done && echo yes)"
    last=$(ls "$work"/every.*.gcdump | sort -t. -k2 -n | tail -1)
    # Every Listener is kept by the event, but the one an operation is
    # building as the dump is taken, which a local may hold (the shortest
    # path of one listener alone was flaky on a loaded machine).
    expect "record --every 1: the leak is in the dumps, every listener but the newest under the event" "yes" \
        "$("$lf" path "$last" --class Acme.Listener --top 0 --format tsv 2>/dev/null | awk -F'\t' '
            NR > 1 && $4 == 0 { n++; if ($10 == "static field Changed") s++ } END { if (n >= 2 && s >= n - 1) print "yes" }')"
    (cd "$work" && "$lf" record -q -o sig -- dotnet "$work/leaky/Leaky.dll" timed 9000) &
    rec=$!
    tries=0
    while [ ! -f "$work/sig.1.gcdump" ] && [ $tries -lt 7 ]; do
        sleep 1
        kill -USR1 "$rec" 2>/dev/null
        sleep 0.5
        tries=$((tries + 1))
    done
    wait "$rec"
    expect "record on SIGUSR1: a dump, the program goes on to its end" "0 yes" \
        "$? $([ -f "$work/sig.1.gcdump" ] && "$lf" info "$work/sig.1.gcdump" >/dev/null 2>&1 && echo yes)"
}

# Every command on a .gcdump; diff's new instances by class follow from
# Leaky (100 operations between leaky.2 and leaky.3: 100 of each type).
check_commands() {
    c="$work/cmds"
    mkdir -p "$c" && cp "$d/leaky.3.gcdump" "$c/l3.gcdump"
    failed=""
    for cmd in "info" "classes" "dominators --top 3" "dominators --flat --top 3" "roots" "roots --by-kind" \
        "path --class Acme.Session --top 1" "suspects" "strings --largest 1"; do
        "$lf" $cmd "$c/l3.gcdump" >"$c/out" 2>/dev/null
        rc=$?
        case "$cmd:$rc" in strings*:2) ;; *:0) [ -s "$c/out" ] || failed="$failed [$cmd: no output]" ;;
            *) failed="$failed [$cmd: exit $rc]" ;; esac
    done
    "$lf" inspect "$c/l3.gcdump" "$("$lf" roots "$c/l3.gcdump" --format tsv 2>/dev/null | awk -F'\t' 'NR == 2 { print $1 }')" \
        >/dev/null 2>&1 || failed="$failed [inspect]"
    "$lf" report "$c/l3.gcdump" "$d/leaky.1.gcdump" "$d/leaky.2.gcdump" -o "$c/r.html" 2>/dev/null &&
        [ -s "$c/r.html" ] || failed="$failed [report]"
    "$lf" convert "$c/l3.gcdump" -o "$c/l3.lfs" 2>/dev/null &&
        [ "$("$lf" info "$c/l3.lfs" --format tsv 2>/dev/null | awk -F'\t' '$1 == "source_format" { print $2 }')" = gcdump ] ||
        failed="$failed [convert]"
    "$lf" classes "$c/l3.gcdump" --cache >/dev/null 2>&1 && [ -f "$c/l3.gcdump.leakfind-cache" ] &&
        "$lf" classes "$c/l3.gcdump" --cache >/dev/null 2>&1 || failed="$failed [--cache]"
    expect "every command runs on a .gcdump" "" "$failed"
    expect "diff leaky.2 leaky.3: 100 new instances of each planted class" \
        "Acme.CacheEntry 100|Acme.Listener 100|Acme.Session 100|System.Threading.Timer 100|" \
        "$("$lf" diff "$d/leaky.2.gcdump" "$d/leaky.3.gcdump" --format tsv 2>/dev/null |
            awk -F'\t' '$10 ~ /^Acme\.|^System\.Threading\.Timer$/ { print $10, $3 }' | LC_ALL=C sort | tr '\n' '|')"
}

# The dump session itself (dotnet-gcdump over EventPipe) makes the runtime
# build NativeRuntimeEventSource's metadata, ~200 KB under `static field
# Log`: in every dump here, never a finding. Before, it was the first
# single-dump finding of the controls (68% of control.3) and of web.3.
check_session_objects() {
    found=""
    for dump in "$d"/*.gcdump "$d"/*.gcdump.gz; do
        "$lf" suspects "$dump" --format tsv 2>/dev/null | awk -F'\t' -v f="$(basename "$dump")" \
            'NR > 1 && $6 ~ /EventSource/ { printf "[%s: %s]", f, $6 }'
    done >"$work/session"
    expect "no suspect is an object the dump session made (NativeRuntimeEventSource), in 9 dumps" "" \
        "$(cat "$work/session")"
    expect "web.3 alone: the first finding is the DI ServiceProvider, not the event source" \
        "Microsoft.Extensions.DependencyInjection.ServiceProvider" \
        "$("$lf" suspects "$d/web.3.gcdump.gz" --format tsv 2>/dev/null | awk -F'\t' 'NR == 2 { print $6 }')"
}

# C# names (docs/DOTNET.md): a generic type by its C# spelling, with or
# without namespaces, keywords for built-in types; a misspelt one is exit 2
# with the closest names. Leaky keeps its timers in `static List<Timer>
# Kept` and its entries in `static Dictionary<int, CacheEntry> Entries`.
check_csharp_names() {
    for name in 'List<Timer>' 'List<System.Threading.Timer>' 'System.Collections.Generic.List<Timer>'; do
        expect "path --class '$name': the list held by static field Kept" "static field Kept" \
            "$("$lf" path "$d/leaky.3.gcdump" --class "$name" --format tsv 2>/dev/null | awk -F'\t' 'NR == 2 { print $10 }')"
    done
    expect "path --class 'Dictionary<int, CacheEntry>': the map held by static field Entries" "static field Entries" \
        "$("$lf" path "$d/leaky.3.gcdump" --class 'Dictionary<int, CacheEntry>' --format tsv 2>/dev/null |
            awk -F'\t' 'NR == 2 { print $10 }')"
    out=$("$lf" path "$d/leaky.3.gcdump" --class 'List<Timr>' 2>&1 >/dev/null | grep -v note)
    expect "path --class 'List<Timr>': exit 2, the list suggested" \
        "2 leakfind: error: no class 'List<Timr>' (did you mean System.Collections.Generic.List<System.Threading.Timer>, System.Collections.Generic.List<System.Char>?)" \
        "$("$lf" path "$d/leaky.3.gcdump" --class 'List<Timr>' >/dev/null 2>&1; echo $?) $out"
    expect "path --class 'Dictionary<int, EventSource+EventMetadata>': a nested type as C# writes it" "static field Log" \
        "$("$lf" path "$d/leaky.3.gcdump" --class 'Dictionary<int, EventSource+EventMetadata>' --format tsv 2>/dev/null |
            awk -F'\t' 'NR == 2 { print $10 }')"
}

# roots on the web server: the statics' Object[] that 7 frames report as a
# local is one row of 7, and the DI ServiceProvider, which no root keeps
# alone (the host and the request scopes share it), is a row of its own
check_roots() {
    expect "web.3 roots: the locals' Object[] folded into one row" "1 row" \
        "$("$lf" roots "$d/web.3.gcdump.gz" --top 0 --format tsv 2>/dev/null |
            awk -F'\t' '$5 == "local" && $6 == "System.Object[]" && $9 == 7 { n++ } END { print n " row" }')"
    expect "web.3 roots: the ServiceProvider among the first 3 rows, held by several roots" \
        "several roots Microsoft.Extensions.DependencyInjection.ServiceProvider" \
        "$("$lf" roots "$d/web.3.gcdump.gz" --top 3 --format tsv 2>/dev/null | awk -F'\t' '$6 ~ /ServiceProvider$/ { print $5, $6 }')"
}

# A dump cut short (fixtures/dotnet/bad/cut.gcdump.gz: `gen_gcdump 20000
# cut.gcdump cut`, tests/bench/gen_gcdump.c): 18,997 objects, and [static
# vars] lists one static of 1000, whose tree and the objects its cross
# references reach are 48 (ranks 0, 1000, 1001, 3000-3003, ... by the
# generator's rules). Every command says so before its answer, with
# --keep-unreachable; --keep-unreachable itself does not.
check_cut_dump() {
    cut="$top/fixtures/dotnet/bad/cut.gcdump.gz"
    want="leakfind: warning: '$cut': only 48 of its 18997 objects are reachable from the roots it holds: the dump was cut short (dotnet-gcdump stops at 10,000,000 nodes, and may lose events under load), and sizes and percentages below are of the reachable part; --keep-unreachable analyses every object, those no root reaches as roots"
    for cmd in suspects info classes; do
        expect "a cut dump: $cmd warns first, exit 0" "0 $want" \
            "$("$lf" $cmd "$cut" 2>"$work/cut.err" >/dev/null; echo $?) $(head -1 "$work/cut.err")"
    done
    expect "a cut dump with --keep-unreachable: no warning" "0 " \
        "$("$lf" suspects "$cut" --keep-unreachable 2>"$work/cut.err" >/dev/null; echo $?) $(cat "$work/cut.err")"
    expect "the real dumps here are not cut: no warning on any" "" \
        "$(for f in "$d"/*.gcdump "$d"/*.gcdump.gz; do "$lf" classes "$f" 2>&1 >/dev/null | grep -l "cut short"; done)"
}

check_reference
check_cut_dump
check_roots
check_session_objects
check_csharp_names

# fixtures/dotnet/Allocs traced (regen-trace.sh): leakfind's sites of the
# .nettrace against TraceEvent's own reading of it (TraceReference/: one line
# per tick, type, AllocationAmount64, frames "0xIP=Name(signature)"), per
# type and whole stack: ticks and bytes. Frames are named without their
# signature, as leakfind names them.
check_trace_reference() {
    gunzip -c "$d/allocs.trace-reference.gz" | awk -F'\t' '
        /^# ticks / { next }
        { n = split($3, f, /,0x/); site = ""
          for (i = 1; i <= n; i++) {
              if (i > 1) f[i] = "0x" f[i]
              name = f[i]; sub(/^0x[0-9a-f]*=/, "", name); sub(/\(.*/, "", name)
              if (name == "") { name = f[i]; sub(/=.*/, "", name) }
              site = site (i > 1 ? " < " : "") name }
          if (n == 0) site = "(no stack)"
          key = $1 "\t" site; ticks[key]++; bytes[key] += $2 }
        END { for (k in ticks) print k "\t" ticks[k] "\t" bytes[k] }' | LC_ALL=C sort >"$work/trace.want"
    "$lf" sites "$d/allocs.nettrace.gz" --stack 0 --top 0 --format tsv 2>/dev/null |
        awk -F'\t' 'NR > 1 { print $7 "\t" $8 "\t" $1 "\t" $2 }' | LC_ALL=C sort >"$work/trace.got"
    if [ -s "$work/trace.want" ] && cmp -s "$work/trace.want" "$work/trace.got"; then
        ok "allocs.nettrace: ticks and bytes per type and stack equal TraceEvent's ($(wc -l <"$work/trace.got" | tr -d ' ') sites, $(awk -F'\t' '{ t += $3 } END { print t }' "$work/trace.got") ticks)"
    else
        bad "allocs.nettrace: ticks and bytes per type and stack equal TraceEvent's" "$(diff "$work/trace.want" "$work/trace.got" | head -6)"
    fi
}

# Allocs/Program.cs: Store.Keep allocates 100,000 Orders of 32 bytes
# (3,200,000 bytes), all kept; Scratch.Fill 5,000 Byte[1000] of 1,024 bytes
# (5,120,000), none kept; one phase after the other. A tick's amount is the
# bytes since the tick before (about 100 KB), so each phase's sum is its
# bytes within one tick (110,000 here). --with the .gcdump taken at the end:
# the 100,000 Orders (3,200,000 bytes) are there, Fill's arrays are not.
check_trace_sites() {
    rows=$("$lf" sites "$d/allocs.nettrace.gz" --with "$d/allocs.gcdump.gz" --format tsv 2>/dev/null)
    expect "allocs: each planted type's top site is the method that allocates it" \
        "Acme.Orders.Order Acme.Orders.Store.Keep|System.Byte[] Acme.Orders.Scratch.Fill|" \
        "$(echo "$rows" | awk -F'\t' '($7 == "Acme.Orders.Order" || $7 == "System.Byte[]") && !seen[$7]++ { print $7, $8 }' |
            LC_ALL=C sort | tr '\n' '|')"
    expect "allocs: the bytes the ticks stand for are each phase's, within one tick" "Order ok|Fill ok|" \
        "$(echo "$rows" | awk -F'\t' '
            $8 == "Acme.Orders.Store.Keep" { print "Order", ($2 > 3200000 - 110000 && $2 < 3200000 + 110000 ? "ok" : $2) }
            $8 == "Acme.Orders.Scratch.Fill" { print "Fill", ($2 > 5120000 - 110000 && $2 < 5120000 + 110000 ? "ok" : $2) }' |
            LC_ALL=C sort -r | tr '\n' '|')"
    expect "allocs --with the final .gcdump: Keep's Orders are all retained, Fill's arrays are gone" \
        "Keep 100000 3200000|Fill gone|" \
        "$(echo "$rows" | awk -F'\t' '
            $8 == "Acme.Orders.Store.Keep" { print "Keep", $4, $5 }
            $8 == "Acme.Orders.Scratch.Fill" { print "Fill", ($4 < 10 ? "gone" : $4) }' |
            LC_ALL=C sort -r | tr '\n' '|')"
    out=$("$lf" sites "$d/allocs.nettrace.gz" 2>&1 >/dev/null)
    expect "allocs: sites says the ticks are a sample" "yes" "$(echo "$out" | grep -q 'a sample, one tick per about 100 KB' && echo yes)"
    out=$("$lf" dominators "$d/allocs.nettrace.gz" 2>&1 >/dev/null)
    expect "a .nettrace (gzip'd) given to dominators: exit 3, says what it is and to use sites" "3 yes" \
        "$? $(echo "$out" | grep -q "a gzip file holding a .NET trace (.nettrace, from dotnet-trace), not a heap dump.*leakfind sites TRACE.*dotnet-gcdump collect" && echo yes)"
    out=$("$lf" sites "$d/leaky.3.gcdump" 2>&1 >/dev/null)
    expect "sites on a .gcdump: exit 0, says how to record a .nettrace and join it" "0 yes" \
        "$? $(echo "$out" | grep -q "dotnet-trace collect -p PID --providers Microsoft-Windows-DotNETRuntime:0x1:5 -o TRACE.nettrace.*leakfind sites TRACE.nettrace --with" && echo yes)"
    "$lf" sites "$d/leaky.3.gcdump" --with "$d/leaky.2.gcdump" >/dev/null 2>&1
    expect "sites --with on a dump, not a trace: usage error" "2" "$?"
}

trace_bad() { # trace_bad FILE MESSAGE
    out=$("$lf" sites "$top/fixtures/dotnet/bad/$1" 2>&1 >/dev/null)
    expect "bad trace $1: exit 3 and the message" "3 leakfind: error: '$top/fixtures/dotnet/bad/$1': $2" "$? $out"
}

# fixtures/dotnet/bad/make_traces.py writes these and prints each offset.
check_trace_bad_input() {
    trace_bad truncated.nettrace "truncated .nettrace at offset 17918 (0x45fe): EventBlock of 102357 bytes, 2076 left"
    trace_bad block-length.nettrace "truncated .nettrace at offset 895 (0x37f): EventBlock of 233890 bytes, 232990 left"
    trace_bad stack-id.nettrace "bad .nettrace at offset 876 (0x36c): an allocation tick names stack id 2, which no StackBlock since the last sequence point gave"
    trace_bad metadata-id.nettrace "bad .nettrace at offset 876 (0x36c): an event names metadata id 9, which no MetadataBlock defined"
    expect "tiny.nettrace (made by hand): one tick of Acme.Thing at Acme.Maker.Make, 40000 bytes" \
        "1 40000 Acme.Thing Acme.Maker.Make" \
        "$("$lf" sites "$top/fixtures/dotnet/bad/tiny.nettrace" --format tsv 2>/dev/null | awk -F'\t' 'NR == 2 { print $1, $2, $7, $8 }')"
    # a tick's type names joined with a .gcdump's class names: leaky.3 holds
    # 300 CacheEntry (Leaky), the one entries array of Cache.Entries (a nested
    # generic type, which the .gcdump names without its outer type) and the
    # one List<Timer> Program.Kept
    expect "generic-names.nettrace --with leaky.3: tick type names found among the dump's classes" \
        "Acme.CacheEntry 300|System.Collections.Generic.Dictionary\`2+Entry[System.Int32,Acme.CacheEntry][] 1|System.Collections.Generic.List\`1[System.Threading.Timer] 1|" \
        "$("$lf" sites "$top/fixtures/dotnet/bad/generic-names.nettrace" --with "$d/leaky.3.gcdump" --format tsv 2>/dev/null |
            awk -F'\t' 'NR > 1 { print $7, $4 }' | LC_ALL=C sort | tr '\n' '|')"
}

# Every cut and changed byte of a trace gives exit 0 or 3 with an offset,
# never a signal or a system error: the hand-made trace cut at every 23rd
# byte and changed at every 17th, the real one at 12 places each way.
check_trace_mutations() {
    gunzip -c "$d/allocs.nettrace.gz" >"$work/real.nettrace"
    bad_runs=""
    for f in "$top/fixtures/dotnet/bad/tiny.nettrace" "$work/real.nettrace"; do
        size=$(wc -c <"$f")
        case $f in *tiny*) cuts=$(seq 0 23 "$size") flips=$(seq 0 17 "$size") ;;
            *) cuts=$(awk -v n="$size" 'BEGIN { for (i = 0; i < 12; i++) print int(n * i / 12) + i }')
               flips=$(awk -v n="$size" 'BEGIN { for (i = 0; i < 12; i++) print (i * 2654435761) % n }') ;; esac
        for at in $cuts; do
            head -c "$at" "$f" >"$work/m.nettrace"
            "$lf" sites "$work/m.nettrace" >/dev/null 2>"$work/m.err"
            rc=$?
            { [ $rc = 0 ] || { [ $rc = 3 ] && grep -q 'at offset [0-9]* (0x' "$work/m.err"; }; } ||
                bad_runs="$bad_runs [$(basename "$f") cut at $at: exit $rc]"
        done
        for at in $flips; do
            cp "$f" "$work/m.nettrace"
            printf '\377' | dd of="$work/m.nettrace" bs=1 seek="$at" conv=notrunc 2>/dev/null
            "$lf" sites "$work/m.nettrace" >/dev/null 2>"$work/m.err"
            rc=$?
            { [ $rc = 0 ] || { [ $rc = 3 ] && grep -q 'at offset [0-9]* (0x' "$work/m.err"; }; } ||
                bad_runs="$bad_runs [$(basename "$f") byte $at changed: exit $rc]"
        done
    done
    expect "cut and changed traces: exit 0, or 3 with an offset" "" "$bad_runs"
}

check_reference
check_trace_reference
check_trace_mutations
check_trace_sites
check_trace_bad_input
check_commands
check_record
check_trend
check_owners
check_report_counts
check_bad_input
finish
