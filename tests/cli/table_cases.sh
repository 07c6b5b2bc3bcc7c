# Tables a person can read (issue 47, DESIGN 15): at 80, 120 and 160
# columns every line fits $COLUMNS and the cell that answers (the class, the
# holder) shows the name planted; long names are cut where they do not tell
# rows apart (core/base/name_cut.h, unit-tested in tests/unit/test_name_cut.c).
SJ=fixtures/java/series/dumps
CS="$SJ/collections-100.hprof.gz $SJ/collections-200.hprof.gz $SJ/collections-300.hprof.gz"
NS="$SJ/noise-1000.hprof.gz $SJ/noise-2000.hprof.gz $SJ/noise-3000.hprof.gz"
# fits NAME COLUMNS WANT ARGS...: exit 0, every line of stdout at most
# COLUMNS characters, and stdout holds WANT (a fixed string)
# (counted: `tests/cli/run.sh build table_roots_80` runs one)
fits() { counted fits_run "$@"; }
fits_run() {
    name=$1 cols=$2 want=$3
    shift 3
    COLUMNS=$cols "$LF" "$@" >"$tmp/fits" 2>/dev/null
    code=$?
    widest=$(python3 -c 'import sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")] + [0]))' "$tmp/fits")
    if [ "$code" = 0 ] && [ "$widest" -le "$cols" ] && grep -qF -- "$want" "$tmp/fits"; then
        ok
    else
        bad "$name: exit $code, widest line $widest of $cols, '$want' $(grep -qF -- "$want" "$tmp/fits" && echo shown || echo missing)" \
            "$(head -5 "$tmp/fits")"
    fi
}
for c in 80 120 160; do
    # trend: the holder's field and the leaking class, whatever the width
    fits table_trend_$c $c "Registry.SESSIONS" trend $CS --format table
    fits table_trend_class_$c $c "HmSession" trend $CS --format table
    # trend --owners: the owner whole ("…Registry.MIXED" at 80 columns when
    # the number columns' long headers, objects_per_unit over "1000.00", kept
    # their width on one line)
    fits table_trend_owners_$c $c "static field Registry.MIXED" trend --owners $CS --format table
    # suspects: a paragraph per finding, the holder named in full
    fits table_suspects_$c $c "NoiseSeries\$SessionStore.SESSIONS" suspects $NS --workload 1000,2000,3000 --format table
    fits table_dominators_$c $c "Sessions.ALL" dominators fixtures/java/dumps/sessions.hprof.gz --format table
    fits table_roots_$c $c "Sessions.ALL" roots fixtures/java/dumps/sessions.hprof.gz --format table
    fits table_path_$c $c "Sessions\$Session" path fixtures/java/dumps/sessions.hprof.gz --class Session --top 1 --format table
    # a path down a linked list of 300 (fixtures/graphs/make_token_chain.sh):
    # the chain's first 3 and last 3 links and one row for the 294 between
    fits table_path_chain_$c $c "... 294 more" \
        path $G/token_chain.txt 0x18f --format table
    # strings: the planted duplicate (fixtures/java/src/DupStrings.java,
    # 1,000 copies of "session-state:INVALID", 21 characters) whole; at 80
    # columns its owner's class was cut as a path, keeping
    # "java.util.HashMap$Node" (22) whole and the text one letter short
    fits table_strings_$c $c " session-state:INVALID" strings fixtures/java/dumps/dup_strings.hprof.gz --format table
    # V8 (fixtures/node/dup_strings.js): the 300 concatenated copies of
    # 'request-header:' + 'gzip-deflate' (27 characters) whole; at 80 columns
    # they read "request-header:gzip-…" beside the total bytes, which the
    # wasted bytes beside it nearly repeat (now a secondary column)
    fits table_strings_v8_$c $c " request-header:gzip-deflate" strings fixtures/node/dup_strings.heapsnapshot.gz --format table
    # strings --largest: the text is a key too; at 80 columns the planted
    # BIG ("x" x 100,000) showed 20 characters beside an owner column kept
    # 26 wide for one java.lang.OutOfMemoryError among the (root)s
    fits table_strings_largest_$c $c " $(printf 'x%.0s' $(seq 1 24))" \
        strings --largest fixtures/java/dumps/dup_strings.hprof.gz --format table
    # merged, the same list is one row whose chain column holds its length:
    # the answer, kept at every width (shallow and depth go first)
    fits table_path_merge_chain_$c $c "chain" \
        path $G/token_chain.txt --class CallbackNode --merge --top 0 --format table
