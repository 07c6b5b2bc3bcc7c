#!/bin/sh
# .NET full dumps (cores) read through the .NET agent (agents/dotnet, ClrMD;
# docs/DOTNET.md "Full dumps"). Two parts:
#  - the committed fixtures (fixtures/dotnet/regen_core.sh): Leaky's "full"
#    mode dumped both ways at one stop, the core converted to leaky-full.lfs
#    by the agent, beside leaky-full.gcdump. Numbers from Leaky's
#    construction (fixtures/dotnet/README.md); the core's answers equal the
#    .gcdump's for the planted classes; classes equal ClrMD's own heap walk
#    and SOS's dumpheap -stat of the same core.
#  - live, where dotnet is (CI has it; skipped only without dotnet): Leaky
#    run, one core taken with dotnet-dump, every command reading the core
#    itself through the agent; a truncated core; dotnet missing.
# usage: tests/dotnet/core.sh [BUILD_DIR]
set -u
build=$(cd "${1:-build}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
lf="$build/leakfind"
d="$top/fixtures/dotnet/dumps"
. "$top/tests/lib.sh"
work=$(mktemp -d)
leaky_pid=""
trap '[ -z "$leaky_pid" ] || kill "$leaky_pid" 2>/dev/null; rm -rf "$work"' EXIT

# classes' rows for the planted classes (not arrays, not nested types,
# which a .gcdump names without their outer type), "count shallow retained
# class|" by name
planted() {
    "$lf" classes "$1" --top 0 --format tsv 2>/dev/null |
        awk -F'\t' '$5 ~ /^(Acme|Docs)\.[A-Za-z.]*$/ { print $1, $2, $3, $5 }' | LC_ALL=C sort -k4 | tr '\n' '|'
}

# one class's "count shallow retained"
class_row() {
    "$lf" classes "$1" --top 0 --format tsv 2>/dev/null | awk -F'\t' -v c="$2" '$5 == c { print $1, $2, $3 }'
}

# Leaky full: 300 operations, each a Listener (on the event), a CacheEntry
# (in the Dictionary), a Session with its closure and Timer, a Document
# (in DocumentStore.Instance.Open); one Request on the stack.
check_planted() { # check_planted SNAPSHOT LABEL
    expect "$2: the planted classes, 300 each (1 Request, 1 store), the closures named in their class" \
"300 Acme.CacheEntry|300 Acme.Listener|300 Acme.Session|300 Docs.Document|1 Docs.DocumentStore|1 Docs.Request|300" \
        "$(planted "$1" | tr '|' '\n' | awk 'NF { print $1, $4 }' | tr '\n' '|')$(class_row "$1" 'Acme.Program+<>c__DisplayClass0_0' | cut -d' ' -f1)"
    expect "$2: the static auto-property read as its declaring type's name" \
        "static field Docs.DocumentStore.Instance Docs.DocumentStore" \
        "$("$lf" roots "$1" --top 0 --format tsv 2>/dev/null |
            awk -F'\t' '$7 == "Docs.DocumentStore.Instance" { print $5, $7, $6 }')"
    expect "$2: every Listener's path starts at the event, through field names" \
        "300 static field Acme.Bus.Changed|_invocationList|[N]|_target|" \
        "$("$lf" path "$1" --class Acme.Listener --top 0 --format tsv 2>/dev/null | awk -F'\t' '
            NR > 1 && $4 == 0 { n++; root[$10]++ }
            NR > 1 && $4 > 0 && $1 == first { f = f ($9 ~ /^\[[0-9]+\]$/ ? "[N]" : $9) "|" }
            NR == 2 { first = $1 }
            END { for (r in root) printf "%d %s|%s", root[r], r, f }')"
    expect "$2: the request's frame holds its local in threads" \
        "frame Docs.Requests.Serve holds Docs.Request" \
        "$("$lf" threads "$1" --locals 0 --format tsv 2>/dev/null | awk -F'\t' '
            $1 == 2 && $3 ~ /^frame [0-9]+: Docs\.Requests\.Serve$/ && $5 == "Docs.Request" { print "frame Docs.Requests.Serve holds", $5 }')"
    # the path's last step is the Document's index in the list: Document N is at [N - 1]
    "$lf" path "$1" --class Docs.Document --top 1 --format tsv 2>/dev/null >"$work/docpath"
    doc=$(awk -F'\t' 'NR > 1 { id = $5 } END { print id }' "$work/docpath")
    n=$(awk -F'\t' 'NR > 1 { f = $9 } END { gsub(/[][]/, "", f); print f + 1 }' "$work/docpath")
    expect "$2: a Document's fields in inspect: its Title (by the property's name) and its text" \
        "Title System.String Document $n" \
        "$("$lf" inspect "$1" "$doc" --format tsv 2>/dev/null | awk -F'\t' '$1 == "edge" { print $3, $7, $5 }')"
    req=$("$lf" query "$1" 'SELECT * FROM Docs.Request' --format tsv 2>/dev/null |
        awk -F'\t' 'NR == 2 { print $1 }')
    expect "$2: the request's Path in inspect" "Path GET /docs/300" \
        "$("$lf" inspect "$1" "$req" --format tsv 2>/dev/null | awk -F'\t' '$1 == "edge" { print $3, $5 }')"
    expect "$2: strings finds the planted texts: 300 documents' titles, each one copy" "300" \
        "$("$lf" strings "$1" --largest --top 0 --format tsv 2>/dev/null | grep -c '	Document [0-9]*$')"
}

