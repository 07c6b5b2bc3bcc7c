# V8 heap snapshots (fixtures/node: written by Node 20 itself; fixtures/v8:
# by hand). Expected values come from the programs' construction
# (fixtures/node/README.md), from hand computation (tiny.heapsnapshot), or
# from Chrome DevTools' own analysis code run headless (tests/v8/devtools),
# never from leakfind.
N=fixtures/node
V=fixtures/v8

# Every node's self size, immediate dominator and retained size equal DevTools'.
for s in listener_leak-1 listener_leak-2 weak_cache; do
    check_ devtools_nodes_$s sh tests/v8/devtools_check.sh nodes "$LF" $N/$s.heapsnapshot.gz $N/$s.devtools.tsv.gz
    check_ devtools_classes_$s sh tests/v8/devtools_check.sh classes "$LF" $N/$s.heapsnapshot.gz \
        $N/$s.devtools-aggregates.tsv
done
# The same from a converted .lfs (the 0-byte rule travels with the file).
"$LF" convert $N/weak_cache.heapsnapshot.gz -o "$tmp/weak_cache.lfs" >/dev/null 2>&1
check_ devtools_classes_weak_cache_lfs sh tests/v8/devtools_check.sh classes "$LF" "$tmp/weak_cache.lfs" \
    $N/weak_cache.devtools-aggregates.tsv
# One class name, two DevTools rows (issue 33 item 8, fixtures/node/
# text_encoder.js): the 5 TextEncoder instances (4 the program keeps, 1
# Node's own), which have a constructor's place, apart from the unlocated
# TextEncoder.prototype; row by row as DevTools' Summary, also after convert.
check_ devtools_classes_text_encoder sh tests/v8/devtools_check.sh classes "$LF" $N/text_encoder.heapsnapshot.gz \
    $N/text_encoder.devtools-aggregates.tsv
rows_ text_encoder_rows "1 496 1416
5 160 160" '$5 == "TextEncoder" {print $1, $2, $3}' classes $N/text_encoder.heapsnapshot.gz --top 0 --format tsv
"$LF" convert $N/text_encoder.heapsnapshot.gz -o "$tmp/text_encoder.lfs" 2>/dev/null
check_ devtools_classes_text_encoder_lfs sh tests/v8/devtools_check.sh classes "$LF" "$tmp/text_encoder.lfs" \
    $N/text_encoder.devtools-aggregates.tsv
check_ devtools_nodes_linked_list sh tests/v8/devtools_check.sh digest "$LF" $N/linked_list.heapsnapshot.gz \
    $N/linked_list.devtools.digest
check_ devtools_classes_linked_list sh tests/v8/devtools_check.sh classes "$LF" $N/linked_list.heapsnapshot.gz \
    $N/linked_list.devtools-aggregates.tsv
# Allocation sites (tracked snapshots): every function's live objects and
# bytes equal the Allocation view's; the same through a converted .lfs.
for n in 100 200 300; do
    check_ devtools_sites_alloc_sites_$n sh tests/v8/devtools_check.sh sites "$LF" \
        $N/alloc_sites-$n.heapsnapshot.gz $N/alloc_sites-$n.devtools-sites.tsv
done
"$LF" convert $N/alloc_sites-300.heapsnapshot.gz -o "$tmp/alloc_sites.lfs" >/dev/null 2>&1
check_ devtools_sites_alloc_sites_lfs sh tests/v8/devtools_check.sh sites "$LF" "$tmp/alloc_sites.lfs" \
    $N/alloc_sites-300.devtools-sites.tsv
# Reading on several threads (the edges are classified in two halves) gives
# the same bytes as on one.
for s in listener_leak-1 weak_cache linked_list; do
    "$LF" dominators $N/$s.heapsnapshot.gz --flat --top 0 --min 0 --threads 1 >"$tmp/t1" 2>&1
    "$LF" dominators $N/$s.heapsnapshot.gz --flat --top 0 --min 0 --threads 2 >"$tmp/t2" 2>&1
    "$LF" classes $N/$s.heapsnapshot.gz --top 0 --threads 1 >>"$tmp/t1" 2>&1
    "$LF" classes $N/$s.heapsnapshot.gz --top 0 --threads 3 >>"$tmp/t2" 2>&1
    if cmp -s "$tmp/t1" "$tmp/t2"; then ok; else bad "threads differ on $s"; fi
