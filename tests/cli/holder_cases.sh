# Holders (issue 19): the field or [index] by which each object's dominator
# holds it, on a dump of large arrays written by tests/bench/gen_arrays.c,
# whose header gives every object's holder by construction: the Item of
# element i of array a has id 0x100000000 + (a << 28 | i << 4); element i is
# null when i % 7 == 3 and repeats element i - 1 when i % 1000 == 999, so an
# Item's index is not its edge's place; the Item of element 5 is held by the
# Holder's field `first`. Arrays: 5000, 5000 and 9000 elements, so Items:
# 5000 - 714 nulls - 5 repeats + 1 (2999 is both) = 4282, twice, and
# 9000 - 1286 - 9 + 1 = 7706: 16,270 Items in all.
"$build/gen_arrays" "$tmp/arrays-1.hprof" 2 1 5000 9000
# The awk program checks every Item row of a flat listing against its id.
holders_check='
function hex(s,   v, i, c) { v = 0; s = tolower(substr(s, 3))
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v }
$7 == "Item" { n++; x = (hex($2) - 4294967296) / 16; a = int(x / 16777216); i = x - a * 16777216
    want = i == 5 ? "first" : "[" i "]"
    dom = i == 5 ? 268435456 + a * 16 : 536870912 + a * 16
    if ($8 != want || hex($3) != dom) { bad++; if (bad <= 3) print "wrong: " $2 " " $3 " " $8 } }
END { print n " items, " bad + 0 " wrong" }'
rows_ holders_flat_all "16270 items, 0 wrong" "$holders_check" \
    dominators "$tmp/arrays-1.hprof" --flat --top 0 --min 0 --format tsv
# The same with the labels in memory (a converted .lfs).
"$LF" convert "$tmp/arrays-1.hprof" -o "$tmp/arrays-1.lfs" >/dev/null 2>&1
rows_ holders_flat_all_lfs "16270 items, 0 wrong" "$holders_check" \
    dominators "$tmp/arrays-1.lfs" --flat --top 0 --min 0 --format tsv
# The tree, every node: the Holders are roots, the arrays held by `items`.
rows_ holders_tree_all "16270 items, 0 wrong
3 held by root JNI global
3 held by items
0 held otherwise" "$holders_check"'
$7 ~ /^ *Holder$/ || $7 ~ /^ *java\.lang\.Object\[\]$/ {h[$8 == "" ? "root " $11 : $8]++; n2++}
END {print h["root JNI global"] + 0, "held by root JNI global"; print h["items"] + 0, "held by items"
     print n2 - h["root JNI global"] - h["items"], "held otherwise"}' \
    dominators "$tmp/arrays-1.hprof" --top 0 --min 0 --depth 0 --no-group --format tsv
# A few questions only, answered one by one (holders.h): the first children
# of the 9000-element array, element 3 being null (the summary row of the
# rest, with no id, is left out).
rows_ holders_few "[0] [1] [2] [4]" 'NR > 2 && $2 != "" {s = s (s ? " " : "") $8} END {print s}' \
    dominators "$tmp/arrays-1.hprof" --root 0x20000020 --top 4 --min 0 --no-group --format tsv
# diff --owners: 100 more elements per array: Items 5000-5099 less 15 nulls
# (5001, 5008, ..., 5099), twice, and 9000-9099 less 14 (9005, ..., 9096):
# 256 more, 16 bytes each, and 300 more array slots of 4 bytes: 5296, all
# under the Holder's arrays (the deepest owner carrying it all; the Holder's
# row is left out). The Items are the array's elements: part of that
# collection, not an owner of their own (DESIGN 13).
"$build/gen_arrays" "$tmp/arrays-2.hprof" 2 1 5000 9000 100
rows_ holders_owners "256 5296 java.lang.Object[] JNI global (Holder) / items (java.lang.Object[])" 'NR > 1 {print $1, $2, $5, $6}' \
    diff "$tmp/arrays-1.hprof" "$tmp/arrays-2.hprof" --owners --top 0 --format tsv
