# A series means the same in any order (DESIGN 15, docs/DESIGN.md 1): the
# commands put it in order by the workloads given, else by the dumps' own
# clocks (HPROF header times, V8's object ids), else as given, with a note.
# The Java leak series (fixtures/java/series/README.md): after 100, 200 and
# 300 operations, 2 LeakedSession and 1 LeakedToken per operation held by
# static field SessionRegistry.SESSIONS, 80 bytes per operation.
SJ=fixtures/java/series/dumps
L1=$SJ/leak-100.hprof L2=$SJ/leak-200.hprof L3=$SJ/leak-300.hprof
# same_out NAME ARGS_A -- ARGS_B: both runs exit 0 with the same stdout
same_out() {
    name=$1
    shift
    a="" b="" side=a
    for arg; do
        if [ "$arg" = "--" ]; then side=b; continue; fi
        if [ $side = a ]; then a="$a $arg"; else b="$b $arg"; fi
    done
    # shellcheck disable=SC2086 # word splitting of the argument lists is wanted
    "$LF" $a >"$tmp/same_a" 2>/dev/null; ca=$?
    # shellcheck disable=SC2086
    "$LF" $b >"$tmp/same_b" 2>/dev/null; cb=$?
    if [ "$ca" = 0 ] && [ "$cb" = 0 ] && [ -s "$tmp/same_a" ] && cmp -s "$tmp/same_a" "$tmp/same_b"; then
        ok
    else
        bad "$name: exits $ca, $cb; stdout differs or is empty:" "$(diff "$tmp/same_a" "$tmp/same_b" | head -6)"
    fi
}
if wanted series_order; then
    # suspects: newest first (its old convention), oldest first, shuffled
    same_out series_order_suspects suspects $L3 $L1 $L2 --workload 300,100,200 -- \
        suspects $L1 $L2 $L3 --workload 100,200,300
    same_out series_order_suspects_shuffled suspects $L2 $L3 $L1 -- suspects $L3 $L1 $L2
    same_out series_order_trend trend $L1 $L2 $L3 -- trend $L3 $L2 $L1
    same_out series_order_diff diff $L1 $L3 -- diff $L3 $L1
    same_out series_order_v8_trend trend fixtures/node/warmup_leak-100.heapsnapshot.gz \
        fixtures/node/warmup_leak-200.heapsnapshot.gz fixtures/node/warmup_leak-300.heapsnapshot.gz -- \
        trend fixtures/node/warmup_leak-300.heapsnapshot.gz fixtures/node/warmup_leak-100.heapsnapshot.gz \
        fixtures/node/warmup_leak-200.heapsnapshot.gz
    same_out series_order_v8_diff diff fixtures/node/listener_leak-1.heapsnapshot.gz \
        fixtures/node/listener_leak-2.heapsnapshot.gz -- diff fixtures/node/listener_leak-2.heapsnapshot.gz \
        fixtures/node/listener_leak-1.heapsnapshot.gz
    same_out series_order_report report $L1 $L2 $L3 -o - -- report $L2 $L3 $L1 -o -
fi
rows_ series_order_trend_newest_first "LeakedSession 2.00 grows" 'NR == 2 {print $6, $1, $9}' \
    trend $L3 $L2 $L1 --workload 300,200,100
# diff given AFTER BEFORE: the growth still reads as growth, and a note says why
rows_ series_order_diff_reversed "LeakedSession 200 600 400" '$10 == "LeakedSession" {print $10, $1, $2, $3}' \
    diff $L3 $L1
case_ series_order_diff_note 0 diff $L3 $L1 --top 1
# workloads given against the clocks: followed, with a warning
case_ series_order_workload_against_clocks 0 trend $L3 $L1 $L2 --workload 100,200,300 --top 1
# no clock (text graphs): by the numbers in their names, and said
case_ series_order_unknown 0 trend $G/series_1.txt $G/series_2.txt $G/series_3.txt --top 1
# (no clock and no number in the names, leak_before.txt and leak_after.txt:
# as given, and said; the diff_* goldens' notes)
# .gcdump files (no time in them) given oldest first, as people list
# numbered files, to suspects (whose convention is the newest first): the
# names' numbers order them, and the leak is found, 100 Timers a step
# (fixtures/dotnet/README.md: Leaky, 100, 200, 300 operations)
D=fixtures/dotnet/dumps
rows_ series_order_names_gcdump "growth System.Threading.Timer 100,200,300" \
    'NR == 2 {print $2, $6, $14}' suspects $D/leaky.1.gcdump $D/leaky.2.gcdump $D/leaky.3.gcdump --format tsv
