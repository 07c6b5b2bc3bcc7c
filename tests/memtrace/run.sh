#!/bin/sh
# Memtrace traces (issue 51, docs/MEMTRACE.md): leakfind's reader against the
# library's own (its listings, committed beside the fixtures), the planted
# leak's numbers from its construction, the control, the three-phase
# compiler's window, the filters' options, damaged traces; and the real OCaml
# compiler traced here (ocamlopt-4.13, tests/memtrace/trace_ocamlopt.sh).
# usage: tests/memtrace/run.sh BUILD_DIR; last line "N passed, M failed".
# The fixtures are traced by tests/memtrace/regen.sh; where the library is
# built (tests/memtrace/setup.sh) its reader is also run on them live.
set -u
build=$(cd "${1:-build}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
lf="$build/leakfind"
fx=fixtures/memtrace
tmp=$(mktemp -d "${TMPDIR:-/tmp}/leakfind-memtrace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
versions="4.13 5.3"
traces="requests-leak requests-fixed compiler"

# trace_of NAME: the fixture's trace, committed plain or gzipped (past 64 KiB)
trace_of() {
    if [ -f "$fx/$1.ctf.gz" ]; then echo "$fx/$1.ctf.gz"; else echo "$fx/$1.ctf"; fi
}

# sites_rows TRACE [OPTIONS...]: leakfind's per-site rows as site_totals.awk writes them
sites_rows() {
    sr_trace=$1
    shift
    "$lf" sites "$sr_trace" --stack 1 --top 0 --format tsv -q "$@" 2>/dev/null |
        awk -F'\t' 'NR > 1 {print $1 "\t" $2 "\t" $6 "\t" $7}' | sort
}
# listed_rows NAME [AWK VARIABLES...]: the same from the library's listing
listed_rows() {
    lr_name=$1
    shift
    gunzip -c "$fx/$lr_name.events.gz" | awk "$@" -f tests/memtrace/site_totals.awk | sort
}
# same_rows CASE NAME "LEAKFIND OPTIONS" "AWK VARIABLES" [may-be-empty]: equal,
# and not empty unless told (the control's end: nothing of it is live then)
same_rows() {
    # shellcheck disable=SC2086 # the options are words
    sites_rows "$(trace_of "$2")" $3 >"$tmp/lf" && listed_rows "$2" $4 >"$tmp/lib"
    if [ ! -s "$tmp/lib" ] && [ "${5:-}" != may-be-empty ]; then
        bad "$1" "no site in the window: the case checks nothing"
    elif cmp -s "$tmp/lf" "$tmp/lib"; then
        ok "$1 ($(wc -l <"$tmp/lib") sites)"
    else
        bad "$1" "$(diff "$tmp/lib" "$tmp/lf" | head -6)"
    fi
}

# same_windows NAME [may-be-empty]: every window, leakfind's per-site totals
# are the library's
same_windows() {
    sw=$1
    same_rows "$sw: live at the end, as the library reads it" "$sw" "" "" "${2:-}"
    same_rows "$sw: --live-at 50%" "$sw" "--live-at 50%" "-v pct=1 -v live_at=50"
    same_rows "$sw: --allocated-between 25% 75%" "$sw" "--allocated-between 25% 75%" \
        "-v pct=1 -v from=25 -v to=75" "${2:-}"
    same_rows "$sw: --live-between 0% 100% (every block)" "$sw" "--live-between 0% 100%" \
        "-v pct=1 -v lb_from=0 -v lb_to=100"
    same_rows "$sw: --live-between 40% 45% --stack 1" "$sw" "--live-between 40% 45%" \
        "-v pct=1 -v lb_from=40 -v lb_to=45"
    same_rows "$sw: --live-at 0.1 --allocated-between 0 0.1 (seconds)" "$sw" \
        "--live-at 0.1 --allocated-between 0 0.1" "-v live_at=100000 -v from=0 -v to=100000"
}

# 1. Every fixture, every window: leakfind's per-site totals are the library's.
for v in $versions; do
    for n in $traces; do
        empty=
        [ "$n" = requests-fixed ] && empty=may-be-empty
        same_windows "$n-$v" $empty
    done
done
# the real OCaml compiler (4.13, Memtrace 0.2.3 linked in) compiling the
# library's own sources: a program nobody here wrote
same_windows ocamlopt-4.13

# 1b. info: the counts of events are the library's.
# same_counts NAME: info's counts against the library's listing
same_counts() {
    want=$(gunzip -c "$fx/$1.events.gz" | awk '
        $1 == "alloc" { a++; s += $5; live[$2] = 1 }
        $1 == "promote" { p++ }
        $1 == "collect" { c++; delete live[$2] }
        END { for (k in live) l++; print a + 0, s + 0, p + 0, c + 0, l + 0 }')
    got=$("$lf" info "$(trace_of "$1")" --format tsv | awk -F'\t' '
        { v[$1] = $2 }
        END { print v["allocations"], v["samples"], v["promotions"], v["collections"], v["live_at_end_blocks"] }')
    expect "$1: info's allocations, samples, promotions, collections, live at the end" "$want" "$got"
}
for v in $versions; do
    for n in $traces; do
        same_counts "$n-$v"
    done
done
same_counts ocamlopt-4.13
# the program is the compiler trace_ocamlopt.sh built, run by its main
# (the library's trace_ocamlopt/ocamlopt.ml, line 3 calls the driver): in
# leakfind's whole stacks (the compiler's recurse 471 frames deep) every
# sampled block of the run lies under that main and Optmaindriver.main
expect "ocamlopt-4.13: info names the program ocamlopt" ocamlopt \
    "$("$lf" info "$(trace_of ocamlopt-4.13)" --format tsv | awk -F'\t' '$1 == "program" {n = split($2, p, "/"); print p[n]}')"
expect "ocamlopt-4.13: all the listing's blocks, every one under ocamlopt.ml's main and Optmaindriver.main" \
    "$(gunzip -c "$fx/ocamlopt-4.13.events.gz" | grep -c '^alloc ') 0" \
    "$("$lf" sites "$(trace_of ocamlopt-4.13)" --stack 1000 --live-between 0% 100% --top 0 --format tsv -q |
        awk -F'\t' 'NR > 1 { n += $1; if ($7 !~ / < Optmaindriver[.]main [(]driver\/optmaindriver[.]ml:[0-9]+[)] < Ocamlopt [(]ocamlopt[.]ml:3[)]$/) other++ }
            END { print n + 0, other + 0 }')"

# 2. The planted site: 20000 records of 17 words (16 fields and the header)
# live at the end, 2720000 bytes. Memprof samples each word with probability
# r = 1e-3, so the site's samples n are binomial(340000, r) and its estimate
# n / r * 8 bytes has a standard deviation of sqrt(340000 r (1 - r)) / r * 8
# = 147,442 bytes: within 3 of them (442,327) unless the trace is one in 370.
for v in $versions; do
    row=$("$lf" sites "$fx/requests-leak-$v.ctf" --format tsv -q | grep -F 'Requests.Session.open_ (requests.ml:22)')
    est=$(echo "$row" | cut -f6)
    count=$(echo "$row" | cut -f1)
    if [ -n "$est" ] && [ "$est" -ge $((2720000 - 442327)) ] && [ "$est" -le $((2720000 + 442327)) ]; then
        ok "requests-leak-$v: the planted site's live bytes $est within 3 sd of 2720000"
    else
        bad "requests-leak-$v: the planted site's live bytes" "expected 2720000 +- 442327" "row: $row"
    fi
    first=$("$lf" sites "$fx/requests-leak-$v.ctf" --format tsv -q | awk -F'\t' 'NR == 2 {print $7}')
    expect "requests-leak-$v: the planted site first" "Requests.Session.open_ (requests.ml:22)" "$first"
    # each sampled block is one record of 17 words: shallow = count * 136
    expect "requests-leak-$v: its sampled blocks are the records" "$((count * 136))" \
        "$(echo "$row" | cut -f2)"
    n=$("$lf" sites "$fx/requests-fixed-$v.ctf" --format tsv -q 2>/dev/null | grep -c 'Session.open_')
    expect "requests-fixed-$v (the control): no session record live at the end" 0 "$n"
done

# 3. The compiler: live at the end the syntax tree (phase 1) comes first;
# allocated in the middle phase and live at the end, the memo of Graph.visit
# through Array.init, first and alone with its table.
for v in $versions; do
    first=$("$lf" sites "$fx/compiler-$v.ctf" --stack 2 --format tsv -q | awk -F'\t' 'NR == 2 {print $7}')
    expect "compiler-$v: live at the end, the tree parsed first" \
        "Compiler.Parse.build (compiler.ml:25) < Compiler.Parse.build (compiler.ml:25)" "$first"
    first=$("$lf" sites "$fx/compiler-$v.ctf" --stack 2 --format tsv -q --allocated-between 25% 75% |
        awk -F'\t' 'NR == 2 {print $7}')
    expect "compiler-$v: --allocated-between 25% 75% names Graph.visit's Array.init" \
        "Stdlib__Array.init (array.ml:54) < Compiler.Graph.visit (compiler.ml:36)" "$first"
    n=$("$lf" sites "$fx/compiler-$v.ctf" --format tsv -q --allocated-between 25% 75% |
        awk -F'\t' 'NR > 1' | grep -vc 'Graph.visit\|Array.init\|Hashtbl.add')
    expect "compiler-$v: nothing else of the middle phase is live at the end" 0 "$n"
done

# 3b. --by caller: the icicle inverted, as rows with depth. In the middle
# window Array.init comes first and Graph.visit under it; the allocating
# frames (depth 1) hold every kept block once.
for v in $versions; do
    "$lf" sites "$fx/compiler-$v.ctf" --by caller --allocated-between 25% 75% --format tsv -q \
        >"$tmp/callers"
    expect "compiler-$v: --by caller: Array.init, Graph.visit under it" \
        "1 Stdlib__Array.init (array.ml:54)|2 Compiler.Graph.visit (compiler.ml:36)" \
        "$(awk -F'\t' 'NR == 2 || NR == 3 {printf "%s%s %s", NR == 3 ? "|" : "", $1, $5}' "$tmp/callers")"
    expect "compiler-$v: --by caller: the allocating frames hold every block once" \
        "$(listed_rows "compiler-$v" -v pct=1 -v from=25 -v to=75 | awk '{n += $1} END {print n}')" \
        "$(awk -F'\t' '$1 == 1 {n += $2} END {print n}' "$tmp/callers")"
done

# 3c. suspects: the planted site accumulates (first), with its bucket cells
# (Hashtbl.replace's, one per record too); the control has none; the
# compiler's leak is one phase, not an accumulation: none either.
for v in $versions; do
    "$lf" suspects "$fx/requests-leak-$v.ctf" --format tsv >"$tmp/sus" 2>&1
    expect "requests-leak-$v: suspects: the planted site first" \
        "accumulating Requests.Session.open_ (requests.ml:22) Requests.Session.open_ (requests.ml:22) < Requests (requests.ml:40)" \
        "$(awk -F'\t' 'NR == 2 {print $1, $7, $8}' "$tmp/sus")"
    expect "requests-leak-$v: suspects: the record and its bucket cell, nothing else" \
        "Requests.Session.open_ (requests.ml:22)|Stdlib__Hashtbl.replace" \
        "$(awk -F'\t' 'NR > 1 {printf "%s%s", (NR > 2 ? "|" : ""), $7}' "$tmp/sus" | sed 's/ (hashtbl.ml:[0-9]*)$//')"
    for n in requests-fixed compiler; do
        "$lf" suspects "$fx/$n-$v.ctf" --format tsv >"$tmp/sus" 2>"$tmp/err"
        expect "$n-$v: suspects: no finding, and a note that says so" "1 1" \
            "$(wc -l <"$tmp/sus") $(grep -c 'no accumulating site' "$tmp/err")"
    done
done

# 3d. The timeline: its last row is what is live at the end (info's
# estimate), and kept_bytes the filters' blocks (the sites' est_bytes).
for v in $versions; do
    last=$("$lf" sites "$fx/requests-leak-$v.ctf" --timeline --format tsv | tail -1 | cut -f2,3)
    end=$("$lf" info "$fx/requests-leak-$v.ctf" --format tsv | awk -F'\t' '$1 == "live_at_end_bytes_estimate" {print $2}')
    expect "requests-leak-$v: the timeline ends at what is live at the end" "$end	$end" "$last"
    kept=$("$lf" sites "$fx/compiler-$v.ctf" --timeline --allocated-between 25% 75% --format tsv | tail -1 | cut -f3)
    sum=$(sites_rows "$fx/compiler-$v.ctf" --allocated-between 25% 75% | awk '{n += $3} END {print n}')
    expect "compiler-$v: the timeline's kept bytes at the end are the window's sites" "$sum" "$kept"
done

# 3e. report TRACE: one page with the suspects, the timeline, the icicle.
"$lf" report "$fx/requests-leak-5.3.ctf" -o "$tmp/r.html" 2>"$tmp/err"
expect "report requests-leak-5.3: written" 0 $?
expect "report requests-leak-5.3: the planted site is the first suspect" \
    "<b>Requests.Session.open_ (requests.ml:22)</b>" \
    "$(grep -o '<b>[^<]*</b>' "$tmp/r.html" | head -1)"
expect "report requests-leak-5.3: a timeline of two lines, an icicle" "2 1" \
    "$(grep -c '<polyline' "$tmp/r.html") $(grep -c 'id="icicle"' "$tmp/r.html")"
"$lf" report "$fx/requests-fixed-5.3.ctf" -o "$tmp/f.html" 2>"$tmp/err"
expect "report requests-fixed-5.3 (the control): no suspect" 1 "$(grep -c '<p>None: ' "$tmp/f.html")"
"$lf" report "$fx/compiler-5.3.ctf" -o "$tmp/c.html" --allocated-between 25% 75% 2>"$tmp/err"
expect "report compiler-5.3 --allocated-between 25% 75%: the icicle's widest box is Array.init" \
    "Stdlib__Array.init (array.ml:54)" \
    "$(grep -o '<g><title>[^<]*' "$tmp/c.html" | sed 's/<g><title>//; s/: [^:]*$//' | head -1)"

# 4. gzip: the same rows.
gzip -c "$fx/compiler-5.3.ctf" >"$tmp/c.ctf.gz"
sites_rows "$fx/compiler-5.3.ctf" >"$tmp/plain"
sites_rows "$tmp/c.ctf.gz" >"$tmp/gz"
if cmp -s "$tmp/plain" "$tmp/gz" && [ -s "$tmp/gz" ]; then ok "a gzipped trace reads the same"
else bad "a gzipped trace reads the same" "$(diff "$tmp/plain" "$tmp/gz" | head -4)"; fi

# 5. Options: the filters only for traces; a trace is refused by snapshot commands.
"$lf" sites fixtures/example/app.lfs --live-at 1 >/dev/null 2>"$tmp/err"
expect "--live-at on a dump: a usage error" 2 $?
"$lf" sites "$fx/compiler-5.3.ctf" --live-at soon >/dev/null 2>"$tmp/err"
expect "--live-at soon: a usage error" 2 $?
"$lf" sites "$fx/compiler-5.3.ctf" --allocated-between 70% 30% >/dev/null 2>"$tmp/err"
expect "--allocated-between backwards: a usage error" 2 $?
"$lf" classes "$fx/compiler-5.3.ctf" >/dev/null 2>"$tmp/err"
rc=$?
expect "classes TRACE: refused, exit 3" "3 leakfind: error: '$fx/compiler-5.3.ctf': a Memtrace trace, not a heap dump at offset 0 (0x0): info, sites, suspects and report read traces (docs/MEMTRACE.md)" "$rc $(cat "$tmp/err")"
# two traces to diff: the same refusal alone, with no note on their order
# before it (traces are not compared)
"$lf" diff "$fx/requests-fixed-5.3.ctf" "$fx/requests-leak-5.3.ctf" >/dev/null 2>"$tmp/err"
rc=$?
expect "diff TRACE TRACE: refused, exit 3, nothing before" "3 leakfind: error: '$fx/requests-fixed-5.3.ctf': a Memtrace trace, not a heap dump at offset 0 (0x0): info, sites, suspects and report read traces (docs/MEMTRACE.md)" "$rc $(cat "$tmp/err")"
# suspects of two traces: a usage error that names the trace, not the
# reader's "suspects ... read traces"
"$lf" suspects "$fx/requests-leak-5.3.ctf" "$fx/requests-leak-4.13.ctf" >/dev/null 2>"$tmp/err"
rc=$?
expect "suspects TRACE TRACE: a usage error" "2 leakfind: error: '$fx/requests-leak-5.3.ctf' is a Memtrace trace: suspects reads one trace alone, or a snapshot and earlier ones" "$rc $(head -1 "$tmp/err")"

# 5b. Damaged traces (fixtures/memtrace/bad/make_bad.py made each from a real
# one by one change, and wrote where and what): a message with the offset,
# exit 3, from every command that reads traces (gzipped too: offsets are
# the inflated trace's).
while IFS='	' read -r name offset reason; do
    f="$fx/bad/$name"
    hex=$(printf '%x' "$offset")
    for cmd in info sites suspects; do
        "$lf" $cmd "$f" >/dev/null 2>"$tmp/err"
        rc=$?
        expect "bad/$name: $cmd: exit 3, $reason at offset $offset" \
            "3 leakfind: error: '$f': $reason at offset $offset (0x$hex)" \
            "$rc $(sed 's/): .*/)/' "$tmp/err")"
    done
    gzip -c "$f" >"$tmp/$name.gz"
    "$lf" sites "$tmp/$name.gz" >/dev/null 2>"$tmp/err"
    rc=$?
    expect "bad/$name gzipped: exit 3 at the same offset" "3 $reason at offset $offset (0x$hex)" \
        "$rc $(sed "s|^leakfind: error: '[^']*': ||; s/): .*/)/" "$tmp/err")"
done <"$fx/bad/expected.tsv"

# 6. The library's reader, live where it is built: the committed listings are its own.
for v in $versions; do
    case $v in
    4.13) lib="$HOME/.cache/leakfind/memtrace-0.2.3-ocaml-4.13" ;;
    5.3) lib="$HOME/.cache/leakfind/memtrace-main-a88470c-ocaml-5.3.0" ;;
    esac
    if [ ! -f "$lib/memtrace.cmxa" ]; then
        echo "note: no Memtrace $v in $lib (tests/memtrace/setup.sh): its reader not run live"
        continue
    fi
    if ! sh tests/memtrace/build_lister.sh "$lib" "$tmp/list-$v" >"$tmp/build.log" 2>&1; then
        bad "the library's reader ($v) builds" "$(tail -3 "$tmp/build.log")"
        continue
    fi
    more=
    [ "$v" = 4.13 ] && more=ocamlopt
    for n in $traces $more; do
        gunzip -cf "$(trace_of "$n-$v")" >"$tmp/trace.ctf"
        "$tmp/list-$v" "$tmp/trace.ctf" >"$tmp/live"
        if gunzip -c "$fx/$n-$v.events.gz" | cmp -s - "$tmp/live"; then
            ok "$n-$v: the library's reader ($v) lists the committed events"
        else
            bad "$n-$v: the library's reader ($v) lists the committed events"
        fi
    done
done

# 7. A real program nobody here wrote: the OCaml compiler traced by the
# library's authors (its test/ocamlopt.ctf, in the main branch's tarball in
# ../shared/toolchains; not committed here). Where the tarball and the
# library are, leakfind's per-site totals equal its reader's there too.
tarball="$top/../shared/toolchains/memtrace-main-a88470c.tar.gz"
if [ -f "$tarball" ] && [ -x "$tmp/list-5.3" ]; then
    tar xzf "$tarball" -C "$tmp" memtrace/test/ocamlopt.ctf
    "$tmp/list-5.3" "$tmp/memtrace/test/ocamlopt.ctf" >"$tmp/ocamlopt.events"
    for window in "" "--live-between 0% 100%"; do
        case $window in
        "") vars="" ;;
        *) vars="-v pct=1 -v lb_from=0 -v lb_to=100" ;;
        esac
        # shellcheck disable=SC2086 # the options are words
        sites_rows "$tmp/memtrace/test/ocamlopt.ctf" $window >"$tmp/lf"
        # shellcheck disable=SC2086
        awk $vars -f tests/memtrace/site_totals.awk "$tmp/ocamlopt.events" | sort >"$tmp/lib"
        if [ -s "$tmp/lib" ] && cmp -s "$tmp/lf" "$tmp/lib"; then
            ok "ocamlopt.ctf (the library's own trace of ocamlopt) ${window:-live at the end}: $(wc -l <"$tmp/lib") sites as its reader"
        else
            bad "ocamlopt.ctf ${window:-live at the end}: as the library's reader" "$(diff "$tmp/lib" "$tmp/lf" | head -4)"
        fi
    done
else
    echo "note: no $tarball or no Memtrace 5.3: the library's ocamlopt trace not read"
fi

finish
