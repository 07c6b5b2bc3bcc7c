# Collections as users see them (issue 32, DESIGN 13), sourced by run.sh.
# fixtures/java/series/src/CollectionSeries.java: per operation, 1 entry in a
# HashMap, 2 in a ConcurrentHashMap, 1 in a LinkedHashMap, 1 in a
# WeakHashMap whose value holds its key, 1 in a TreeMap, 3 elements in an
# ArrayList, 3 entries in a Hashtable (a String, a byte[64], a MixedRecord),
# and 1 item in a local list of the "collector" thread, which waits at a
# different stack depth in each dump. Keys collide, so the hashed entries sit
# at many depths of their buckets (and of treeified bins). Dumps after 100,
# 200, 300 operations; the control run evicts and keeps 50 of each.
C=fixtures/java/series/dumps
CS="$C/collections-100.hprof.gz $C/collections-200.hprof.gz $C/collections-300.hprof.gz"
CC="$C/collections_control-100.hprof.gz $C/collections_control-200.hprof.gz $C/collections_control-300.hprof.gz"

# Every planted class grows by exactly its rate under the static field (or
# the thread's frame) that holds its collection; never under a bucket.
rows_ collections_trend "1.00 yes HmSession static field Registry.SESSIONS (java.util.HashMap)
1.00 yes java.lang.Long static field Registry.SESSIONS (java.util.HashMap)
2.00 yes ChmConn static field Registry.CONNS (java.util.concurrent.ConcurrentHashMap)
2.00 yes java.lang.Integer static field Registry.CONNS (java.util.concurrent.ConcurrentHashMap)
2.00 yes java.util.concurrent.ConcurrentHashMap\$TreeNode static field Registry.CONNS (java.util.concurrent.ConcurrentHashMap)
1.00 yes LruKey static field Registry.LRU (java.util.LinkedHashMap)
1.00 yes LruPage static field Registry.LRU (java.util.LinkedHashMap)
1.00 yes WKey static field Registry.WEAK (java.util.WeakHashMap)
1.00 yes WVal static field Registry.WEAK (java.util.WeakHashMap)
1.00 yes java.util.WeakHashMap\$Entry static field Registry.WEAK (java.util.WeakHashMap)
1.00 yes TreeKey static field Registry.ORDERS (java.util.TreeMap)
1.00 yes TreeVal static field Registry.ORDERS (java.util.TreeMap)
1.00 yes java.util.TreeMap\$Entry static field Registry.ORDERS (java.util.TreeMap)
3.00 yes ListEvent static field Registry.EVENTS (java.util.ArrayList)
3.00 yes java.util.UUID static field Registry.MIXED (java.util.Hashtable)
3.00 yes java.util.Hashtable\$Entry static field Registry.MIXED (java.util.Hashtable)
1.00 yes MixedRecord static field Registry.MIXED (java.util.Hashtable)
1.00 yes ThreadItem thread collector (java.lang.Thread) / frame CollectionSeries.collect (java.util.ArrayList)" \
    'BEGIN { n = split("HmSession java.lang.Long ChmConn java.lang.Integer java.util.concurrent.ConcurrentHashMap$TreeNode LruKey LruPage WKey WVal java.util.WeakHashMap$Entry TreeKey TreeVal java.util.TreeMap$Entry ListEvent java.util.UUID java.util.Hashtable$Entry MixedRecord ThreadItem", want, " ") }
     NR > 1 { row[$6] = $1 " " $4 " " $6 " " $8 }
     END { for (i = 1; i <= n; i++) print row[want[i]] }' \
    trend $CS --workload 100,200,300 --format tsv
# Two maps gain one HashMap$TreeNode each per operation (the LinkedHashMap's
# treeified bins use HashMap's class): 2.00, at one of them.
rows_ collections_trend_shared "2.00 yes 100,200,300" \
    'NR > 1 && $6 == "java.util.HashMap$TreeNode" {print $1, $4, $7}' trend $CS --workload 100,200,300 --format tsv