# The same stop dumped both ways: the planted classes' counts, shallow and
# retained bytes are equal. (What may differ: the runtime's own objects
# that the .gcdump session creates after the core was taken, the statics'
# object[] buckets, and nested types' names, which a .gcdump lacks.)
check_both_ways() {
    want=$(planted "$d/leaky-full.gcdump")
    expect "core and .gcdump of one stop: equal counts and retained sizes of the planted classes" \
        "$want" "$(planted "$d/leaky-full.lfs")"
    [ -n "$want" ] || bad "the .gcdump's planted classes are found"
    expect "core and .gcdump: the closure, nested in the core's name, alike" \
        "$(class_row "$d/leaky-full.gcdump" '<>c__DisplayClass0_0')" \
        "$(class_row "$d/leaky-full.lfs" 'Acme.Program+<>c__DisplayClass0_0')"
}

# ClrMD's own walk (the agent's --stat) and SOS's dumpheap -stat of the
# core, per class, equal leakfind's classes of the converted file.
check_heap_walks() {
    "$lf" classes "$1" --top 0 --format tsv 2>/dev/null |
        awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $5 }' | LC_ALL=C sort >"$work/classes"
    awk -F'\t' 'NR > 1' "$2" | LC_ALL=C sort >"$work/stat"
    if cmp -s "$work/classes" "$work/stat"; then
        ok "$3: classes equal ClrMD's own heap walk ($(wc -l <"$work/stat" | tr -d ' ') classes)"
    else
        bad "$3: classes equal ClrMD's own heap walk" "$(diff "$work/stat" "$work/classes" | head -5)"
    fi
}

check_dumpheap() {
    # "MT Count TotalSize Class Name" rows, names with ", " as SOS writes them; Free is no object
    awk '$1 ~ /^[0-9a-f]+$/ && NF >= 4 && $2 ~ /^[0-9,]+$/ {
            name = $4; for (i = 5; i <= NF; i++) name = name " " $i
            if (name == "Free") next
            gsub(/, /, ",", name); gsub(/,/, "", $2); gsub(/,/, "", $3)
            n[name] += $2; b[name] += $3 }
         END { for (k in n) print n[k] "\t" b[k] "\t" k }' "$d/leaky-full.dumpheap.txt" | LC_ALL=C sort >"$work/sos"
    "$lf" classes "$d/leaky-full.lfs" --top 0 --format tsv 2>/dev/null |
        awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $5 }' | LC_ALL=C sort >"$work/classes"
    if cmp -s "$work/classes" "$work/sos"; then
        ok "fixture: classes equal SOS's dumpheap -stat of the core ($(wc -l <"$work/sos" | tr -d ' ') classes)"
    else
        bad "fixture: classes equal SOS's dumpheap -stat of the core" "$(diff "$work/sos" "$work/classes" | head -5)"
    fi
}