# .NET's collections are collections (DESIGN 13): the 300 Timers pile up in
# the List<Timer> of static field Kept and the 300 CacheEntry in the
# Dictionary of static field Entries, each path ending at the collection,
# not at its T[] or Entry[] (fixtures/dotnet/README.md: Leaky)
rows_ series_dotnet_collections "System.Threading.Timer|System.Collections.Generic.List<System.Threading.Timer>|300|static field Kept (System.Collections.Generic.List<System.Threading.Timer>)
Acme.CacheEntry|System.Collections.Generic.Dictionary<System.Int32,Acme.CacheEntry>|300|static field Entries (System.Collections.Generic.Dictionary<System.Int32,Acme.CacheEntry>)" \
    '$2 == "growth" && n++ < 2 {print $6 "|" $9 "|" $10 "|" $15}' \
    suspects $D/leaky.3.gcdump $D/leaky.1.gcdump $D/leaky.2.gcdump --format tsv
# A ConcurrentDictionary is a collection too (fixtures/dotnet/Leaky,
# "concurrent": an Order holding a byte[64] per operation in the static
# OrderBook.Open): its Tables, bucket array (VolatileNode[]) and Node
# chains are its structure, so the growth is held by the static field (the
# reader lists statics before the locals that also hold it: a frame had the
# dictionary at hand), 300 entries named by the Order each holds, at the
# dictionary; each entry 160 B (Node 40, Order 32, byte[64] 88), 47,880 to
# 48,000 B as the last Order is a local's too.
rows_ series_dotnet_concurrent "Acme.Order|System.Collections.Concurrent.ConcurrentDictionary<System.Int32,Acme.Order>|300|Acme.Order|static field Open (System.Collections.Concurrent.ConcurrentDictionary<System.Int32,Acme.Order>)|bytes ok" \
    '$2 == "growth" && n++ < 1 {print $6 "|" $9 "|" $10 "|" $11 "|" $15 "|" ($12 >= 47880 && $12 <= 48000 ? "bytes ok" : "bytes " $12)}' \
    suspects $D/concurrent.1.gcdump $D/concurrent.2.gcdump $D/concurrent.3.gcdump --format tsv
# On a terminal: one class of value, though the last Order is a local's
# too (its Node holds nothing alone, and is no other class of value)
export COLUMNS=160
rows_ series_dotnet_concurrent_text "300 entries -> Acme.Order" \
    '/piles up/ {sub(/^ *piles up +/, ""); sub(/ \(.*$/, ""); print; exit}' \
    suspects $D/concurrent.1.gcdump $D/concurrent.2.gcdump $D/concurrent.3.gcdump --format table
unset COLUMNS
# A Dictionary<string, Profile> (fixtures/dotnet/Leaky, "named": a Profile
# holding a byte[48] per operation under the key "user-N" in the static
# Directory.ByName): its Entry[] holds each key and its value side by side,
# and a .gcdump names neither, so the key string, of the class the array's
# name gives first (System.String), starts each entry. 300 entries of
# Acme.Profile, not 299 Profiles and no keys: a key is 22 + 2 x its length
# in a .gcdump (9 keys of 6 characters, 90 of 7, 201 of 8: 11,184 B), a
# Profile 32 with its byte[48] 72; the last operation's key and Profile are
# also in the loop's locals (38 + 104): 11,146 + 31,096 = 42,242 B.
rows_ series_dotnet_string_keys "Acme.Profile|System.Collections.Generic.Dictionary<System.String,Acme.Profile>|300|Acme.Profile|42242|static field ByName (System.Collections.Generic.Dictionary<System.String,Acme.Profile>)" \
    '$2 == "growth" && n++ < 1 {print $6 "|" $9 "|" $10 "|" $11 "|" $12 "|" $15}' \
    suspects $D/named.3.gcdump $D/named.1.gcdump $D/named.2.gcdump --format tsv