done
# The Comparison view: # New, # Deleted, Alloc. Size and Freed Size per class.
check_ devtools_diff_listener_leak sh tests/v8/devtools_check.sh diff "$LF" $N/listener_leak-1.heapsnapshot.gz \
    $N/listener_leak-2.heapsnapshot.gz $N/listener_leak.devtools-diff.tsv

# The planted leak: 200 more requests leak 200 of each (README), matched by
# id: all new, none deleted; they lead the diff, ahead of Node's C++ objects
# that get new ids in every snapshot (new = deleted, delta 0). Order: growth,
# then shallow growth (Array 176, Function 64, Context 40, RequestContext 40
# each), then retained growth (a Context retains its RequestContext).
rows_ v8_diff_leak "200 200 200 0 Array
200 200 200 0 Function
200 200 200 0 system / Context
200 200 200 0 RequestContext" \
    '$3 == 200 {print $3, $3, $6, $7, $10}' diff $N/listener_leak-1.heapsnapshot.gz $N/listener_leak-2.heapsnapshot.gz
rows_ v8_diff_cxx_noise "0" '$10 ~ /^Node \// && $3 != 0 {n++} END {print n + 0}' \
    diff $N/listener_leak-1.heapsnapshot.gz $N/listener_leak-2.heapsnapshot.gz
# RequestContext (40) + its Array (32 + 144 elements moved into it) = 216 each.
rows_ v8_request_context "300 12000 64800 RequestContext" \
    '$5 == "RequestContext" {print $1, $2, $3, $5}' classes $N/listener_leak-2.heapsnapshot.gz --top 0
# path accepts @ID: a RequestContext is held by its closure's context.
rows_ v8_path_by_id "system / Context context
RequestContext ctx" \
    'NR > 1 && $4 >= 8 {print $8, $9}' path $N/listener_leak-2.heapsnapshot.gz @79417

# WeakMap/WeakRef cache: values of live keys stay (each dominated by its key,
# not the WeakMap), orphans and old WeakRef targets are collected.
rows_ v8_weak_cache_classes "10 CacheKey
10 CacheValue
12 FreshWeakTarget
6 WeakTarget" \
    '$5 ~ /^(CacheKey|CacheValue|OrphanKey|OrphanValue|WeakTarget|OldWeakTarget|FreshWeakTarget)$/ {print $1, $5}' classes $N/weak_cache.heapsnapshot.gz --top 0 --sort class

# 1,000,000 ListNode (40 each): the tree shows the head, then the 999,999
# links below it in one row (40 x 999,999 = 39,999,960 bytes)
rows_ v8_linked_list_tree "ListNode head|999,999 x ListNode (entries) 39999960|" \
    '$7 == "ListNode" || $7 ~ /x ListNode/ { printf "%s %s|", $7, $7 == "ListNode" ? $8 : $5 } END { print "" }' \
    dominators $N/linked_list.heapsnapshot.gz --depth 0 --top 1
# 1,000,000 ListNode (40 each): the head owns the list.
rows_ v8_linked_list "1000000 40000000 ListNode" \
    '$5 == "ListNode" {print $1, $2, $5}' classes $N/linked_list.heapsnapshot.gz --top 0

