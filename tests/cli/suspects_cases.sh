# leakfind suspects (issue 22.1). fixtures/graphs/suspects.txt works out
# every value by hand in its header: the accumulation points, a container
# whose big children are findings of their own, what is left of it at
# --threshold 20, and a class finding of twelve small top owners.
case_ suspects_hand 0 suspects $G/suspects.txt --format tsv
case_ suspects_hand_20 0 suspects $G/suspects.txt --format tsv --threshold 20
case_ suspects_hand_json 0 suspects $G/suspects.txt --format json --top 1
case_ suspects_hand_exit 1 suspects $G/suspects.txt --format tsv --top 1 --exit-code
case_ suspects_none 0 suspects $G/suspects.txt --format tsv --threshold 50% --exit-code
case_ suspects_bad_threshold 2 suspects $G/suspects.txt --threshold 0
case_ suspects_workload_count 2 suspects $G/series_3.txt $G/series_1.txt --workload 1,2,3
help_ help_suspects suspects -h
# series_1..3 (newest first, then the older ones oldest first): 3 Listeners
# of 32 B, each with a byte[] of 80 B, more per step in Registry's list:
# one growth finding at the list's Object[], named by Listener (what the
# list holds: 2, 5, 8 of them, 3 a step), 336 B a step of them and 24 of
# the list's Object[] (32, 56, 80 bytes): 360 B a step in all; the byte[]
# grow inside the Listeners, so they are part of it. Registry, which
# retains 84.67%, is no size finding after it: its memory piles up at that
# list, the growth finding's story told twice.
case_ suspects_series 0 suspects $G/series_3.txt $G/series_1.txt $G/series_2.txt --min-growth 5 --format tsv
# At a 5% threshold the objects with other stories stay size findings
# after it: Cache (16 B and 4 Entries of 24: 112 of the 1,200 B reachable,
# 9.33%) and the main Thread (8 B and 4 Temps of 16: 72 B, 6.00%).
rows_ suspects_series_others "growth Listener 1000 83.33
object Cache 112 9.33
object Thread 72 6.00" 'NR > 1 {print $2, $6, $3, $4}' \
    suspects $G/series_3.txt $G/series_1.txt $G/series_2.txt --min-growth 5 --threshold 5 --format tsv
case_ suspects_series_exit 1 suspects $G/series_3.txt $G/series_1.txt $G/series_2.txt --min-growth 5 --format tsv --top 1 --exit-code

# Real dumps, the rows fixed by the programs' construction.
# PlantedLeak keeps 1,000 Leaked in PlantedLeak.LEAK (an ArrayList): the
# list is where they pile up, and its path ends there, not at its
# elementData (DESIGN 13: a collection is one level).
rows_ suspects_planted_java "1 object java.util.ArrayList java.util.ArrayList 1000 Leaked static field PlantedLeak.LEAK (java.util.ArrayList)" \
    'NR == 2 { print $1, $2, $6, $9, $10, $11, $15 }' suspects $J/planted_leak.hprof --format tsv
# MapSessions (fixtures/java/src/MapSessions.java): each map is where its
# entries pile up, named by what they hold (DESIGN 13), never by
# HashMap$Node at the map's table: 3,000 entries of a HashMap$Node 32, a
# SessionKey 16 and a Session 240 (864,000 bytes); 1,200 of a
# ConcurrentHashMap$Node 32, a ConnKey 16 and a Conn 144 (230,400).
rows_ suspects_map_entries_java "1 java.util.HashMap java.util.HashMap 3000 MapSessions\$Session 864000 static field MapSessions.SESSIONS (java.util.HashMap)
2 java.util.concurrent.ConcurrentHashMap java.util.concurrent.ConcurrentHashMap 1200 MapSessions\$Conn 230400 static field MapSessions.CONNS (java.util.concurrent.ConcurrentHashMap)" \
    'NR == 2 || NR == 3 { print $1, $6, $9, $10, $11, $12, $15 }' suspects $J/map_sessions.hprof.gz --format tsv
# on a terminal: "3,000 entries -> MapSessions$Session (843.8 KiB) at
# java.util.HashMap 0xfd5bf538"
export COLUMNS=160
rows_ suspects_map_entries_text "3,000 Session HashMap|1,200 Conn ConcurrentHashMap" \
    '/^   where / {split($0, f, " +"); sub(/.*\$/, "", f[6]); sub(/.*\./, "", f[10]); w = w (w ? "|" : "") f[3] " " f[6] " " f[10]} END {print w}' \
    suspects $J/map_sessions.hprof.gz --format table