# path (issue 19): the path to every Item, whose hops are known by
# construction: the Holder of its array (a JNI global root), the array by
# `items`, the Item by "[i]" (a repeated Item by its first index); the Item of
# element 5 straight from the Holder by `first`. No second path exists (--all:
# every path is number 1). The awk program checks each row against the
# target's id.
path_check='
function hex(s,   v, i, c) { v = 0; s = tolower(substr(s, 3))
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v }
NR > 1 { x = (hex($1) - 4294967296) / 16; a = int(x / 16777216); i = x - a * 16777216
    if ($4 == 0) n++
    if (i == 5) { id[0] = 268435456 + a * 16; f[0] = "JNI global"; id[1] = hex($1); f[1] = "first"; d = 1 }
    else { id[0] = 268435456 + a * 16; f[0] = "JNI global"; id[1] = 536870912 + a * 16; f[1] = "items"
           id[2] = hex($1); f[2] = "[" i "]"; d = 2 }
    if ($2 != 1 || $3 != d || $4 > d || hex($5) != id[$4] || $9 $10 != f[$4]) { bad++; if (bad <= 3) print "wrong: " $0 } }
END { print n " items, " bad + 0 " wrong" }'
rows_ path_every_item "16270 items, 0 wrong" "$path_check" \
    path "$tmp/arrays-1.hprof" --class Item --top 0 --format tsv
rows_ path_every_item_all "16270 items, 0 wrong" "$path_check" \
    path "$tmp/arrays-1.hprof" --class Item --top 0 --all --format tsv
rows_ path_every_item_lfs "16270 items, 0 wrong" "$path_check" \
    path "$tmp/arrays-1.lfs" --class Item --top 0 --format tsv
# --merge --no-group: one tree; each Item once, under its array by "[i]" (count 1) or
# under its Holder by `first`; each Holder leads to all of its array's Items.
merge_check='
function hex(s,   v, i, c) { v = 0; s = tolower(substr(s, 3))
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v }
$6 ~ /^ *Holder$/ { h[$2 " " $7 $8]++ }
$6 ~ /^ *Item$/ { n++; x = (hex($3) - 4294967296) / 16; a = int(x / 16777216); i = x - a * 16777216
    want = i == 5 ? "first" : "[" i "]"
    if ($1 != (i == 5 ? 1 : 2) || $2 != 1 || $7 != want) { bad++; if (bad <= 3) print "wrong: " $0 } }
END { print n " items, " bad + 0 " wrong"; for (k in h) kinds++
    print kinds " kinds of Holder row: " h["4282 JNI global"] " of 4282, " h["7706 JNI global"] " of 7706" }'
rows_ path_merge_every_item "16270 items, 0 wrong
2 kinds of Holder row: 2 of 4282, 1 of 7706" "$merge_check" \
    path "$tmp/arrays-1.hprof" --class Item --top 0 --merge --no-group --format tsv
# A root object's label is its first root (fixtures/graphs/roots_multi.txt:
# A is g1, g1again and a thread; B is g2 and a static field): C's path starts
# at A (its first holder), B's is B alone.
rows_ path_first_root "JNI global g1|JNI global g2|" '$4 == 0 {printf "%s|", $9 $10} END {print ""}' \
    path $G/roots_multi.txt 3 2 --format tsv
rows_ path_merge_first_root "JNI global g1|JNI global g2|" '$1 == 0 {printf "%s|", $7 $8} END {print ""}' \
    path $G/roots_multi.txt 3 2 --merge --format tsv
# path --exclude, decided once per excluded class (cmd/path/path_exclude.c): without
# Holder.first the Item of element 5 is reached through the array's [5]; without
# the arrays' [6] the three Items of element 6 (ids ...60) have no path left,
# every other Item keeps one: 16,267 targets with a path.
rows_ path_exclude_first "fieldroot|JNI global|items|[5]|" '{printf "%s|", $9 $10} END {print ""}' \
    path "$tmp/arrays-1.hprof" 0x100000050 --exclude Holder.first --format tsv
"$LF" path "$tmp/arrays-1.hprof" --class Item --top 0 --exclude 'java.lang.Object[].[6]' \
    --format tsv 2>"$tmp/exclude.err" | awk -F'\t' 'NR > 1 {t[$1] = 1} END {print length(t)}' >"$tmp/exclude.out"
if [ "$(cat "$tmp/exclude.out")" = 16267 ] &&
    [ "$(grep -c 'is unreachable: no path of references from a GC root (with the exclusions)' "$tmp/exclude.err")" = 3 ] &&
    grep -q '0x100000060 is unreachable' "$tmp/exclude.err"; then
    ok
else
    bad "path_exclude_elements: $(cat "$tmp/exclude.out") targets"; head -3 "$tmp/exclude.err"
fi