# A snapshot written by hand (fixtures/v8/tiny.heapsnapshot, described in
# fixtures/v8/README.md): global 100 holds Holder 40, whose 80-byte array only it
# holds (moved into it: 120); Item 16 twice in the array; Cache 32 with a weak
# edge and a self edge; a WeakMap table 24 and Key 8 whose value Val 8 is the
# key's (the table's edge does not retain); an Item only a weak edge reaches
# (its own entry), two Lonely 8 that only hold each other (one entry each).
# (GC roots) -> Holder is from a non-page-owned node: Holder stays global's.
# The synthetic (root) and (GC roots) are no rows: global is a top row held
# by "root: (root)"; (GC roots) dominates nothing and vanishes.
case_ v8_tiny_dominators 0 dominators $V/tiny.heapsnapshot --depth 0 --min 0 --top 0 --format tsv
case_ v8_tiny_info 0 info $V/tiny.heapsnapshot --format tsv
# weak_references counts the edges the file types "weak" (Cache's "w": 1); the
# other 4 that do not retain ((GC roots) -> Holder into the page, Holder's
# shortcut, Cache's self edge, the WeakMap table's edge) are non-owning, also
# in a converted file (its META keeps the count).
"$LF" convert $V/tiny.heapsnapshot -o "$tmp/tiny.lfs" 2>/dev/null
rows_ v8_tiny_weak_lfs "weak_references 1
non_owning_references 4" '$1 ~ /^(weak|non_owning)_references$/ {print $1, $2}' info "$tmp/tiny.lfs" --format tsv
# The converted file keeps V8's edge types (issue 33): Cache's self edge is
# typed "property" in the JSON (edge 2,14,30) though it does not retain, and
# "w" is typed "weak" (6,8,35); inspect names them as on the snapshot itself.
rows_ v8_tiny_lfs_edge_types "w weak
self property" '$1 == "edge" {print $3, $4}' inspect "$tmp/tiny.lfs" @13 --format tsv
# Sizes of 4 GiB or more from a V8 reader (fixtures/v8/big_sizes.heapsnapshot,
# fixtures/v8/README.md): Holder 16 + 5 GiB + 3 GiB + 1 GiB = 9663676432;
# the two Blocks add up to 2^32 exactly.
case_ v8_big_sizes_dominators 0 dominators $V/big_sizes.heapsnapshot --depth 0 --min 0 --top 0
case_ v8_big_sizes_classes 0 classes $V/big_sizes.heapsnapshot
# listener_leak-1 has 4522 edges of type "weak" (counted in its JSON).
rows_ v8_node_weak "4522" '$1 == "weak_references" {print $2}' info $N/listener_leak-1.heapsnapshot.gz --format tsv

# roots on V8 lists the real roots below (root)'s synthetic levels
# (fixtures/v8/roots.heapsnapshot, described in fixtures/v8/README.md; 518
# bytes): (Strong roots) -> Table 200; global 100 + App 50 = 150 (the global
# handle to App crosses into the page: it does not retain); Node / Environment
# -> IsolateData 60; Shared 40, held by a global handle and a stack slot, is a
# row of each (its idom is (GC roots)); Handle 30 + Data 8; Frame 20 named by
# two stack slots; the weak (Strong roots) edge to Cached is no row, Cached 10
# is only weakly retained. Per kind: (Global handles) 38 + 40 = 78, (Stack
# roots) two objects 20 + 40 = 60, tied with Node / Environment, '(' first.
case_ v8_roots_rows 0 roots $V/roots.heapsnapshot --format tsv
# what two roots hold together (fixtures/v8/shared_top.heapsnapshot): State,
# reached from a global handle's object and a stack slot's, dominated by
# (GC roots), is a 'several roots' row retaining 450 of the 570 bytes; it
# was in no row, and the largest was 100
rows_ v8_roots_shared "@13 450 78.95 several roots State|@9 100 17.54 (Global handles) Global|@11 20 3.51 (Stack roots) Frame|" \
    'NR > 1 { printf "%s %s %s %s %s|", $1, $3, $4, $5, $6 } END { print "" }' roots $V/shared_top.heapsnapshot --format tsv
# and its name: the roots of the two objects that hold it, a global handle
# and a stack slot, as their own rows name them (it was empty)
rows_ v8_roots_shared_name "2 roots: (Global handles) [1], (Stack roots) [1]" \
    'NR > 1 && $5 == "several roots" { print $7 }' roots $V/shared_top.heapsnapshot --format tsv