done
path_chain_rows() {
    rows=$(COLUMNS=160 "$LF" path $G/token_chain.txt 0x18f --format table 2>/dev/null | wc -l)
    tsv_rows=$("$LF" path $G/token_chain.txt 0x18f --format tsv 2>/dev/null | wc -l)
    if [ "$rows" = 10 ] && [ "$tsv_rows" = 303 ]; then
        ok
    else
        bad "$1: table $rows lines (want 10: header, 2 + 3 + 1 + 3), tsv $tsv_rows (want 303: every hop)"
    fi
}
counted path_chain_rows table_path_chain_rows
# roots on a V8 snapshot at 80 columns: every root kind reads whole, as
# the TSV has it ("(Startup object cache)" was cut in most rows while the
# name column kept 30 characters for its one long name: the trade of
# cmd/cli/out_table_trade.h gives the width to the column with the cells)
v8_kinds_whole() {
    v8=fixtures/node/collections_leak-300.heapsnapshot.gz
    want=$("$LF" roots $v8 --format tsv 2>/dev/null | awk -F'\t' 'NR > 1 { print $5 }')
    got=$(COLUMNS=80 "$LF" roots $v8 --format table 2>/dev/null | awk -F'  +' 'NR > 2 { print $4 }')
    startup=$(echo "$got" | grep -c '^(Startup object cache)$')
    if [ "$got" = "$want" ] && [ "$startup" -gt 10 ]; then
        ok
    else
        bad "$1: the kinds at 80 columns differ from the TSV's ($startup whole Startup rows)" \
            "$(echo "$got" | head -12)"
    fi
}
counted v8_kinds_whole table_roots_v8_kinds_80
# the goldens at 80 and 160: what is cut and how (class packages to their
# initials, a holder's kind and the end of its name), the columns left out
export COLUMNS=80
case_ table_trend_80 0 trend $CS --workload 100,200,300 --top 8 --format table
case_ table_suspects_80 0 suspects $NS --workload 1000,2000,3000 --format table
# what the shares leave of 80 columns goes to the cells still cut, first
# to one it then shows whole: the ArrayList's field "elementData" (11), one
# more than its share (it read "…ementData")
rows_ table_dominators_slack_80 "1" '/ elementData( |$)/ {n++} END {print n + 0}' \
    dominators $J/event_bus.hprof.gz --format table
# threads' tree: every frame keeps its number when its method is cut (the
# worker's third frame, AbstractQueuedSynchronizer.acquireSharedInterruptibly,
# read "…ctQueuedSynchronizer.acquireSharedInterruptibly" with no "frame 3:");
# the 17 frames are the five threads' stacks StackLocal.java parks them in
rows_ table_threads_frames_80 "17 0" \
    '/B    [^ ]/ {if (/B    frame [0-9]+: /) n++; else lost++} END {print n + 0, lost + 0}' \
    threads $J/stack_local.hprof --format table
# the 300 links planted (fixtures/graphs/make_token_chain.sh) in the chain
# column of the CallbackNode row, the last cell, at 80 columns
rows_ table_path_merge_chain_length_80 "300" '/ Callbacks / {n = split($0, f, " +"); print f[n]}' \
    path $G/token_chain.txt --class CallbackNode --merge --top 0 --format table
# a growth finding's "with it" list wraps between classes, each with its
# rate (fixtures/node/collections_leak-*: "(string) +100.50" was split)
NL=fixtures/node/collections_leak
rows_ table_suspects_rates_80 "0 1" \
    '/^ +[-+][0-9]/ {split_rate++} /\(string\) \+100\.50/ {whole++} END {print split_rate + 0, whole + 0}' \
    suspects $NL-300.heapsnapshot.gz $NL-100.heapsnapshot.gz $NL-200.heapsnapshot.gz --top 1 --format table