export COLUMNS=160
rows_ series_dotnet_string_keys_text "300 entries -> Acme.Profile" \
    '/piles up/ {sub(/^ *piles up +/, ""); sub(/ \(.*$/, ""); print; exit}' \
    suspects $D/named.1.gcdump $D/named.2.gcdump $D/named.3.gcdump --format table
unset COLUMNS
# trend's row gives a class's slope and one holder: System.String's 100 a
# snapshot is two holders' (each key "user-N" under ByName, and the number
# "N" that formatting it caches, under 300, in .NET's s_smallNumberCache),
# so its row says 2; a Profile and its byte[] grow at ByName alone. A table
# says it in a note, with the holders column left out at 80 columns. The two
# String holders' counts are the same (99, 199, 299): the row names ByName,
# whose keys (22 + 2 x 6-8 characters) grow by more bytes than the cached
# numbers (22 + 2 x 1-3); it named the cache, first by key, before.
rows_ trend_dotnet_holders "System.String|2|static field ByName
Acme.Profile|1|static field ByName
System.Byte[]|1|static field ByName" \
    'NR > 1 && $9 == "grows" {h = $8; sub(/ \(.*$/, "", h); print $6 "|" $10 "|" h}' trend $D/named.1.gcdump $D/named.2.gcdump $D/named.3.gcdump --format tsv
export COLUMNS=80
# -q: no note (stderr empty, exit 0)
check_ trend_dotnet_holders_quiet_80 sh -c "[ -z \"\$(\"$LF\" trend $D/named.1.gcdump $D/named.2.gcdump $D/named.3.gcdump --format table -q 2>&1 >/dev/null)\" ]"
check_ trend_dotnet_holders_note_80 sh -c "\"$LF\" trend $D/named.1.gcdump $D/named.2.gcdump $D/named.3.gcdump --format table 2>&1 >/dev/null | grep -q '^leakfind: note: System.String grows under 2 holders; its row names the steepest, trend --owners lists each\$'"
# trend --owners: String's second owner is the array s_smallNumberCache's
# elements, whose last step is a bare class, "(System.String)": at 80
# columns the cut keeps the field, not the class (it read "… / (System.String)")
rows_ trend_dotnet_owner_cut_80 "s_smallNumberCache / …" \
    '/^ +[0-9.]+ +\+200 .*System\.String / {sub(/^.*System\.String +/, ""); print}' \
    trend --owners $D/named.1.gcdump $D/named.2.gcdump $D/named.3.gcdump --format table -q
unset COLUMNS
# at 80 columns the holder's class, 67 characters in parentheses, moves
# down whole under "static field ByName" (it was cut after "System."): in
# the growth's "held by" (the dictionary is no size finding after it: the
# growth piles up there)
export COLUMNS=80
rows_ series_dotnet_holder_wrap_80 "1" \
    '/^ +\(System\.Collections\.Generic\.Dictionary<System\.String,Acme\.Profile>\)$/ {n++} END {print n + 0}' \
    suspects $D/named.3.gcdump $D/named.1.gcdump $D/named.2.gcdump --format table
# a name that ends at the edge fits: the cache's dictionary class is 67
# characters, the room after the 13 of "   piles up  " at 80 columns, so
# it stays whole on its line, its address below (it was cut after "Acme.")
rows_ series_dotnet_edge_fit_80 "1" \
    '/^             System\.Collections\.Generic\.Dictionary<System\.Int32,Acme\.CacheEntry>$/ {n++} END {print n + 0}' \
    suspects $D/leaky.3.gcdump $D/leaky.1.gcdump $D/leaky.2.gcdump --format table
# a held-by class too long for any line (69 characters in parentheses) is
# cut between its type arguments, each whole: after "Dictionary<", not
# after "Dictionary<System." (which left "Int32,Acme.CacheEntry>)")
rows_ series_dotnet_argument_cut_80 "static field Entries (System.Collections.Generic.Dictionary<|System.Int32,Acme.CacheEntry>)" \
    '/^   held by   static field Entries / {sub(/^   held by   /, ""); first = $0; getline; sub(/^ +/, ""); print first "|" $0}' \
    suspects $D/leaky.3.gcdump $D/leaky.1.gcdump $D/leaky.2.gcdump --format table