unset COLUMNS
# LeakSeries: 2 LeakedSession (32 B) and 1 LeakedToken (16 B) per operation
# into SessionRegistry.SESSIONS: 80 B per operation (fixtures/java/series/README.md).
JS=fixtures/java/series/dumps
rows_ suspects_series_java "1 growth 200,400,600 LeakedSession +2.00, LeakedToken +1.00 80.00 static field SessionRegistry.SESSIONS (java.util.ArrayList)" \
    'NR == 2 { print $1, $2, $14, $16, $17, $15 }' suspects $JS/leak-300.hprof $JS/leak-100.hprof $JS/leak-200.hprof --workload 300,100,200 --format tsv
rows_ suspects_series_java_control "0" 'NR > 1 && $2 == "growth" { n++ } END { print n + 0 }' \
    suspects $JS/control-300.hprof $JS/control-100.hprof $JS/control-200.hprof --workload 300,100,200 --format tsv
# warmup_service.js: one Function per request kept in compiledRules; the
# control only warms up.
N=fixtures/node
rows_ suspects_series_node "1 growth compiledRules (Array) 1" \
    'NR == 2 { n = split($15, hop, " / "); split($16, g, "Function \\+"); print $1, $2, hop[n], g[2] + 0 }' \
    suspects $N/warmup_leak-300.heapsnapshot.gz $N/warmup_leak-100.heapsnapshot.gz $N/warmup_leak-200.heapsnapshot.gz --workload 300,100,200 --format tsv
rows_ suspects_series_node_control "0" 'NR > 1 && $2 == "growth" { n++ } END { print n + 0 }' \
    suspects $N/warmup_control-300.heapsnapshot.gz $N/warmup_control-100.heapsnapshot.gz $N/warmup_control-200.heapsnapshot.gz --workload 300,100,200 --format tsv
# listener_leak.js: each request leaves a RequestContext, its Array, a
# closure and its Context on configBus's 'config-changed' listeners: the
# listener closures (Function) are what the array holds and what retains
# the rest, so they lead; the others by the bytes each adds per request (new
# bytes in `diff`: Array 176, Context 40, RequestContext 40).
rows_ suspects_listener_node "1 growth configBus (EventEmitter) / _events (Object) / config-changed (Array) Function +1.00, Array +1.00, system / Context +1.00, RequestContext +1.00" \
    'NR == 2 { sub(/.*\(system \/ Context\) \/ /, "", $15); print $1, $2, $15, $16 }' \
    suspects $N/listener_leak-2.heapsnapshot.gz $N/listener_leak-1.heapsnapshot.gz --workload 300,100 --format tsv
# linked_list.js: a list of 1,000,000 ListNode, each dominating the rest.
# The walk down stops at its head, and the 999,999 links below it are what
# accumulates (not the last link, where a walk to the end would stop). The
# walk starts at the global object, the script's scope, which is no finding
# itself: the head is.
rows_ suspects_chain_node "1 object ListNode ListNode 999999 ListNode head (ListNode)" \
    'NR == 2 { n = split($15, hop, " / "); print $1, $2, $6, $9, $10, $11, hop[n] }' \
    suspects fixtures/node/linked_list.heapsnapshot.gz --format tsv
# map_sessions.js: globalThis.app holds a Map of 3,000 Sessions (and a
# dictionary of 1,200 Conns). The global object holds 94% of the heap, the
# runtime's modules with app, but it is the script's scope, no finding: app
# is the one finding, its 3,000 Sessions accumulated in the Map.
rows_ suspects_global_scope_node "1 object Object Map 3000 Session|" \
    'NR > 1 { printf "%s %s %s %s %s %s|", $1, $2, $6, $9, $10, $11 } END { print "" }' \
    suspects fixtures/node/map_sessions.heapsnapshot.gz --format tsv
# sessions.js: 1,000 small Sessions in an array, 5.5% of a 3 MiB heap, the
# largest of the runtime's parts under the global 8.8%: the global (83%)
# set aside, nothing is a finding, and the note says so.
case_ suspects_global_aside_node 0 suspects fixtures/node/sessions.heapsnapshot.gz --format tsv
# Big siblings alike are one finding at their holder (fixtures/graphs/
# alike_siblings.txt): the array of three buffers is the finding, 3 byte[]
# accumulated in it; two HashMaps of one class held by two fields stay two.
rows_ suspects_alike_siblings "1 Object[] 53.64 3 byte[] 3000|2 HashMap 22.08 0|3 HashMap 22.08 0|" \
    'NR > 1 { printf "%s %s %s %s", $1, $6, $4, $10; if ($10 > 0) printf " %s %s", $11, $12; printf "|" } END { print "" }' \
    suspects $G/alike_siblings.txt --format tsv