# a summary row cut at its items, never inside one ("... 10 more: 10
# Sessions$Ad…" said half a name), and whole at 80 too, over the field
# column it leaves blank: Sessions.ALL's 1,000 entries are 990 Session and
# 10 AdminSession (i % 100 == 7, fixtures/java/src/Sessions.java)
for c in 80 160; do
    want="... 10 more: 10 Sessions\$AdminSession"
    export COLUMNS=$c
    rows_ table_dominators_summary_$c "$want" \
        '/\.\.\. 10 more/ { sub(/^.*\.\.\. 10/, "... 10"); sub(/ +$/, ""); print }' \
        dominators $J/sessions.hprof.gz --format table
    unset COLUMNS
done
# a string's preview (value) is detail: it goes before the class would be
# cut under 28 columns. At 70 DupStrings.STATES's ArrayList reads whole,
# where "xxxxxxxx…" of BIG's 100,000 'x' (fixtures/java/src/DupStrings.java)
# had cut it to "j.u.ArrayList"
export COLUMNS=70
rows_ table_dominators_value_70 "0 1" \
    '/xxxx/ {x++} /^0x[0-9a-f]+ +[0-9.]+ KiB +java\.util\.ArrayList +/ {whole++} END {print x + 0, whole + 0}' \
    dominators $J/dup_strings.hprof.gz --format table
unset COLUMNS
# inspect: one table per section, each with the columns its rows fill (one
# table of all ten was too wide at 80 columns to show a class: "…rayList").
# Sessions.ALL (0xfd5bf670 in sessions.hprof) is an ArrayList of 1,000
# sessions: its three fields, size 1000 and elementData an Object[].
for c in 80 120 160; do
    fits table_inspect_$c $c "java.util.ArrayList" inspect $J/sessions.hprof.gz 0xfd5bf670 --format table
done
export COLUMNS=80
rows_ table_inspect_sections_80 "object dominator path field|size 1000|elementData java.lang.Object[]" \
    '{n = split($0, f, " +")} /^[a-z]/ {h = h (h ? " " : "") f[1]} /^ +size / {s = f[2] " " f[4]} /^ +elementData / {e = f[2] " " f[5]} END {print h "|" s "|" e}' \
    inspect $J/sessions.hprof.gz 0xfd5bf670 --format table
# a map's entries: a value that is an object is said by its id and class
# cells alone (as a field's is), not again as "0x... (MapSessions$Session)"
# in the value cell, so that at 80 columns the class is whole: the first 20
# of MapSessions.SESSIONS (0xfd5bf538), each Session retaining 24 + 216 =
# 240 bytes (fixtures/java/src/MapSessions.java)
rows_ table_inspect_entries_80 "20 0" \
    '/^ +[0-9]+ +0x[0-9a-f]+ +0x[0-9a-f]+ +MapSessions\$Session +240 B$/ {whole++} /\(MapSessions\$Session\)/ {again++} END {print whole + 0, again + 0}' \
    inspect $J/map_sessions.hprof.gz 0xfd5bf538 --format table
unset COLUMNS
# dominators: a top owner's root and another object's field share one
# column on a terminal (no row has both), so that at 80 columns the class
# and the holder are whole: 990 Session (and 10 AdminSession) under the
# ArrayList of the static field Sessions.ALL (fixtures/java/src/Sessions.java)
export COLUMNS=80
rows_ table_dominators_shared_80 "1 1 1" \
    'NR == 1 && / field \/ root$/ {h++} /990 x Sessions\$Session/ {a++} /static field Sessions\.ALL$/ {b++} END {print a + 0, b + 0, h + 0}' \
    dominators $J/sessions.hprof.gz --format table
unset COLUMNS
# a site's source place, shortened, keeps its line: Requests.Session.open_
# allocates the leaked sessions at requests.ml:22 (fixtures/memtrace: the
# file's initials made "r.ml:22" of it)
export COLUMNS=80
rows_ table_sites_line_80 "1 0" \
    '/Requests\.Session\.open_ \((requests\.ml|…):22\)/ {kept++} /r\.ml:/ {initials++} END {print kept + 0, initials + 0}' \
    sites fixtures/memtrace/requests-leak-4.13.ctf --format table