case_ v8_roots_by_kind 0 roots --by-kind $V/roots.heapsnapshot --format tsv
# On Node's own snapshot: the global object, the number-string cache of
# (Strong roots), a stack slot's Context and the environment's IsolateData
# keep what DevTools says they retain (listener_leak-1.devtools.tsv.gz:
# @6049 2405819, @1663 262160, @6163 35224, @489634880 4344).
rows_ v8_roots_node "@6049 2405819 global object
@1663 262160 (Strong roots)
@6163 35224 (Stack roots)
@489634880 4344 Node / Environment" \
    '$1 == "@6049" || $1 == "@1663" || ($1 == "@6163" && $7 == 27) || $1 == "@489634880" {print $1, $3, $5}' \
    roots $N/listener_leak-1.heapsnapshot.gz --top 10 --format tsv

# Broken JSON: exit 3 with the byte offset.
printf '{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],"node_types":[["object"]],"edge_fields":["type","name_or_index","to_node"],"edge_types":[["property"]]},"node_count":2,"edge_count":1},\n"nodes":[0,0,1,8,1,0,0,3' >"$tmp/cut.heapsnapshot"
case_ v8_truncated 3 info "$tmp/cut.heapsnapshot"
# --partial on Node's snapshot cut inside its strings: every node and edge of
# the header's counts is there (39,769 and 180,189, read from the file's head
# by sed, not by leakfind); names past the cut read "(name cut off)".
gzip -dc fixtures/node/listener_leak-1.heapsnapshot.gz | head -c 3800000 >"$tmp/cut-strings.heapsnapshot"
counts=$(head -c 2000 "$tmp/cut-strings.heapsnapshot" | sed -n 's/.*"node_count":\([0-9]*\),"edge_count":\([0-9]*\).*/\1 \2/p')
rows_ v8_partial_strings "$counts 3800000" \
    '$1 == "objects" {o = $2} $1 == "references" {r = $2} $1 == "partial_cut_at" {c = $2} END {print o, r, c}' \
    info --partial "$tmp/cut-strings.heapsnapshot"
case_ v8_partial_nodes 3 info --partial "$tmp/cut.heapsnapshot"
printf '{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],"node_types":[["object"]],"edge_fields":["type","name_or_index","to_node"],"edge_types":[["property"]]},"node_count":2,"edge_count":1},\n"nodes":[0,0,1,8,1,0,0,3,8,0],\n"edges":[0,0,7],\n"strings":["a"]}' >"$tmp/bad_target.heapsnapshot"
case_ v8_bad_target 3 info "$tmp/bad_target.heapsnapshot"
printf '{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],"node_types":[["object"]],"edge_fields":["type","name_or_index","to_node"],"edge_types":[["property"]]},"node_count":900000000,"edge_count":1},\n"nodes":[0,0,1,8,1]}' >"$tmp/huge.heapsnapshot"
case_ v8_huge_count 3 info "$tmp/huge.heapsnapshot"
printf '{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],"node_types":[["object"]],"edge_fields":["type","name_or_index","to_node"],"edge_types":[["property"]]},"node_count":1,"edge_count":0},\n"nodes":[0,0,1,8,0],\n"edges":[],\n"strings":["a\\x"]}' >"$tmp/bad_escape.heapsnapshot"
case_ v8_bad_escape 3 info "$tmp/bad_escape.heapsnapshot"
# Ids are 32-bit in V8 and DevTools (leakfind keeps them in 4 bytes): the
# largest is found by @ID, one more is bad input at the digit's offset (240).
printf '{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],"node_types":[["object"]],"edge_fields":["type","name_or_index","to_node"],"edge_types":[["property"]]},"node_count":2,"edge_count":0},\n"nodes":[0,0,1,8,0,0,0,4294967295,8,0],\n"edges":[],\n"strings":["a"]}' >"$tmp/max_id.heapsnapshot"
case_ v8_max_id 0 path "$tmp/max_id.heapsnapshot" @4294967295 --format tsv
sed 's/4294967295/4294967296/' "$tmp/max_id.heapsnapshot" >"$tmp/big_id.heapsnapshot"
case_ v8_id_too_large 3 info "$tmp/big_id.heapsnapshot"