# The control does the same work and evicts: nothing is flagged.
rows_ collections_control "0 flagged" 'NR > 1 && $4 == "yes" {n++} END {print n + 0, "flagged"}' \
    trend $CC --workload 100,200,300 --format tsv
"$LF" trend $CC --workload 100,200,300 --exit-code >/dev/null 2>&1
[ $? = 0 ] && ok || bad "collections_control_exit"

# suspects over the series: one finding per collection, named by the class
# that leaks there (the map's values, the list's elements; UUID for
# MIXED, whose values are of three classes, one each per operation, while
# each operation adds 3 UUID keys), its objects per operation and the
# bytes per operation of all that grows there, its table included. The
# entries' bytes are the instance sizes the JVM's own histograms give
# (collections-*.histo.txt): UUID 32, Hashtable$Entry 32, MixedRecord 24,
# String 24, byte[3] 24, byte[64] 80 (Hashtable: 3 x 32 + 3 x 32 + 24 + 24 +
# 24 + 80 = 344); ChmConn 16, Integer 16, CHM$TreeNode 48 (2 x 80 = 160);
# HmSession 24, Long 24, HashMap$TreeNode 56 (104); LruKey 16, LruPage 24,
# HashMap$TreeNode 56 (96); TreeMap$Entry 40, TreeKey 16, TreeVal 24 (80);
# ListEvent 24 (3 x 24 = 72); WeakHashMap$Entry 40, WKey 16, WVal 16 (72);
# ThreadItem 16; then each one's table (the array of buckets or elements)
# from 100 to 300 operations, per operation: the HashMap, LinkedHashMap and
# WeakHashMap tables' 256 -> 512 slots of 4 bytes, 5.12; the Hashtable's
# 767 -> 1535 slots (900 keys at 0.75), 15.36; EVENTS' elementData 366 ->
# 1234 slots (ArrayList's 1.5x growth), 17.36; the ConcurrentHashMap's
# table and tree bins, 14.08; the collector's list, 5.12; the TreeMap none. The accumulation counts entries, not buckets: 900, 600, 300.
# A map's entries are named by what they hold (DESIGN 13): each map's value
# class; MIXED's three kinds of value by the one whose entries retain most,
# byte[64] (Hashtable$Entry 32 + UUID 32 + byte[] 80 = 144 bytes an entry,
# against 112 for a String and 88 for a MixedRecord).
rows_ collections_suspects "3.00 java.util.UUID 359.36 900 byte[] static field Registry.MIXED
2.00 ChmConn 174.08 600 ChmConn static field Registry.CONNS
1.00 HmSession 109.12 300 HmSession static field Registry.SESSIONS
1.00 LruPage 101.12 300 LruPage static field Registry.LRU
3.00 ListEvent 89.36 900 ListEvent static field Registry.EVENTS
1.00 TreeVal 80.00 300 TreeVal static field Registry.ORDERS
1.00 WVal 77.12 300 WVal static field Registry.WEAK
1.00 ThreadItem 21.12 300 ThreadItem thread collector" \
    'NR > 1 && $2 == "growth" {split($15, hop, " \\("); print $13, $6, $17, $10, $11, hop[1]}' \
    suspects $C/collections-300.hprof.gz $C/collections-100.hprof.gz $C/collections-200.hprof.gz \
    --workload 300,100,200 --format tsv
# ... and those bytes are what diff --owners finds each collection gained in
# the 200 operations (two computations: the trend's rows, the dominator
# tree's retained sizes), for all eight
"$LF" suspects $C/collections-100.hprof.gz $C/collections-200.hprof.gz $C/collections-300.hprof.gz \
    --workload 100,200,300 --format tsv 2>/dev/null |
    awk -F'\t' '$2 == "growth" {split($15, hop, " / "); printf "%s\t%.0f\n", hop[1], $17 * 200}' | LC_ALL=C sort >"$tmp/growth_bytes"
"$LF" diff --owners $C/collections-100.hprof.gz $C/collections-300.hprof.gz --format tsv 2>/dev/null |
    awk -F'\t' 'NR > 1 {split($6, hop, " / "); print hop[1] "\t" $2}' >"$tmp/owner_bytes"
suspects_bytes=$(cat "$tmp/growth_bytes")
owner_bytes=$(awk -F'\t' 'NR == FNR {want[$1] = 1; next} ($1 in want) {print}' "$tmp/growth_bytes" "$tmp/owner_bytes" |
    LC_ALL=C sort)
if [ -n "$suspects_bytes" ] && [ "$(echo "$suspects_bytes" | wc -l)" = 8 ] && [ "$suspects_bytes" = "$owner_bytes" ]; then
    ok
else
    bad "collections_bytes_rate_is_owner_growth" "suspects: $suspects_bytes" "owners:   $owner_bytes"
fi
# On a terminal the mixed map says so: its 900 entries hold byte[], String
# and MixedRecord (300 each, by construction), named by the one retaining
# most "and 2 other classes"; a map of one kind of value says its class
# alone (the ConcurrentHashMap's tree bins hold entries and are none).
export COLUMNS=160
rows_ collections_suspects_mixed_text "900 entries -> byte[] and 2 other classes|600 entries -> ChmConn" \
    '/piles up/ && /Hashtable|ConcurrentHashMap/ {sub(/^ *piles up +/, ""); sub(/ \(.*$/, ""); w = w (w ? "|" : "") $0} END {print w}' \
    suspects $C/collections-100.hprof.gz $C/collections-200.hprof.gz $C/collections-300.hprof.gz --format table
unset COLUMNS
rows_ collections_suspects_control "0 growth" 'NR > 1 && $2 == "growth" {n++} END {print n + 0, "growth"}' \
    suspects $C/collections_control-300.hprof.gz $C/collections_control-100.hprof.gz \
    $C/collections_control-200.hprof.gz --workload 300,100,200 --format tsv

# diff --owners: one row per collection, its objects gained in 200
# operations (entries, keys, values: 10, 6, 3, 3, 3, 3, 3 per operation; the
# ConcurrentHashMap also turned 16 more bins into trees), and the thread's
# list matched across dumps whose frame numbers differ.
rows_ collections_owners "2000 static field Registry.MIXED (java.util.Hashtable)
1216 static field Registry.CONNS (java.util.concurrent.ConcurrentHashMap)
600 static field Registry.SESSIONS (java.util.HashMap)
600 static field Registry.LRU (java.util.LinkedHashMap)
600 static field Registry.EVENTS (java.util.ArrayList)
600 static field Registry.ORDERS (java.util.TreeMap)
600 static field Registry.WEAK (java.util.WeakHashMap)
200 thread collector (java.lang.Thread) / frame CollectionSeries.collect (java.util.ArrayList)" \
    'NR > 1 && NR <= 9 {print $1, $6}' diff --owners $C/collections-100.hprof.gz $C/collections-300.hprof.gz --format tsv
# the thread's list held 100 items in the first dump, 300 in the last: an
# owner that already held objects (never "grew from 0")
rows_ collections_thread_owner "102 302" \
    'NR > 1 && $6 ~ /^thread collector/ {print $3, $4}' \
    diff --owners $C/collections-100.hprof.gz $C/collections-300.hprof.gz --format tsv

# 500 loaders each define a class Plugin, and PLUGINS holds one instance of
# each: what accumulates in the list is 500 Plugin (136 bytes each: 68,000),
# one class by its name (fixtures/java/src/ManyLoaders.java).
rows_ accumulation_by_class_name "500 Plugin 68000" \
    'NR > 1 && $11 == "Plugin" {print $10, $11, $12}' \
    suspects $J/many_loaders.hprof.gz --threshold 2 --format tsv

# The same in V8 (fixtures/node/collections.js): per request 1 entry in the
# Map app.sessions (a Session, 40 bytes, under a new key string, 24), 1
# member of the Set app.peers (a Peer, 32), 1 property of app.byName, an
# object used as a dictionary (a Named, 32, under a new key string, 24), 2
# elements pushed on the Array app.recent (Recent, 40 each), and 1 entry in
# the Map app.mixed whose value is by turns a string, a Uint8Array (with its
# ArrayBuffer) and a Record: a third of each per request. Sizes are the
# snapshot's self sizes of the new objects (`diff`'s new_bytes / new).
NC=fixtures/node
NS="$NC/collections_leak-100.heapsnapshot.gz $NC/collections_leak-200.heapsnapshot.gz $NC/collections_leak-300.heapsnapshot.gz"
rows_ collections_trend_v8 "1.00 yes Session (global) / app (Object) / sessions (Map)
1.00 yes Peer (global) / app (Object) / peers (Set)
1.00 yes Named (global) / app (Object) / byName (Object)
2.00 yes Recent (global) / app (Object) / recent (Array)
0.34 yes Record (global) / app (Object) / mixed (Map)
0.33 yes Uint8Array (global) / app (Object) / mixed (Map)" \
    'BEGIN { n = split("Session Peer Named Recent Record Uint8Array", want, " ") }
     NR > 1 { row[$6] = $1 " " $4 " " $6 " " $8 }
     END { for (i = 1; i <= n; i++) print row[want[i]] }' \
    trend $NS --workload 100,200,300 --format tsv
# V8 names some classes in parentheses itself ("(compiled code)", a
# function's code): an owner's step shows such a class as it is, "code
# (compiled code)", never "code ((compiled code))"; counted over every owner
rows_ collections_trend_v8_bracketed_class "0 yes" \
    'NR > 1 && $7 ~ /\(\(/ {doubled++} NR > 1 && $7 ~ / code \(compiled code\)( |$)/ {code++}
     END {print doubled + 0, (code > 0 ? "yes" : "no")}' \
    trend --owners $NS --workload 100,200,300 --format tsv
# bytes per request per collection: 40 + 24 = 64, 32, 32 + 24 = 56, 2 x 40 =
# 80; the accumulation counts the entries, looking through V8's backing
# tables: 300 Session, 300 Peer, 300 Named, 600 Recent.
rows_ collections_suspects_v8 "80.00 600 Recent recent
64.00 300 Session sessions
56.00 300 Named byName
32.00 300 Peer peers" \
    'NR > 1 && $2 == "growth" && $11 != "Uint8Array" {n = split($15, hop, " / "); split(hop[n], f, " "); print $17, $10, $11, f[1]}' \
    suspects $NC/collections_leak-300.heapsnapshot.gz $NC/collections_leak-100.heapsnapshot.gz \
    $NC/collections_leak-200.heapsnapshot.gz --workload 300,100,200 --format tsv
# A V8 Map's or Set's entries are its table's slots, a key and its value one
# entry (docs/COLLECTIONS.md): app.mixed holds 300 entries (one a request),
# a third each a Uint8Array (64 bytes: 176 + its ArrayBuffer 88 = 264
# retained), a Record (40) and a concatenated string (32 + its two parts:
# 168 retained), 47,200 B, named by the Uint8Array, which retains most;
# app.sessions 300 entries of a Session (40) and its key string (24): 19,200
# B, where the values alone said 100 Uint8Array and 12,000 B; app.byName,
# an object used as a dictionary, 300 entries of a Named (32) under its key
# string (24): 16,800 B, where its values alone said 9,600.
rows_ collections_suspects_v8_entries "300 Uint8Array 47200 mixed
300 Session 19200 sessions
300 Named 16800 byName
300 Peer 9600 peers" \
    'NR > 1 && $2 == "growth" && $15 ~ /\((Map|Set|Object)\)$/ {n = split($15, hop, " / "); split(hop[n], f, " "); print $10, $11, $12, f[1]}' \
    suspects $NC/collections_leak-300.heapsnapshot.gz $NC/collections_leak-100.heapsnapshot.gz \
    $NC/collections_leak-200.heapsnapshot.gz --workload 300,100,200 --format tsv
export COLUMNS=160
rows_ collections_suspects_v8_mixed_text "300 entries -> Uint8Array and 2 other classes" \
    '/piles up/ && / at Map @/ && /Uint8Array/ {sub(/^ *piles up +/, ""); sub(/ \(.*$/, ""); print}' \
    suspects $NS --workload 100,200,300 --format table
unset COLUMNS
rows_ collections_control_v8 "0 growth" 'NR > 1 && $2 == "growth" {n++} END {print n + 0, "growth"}' \
    suspects $NC/collections_control-300.heapsnapshot.gz $NC/collections_control-100.heapsnapshot.gz \
    $NC/collections_control-200.heapsnapshot.gz --workload 300,100,200 --format tsv
# diff --owners: each collection one row, 200 requests' objects: 400
# (sessions: Session + key), 200 (peers), 400 (byName: Named + key), 400
# (recent), never a table, a slot or an element.
rows_ collections_owners_v8 "400 (global) / app (Object) / sessions (Map)
200 (global) / app (Object) / peers (Set)
400 (global) / app (Object) / byName (Object)
400 (global) / app (Object) / recent (Array)
0 rows inside a collection" \
    'NR > 1 && $6 ~ / app \(Object\) \/ [a-zA-Z]+ \([A-Za-z]+\)$/ && $6 !~ /mixed/ {row[$6] = $1 " " $6}
     NR > 1 && $6 ~ /app \(Object\) \/ [a-zA-Z]+ \([A-Za-z]+\) \// {inside++}
     END {print row["(global) / app (Object) / sessions (Map)"]; print row["(global) / app (Object) / peers (Set)"];
          print row["(global) / app (Object) / byName (Object)"]; print row["(global) / app (Object) / recent (Array)"];
          print inside + 0, "rows inside a collection"}' \
    diff --owners $NC/collections_leak-100.heapsnapshot.gz $NC/collections_leak-300.heapsnapshot.gz --top 0 --format tsv

# inspect on a map (issue 32): size, capacity and fill ratio, then each entry
# key -> value. Registry.SESSIONS holds keys 1000 + 64 k (k = 1..300: their
# sum is 300 x 1000 + 64 x 45,150 = 3,189,600) each -> an HmSession, in a
# table of 512 (HashMap doubles from 16 while size > 0.75 x capacity:
# 300 entries need 512), fill 300/512 = 0.586.
SESS=$("$LF" roots $C/collections-300.hprof.gz --format tsv 2>/dev/null | awk -F'\t' '$7 == "Registry.SESSIONS" {print $1}')
rows_ inspect_map_entries "size 300
capacity 512
fill_ratio 0.586
300 entries, keys 1000+64k: 300 distinct, sum 3189600, values HmSession 300" \
    '$1 == "collection" {print $3, $5}
     $1 == "entry" {n++; sum += $3; if (($3 - 1000) % 64 == 0 && !seen[$3]++) ok++; if ($7 == "HmSession") v++}
     END {printf "%d entries, keys 1000+64k: %d distinct, sum %d, values HmSession %d\n", n, ok, sum, v}' \
    inspect $C/collections-300.hprof.gz "$SESS" --all --format tsv
# Registry.MIXED (a Hashtable) maps 900 UUIDs: 300 to a String "s" + one
# letter + "x", 300 to a byte[64] (80 bytes), 300 to a MixedRecord; a
# Hashtable grows its table to 2n + 1 from 11 while size >= 0.75 x capacity:
# 1,535 slots for 900 entries.
MIX=$("$LF" roots $C/collections-300.hprof.gz --format tsv 2>/dev/null | awk -F'\t' '$7 == "Registry.MIXED" {print $1}')
rows_ inspect_hashtable_entries "size 900
capacity 1535
java.lang.String 300 s?x 300
byte[] 300 80 300
MixedRecord 300" \
    '$1 == "collection" && $3 != "fill_ratio" {print $3, $5}
     $1 == "entry" {n[$7]++; if ($7 == "java.lang.String" && $5 ~ /^s[a-z]x$/) text++; if ($7 == "byte[]" && $8 == 80) b++}
     END {print "java.lang.String", n["java.lang.String"], "s?x", text; print "byte[]", n["byte[]"], 80, b; print "MixedRecord", n["MixedRecord"]}' \
    inspect $C/collections-300.hprof.gz "$MIX" --all --format tsv
# A TreeMap has no table: its size alone, and its 300 entries TreeKey -> TreeVal.
ORD=$("$LF" roots $C/collections-300.hprof.gz --format tsv 2>/dev/null | awk -F'\t' '$7 == "Registry.ORDERS" {print $1}')
rows_ inspect_treemap_entries "size 300
300 TreeVal" '$1 == "collection" {print $3, $5} $1 == "entry" && $7 == "TreeVal" {n++} END {print n, "TreeVal"}' \
    inspect $C/collections-300.hprof.gz "$ORD" --all --format tsv

# dominators below a collection (issue 32): what it holds by class, through
# its entries and buckets. Registry.MIXED's table holds 900 UUID keys (32 B),
# 900 Hashtable$Entry (32 B; their own bytes), 300 byte[64] (80 B), 300
# Strings (24 B and their byte[3] 24 B: 48 retained) and 300 MixedRecord (24 B).
rows_ dominators_collection_groups "900 x java.util.UUID 28800 900
900 x java.util.Hashtable\$Entry (entries) 28800 900
300 x byte[] 24000 300
300 x java.lang.String 14400 300
300 x MixedRecord 7200 300" \
    'NR > 1 && $1 == 2 {sub(/^ */, "", $7); print $7, $5, $10}' \
    dominators $C/collections-300.hprof.gz --root "$MIX" --depth 2 --format tsv
# --no-group lists the table's slots as before: the 10 largest bucket heads
rows_ dominators_collection_no_group "10 java.util.Hashtable\$Entry" \
    'NR > 1 && $1 == 2 && $2 != "" {n++; c = $7} END {sub(/^ */, "", c); print n, c}' \
    dominators $C/collections-300.hprof.gz --root "$MIX" --depth 2 --min 0 --no-group --format tsv
# V8: app.sessions' table holds 300 Sessions (40 B) and 300 key strings
# (24 B); app.recent, an Array, 600 Recent (40 B).
rows_ dominators_collection_groups_v8 "300 x Session 12000
300 x (string) 7200
600 x Recent 24000" \
    '$8 == "sessions" {want = $1 + 2} $8 == "recent" {want = $1 + 1}
     NR > 1 && $1 == want && $10 >= 300 {print $7, $5}' \
    dominators $NC/collections_leak-300.heapsnapshot.gz --depth 6 --top 3 --format tsv

# A TreeMap's and a LinkedHashMap's entries are their own children, not an
# array's: still one row per class at the map (issue 47), each entry counted:
# Registry.LRU's 300 HashMap$TreeNode (56 B), LruPage (24), LruKey (16) and
# its table (one HashMap$Node[], 2,064 B, in the summary); Registry.ORDERS'
# 300 TreeMap$Entry (40), TreeVal (24), TreeKey (16).
rows_ dominators_collection_jdk_entries "LRU 300 x java.util.HashMap\$TreeNode (entries) 16800
LRU 300 x LruPage 7200
LRU 300 x LruKey 4800
ORDERS 300 x java.util.TreeMap\$Entry (entries) 12000
ORDERS 300 x TreeVal 7200
ORDERS 300 x TreeKey 4800" \
    'NR > 1 && $1 == 0 {at = $11 ~ /^static field Registry\.(LRU|ORDERS)$/ ? substr($11, 23) : ""}
     NR > 1 && $1 == 1 && at != "" && $10 != "" {sub(/^ */, "", $7); print at, $7, $5}' \
    dominators $C/collections-300.hprof.gz --top 20 --format tsv

# Entries chained in their buckets (issue 47, fixtures/java/src/MapSessions.java):
# MapSessions.SESSIONS holds 3,000 sessions in 1,000 chains of 3, CONNS
# 1,200 connections in 600 chains of 2. Below each table, one row per class
# with every entry counted, never a bucket: a Session retains 240 B
# (720,000), its HashMap$Node 32 (96,000), its key 16 (48,000); a Conn 144
# (172,800), its node 32 (38,400), its key 16 (19,200). The report's tree
# shows the same rows (tests/report/check_report.js).
rows_ dominators_map_sessions "SESSIONS 3,000 x MapSessions\$Session 720000 3000
SESSIONS 3,000 x java.util.HashMap\$Node (entries) 96000 3000
SESSIONS 3,000 x MapSessions\$SessionKey 48000 3000
CONNS 1,200 x MapSessions\$Conn 172800 1200
CONNS 1,200 x java.util.concurrent.ConcurrentHashMap\$Node (entries) 38400 1200
CONNS 1,200 x MapSessions\$ConnKey 19200 1200" \
    'NR > 1 && $1 == 0 {at = $11 ~ /^static field MapSessions\./ ? substr($11, 26) : ""}
     NR > 1 && $1 == 2 && at != "" {sub(/^ */, "", $7); print at, $7, $5, $10}' \
    dominators $J/map_sessions.hprof.gz --format tsv
# V8 (fixtures/node/map_sessions.js): app.sessions, a Map, holds 3,000
# Sessions below its table; app.connsById, an object used as a dictionary,
# 1,200 Conns, one row too (before: "... 1,201 more" beside its properties).
rows_ dominators_map_sessions_v8 "sessions 3,000 x Session
connsById 1,200 x Conn" \
    '$8 == "sessions" {at = $8; want = $1 + 2} $8 == "connsById" {at = $8; want = $1 + 1}
     NR > 1 && $1 == want && $7 ~ / x (Session|Conn)$/ {sub(/^ */, "", $7); print at, $7}' \
    dominators $NC/map_sessions.heapsnapshot.gz --depth 4 --format tsv

# The report's tree (its icicle and table): the children it leaves out are
# grouped by class, through a collection's structure: Registry.EVENTS'
# elementData holds 900 ListEvent (24 B each: 21,600), none of them taken
# one by one; the mixed Hashtable's table shows its entries as "(entries)".
"$LF" report $C/collections-300.hprof.gz -o "$tmp/collections.html" 2>/dev/null
if grep -q '"900 x ListEvent","",null,21600,null,900,null,0,"ListEvent"\]' "$tmp/collections.html" &&
   grep -q ' x java.util.Hashtable\$Entry (entries)"' "$tmp/collections.html"; then
    ok
else
    bad "report_collection_groups"
fi

# inspect on a V8 Map or Set: size, then the entries in insertion order.
# After 100 requests app.sessions maps 's1'..'s100' to Sessions; app.peers
# holds 100 Peers; app.mixed maps 1..100 (small integers: no nodes) to a
# Uint8Array, a Record and a string by turns (i % 3 = 1, 2, 0).
APP=$("$LF" path $NC/collections_leak-100.heapsnapshot.gz --class Session --top 1 --format tsv 2>/dev/null |
      awk -F'\t' '$9 == "app" {print $5}')
app_field() { "$LF" inspect $NC/collections_leak-100.heapsnapshot.gz "$APP" --format tsv 2>/dev/null |
              awk -F'\t' -v f="$1" '$3 == f {print $6}'; }
rows_ inspect_v8_map "size 100
100 entries, s1..s100 in order: 100, values Session 100" \
    '$1 == "collection" {print $3, $5}
     $1 == "entry" {n++; if ($3 == "s" n) ok++; if ($7 == "Session") v++}
     END {printf "%d entries, s1..s100 in order: %d, values Session %d\n", n, ok, v}' \
    inspect $NC/collections_leak-100.heapsnapshot.gz "$(app_field sessions)" --all --format tsv
rows_ inspect_v8_set "size 100
100 Peer" '$1 == "collection" {print $3, $5} $1 == "entry" && $7 == "Peer" {n++} END {print n, "Peer"}' \
    inspect $NC/collections_leak-100.heapsnapshot.gz "$(app_field peers)" --all --format tsv
rows_ inspect_v8_mixed "size 100
100 in turn" \
    '$1 == "collection" {print $3, $5}
     $1 == "entry" {i = $2 + 1; want = i % 3 == 1 ? "Uint8Array" : i % 3 == 2 ? "Record" : "string";
                    if ($3 == "(small integer)" && index($7, want) > 0) ok++}
     END {print ok, "in turn"}' \
    inspect $NC/collections_leak-100.heapsnapshot.gz "$(app_field mixed)" --all --format tsv

# An OCaml-shaped Hashtbl whose bucket array is reallocated bigger at every
# step (fixtures/graphs/make_resized_table.sh): OCaml labels carry a block's
# size, signatures do not, so the array is one holder across the three
# sizes: values and cells 10, 20, 30 under it; diff --owners gives its 40
# new objects in the table that holds the array (a 4-field record holding
# 2^k slots of 3-field cells: an OCaml Hashtbl, whose bucket array is its
# structure as a HashMap's table is, DESIGN 13).
rows_ resized_table_trend "10,20,30 10,20,30 block(tag 0, 2 fields)
10,20,30 10,20,30 block(tag 0, 3 fields)" \
    'NR > 1 && $4 == "yes" {print $5, $7, $6}' \
    trend $G/resized_table-1.txt $G/resized_table-2.txt $G/resized_table-3.txt --format tsv
rows_ resized_table_owner "40 global Tbl.sessions (block(tag 0, 4 fields))" \
    'NR == 2 {print $1, $6}' diff --owners $G/resized_table-1.txt $G/resized_table-3.txt --format tsv

# path --merge folds an array's slots and a collection's entries (issue 33
# item 6): the 300 HmSessions, whatever bucket and tree depth their entries
# sit at, are one row under one row of entries; the 900 ListEvents one row
# below elementData. --no-group keeps a row per object (900 ListEvent rows).
rows_ path_merge_folded "0 300 java.util.HashMap static field Registry.SESSIONS
1 300 java.util.HashMap\$Node[] table
2 300 java.util.HashMap\$TreeNode []
3 300 HmSession value" \
    'NR > 1 {sub(/^ */, "", $6); print $1, $2, $6, $7 $8}' \
    path $C/collections-300.hprof.gz --class HmSession --top 0 --merge --format tsv
rows_ path_merge_folded_list "2 900 ListEvent []" \
    '$1 == 2 {print $1, $2, $6, $7}' \
    path $C/collections-300.hprof.gz --class ListEvent --top 0 --merge --format tsv
rows_ path_merge_no_group "900" '$1 == 2 && $6 == "ListEvent" {n++} END {print n}' \
    path $C/collections-300.hprof.gz --class ListEvent --top 0 --merge --no-group --format tsv

# The dominator tree shows an OCaml Hashtbl's bucket array as Java's table
# is shown (docs/COLLECTIONS.md rule 4): its members, the 60 sessions of
# fixtures/graphs/make_ocaml_table_series.sh, alike, as one row of 60 x
# (24 + 112) = 8,160 B (not 3 of them one by one, --top 3, then "57 x"),
# and its 60 bucket cells (32 B) as one row of entries, not bucket by bucket.
rows_ dominators_ocaml_table_members "60 x block(tag 0, 2 fields) 8160|60 x block(tag 0, 3 fields) (entries) 1920|" \
    '$1 == 2 { printf "%s %s|", ($2 != "" ? $2 : $7), $5 }' \
    dominators $G/ocaml_table-3.txt --format tsv --top 3