# OCaml's class name whole beside its owner at 80 columns (it read
# "…4 fields)"): fixtures/ocaml/growing.ml keeps 300 4-field records a unit
# in the global Growing.[0]
OS=fixtures/ocaml/snapshots
fits table_trend_owners_ocaml_80 80 "block(tag 0, 4 fields)  global Growing.[0]" \
    trend --owners $OS/growing.1.lfs $OS/growing.2.lfs $OS/growing.3.lfs --format table
# a sampled dump's rows are sorted by est_bytes (a trace's default): at 80
# columns that column stays, and shallow and est_count give way, so the
# site fits whole; retained_pct's header on two lines ("retained" over
# "pct") leaves room for the sampled count; --sort count keeps count too
rows_ table_sites_sampled_80 "1 1 3 0" \
    'NR == 1 && /^ +retained$/ {top++} NR == 2 && /^count +retained +pct +est_bytes +site$/ {header++} /\((requests|hashtbl)\.ml:[0-9]+\)$/ {whole++} /…/ {cut++} END {print top + 0, header + 0, whole + 0, cut + 0}' \
    sites fixtures/memtrace/requests-leak-4.13.ctf --format table
rows_ table_sites_sort_count_80 "1 316" \
    'NR == 2 && /^count +retained +pct +est_bytes +site$/ {header++} NR == 3 {split($0, f, " +"); first = f[2]} END {print header + 0, first}' \
    sites fixtures/memtrace/requests-leak-4.13.ctf --format table --sort count
unset COLUMNS
# suspects TRACE on a terminal: a paragraph per accumulating site, with
# its callers (a table row left the backtrace out below 160 columns).
# fixtures/memtrace/requests.ml: Session.open_ allocates the leaked record
# at line 22 and puts it in the table with Hashtbl.replace at line 25, and
# the request loop at line 40 calls it
for c in 80 120 160; do
    fits table_suspects_trace_$c $c "   called by Requests.Session.open_ (requests.ml:25) < Requests (requests.ml:40)" \
        suspects fixtures/memtrace/requests-leak-5.3.ctf --format table
done
export COLUMNS=80
rows_ table_suspects_trace_paragraphs_80 "2 2 1 1" \
    '/^[0-9]+\. / {heads++} /^   called by / {callers++} /^1\. Requests\.Session\.open_ \(requests\.ml:22\) accumulates about / {first++} /^   called by Requests \(requests\.ml:40\)$/ {loop++} END {print heads + 0, callers + 0, first + 0, loop + 0}' \
    suspects fixtures/memtrace/requests-leak-4.13.ctf --format table
# without a finding, the note alone: no table header over nothing
# (requests-fixed frees every session)
rows_ table_suspects_trace_none_80 "0" 'END {print NR}' \
    suspects fixtures/memtrace/requests-fixed-5.3.ctf --format table
unset COLUMNS
# path: a blank line between two paths, so that they stay apart at 80
# columns, where target, path and depth are left out. Three of the ten
# AdminSession (all in Sessions.ALL): three paths from Sessions.ALL, two gaps.
export COLUMNS=80
rows_ table_path_gaps_80 "2 3 0" \
    '/^$/ {gaps++} /Sessions\.ALL/ {roots++} NR == 2 && /^$/ {after_header++} END {print gaps + 0, roots + 0, after_header + 0}' \
    path $J/sessions.hprof.gz --class 'Sessions$AdminSession' --top 3 --format table
unset COLUMNS
# a path with no blank where it must break (fixtures/graphs/long_field_name.txt):
# after the class's last '.', the field's name whole on the next line,
# not cut at the 67th column inside it; three findings, each so
rows_ table_suspects_identifier_80 "60 60 60 |3" \
    '/^   path/ {printf "%d ", length($0) - 13} /^ +CONNECTIONS_BY_REMOTE_ADDR / {n++} END {print "|" n}' \
    suspects $G/long_field_name.txt --format table