# A closure's name and place (issue 33 item 9): the `location` column of
# dominators, path and inspect, from V8's "locations" (0-based, shown
# 1-based). fixtures/v8/closures.heapsnapshot (fixtures/v8/README.md): the
# entry 10,42,13,4 is node 10/5 = 2, onChange @5, line 14 column 5 of
# script 42, whose name "app/server.js" is onChange's Script node (reached
# by shared -> script_or_debug_info); 40,42,30,2 is tick @17, without
# edges: script 42's name all the same, line 31 column 3; 25,7,20,0 is the
# anonymous closure @11, of script 7, which no closure names: "script 7",
# line 21 column 1. 30,7,2,9 is Config @13, an object: no location. The
# entry 10,42,99,99 repeats node 2: the first wins.
CL=$V/closures.heapsnapshot
CL_PLACES="@5 onChange @ app/server.js:14:5
@11 (anonymous) @ script 7:21:1
@17 tick @ app/server.js:31:3"
rows_ v8_places_flat "$CL_PLACES" 'NR > 1 && $12 != "" {print $2, $12}' \
    dominators $CL --flat --top 0 --min 0 --format tsv
rows_ v8_places_tree "$CL_PLACES" 'NR > 1 && $12 != "" {print $2, $12}' dominators $CL --format tsv
rows_ v8_places_path "@1 
@3 
@5 onChange @ app/server.js:14:5" 'NR > 1 {print $5, $11}' path $CL @5 --format tsv
rows_ v8_places_merge "onChange @ app/server.js:14:5" '$3 == "@5" {print $9}' path $CL @5 --merge --format tsv
rows_ v8_places_inspect "object onChange @ app/server.js:14:5
path onChange @ app/server.js:14:5" '$10 != "" && NR > 1 {print $1, $10}' inspect $CL @5 --format tsv
rows_ v8_places_json '"location":"onChange @ app/server.js:14:5"' \
    '/"id":"@5"/ {if (match($0, /"location":"[^"]*"/)) print substr($0, RSTART, RLENGTH)}' \
    path $CL @5 --merge --format json
# Closures of one script id whose own scripts differ (fA's is "a.js", fB's
# "b.js", reached by shared -> script_or_debug_info -> a node with a
# source): fC, without a script of its own, takes the name found first in
# node order, fA's, though the file lists fB's entry first. 0-based line 3
# column 1 shows as 4:2.
printf '%s\n' '{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],"node_types":[["hidden","array","string","object","code","closure","regexp","number","native","synthetic"],"string","number","number","number"],"edge_fields":["type","name_or_index","to_node"],"edge_types":[["context","element","property","internal","hidden","shortcut","weak"],"string_or_number","node"],"location_fields":["object_index","script_id","line","column"]},"node_count":10,"edge_count":10,"trace_function_count":0},' \
    '"nodes":[9,0,1,0,1,3,1,3,100,3,5,2,5,32,1,5,3,7,32,1,5,4,9,32,0,4,12,11,10,1,4,12,13,10,1,4,5,15,20,1,4,6,17,20,1,2,7,19,40,0],' \
    '"edges":[5,11,5,2,2,10,2,3,15,2,4,20,3,8,25,3,8,30,3,9,35,3,9,40,3,10,45,3,10,45],' \
    '"locations":[15,7,5,1,10,7,3,1,20,7,9,1],' \
    '"strings":["","global","fA","fB","fC","a.js","b.js","text","shared","script_or_debug_info","source","1","f"]}' \
    >"$tmp/one_script_id.heapsnapshot"
rows_ v8_places_first_name_per_id "@5 fA @ a.js:4:2
@7 fB @ b.js:6:2
@9 fC @ a.js:10:2" 'NR > 1 && $12 != "" {print $2, $12}' \
    dominators "$tmp/one_script_id.heapsnapshot" --flat --top 0 --min 0 --format tsv
