# The scale stage's dump writer (issue 23, tests/bench/gen_hprof_big.c) checked
# against its own construction, on small outputs written here.
#
# 1M objects: the generator prints the objects and the count and bytes of
# each class it wrote (its tally of every object it laid out, sizes as the VM
# has them with compressed oops); info and classes must give the same.
"$build/gen_hprof_big" "$tmp/big-1m.hprof" 1000000 7 >"$tmp/big-1m.plan" 2>/dev/null
rows_ scale_info "$(awk -F'\t' '$1 == "objects" || $1 == "classes" {print $1, $2}' "$tmp/big-1m.plan")
0 0 0" \
    '$1 == "objects" || $1 == "classes" {print $1, $2} $1 ~ /^(dangling_references|warnings|unreachable_objects)$/ {s = s (s == "" ? "" : " ") $2} END {print s}' \
    info "$tmp/big-1m.hprof"
rows_ scale_classes "$(awk -F'\t' '$1 == "class" {print $2, $3, $4}' "$tmp/big-1m.plan" | LC_ALL=C sort)" \
    'NR > 1 {print $5, $1, $2}' classes "$tmp/big-1m.hprof" --top 0 --sort class --format tsv
# 100k objects and a planted HashMap of 3000 entries that only the static
# field BigHeap$Cache.ENTRIES holds: its table has 4096 slots (3000 <= 3/4 of
# 4096), so it retains map 48 + table 16 + 4 * 4096 + 3000 x (String 24 +
# byte[10] 32 + Value 32 + Node 32) = 376448 bytes, of which the table holds
# all but the map's 48: 376400. It is a top owner, among the 10 largest.
"$build/gen_hprof_big" "$tmp/big-100k.hprof" 100000 42 3000 >"$tmp/big-100k.plan" 2>/dev/null
got=$(awk -F'\t' '$1 == "planted_id" {id = $2} $1 == "planted_retained" {print id, $2}' "$tmp/big-100k.plan")
if [ "$got" = "0x100000000 376448" ]; then ok; else
    bad "scale_planted_plan: the generator planned $got"; fi
rows_ scale_planted "0 0x100000000 376448 java.util.HashMap static field BigHeap\$Cache.ENTRIES
1 376400 java.util.HashMap\$Node[] table" \
    '$1 == 0 && $11 ~ /Cache/ {print $1, $2, $5, $7, $11; id = $2} $1 == 1 && id != "" && $3 == id {print $1, $5, $7, $8}' \
    dominators "$tmp/big-100k.hprof" --top 10 --depth 2 --format tsv
# The same heap with 4-byte ids (--id-size 4: a 32-bit VM's dump, as ART
# writes them): the same counts, each object a 32-bit VM's size (header 8,
# array header 12), which is how leakfind sizes a dump with 4-byte ids; the
# dominator tree's top two as laid out (BigHeap.ROOTS and its array) and the
# planted map's retained size from the generator's addresses.
"$build/gen_hprof_big" --id-size 4 "$tmp/big4.hprof" 200000 7 >"$tmp/big4.plan" 2>/dev/null
rows_ scale_classes_id4 "$(awk -F'\t' '$1 == "class" {print $2, $3, $4}' "$tmp/big4.plan" | LC_ALL=C sort)" \
    'NR > 1 {print $5, $1, $2}' classes "$tmp/big4.hprof" --top 0 --sort class --format tsv
rows_ scale_roots_id4 "$(awk -F'\t' '{v[$1] = $2} END {print 0, v["roots_id"], v["roots_shallow"]
    print 1, v["roots_array_id"], v["roots_array_shallow"], v["roots_id"]
    print "planted", v["planted_id"], v["planted_retained"]}' "$tmp/big4.plan")" \
    'NR == 2 || ($1 == 1 && !kid++) {print $1, $2, $4 ($3 == "" ? "" : " " $3)} $11 ~ /Cache/ {print "planted", $2, $5}' \
    dominators "$tmp/big4.hprof" --top 0 --depth 2 --no-group --format tsv
# A series big enough (13 MB a dump, over SERIES_OVERLAP_MIN_BYTES) that each
# snapshot's counting runs on a thread while the next is read (cmd/cli/
# series.c): 250k objects and the planted map at 1000, 2000 and 3000
# entries. The growth is the map's: its String keys 1000, 2000, 3000 under
# it, 1000 per unit of workload, and at 3000 entries it retains 376448
# bytes (the construction above). Counting on the reading thread instead
# (--threads 1: never overlapped) gives the same bytes, for suspects and trend.
for k in 1 2 3; do
    "$build/gen_hprof_big" "$tmp/ov$k.hprof" 250000 42 $((k * 1000)) >/dev/null 2>&1
done
rows_ series_overlap_planted "growth 376448 3000 java.lang.String 1000.00 1000,2000,3000" \
    '$7 == "0x100000000" {print $2, $3, $5, $6, $13, $14}' \
    suspects "$tmp/ov3.hprof" "$tmp/ov1.hprof" "$tmp/ov2.hprof" --format tsv
same_bytes() { # ARGS...: the output with two threads equals --threads 1's
    "$LF" "$@" >"$tmp/two" 2>&1 && "$LF" "$@" --threads 1 >"$tmp/one" 2>&1 && cmp -s "$tmp/two" "$tmp/one" &&
        [ -s "$tmp/one" ]
}
check_ series_overlap_suspects same_bytes suspects "$tmp/ov3.hprof" "$tmp/ov1.hprof" "$tmp/ov2.hprof"
check_ series_overlap_trend same_bytes trend "$tmp/ov1.hprof" "$tmp/ov2.hprof" "$tmp/ov3.hprof"
rm -f "$tmp"/ov[123].hprof