# the classes growing with a finding, in a list that wraps: V8's
# "system / Context" is one class name, never split at its " / " (the
# listener leak adds 200 of each per snapshot, fixtures/node/README.md)
rows_ table_suspects_list_80 "1 0" \
    '/system \/ Context \+200\.00/ {whole++} /system \/$/ || /^ +Context/ {split_name++} END {print whole + 0, split_name + 0}' \
    suspects fixtures/node/listener_leak-2.heapsnapshot.gz fixtures/node/listener_leak-1.heapsnapshot.gz --top 1 --format table
# a headline too long for 80 columns: its parenthesis moves down whole,
# under the headline's text (not split after "(the", not at the labels' column)
rows_ table_suspects_headline_80 "17.76% of the heap|   (the largest 0x" \
    'NR == 1 {a = substr($0, length($0) - 17)} NR == 2 {b = substr($0, 1, 18)} END {print a "|" b}' \
    suspects $J/event_bus.hprof.gz --top 1 --format table
export COLUMNS=160
case_ table_trend_160 0 trend $CS --workload 100,200,300 --top 8 --format table
unset COLUMNS
# diff at 80 columns on V8 snapshots (stable ids): DevTools' Comparison
# view, new and deleted kept, the counts before and after left out first;
# fixtures/node/collections.js keeps 2 Recent a request, none freed: from
# 100 to 300 requests 400 new, 0 deleted
export COLUMNS=80
NL=fixtures/node/collections_leak
rows_ table_diff_v8_new_80 "new deleted class|400 0" \
    '{n = split($0, f, " +")} NR == 2 {h = f[n - 2] " " f[n - 1] " " f[n]} f[n] == "Recent" {r = f[n - 2] " " f[n - 1]} END {print h "|" r}' \
    diff $NL-100.heapsnapshot.gz $NL-300.heapsnapshot.gz --format table
unset COLUMNS
# a generic whose argument is a nested type, at 80 columns: the nested
# type by its own name, not the argument left out ("Dictionary<Int32,…>"
# stood for the .NET runtime's own
# Dictionary<System.Int32,System.Diagnostics.Tracing.EventSource+EventMetadata>)
export COLUMNS=80
rows_ table_classes_nested_argument_80 "1 0" \
    '/ Dictionary<Int32,…\+EventMetadata>$/ {nested++} / Dictionary<Int32,…>$/ {bare++} END {print nested + 0, bare + 0}' \
    classes fixtures/dotnet/dumps/leaky.3.gcdump --format table
unset COLUMNS
# an OCaml type too long for its column keeps its own name and its first
# argument, not its tail ("…session) Hashtbl.bucketlist"):
# fixtures/ocaml/typed.ml keeps its sessions in a (string, session)
# Hashtbl.t, whose buckets the path to a session goes through
export COLUMNS=80
rows_ table_path_ocaml_type_80 "1 1 0" \
    '/ \(string, Typed\.session\) Hashtbl\.t / {whole++} / \(string, …\) Hashtbl\.bucketlist / {args++} /…session\)/ {tail++} END {print whole + 0, args + 0, tail + 0}' \
    path fixtures/ocaml/snapshots/typed.3.lfs --class Typed.session --top 1 --format table
unset COLUMNS
# a holder cut at its front starts at a camel-case word when no name part
# starts near the cut: ThreadItem's holder, the frame
# CollectionSeries.collect (fixtures/java/series/src), read
# "…ionSeries.collect" at 80 columns
export COLUMNS=80
rows_ table_trend_camel_cut_80 "1 0" \
    '/ThreadItem/ && /…Series\.collect/ {word++} /…ionSeries/ {mid++} END {print word + 0, mid + 0}' \
    trend $CS --format table
unset COLUMNS
# diff's count before goes before the count after: with the delta beside
# it the count after says both, the count before alone (what a table left
# when it dropped columns right to left) does not say how many there are
# now. fixtures/java/series/src/LeakSeries.java: LeakedSession 200 at 100
# operations, 600 at 300; at 60 columns one of the two counts fits
export COLUMNS=60
rows_ table_diff_count_after_60 "after delta|600 +400|0" \
    '{n = split($0, f, " +"); i = f[1] == "" ? 2 : 1} NR == 2 {h = f[i] " " f[i + 1]} f[n] == "LeakedSession" {r = f[i] " " f[i + 1]} /before/ {b++} END {print h "|" r "|" b + 0}' \
    diff $SJ/leak-100.hprof $SJ/leak-300.hprof --format table