# A table shows the column when a row has a location, and leaves it out
# when none has (tiny.heapsnapshot has no locations): its last header word
# ("group": a table shows root in field's place, out_table_share).
export COLUMNS=300
rows_ v8_places_table "location onChange @ app/server.js:14:5" \
    'NR == 1 {n = split($0, w, " "); h = w[n]} /onChange @/ {sub(/.* onChange @/, "onChange @"); r = $0} END {print h, r}' \
    dominators $CL --format table
rows_ v8_places_table_none "group" 'NR == 1 {n = split($0, w, " "); print w[n]}' \
    dominators $V/tiny.heapsnapshot --format table
# The tree's locations are secondary: at 80 columns, where the classes
# under 10 columns of indent were cut to "…nModule" beside locations cut
# to "Builtin…", they give way (at 300 they are there).
rows_ v8_places_table_300 "location" 'NR == 2 {n = split($0, w, " "); print w[n]}' \
    dominators $N/collections_leak-300.heapsnapshot.gz --format table
export COLUMNS=80
rows_ v8_places_table_80 "root" 'NR == 1 {n = split($0, w, " "); print w[n]}' \
    dominators $N/collections_leak-300.heapsnapshot.gz --format table
unset COLUMNS
# ... and kept through convert (.lfs 1.4, chunk PLAC).
"$LF" convert $CL -o "$tmp/closures.lfs" 2>/dev/null
rows_ v8_places_lfs "$CL_PLACES" 'NR > 1 && $12 != "" {print $2, $12}' \
    dominators "$tmp/closures.lfs" --flat --top 0 --min 0 --format tsv
rows_ v8_places_lfs_inspect "object onChange @ app/server.js:14:5" '$1 == "object" {print $1, $10}' \
    inspect "$tmp/closures.lfs" @5 --format tsv
# A 1.3 file without PLAC (fixtures/v8/closures-1.3.lfs: closures.heapsnapshot
# converted by leakfind at 4a0659c) reads as before: the three closures'
# sizes as in the table of fixtures/v8/README.md, no location.
rows_ v8_places_old_lfs "@5 32 102 []
@11 32 32 []
@17 16 16 []" '$7 == "Function" {print $2, $4, $5, "[" $12 "]"}' \
    dominators $V/closures-1.3.lfs --flat --top 0 --min 0 --format tsv
# A bad "locations" is bad input at the value's offset: its key is at byte
# 762, so its first value (30) is at 775; 31 is no multiple of the 5 node
# fields, 45 names node 9 of 9 (0..8). Cut to 19 values (",99,99]" ->
# ",99]"), the array ends inside an entry: at its ']' (824).
sed 's/"locations":\[30,/"locations":[31,/' $CL >"$tmp/loc_odd_index.heapsnapshot"
case_ v8_places_not_multiple 3 info "$tmp/loc_odd_index.heapsnapshot"
sed 's/"locations":\[30,/"locations":[45,/' $CL >"$tmp/loc_past.heapsnapshot"
case_ v8_places_past_nodes 3 info "$tmp/loc_past.heapsnapshot"
sed 's/,99,99\]/,99]/' $CL >"$tmp/loc_cut.heapsnapshot"
case_ v8_places_odd_length 3 info "$tmp/loc_cut.heapsnapshot"
# A snapshot from Node (fixtures/node/closure_place.js): global.handler is
# the closure onChange, whose "(" is at line 18, column 27 of its script
# (regen.sh runs it from /tmp/leakfind-node.XXXXXX/, left out here).
CP=$N/closure_place.heapsnapshot.gz
cp_id=$("$LF" path $CP --class Function --top 0 --format tsv | awk -F'\t' '$4 == 2 && $9 == "handler" {print $5; exit}')
CP_AWK='{sub(/ @ \/tmp\/leakfind-node\.[A-Za-z0-9]+\//, " @ ", loc); print loc}'
rows_ v8_places_node_inspect "onChange @ closure_place.js:18:27" "\$1 == \"object\" {loc = \$10} END $CP_AWK" \
    inspect $CP "$cp_id" --format tsv
rows_ v8_places_node_path "onChange @ closure_place.js:18:27" "NR > 1 {loc = \$11} END $CP_AWK" \
    path $CP "$cp_id" --format tsv