# A V8 Map's entries are held by slot numbers ("2", "5"), an index as an
# element's is (fixtures/v8/map_slots.heapsnapshot): one finding, the Map.
rows_ suspects_alike_v8_slots "1 Map 95.56 2 Session 2000|" \
    'NR > 1 { printf "%s %s %s %s %s %s|", $1, $6, $4, $10, $11, $12 } END { print "" }' \
    suspects fixtures/v8/map_slots.heapsnapshot --format tsv
# Sessions.main keeps three byte[] locals (3,000,016 + 2,000,016 +
# 1,000,016 bytes) in one frame: one finding, main's thread, not three
# findings with one path each.
rows_ suspects_locals_java "1 java.lang.Thread 3 byte[] 6000048 thread main (java.lang.Thread)" \
    'NR > 1 { n++ } NR == 2 { line = $1 " " $6 " " $10 " " $11 " " $12 " " $15 } END { print (n == 1 ? line : n " findings") }' \
    suspects $J/sessions.hprof.gz --format tsv
# A top owner no root names (fixtures/graphs/shared_owner.txt: Shared, 500
# of 556 bytes, held by the objects of three roots): its path does not start
# at a dominator a root names, so it is searched backwards from Shared; the
# first of its holders, A, is a root.
rows_ suspects_unnamed_top_owner "1 object 89.93 Shared static field A.x (A) / shared (Shared)" \
    'NR == 2 { print $1, $2, $4, $6, $15 }' suspects $G/shared_owner.txt --format tsv
# The same as a series' last snapshot: its reverse index is made ahead, on
# the core the last count leaves free (cmd_suspects.c), and gives the same path.
rows_ suspects_unnamed_top_owner_series "1 object 89.93 Shared static field A.x (A) / shared (Shared)" \
    'NR == 2 { print $1, $2, $4, $6, $15 }' suspects $G/shared_owner.txt $G/shared_owner.txt $G/shared_owner.txt --format tsv
# A dominator that reaches the next one only through another object
# (fixtures/graphs/diamond.txt: App owns Shared, reached through Left and
# Right): the hop is searched, the first way (left) taken.
rows_ suspects_searched_hop "71.43 Shared static field App.instance (App) / left (Left) / shared (Shared)" \
    '$6 == "Shared" { print $4, $6, $15 }' suspects $G/diamond.txt --format tsv --threshold 1
# An OCaml Hashtbl's growth is named by its members, not its bucket cells,
# untyped and typed (issue 48; fixtures/graphs/make_ocaml_table_series.sh
# works it out): instances, class, rate, counts, grows, bytes_rate.
rows_ suspects_ocaml_table_members "60|block(tag 0, 2 fields)|20.00|20,40,60|block(tag 0, 2 fields) +20.00, string +20.00, block(tag 0, 3 fields) +20.00|3360.00" \
    '$2 == "growth" { print $5 "|" $6 "|" $13 "|" $14 "|" $16 "|" $17 }' \
    suspects $G/ocaml_table-3.txt $G/ocaml_table-1.txt $G/ocaml_table-2.txt --workload 3,1,2 --format tsv
rows_ suspects_ocaml_typed_table_members "60|M.session|20.00|20,40,60|M.session +20.00, string +20.00, (int, M.session) Hashtbl.bucketlist +20.00|3360.00" \
    '$2 == "growth" { print $5 "|" $6 "|" $13 "|" $14 "|" $16 "|" $17 }' \
    suspects $G/ocaml_table_typed-3.txt $G/ocaml_table_typed-1.txt $G/ocaml_table_typed-2.txt --workload 3,1,2 --format tsv
# ... and the table is where they accumulate, as a HashMap is (DESIGN 13,
# docs/COLLECTIONS.md rule 4): its bucket array and cells are its
# structure, so the point and the path end at the table's record, and the
# entries are counted by what each holds: 60 x (cell 32 + session 24 +
# string 112) = 10,080 B, named by the session.
rows_ suspects_ocaml_table_at_table "block(tag 0, 4 fields)|60|block(tag 0, 2 fields)|10080|global M.[0] (block(tag 0, 4 fields))" \
    '$2 == "growth" { print $9 "|" $10 "|" $11 "|" $12 "|" $15 }' \
    suspects $G/ocaml_table-3.txt $G/ocaml_table-1.txt $G/ocaml_table-2.txt --workload 3,1,2 --format tsv