unset COLUMNS
# inspect on the dictionary (fixtures/dotnet/Leaky "named": its address in
# named.3) lists its 300 entries, each a key string -> its Profile, the
# .gcdump keeping no texts; the agent's .NET core of "full" (leaky-full.lfs)
# lists Cache.Entries' 300 CacheEntry under int keys, which no object holds
rows_ inspect_dotnet_string_keys "300 300" \
    '$1 == "collection" && $3 == "size" {size = $5} $1 == "entry" && $3 ~ / \(System\.String\)$/ && $4 == "key -> value" && $7 == "Acme.Profile" {n++} END {print size, n + 0}' \
    inspect $D/named.3.gcdump 0x7f18c90040c0 --all --format tsv
rows_ inspect_dotnet_int_keys "300 300" \
    '$1 == "collection" && $3 == "size" {size = $5} $1 == "entry" && $3 == "(System.Int32)" && $7 == "Acme.CacheEntry" {n++} END {print size, n + 0}' \
    inspect $D/leaky-full.lfs 0x7f6cd5004150 --all --format tsv
# ... and the dominator tree counts its entries, chained ones included, as
# one row: 300 Nodes of 40 B, not the bucket heads
rows_ dominators_dotnet_concurrent "300 x Node<System.Int32,Acme.Order> (entries) 12000" \
    '$7 ~ /^[0-9]+ x Node</ {print $7, $4}' dominators $D/concurrent.3.gcdump --format tsv
# given oldest first (as people list files): the leak is the first finding,
# 2 sessions and 1 token per operation, 80 bytes per operation
rows_ series_order_suspects_oldest_first "growth	LeakedSession	200,400,600	LeakedSession +2.00, LeakedToken +1.00	80.00" \
    'NR == 2 {print $2 "\t" $6 "\t" $14 "\t" $16 "\t" $17}' suspects $L1 $L2 $L3 --workload 100,200,300
# noise (fixtures/java/series/src/NoiseSeries.java): the session leak, 1 per
# request and 336 bytes per request with its id String, its two byte[] and
# its HashMap$Node, and the map's table, 2,048 slots of 4 bytes at 1,000
# requests and 4,096 at 3,000 (8,192 B in 2,000 requests: 4.10 a request):
# 340.10, the holder's whole growth; the keep-alive streams (0.02 KeepAlive per request, 16 B
# each: 0.1% of the leak's bytes per request) are a note, not a finding;
# --minor 0 lists them; a rate that prints 0.00 (0.002 per unit when the
# workload is counted ten times finer) stays minor even then. The locale
# data (8 strings in 2,000 requests) is below --min-growth: not even that.
NS="$SJ/noise-1000.hprof.gz $SJ/noise-2000.hprof.gz $SJ/noise-3000.hprof.gz"
rows_ series_noise_findings "NoiseSeries\$Session 1.00 1000,2000,3000 340.10" \
    '$2 == "growth" {print $6, $13, $14, $17}' suspects $NS --workload 1000,2000,3000
case_ series_noise_note 0 suspects $NS --workload 1000,2000,3000 --top 1
# The growth's holder, SessionStore.SESSIONS's HashMap, retains 3,000
# entries of 336 B (its Node 32, the Session 32, the id String 24 with its
# byte[] of 9-12 characters 32, the data byte[200] 216) with its Node[4096]
# (16,400 B) and itself (48 B): 1,024,448 B, on its row and in its paragraph
# (the HashMap's size finding is left out: the growth tells it)
rows_ series_noise_holder_retains "growth 1024448" '$2 == "growth" {print $2, $3}' \
    suspects $NS --workload 1000,2000,3000
export COLUMNS=120
rows_ series_noise_holder_retains_text "1000.4 KiB" \
    '/^ *retains / {sub(/^ *retains +/, ""); sub(/,.*/, ""); print}' suspects $NS --workload 1000,2000,3000 --format table