rows_ v8_places_node_flat "onChange @ closure_place.js:18:27" "\$2 == \"$cp_id\" {loc = \$12} END $CP_AWK" \
    dominators $CP --flat --top 0 --min 0 --format tsv
rows_ v8_places_node_tree "onChange @ closure_place.js:18:27" "NR == 2 {loc = \$12} END $CP_AWK" \
    dominators $CP --root "$cp_id" --depth 1 --format tsv
"$LF" convert $CP -o "$tmp/closure_place.lfs" 2>/dev/null
rows_ v8_places_node_lfs "onChange @ closure_place.js:18:27" "\$1 == \"object\" {loc = \$10} END $CP_AWK" \
    inspect "$tmp/closure_place.lfs" "$cp_id" --format tsv

# trend and VM warm-up (fixtures/node/warmup_service.js): 30 routes, each run
# first at request 10k, so V8 compiles and tiers up functions throughout the
# control run; nothing accumulates, nothing is flagged. The leak run keeps one
# `new Function` per request in the array compiledRules: Function grows by
# 1.00 per request, its 100 and 200 new objects (since the first snapshot)
# all referenced by that array.
WS="$N/warmup_control-100.heapsnapshot.gz $N/warmup_control-200.heapsnapshot.gz $N/warmup_control-300.heapsnapshot.gz"
WL="$N/warmup_leak-100.heapsnapshot.gz $N/warmup_leak-200.heapsnapshot.gz $N/warmup_leak-300.heapsnapshot.gz"
rows_ trend_warmup_control "" '$4 == "yes"' trend $WS --workload 100,200,300
"$LF" trend $WS --workload 100,200,300 --exit-code >/dev/null 2>&1
[ $? = 0 ] && ok || bad "trend --exit-code on the warm-up control"
rows_ trend_warmup_leak "1.00 1.000 yes yes +100 +100 0,100,200 compiledRules (Array)" \
    '$6 == "Function" {split($5, c, ","); n = split($8, hop, " / ");
                       print $1, $2, $3, $4, "+" c[2] - c[1], "+" c[3] - c[2], $7, hop[n]}' \
    trend $WL --workload 100,200,300
"$LF" trend $WL --workload 100,200,300 --exit-code >/dev/null 2>&1
[ $? = 1 ] && ok || bad "trend --exit-code on the code leak"

# The planted leak by site (fixtures/node/alloc_sites.js: one LeakedRequest of
# 40 bytes kept per request, allocated in makeLeak): its 300 objects are the
# reachable LeakedRequests of makeLeak's site, and trend --by-site flags
# makeLeak at 1.00 per request, the new ones (0, 100, 200) under one holder.
rows_ sites_planted_path "LeakedRequest 300 12000" \
    'NR > 1 && $3 == $4 {c[$8]++; b[$8] += $6} END {print "LeakedRequest", c["LeakedRequest"], b["LeakedRequest"]}' \
    path $N/alloc_sites-300.heapsnapshot.gz --site makeLeak --top 0 --format tsv
rows_ sites_planted_trend "1.00 yes makeLeak 0,100,200" \
    'NR == 2 {split($6, f, " "); print $1, $4, f[1], $7}' \
    trend --by-site $N/alloc_sites-100.heapsnapshot.gz $N/alloc_sites-200.heapsnapshot.gz \
    $N/alloc_sites-300.heapsnapshot.gz --workload 100,200,300 --format tsv

# One collection is one owner (fixtures/node/map_cache.js: 1000 more Entry
# objects in the global Map `cache`): the Map grew by 1000 objects; its table
# and entries are part of it, never owners of their own (V8 names table slots
# by number: never one owner per slot either).
rows_ owners_map_entries "1000 (global) / cache (Map)
0 owners named by a slot number" \
    'NR > 1 && $1 == 1000 {print $1, $6} NR > 1 && $6 ~ / [0-9]+ \(/ {slots++} END {print slots + 0, "owners named by a slot number"}' \
    diff --owners $N/map_cache-1.heapsnapshot.gz $N/map_cache-2.heapsnapshot.gz --top 0 --format tsv