unset COLUMNS
# ... and on HPROF dumps (no stable ids) new, deleted and their bytes are
# empty in every row: a table leaves them out at any width, no blank columns
for c in 120 160; do
    export COLUMNS=$c
    rows_ table_diff_hprof_no_ids_$c "0" '/new|deleted|freed/ {n++} END {print n + 0}' \
        diff $SJ/collections-100.hprof.gz $SJ/collections-300.hprof.gz --format table
done
unset COLUMNS
# threads as a tree (a table is for eyes; TSV repeats thread and frame on
# every row): fixtures/java/src/StackLocal.java's thread "worker" once, its
# frame 5 (StackLocal.java:43) whole at every width, and in that frame's
# block the long[100000] it holds, 800,016 B (781.3 KiB); the thread's row
# said once, not on each of its frames' and locals' rows as it was
for c in 80 120 160; do
    fits table_threads_$c $c 'frame 5: StackLocal$Worker.run (StackLocal.java:43)' \
        threads $J/stack_local.hprof --format table --top 2
    export COLUMNS=$c
    rows_ table_threads_tree_$c "1 1" \
        '/worker \(StackLocal\$Worker\)/ {t++}
         /frame [0-9]+:/ {inside = /frame 5: StackLocal\$Worker\.run/}
         /^$/ {inside = 0}
         inside && /^0x[0-9a-f]+ .* 781\.3 KiB +long\[\]$/ {l++}
         END {print t + 0, l + 0}' \
        threads $J/stack_local.hprof --format table --top 2
    # OCaml (fixtures/ocaml/threaded.ml): thread 1, its frame 0, the
    # string of 50,000 bytes (50,016 B: 48.8 KiB) under it
    rows_ table_threads_ocaml_$c "thread 1|frame 0: Threaded.worker (threaded.ml:10)|string 48.8 KiB" \
        '/^ +48\.8 KiB +thread 1$/ {a = "thread 1"; next}
         a && !b && /frame 0: Threaded\.worker \(threaded\.ml:10\)$/ {b = "frame 0: Threaded.worker (threaded.ml:10)"; next}
         b && !c && / string$/ {n = split($0, f, " +"); c = "string " f[n - 2] " " f[n - 1]}
         END {print a "|" b "|" c}' \
        threads fixtures/ocaml/snapshots/threaded.lfs --format table
done
unset COLUMNS
# dominators on a .gcdump (no field names): in a table the field column is
# blank where TSV and JSON say '?' (a column of '?' on most rows said
# nothing); the dictionary (fixtures/dotnet/Leaky, named.3)
# still shows its root, Directory.ByName, and TSV its entries' '?'
D=fixtures/dotnet/dumps
export COLUMNS=80
rows_ table_dominators_gcdump_blank_80 "0 1" \
    '/ \?$/ {q++} /Dictionary<String,Profile> +2 roots: static field/ {r++} END {print q + 0, r + 0}' \
    dominators $D/named.3.gcdump --format table
unset COLUMNS
rows_ dominators_gcdump_field_unnamed "?" \
    '$1 == 1 && $7 == "Entry<System.String,Acme.Profile>[]" {print $8}' \
    dominators $D/named.3.gcdump --format tsv
# classes at 80 columns: the class whole (the loader column, "(bootstrap)"
# in most rows and "…0xfd59af28" in the rest, is left out first, with a
# note; it read "…ConcurrentHashMap$Node[]"); at 160 the loader is there,
# fixtures/java/src/MapSessions.java's classes under the application's
export COLUMNS=80
rows_ table_classes_whole_80 "0 1" \
    '/…/ {cut++} /^ *3,000 .* MapSessions\$Session$/ {s++} END {print cut + 0, s + 0}' \
    classes $J/map_sessions.hprof.gz --format table
export COLUMNS=160
rows_ table_classes_loader_160 "1" \
    '/ MapSessions\$Session +jdk\.internal\.loader\.ClassLoaders\$AppClassLoader 0x[0-9a-f]+$/ {n++} END {print n + 0}' \
    classes $J/map_sessions.hprof.gz --format table
unset COLUMNS