# Without dotnet: says what to install, exit 4 (a core is not needed for
# that: any file that maps libcoreclr.so, here the first 24 KB of one).
check_missing_dotnet() {
    core_head="$top/tests/fuzz/corpus/elf_core/dotnet-core-head"
    cp "$core_head" "$work/head.core"
    truncate -s 200M "$work/head.core" # sparse: as long as its segments say
    PATH=/nonexistent HOME=/nonexistent DOTNET_ROOT= "$lf" classes "$work/head.core" >/dev/null 2>"$work/err"
    rc=$?
    expect "no dotnet: exit 4 and what to install" "4 yes" \
        "$rc $(grep -q "needs the .NET 10 runtime" "$work/err" && grep -q "dotnet-runtime-10.0" "$work/err" && echo yes)"
}

# take_live_core DOTNET_DUMP: runs Leaky full, answers each "ready N" with a
# line, takes the core at 300 into $work/core; 1 without one, and what Leaky
# and dotnet-dump said in $work/leaky.story. SIGPIPE is ignored while Leaky
# reads: a Leaky that ended early must not end this shell, untold.
take_live_core() {
    rm -f "$work/in" "$work/out" "$work/core" "$work/dump.log" "$work/leaky.other"
    mkfifo "$work/in" "$work/out"
    dotnet "$work/leaky/Leaky.dll" full <"$work/in" >"$work/out" 2>"$work/leaky.err" &
    leaky_pid=$!
    trap '' PIPE
    exec 3>"$work/in"
    while IFS= read -r line; do
        case $line in
        "ready 300") "$1" collect -p "$leaky_pid" --type Full -o "$work/core" >"$work/dump.log" 2>&1 ;;
        "ready "*) ;;
        *) printf '%s\n' "$line" >>"$work/leaky.other"; continue ;;
        esac
        echo go >&3 2>/dev/null || break
    done <"$work/out"
    exec 3>&-
    trap - PIPE
    wait "$leaky_pid"
    leaky_rc=$?
    leaky_pid=""
    [ -s "$work/core" ] && return 0
    {
        echo "Leaky's exit status $leaky_rc"
        [ ! -s "$work/leaky.other" ] || { echo "its other output:"; tail -5 "$work/leaky.other"; }
        [ ! -s "$work/leaky.err" ] || { echo "its errors:"; tail -5 "$work/leaky.err"; }
        [ ! -s "$work/dump.log" ] || { echo "dotnet-dump:"; tail -5 "$work/dump.log"; }
    } >"$work/leaky.story"
    return 1
}