unset COLUMNS
rows_ series_noise_minor_listed "NoiseSeries\$Session 1.00
NoiseSeries\$KeepAlive 0.02" '$2 == "growth" {print $6, $13}' suspects $NS --workload 1000,2000,3000 --minor 0
rows_ series_noise_rate_nothing "NoiseSeries\$Session 0.10" '$2 == "growth" {print $6, $13}' \
    suspects $NS --workload 10000,20000,30000 --minor 0
# the Jython-shaped series (src/DictSeries.java): every class of an entry
# grows under Cache.ENTRIES, none reads warm-up
rows_ series_dict_verdicts "byte[] grows
java.util.concurrent.ConcurrentHashMap\$Node grows
java.lang.String grows
DictSeries\$PyStr grows
DictSeries\$PyBytes grows
DictSeries\$PyInst grows
java.util.concurrent.ConcurrentHashMap grows
java.util.concurrent.ConcurrentHashMap\$Node[] grows" \
    '$6 ~ /^(DictSeries|byte\[\]|java.lang.String$|java.util.concurrent.ConcurrentHashMap)/ && $6 !~ /TreeBin|TreeNode|Forwarding/ {print $6, $9}' \
    trend $SJ/dict-3000.hprof.gz $SJ/dict-1000.hprof.gz $SJ/dict-2000.hprof.gz
# A class whose statics are no roots, held by a thread by no field
# (fixtures/graphs/make_static_holder.sh): its static reads as Java names it
SH="$G/static_holder-1.txt $G/static_holder-2.txt $G/static_holder-3.txt"
rows_ series_static_holder_trend "AuditEvent 10.00 static field AuditLog.EVENTS (java.util.ArrayList)" \
    '$4 == "yes" {print $6, $1, $8}' trend $SH
rows_ series_static_holder_suspects "AuditEvent static field AuditLog.EVENTS (java.util.ArrayList)" \
    '$2 == "growth" {print $6, $15}' suspects $SH --workload 1,2,3
rows_ series_static_holder_owners "java.util.ArrayList static field AuditLog.EVENTS (java.util.ArrayList)" \
    'NR == 2 {print $5, $6}' diff --owners $G/static_holder-1.txt $G/static_holder-3.txt
# V8 (stable ids): a holder's counts include the objects that were there in
# the first snapshot, as its members count them (fixtures/node/collections.js:
# 1 Session per request in app.sessions, 100, 200, 300; 2 Recent in
# app.recent, 200, 400, 600), never "0, 100, 200" beside 300 accumulated
NC=fixtures/node
rows_ series_v8_counts "Recent 200,400,600 600
Session 100,200,300 300" '$2 == "growth" && ($6 == "Session" || $6 == "Recent") {print $6, $14, $10}' \
    suspects $NC/collections_leak-100.heapsnapshot.gz $NC/collections_leak-200.heapsnapshot.gz \
    $NC/collections_leak-300.heapsnapshot.gz --workload 100,200,300
# .NET's finalizer queue holds garbage waiting for its finalizer
# (fixtures/graphs/make_finalizer_queue.sh): 0, 10, 20 DestroyScout under
# `finalizer` roots are no growth and no size finding; the Orders that a
# static list keeps (10 a step) are: a growth finding over the series (the
# store, whose list they pile up in, no size finding after it: one story),
# the store a size finding of the last snapshot alone
FQ="$G/finalizer_queue-1.txt $G/finalizer_queue-2.txt $G/finalizer_queue-3.txt"
rows_ series_finalizer_queue_trend "Acme.Order 10,20,30" '$4 == "yes" {print $6, $5}' trend $FQ
rows_ series_finalizer_queue_suspects "growth Acme.Order" 'NR > 1 {print $2, $6}' suspects $FQ --workload 1,2,3
rows_ series_finalizer_queue_single "object Acme.OrderStore" 'NR > 1 {print $2, $6}' suspects $G/finalizer_queue-3.txt
# A holder's bytes per unit are its whole growth (fixtures/graphs/
# make_growing_array.sh): 10 Items of 16 bytes and 80 bytes of its array a
# step, 240, not the 160 of the Items alone
GA="$G/growing_array-1.txt $G/growing_array-2.txt $G/growing_array-3.txt"
rows_ series_growing_array_bytes_rate "growth Item 240.00" '$2 == "growth" {print $2, $6, $17}' suspects $GA --workload 1,2,3