rows_ suspects_ocaml_typed_table_at_table "(int, M.session) Hashtbl.t|60|M.session|10080|global M.[0] ((int, M.session) Hashtbl.t)" \
    '$2 == "growth" { print $9 "|" $10 "|" $11 "|" $12 "|" $15 }' \
    suspects $G/ocaml_table_typed-3.txt $G/ocaml_table_typed-1.txt $G/ocaml_table_typed-2.txt --workload 3,1,2 --format tsv
# A frame that holds a Hashtbl, a list and a tree, whose untyped signatures
# are alike (fixtures/graphs/make_ocaml_frame_table.sh): the growth's
# retained is the table's alone, 40 + 136 + 60 x 88 = 5,456 B, not with the
# list's 1,200 and the tree's 224; 1,760 B a step; the table's record is a
# block(tag 0, 4 fields) as its values are, and counts with them (21, 41, 61).
rows_ suspects_ocaml_frame_table "5456|block(tag 0, 4 fields)|21,41,61|1760.00" \
    '$2 == "growth" { print $3 "|" $9 "|" $14 "|" $17 }' \
    suspects $G/ocaml_frame_table-1.txt $G/ocaml_frame_table-2.txt $G/ocaml_frame_table-3.txt --format tsv
# A list of mixed classes (fixtures/graphs/make_mixed_list.sh): 300 listeners
# of A, B and C in turn, each with its own array, 616, 536 and 512 bytes:
# its elements are one group, 300 and 166,400 B, named by A, which retains
# most (61,600), where the group of A alone said 100 and 61,600.
rows_ suspects_mixed_list "300 A 166400" 'NR > 1 && $6 == "java.util.ArrayList" { print $10, $11, $12 }' \
    suspects $G/mixed_list.txt --format tsv
export COLUMNS=120
rows_ suspects_mixed_list_text "300 elements -> A and 2 other classes (162.5 KiB)" \
    '/^ *where/ { sub(/^ *where +/, ""); sub(/ at .*$/, ""); print }' suspects $G/mixed_list.txt --format table
unset COLUMNS
# A .NET Dictionary<string, Session> (fixtures/graphs/make_dotnet_string_map.sh):
# its Entry[] holds each key and value side by side, no element of its own:
# 300 entries, each a Session with its array (256 B) and its key (40 B),
# not 600 "elements", nor 300 Sessions without their keys (76,800 B).
rows_ suspects_dotnet_struct_entries "300 Session 88800" 'NR > 1 { print $10, $11, $12 }' \
    suspects $G/dotnet_string_map.txt --format tsv
# A java.util.IdentityHashMap (fixtures/graphs/make_identity_map.sh): its
# table holds keys and values side by side, paired by their indices: 300
# entries of Val, each its Key (16 B) and its Val (336 B with its array):
# 105,600 B, not 600 "elements", nor 300 Val without their keys (100,800).
rows_ suspects_identity_map "300 Val 105600" 'NR > 1 { print $10, $11, $12 }' \
    suspects $G/identity_map.txt --format tsv
# The same on a real dump (fixtures/java/src/PairedMaps.java): an
# IdentityHashMap of 3,000 Token -> Grant (16 + 24 + byte[200] 216 = 256 B
# an entry) and Map.ofEntries of 1,000 RouteKey -> Route (16 + 24 + byte[400]
# 416 = 456 B), each table keys and values side by side.
PM=$J/paired_maps.hprof.gz
rows_ suspects_paired_maps "3000 PairedMaps\$Grant 768000
1000 PairedMaps\$Route 456000" 'NR > 1 { print $10, $11, $12 }' suspects $PM --format tsv
# inspect lists each entry, key -> value, paired by index: every key a
# Token and its value a Grant; every RouteKey with its Route
rows_ inspect_paired_identity "3000 3000" \
    '$1 == "collection" && $3 == "size" {size = $5} $1 == "entry" && $3 ~ / \(PairedMaps\$Token\)$/ && $4 == "key -> value" && $7 == "PairedMaps$Grant" {n++} END {print size, n + 0}' \
    inspect $PM 0xfd5bf518 --all --format tsv
rows_ inspect_paired_map_of "1000 1000" \
    '$1 == "collection" && $3 == "size" {size = $5} $1 == "entry" && $3 ~ / \(PairedMaps\$RouteKey\)$/ && $7 == "PairedMaps$Route" {n++} END {print size, n + 0}' \
    inspect $PM 0xfd6fac38 --all --format tsv
export COLUMNS=120
rows_ suspects_identity_map_text "300 entries -> Val" \
    '/^ *where/ { sub(/^ *where +/, ""); sub(/ \(.*$/, ""); print }' suspects $G/identity_map.txt --format table
unset COLUMNS