# Live: Leaky full, one core with dotnet-dump at its stop, read through the agent.
check_live() {
    if ! command -v dotnet >/dev/null 2>&1; then
        ok "live .NET core: skipped (no dotnet here; CI has it)"
        return
    fi
    # the agent is C#: the sanitized pass reads the committed .lfs above and
    # leaves taking and converting a live core to the plain pass (CI stays
    # under 30 minutes)
    if [ "${LEAKFIND_SANITIZED:-}" = 1 ]; then
        echo "skip live .NET core: in the plain pass only"
        return
    fi
    tool=$(command -v dotnet-dump || echo "$HOME/.dotnet/tools/dotnet-dump")
    [ -x "$tool" ] || { bad "live .NET core: dotnet-dump installed (tests/setup.sh)"; return; }
    [ -f "$build/dotnet/leakfind-dotnet.dll" ] || { bad "live .NET core: the agent built by make ($build/dotnet)"; return; }
    if ! dotnet build -nologo -v q -c Release -o "$work/leaky" "$top/fixtures/dotnet/Leaky" >"$work/build.log" 2>&1; then
        bad "live .NET core: Leaky builds" "$(tail -3 "$work/build.log")"
        return
    fi
    rm -rf "$top/fixtures/dotnet/Leaky/obj" "$top/fixtures/dotnet/Leaky/bin"
    # a run that ends without a core is told with all it left (CI once lost
    # this suite's tally: its shell died writing to a Leaky gone), and is
    # tried once more, its first end kept in the log as a note
    if ! take_live_core "$tool"; then
        echo "note live .NET core: the first run wrote none; again"
        sed 's/^/     /' "$work/leaky.story"
        if ! take_live_core "$tool"; then
            bad "live .NET core: dotnet-dump wrote a core"
            sed 's/^/     /' "$work/leaky.story"
            return
        fi
    fi
    check_planted "$work/core" "live core"
    "$lf" convert "$work/core" -o "$work/core.lfs" 2>/dev/null
    expect "live core: convert keeps the .lfs, read as .NET" "gcdump" \
        "$("$lf" info "$work/core.lfs" --format tsv 2>/dev/null | awk -F'\t' '$1 == "source_format" { print $2 }')"
    dotnet "$build/dotnet/leakfind-dotnet.dll" --stat "$work/core" >"$work/core.stat"
    check_heap_walks "$work/core.lfs" "$work/core.stat" "live core"
    "$lf" classes "$work/core" --cache >/dev/null 2>&1 && [ -f "$work/core.leakfind-cache" ] &&
        "$lf" classes "$work/core" --cache >/dev/null 2>&1
    expect "live core: --cache keeps the converted analysis beside the core" 0 $?
    head -c 50000000 "$work/core" >"$work/cut.core"
    "$lf" classes "$work/cut.core" >/dev/null 2>"$work/err"
    rc=$?
    expect "truncated core: exit 3, the offset where it ends" "3 yes" \
        "$rc $(grep -q "truncated at offset 50000000 .*a .NET core cut short" "$work/err" && echo yes)"
    expect "truncated core: no agent left running" "0" \
        "$(ps -eo args | grep -c "[l]eakfind-dotnet.dll $work")"
}

# The texts a snapshot keeps (STXT, FORMAT 1.6) on a file built by hand
# (texts_lfs.py): two copies of "hello", 32 bytes each, both held by the
# Holder; a text naming string 99 of 8 is refused at its entry's offset
# (64 + 13 chunk entries, the chunks before STXT, then entry 1's text).
check_texts() {
    python3 "$top/tests/dotnet/texts_lfs.py" >"$work/texts.lfs"
    expect "kept texts: strings finds the two copies of one text" "2 32 64 5 Acme.Holder hello" \
        "$("$lf" strings "$work/texts.lfs" --format tsv 2>/dev/null | awk -F'\t' 'NR > 1 { print $1, $2, $3, $4, $5, $7 }')"
    expect "kept texts: inspect shows each as its referrer's value" "Name hello|[1] hello|" \
        "$("$lf" inspect "$work/texts.lfs" 0x1000 --format tsv 2>/dev/null |
            awk -F'\t' '$1 == "edge" || $1 == "element" { printf "%s %s|", $3, $5 }')"
    python3 "$top/tests/dotnet/texts_lfs.py" 99 >"$work/bad-text.lfs"
    "$lf" info "$work/bad-text.lfs" >/dev/null 2>"$work/err"
    expect "kept texts: a text naming no string is refused, exit 3" \
        "3 leakfind: error: '$work/bad-text.lfs': corrupt leakfind snapshot at offset 1016 (0x3f8): chunk STXT entry 1 has invalid value 99" \
        "$? $(cat "$work/err")"
}

check_texts
check_planted "$d/leaky-full.lfs" "fixture"
check_both_ways
check_heap_walks "$d/leaky-full.lfs" "$d/leaky-full.stat.txt" "fixture"
check_dumpheap
check_missing_dotnet
check_live
finish
