# Golden cases on real HotSpot dumps (fixtures/java). Each expected value comes
# from the program's construction (see the header of each program in
# fixtures/java/src and fixtures/java/README.md), with JDK 17 sizes: header 12,
# references 4 (compressed oops), arrays 16 + elements, all 8-aligned.

# PlantedLeak: static ArrayList LEAK of 1000 Leaked (16) each owning a byte[100]
# (120): 24 + Object[1000] 4016 + 1000 * 136 = 140,040. The static field of a
# class of the application loader is a root: the list is the top owner.
rows_ planted_leak_owner "0 java.util.ArrayList 24 140040 static field PlantedLeak.LEAK" \
    'NR == 2 {print $1, $7, $4, $5, $11}' dominators $J/planted_leak.hprof --depth 2
rows_ planted_leak_classes "1000 16000 136000 Leaked" \
    '$5 == "Leaked" {print $1, $2, $3, $5}' classes $J/planted_leak.hprof --top 0
# The same dump gzip-compressed by HotSpot (-gz=1, several gzip members).
rows_ planted_leak_gzip "1000 16000 136000 Leaked" \
    '$5 == "Leaked" {print $1, $2, $3, $5}' classes $J/planted_leak.hprof.gz --top 0
# Without compressed oops (detected from the dump): references are 8 bytes and
# the array header 16: 32 + Object[1000] 8016 + 1000 * (16 + 120) = 144,048? No:
# Leaked holds one reference: align8(12 + 8) = 24, so 32 + 8016 + 1000 * 144.
rows_ planted_leak_nocoops "java.util.ArrayList 32 152048" \
    '$11 == "static field PlantedLeak.LEAK" {print $7, $4, $5}' \
    dominators $J/planted_leak_nocoops.hprof --flat --top 0 --min 0

# WeakCache: referents of WeakReference and SoftReference are not ownership.
# WEAK: 24 + Object[500] 2016 + 500 * WeakReference 32 = 18,040;
# SOFT: 24 + Object[200] 816 + 200 * SoftReference 40 = 8,840;
# STRONG: Payload3[100] 416 + 100 * (24 + byte[48] 64) = 9,216.
rows_ weak_cache_default "WEAK 18040
STRONG 9216
SOFT 8840" \
    '$11 ~ /^static field WeakCache\.(WEAK|SOFT|STRONG)$/ {sub(/.*\./, "", $11); print $11, $5}' \
    dominators $J/weak_cache.hprof --flat --top 0 --min 0 --format tsv
# --strong soft: SOFT owns its 200 Payload2 (88 each): 8,840 + 17,600 = 26,440.
rows_ weak_cache_soft "SOFT 26440
WEAK 18040" \
    '$11 ~ /^static field WeakCache\.(WEAK|SOFT)$/ {sub(/.*\./, "", $11); print $11, $5}' \
    dominators $J/weak_cache.hprof --flat --top 0 --min 0 --strong soft
# --strong all (Eclipse MAT's numbers): WEAK also owns 500 Payload: 18,040 + 44,000.
rows_ weak_cache_all "WEAK 62040
SOFT 26440" \
    '$11 ~ /^static field WeakCache\.(WEAK|SOFT)$/ {sub(/.*\./, "", $11); print $11, $5}' \
    dominators $J/weak_cache.hprof --flat --top 0 --min 0 --strong all
# The 500 weakly held Payload are unreachable: counted, not retained.
rows_ weak_cache_payload "500 12000 0 Payload" \
    '$5 == "Payload" {print $1, $2, $3, $5}' classes $J/weak_cache.hprof --top 0

# StackLocal: thread "worker" holds long[100000] (800,016) in frame 5 of its
# stack (StackLocal$Worker.run, line 43); "main" holds int[50000] (200,016) in
# frame 4 (StackLocal.main, line 60). Each array hangs under its thread.
rows_ stack_local_frames "long[] 800016 frame 5: StackLocal\$Worker.run (StackLocal.java:43)
int[] 200016 frame 4: StackLocal.main (StackLocal.java:60)" \
    '$8 ~ /^frame / && $5 > 100000 {print $7, $5, $8}' \
    dominators $J/stack_local.hprof --flat --top 0 --min 0
rows_ stack_local_threads "thread worker
thread main" \
    '$11 ~ /^thread (worker|main)$/ && $5 > 100000 {print $11}' \
    dominators $J/stack_local.hprof --flat --top 0 --min 0

# ClassLoaderLeak: the leaked loader owns its classes: the static byte[10000]
# BLOB of LeakyPlugin (10,016) and LeakyPlugin$Entry + byte[1000] (1,032) are
# under the LeakyPlugin instance held in ClassLoaderLeak.LEAKED.
rows_ class_loader_blob "byte[] 10016 BLOB" '$8 == "BLOB" {print $7, $5, $8}' \
    dominators $J/class_loader_leak.hprof --flat --top 0 --min 0
rows_ class_loader_entry "LeakyPlugin\$Entry 1032 entry" '$7 == "LeakyPlugin$Entry" {print $7, $5, $8}' \
    dominators $J/class_loader_leak.hprof --flat --top 0 --min 0
# Everything the plugin loaded hangs under LEAKED: the loader, both classes, BLOB.
rows_ class_loader_owned "class LeakyPlugin
BLOB
java.net.URLClassLoader
class LeakyPlugin\$Entry" \
    'NR > 1 && ($7 == "java.net.URLClassLoader" || $7 ~ /^class LeakyPlugin/) {print $7} $8 == "BLOB" {print $8}' \
    dominators $J/class_loader_leak.hprof --depth 0 --top 0 --min 0 \
    --root "$("$LF" dominators $J/class_loader_leak.hprof --flat --top 0 --min 0 |
              awk -F'\t' '$11 == "static field ClassLoaderLeak.LEAKED" {print $2}')"

# The loader of each class (CLASS DUMP's loader id; 0xfd5bf898 is the one
# URLClassLoader, "leaky-loader", as fixtures/java/tools/hprof_summary.py
# loaders reads it): LeakyPlugin (1 x 24 bytes) and LeakyPlugin$Entry (1 x 16)
# are its only classes; the JDK's own are the bootstrap loader's (565 classes
# by the same tool), the application loader defined ClassLoaderLeak (no instances).
rows_ class_loader_column "1 24 LeakyPlugin java.net.URLClassLoader 0xfd5bf898
1 16 LeakyPlugin\$Entry java.net.URLClassLoader 0xfd5bf898
1 java.net.URLClassLoader (bootstrap)" \
    '$5 ~ /^LeakyPlugin/ {print $1, $2, $5, $6} $5 == "java.net.URLClassLoader" {print $1, $5, $6}' \
    classes $J/class_loader_leak.hprof --top 0 --sort class
CL_ROWS="565 (bootstrap)
2 40 java.net.URLClassLoader 0xfd5bf898 2
0 0 jdk.internal.loader.ClassLoaders\$AppClassLoader 0xfd59af58 1"
CL_AWK='$5 ~ /0x/ {print $1, $2, $5, $6} $5 == "(bootstrap)" {print $6, $5}'
rows_ class_loader_by_loader "$CL_ROWS" "$CL_AWK" classes $J/class_loader_leak.hprof --by-loader --top 0 --sort class
"$LF" convert $J/class_loader_leak.hprof -o "$tmp/cl.lfs" 2>/dev/null
rows_ class_loader_by_loader_lfs "$CL_ROWS" "$CL_AWK" classes "$tmp/cl.lfs" --by-loader --top 0 --sort class

# roots' 'several roots' rows are objects at the dominator tree's top (no
# idom in dominators --flat): on a JVM dump a named node (a class object) is
# no root level, and a byte[] its class held (0xfd5c76b8) once came in
several_roots_at_top() {
    f=$J/class_loader_leak.hprof
    top=$("$LF" dominators $f --flat --top 0 --min 0 --format tsv 2>/dev/null | awk -F'\t' 'NR > 1 && $3 == "" {print $2}' | sort)
    shared=$("$LF" roots $f --top 0 --format tsv 2>/dev/null | awk -F'\t' '$5 == "several roots" {print $1}' | sort)
    stray=$(echo "$shared" | comm -23 - "$(printf '%s\n' "$top" >"$tmp/top_ids"; echo "$tmp/top_ids")")
    if [ -n "$shared" ] && [ -z "$stray" ]; then
        ok
    else
        bad "$1: 'several roots' rows not at the tree's top: $stray"
    fi
}
counted several_roots_at_top roots_several_at_top_hprof
# LinkedList1M (gzip, 38 members): 1,000,000 nodes of 24 bytes in one chain.
rows_ linked_list_head "LinkedList1M\$Node 24 24000000 static field LinkedList1M.HEAD" \
    '$11 == "static field LinkedList1M.HEAD" {print $7, $4, $5, $11}' \
    dominators $J/linked_list_1m.hprof.gz --flat --top 3
# the tree folds the chain below its head: 999,999 links of 24 bytes in one
# row, not the first three nested (collections.c, heads_chain)
rows_ linked_list_tree "1 999,999 x LinkedList1M\$Node (entries) 23999976 999999" \
    '$1 == 1 && $7 ~ /LinkedList1M/ {print $1, $7, $5, $10}' dominators $J/linked_list_1m.hprof.gz
rows_ linked_list_count "1000000 24000000 24000000 LinkedList1M\$Node" \
    '$5 == "LinkedList1M$Node" {print $1, $2, $3, $5}' classes $J/linked_list_1m.hprof.gz --top 0

# Every class's count and bytes equal the JVM's own histogram taken with the
# dump, java.lang.Class (mirror sizes, see docs/HPROF.md) included. vm_shapes
# has the classes HotSpot injects fields into (lambdas, method handles).
for f in planted_leak planted_leak_nocoops weak_cache stack_local class_loader_leak linked_list_1m vm_shapes paired_maps; do
    dump=$J/$f.hprof
    [ -f "$dump" ] || dump=$J/$f.hprof.gz
    "$LF" classes "$dump" --top 0 >"$tmp/classes" 2>"$tmp/err"
    if sh tests/cli/compare_histogram.sh "$J/$f.histo.txt" "$tmp/classes" >"$tmp/cmp"; then
        ok
    else
        bad "histogram $f:"; head -20 "$tmp/cmp"
    fi
done

# Broken dumps: exit 3 with the offset.
head -c 24 $J/planted_leak.hprof >"$tmp/cut-header.hprof"
case_ hprof_cut_header 3 info "$tmp/cut-header.hprof"
# The cut falls in the HEAP DUMP SEGMENT whose header is at 866,916 (body at
# 866,925, length 181,599): 1,000,000 - 866,925 = 133,075 bytes are left
# (found with fixtures/java/tools' independent record walk).
head -c 1000000 $J/planted_leak.hprof >"$tmp/cut-middle.hprof"
case_ hprof_cut_middle 3 info "$tmp/cut-middle.hprof"
# A gzip file cut at 300,000 bytes: zlib reaches the end of the input mid-stream.
head -c 300000 $J/planted_leak.hprof.gz >"$tmp/cut.hprof.gz"
case_ hprof_cut_gzip 3 info "$tmp/cut.hprof.gz"
# --partial reads the cut dumps up to the last whole sub-record. The expected
# values come from the independent walker: `hprof_summary.py cut DUMP 1000000`
# says the reader must stop at 999,902, that the segment lacks 48,524 bytes
# (181,599 - 133,075, as above) and that 9,895 of the 11,303 objects lie past
# the cut.
rows_ hprof_partial_middle "objects 1408
partial_cut_at 999902
partial_cut_missing_bytes 48524" \
    '$1 == "objects" || $1 ~ /^partial_cut/ {print $1, $2}' info --partial "$tmp/cut-middle.hprof"
# Cut at 500,000 compressed bytes, the gzip stream inflates to 1,869,054
# bytes; `hprof_summary.py cut DUMP 1869054`: stop at 1,869,006, 228,014 bytes
# missing, 6,014 objects past the cut.
head -c 500000 $J/planted_leak.hprof.gz >"$tmp/cut-late.hprof.gz"
rows_ hprof_partial_gzip "objects 5289
partial_cut_at 1869006
partial_cut_missing_bytes 228014
partial_gzip_cut_at 500000" \
    '$1 == "objects" || $1 ~ /^partial_/ {print $1, $2}' info --partial "$tmp/cut-late.hprof.gz"
# Cut in the header, nothing to read: still an error, without the hint.
case_ hprof_partial_header 3 info --partial "$tmp/cut-header.hprof"

# Reading on several threads gives the same bytes as on one.
for f in planted_leak.hprof class_loader_leak.hprof linked_list_1m.hprof.gz; do
    "$LF" dominators $J/$f --flat --top 0 --min 0 --threads 1 >"$tmp/t1" 2>&1
    "$LF" dominators $J/$f --flat --top 0 --min 0 --threads 2 >"$tmp/t2" 2>&1
    "$LF" classes $J/$f --top 0 --threads 1 >>"$tmp/t1" 2>&1
    "$LF" classes $J/$f --top 0 --threads 5 >>"$tmp/t2" 2>&1
    if cmp -s "$tmp/t1" "$tmp/t2"; then ok; else bad "threads differ on $f"; fi
done

# roots: thread "worker" holds the largest root set: its long[100000] (800,016)
# hangs under it, so it retains more than that.
rows_ roots_stack_local_first "thread worker more" \
    'NR == 2 {print $5, $7, ($3 > 800016 ? "more" : "less")}' roots $J/stack_local.hprof
rows_ roots_stack_local_kinds "thread" 'NR == 2 {print $8}' roots $J/stack_local.hprof --by-kind

# path --class: the chain the program built: static field PlantedLeak.LEAK
# -> the ArrayList -> its backing array (elementData) -> a Leaked.
rows_ path_planted_leak "java.util.ArrayList static field PlantedLeak.LEAK
java.lang.Object[] elementData
Leaked [0]" \
    'NR > 1 {print $8, $9 $10}' \
    path $J/planted_leak.hprof --class Leaked --top 1
# --class by simple name and by glob: the largest ArrayList is LEAK itself;
# Leak* names only Leaked (the class PlantedLeak has no instances).
rows_ path_simple_name "java.util.ArrayList static field PlantedLeak.LEAK" \
    'NR > 1 {print $8, $9 $10}' path $J/planted_leak.hprof --class ArrayList --top 1 --format tsv
rows_ path_glob "Leaked [0]" \
    'NR == 4 {print $8, $9}' path $J/planted_leak.hprof --class 'Leak*' --top 1 --format tsv
case_ path_class_suggest 2 path $J/planted_leak.hprof --class Leakd --format tsv
# fixtures/java/src/EventBusService.java's Listener is in the default
# package: asked as com.acme.Listener, it is suggested
case_ path_class_package_suggest 2 path $J/event_bus.hprof.gz --class com.acme.Listener --format tsv
# The worker's array hangs under its thread, one hop from the root, by the frame.
rows_ path_stack_local "1 thread worker
1 frame 5: StackLocal\$Worker.run (StackLocal.java:43)" \
    'NR > 1 {print $3, $9 $10}' path $J/stack_local.hprof --class 'long[]' --top 1 --format tsv

# --merge over all 1000 Leaked: every path goes through LEAK and elementData.
rows_ path_planted_merge "1000 java.util.ArrayList static field PlantedLeak.LEAK
1000 java.lang.Object[] elementData" \
    '$6 == "java.util.ArrayList" || $6 == "java.lang.Object[]" {print $2, $6, $7 $8}' \
    path $J/planted_leak.hprof --class Leaked --top 0 --merge

# roots: the planted static field first, with what it alone keeps alive.
rows_ roots_planted_leak "static field PlantedLeak.LEAK 140040" 'NR == 2 {print $5, $7, $3}' \
    roots $J/planted_leak.hprof

# Leak and control series (fixtures/java/series): each operation leaks 2
# LeakedSession (32 bytes) and 1 LeakedToken (16) into the static list
# SessionRegistry.SESSIONS; dumps after 100, 200 and 300 operations. The
# control series keeps only the last 3 objects.
L=fixtures/java/series/dumps
rows_ trend_leak_series "2.00 1.000 yes yes 200,400,600 LeakedSession
1.00 1.000 yes yes 100,200,300 LeakedToken" \
    '$4 == "yes" {print $1, $2, $3, $4, $5, $6}' \
    trend $L/leak-100.hprof $L/leak-200.hprof $L/leak-300.hprof --workload 100,200,300
# both accumulate in the list (a collection is one holder, its backing
# array part of it: DESIGN 13)
rows_ trend_leak_holder "200,400,600 static field SessionRegistry.SESSIONS (java.util.ArrayList)
100,200,300 static field SessionRegistry.SESSIONS (java.util.ArrayList)" \
    '$4 == "yes" {print $7, $8}' \
    trend $L/leak-100.hprof $L/leak-200.hprof $L/leak-300.hprof --workload 100,200,300
rows_ trend_control_series "" '$4 == "yes"' \
    trend $L/control-100.hprof $L/control-200.hprof $L/control-300.hprof --workload 100,200,300
"$LF" trend $L/control-100.hprof $L/control-200.hprof $L/control-300.hprof --exit-code >/dev/null 2>&1
[ $? = 0 ] && ok || bad "trend --exit-code on the control series"
"$LF" diff $L/leak-100.hprof $L/leak-300.hprof --exit-code >/dev/null 2>&1
[ $? = 1 ] && ok || bad "diff --exit-code on the leak pair"
"$LF" diff $L/control-100.hprof $L/control-300.hprof --exit-code >/dev/null 2>&1
[ $? = 0 ] && ok || bad "diff --exit-code on the control pair"
# 200 operations: +400 LeakedSession, +200 LeakedToken, 600 objects and
# 200 * 80 = 16,000 bytes more under the static list: the list is the owner
# (its backing array and elements are part of the collection, never owners
# of their own).
rows_ diff_leak_classes "400 12800 LeakedSession
200 3200 LeakedToken" 'NR > 1 && $3 > 0 {print $3, $4, $10}' diff $L/leak-100.hprof $L/leak-300.hprof
rows_ diff_leak_owner "600 16000 static field SessionRegistry.SESSIONS (java.util.ArrayList)" \
    'NR == 2 {print $1, $2, $6}' diff $L/leak-100.hprof $L/leak-300.hprof --owners
rows_ trend_leak_owner "3.00 static field SessionRegistry.SESSIONS (java.util.ArrayList)" \
    'NR == 2 {print $1, $7}' \
    trend $L/leak-100.hprof $L/leak-200.hprof $L/leak-300.hprof --workload 100,200,300 --owners

# convert writes a temporary file and renames it: a run stopped mid-write
# leaves nothing. A file size limit stops it deterministically: with SIGXFSZ
# fatal, the signal handler removes the temporary file before dying; with it
# ignored, the write fails (exit 4) and the error path removes it.
for how in signal error; do
    rm -rf "$tmp/sig" && mkdir "$tmp/sig"
    # an inner shell reports the signal (to /dev/null) and prints the exit code
    [ $how = signal ] && ignore="" || ignore="trap '' XFSZ;"
    code=$(sh -c "$ignore"' ulimit -f 100; "$@"; echo $?' sh "$LF" convert $J/planted_leak.hprof \
           -o "$tmp/sig/out.lfs" 2>/dev/null)
    left=$(ls -A "$tmp/sig")
    if { [ $how = signal ] && [ $code -gt 128 ]; } || { [ $how = error ] && [ $code = 4 ]; }; then
        if [ -z "$left" ]; then ok; else bad "convert_interrupted_$how: left $left"; fi
    else
        bad "convert_interrupted_$how: exit $code"
    fi
done

# Allocation sites (docs/HPROF.md): an ART-like dump with allocation traces,
# written by tests/unit/test_hprof_sites.c (build_art_sites, which also checks
# this copy). ART sizes: Node 8, Object[11] 12 + 44 = 56, byte[16] 12 + 16 -> 32.
# Trace T (readNode:42 < parse:17 < main:5): 4 Node + the Object[] = 5, 88 B;
# the Object[] holds every other object but the thread (a root), so T retains
# 216 - thread 8 = 208 (96.30%). Trace U (arraycopy, native, < parse, no line
# < main:5): 3 byte[], 96 B, each retaining itself. No site: 3 Nodes under the
# array, the thread, 7 classes (0 B): 11, 32 B, retaining 32 (14.81%).
A=tests/cli/inputs/art_alloc_sites.hprof
case_ hprof_art_sites 0 sites $A
case_ hprof_art_sites_stack0 0 sites $A --stack 0 --format tsv
# HotSpot gives every object its dummy trace: no site rows.
rows_ hprof_hotspot_no_sites "" '{print}' sites $J/planted_leak.hprof

# References to ids with no record (tests/unit/test_hprof_dangling.c writes
# both dumps): in jni_dangling.hprof 3 elements of the Object[] 0x3000 a JNI
# global holds, as HotSpot's archived-object array always has: counted in
# info, a note with -v only, no error with --strict. dangling_field.hprof adds
# an Object[] 0x3100 (held by a field) of 4 such ids: 7 in all from 2 holders,
# the most (4) from 0x3100, a warning that names it, an error with --strict.
D=tests/cli/inputs
rows_ hprof_jni_dangling_info "dangling_references 3
dangling_holders 1
dangling_expected 3
dangling_top_holder 3 from java.lang.Object[] 0x3000 (JNI global)" \
    '$1 ~ /^dangling_(references|holders|expected|top_holder)$/ {print $1, $2}' info $D/jni_dangling.hprof --format tsv
rows_ hprof_field_dangling_info "dangling_references 7
dangling_holders 2
dangling_expected 3
dangling_top_holder 4 from java.lang.Object[] 0x3100" \
    '$1 ~ /^dangling_(references|holders|expected|top_holder)$/ {print $1, $2}' info $D/dangling_field.hprof --format tsv
dangling_stderr() { # NAME EXIT EXPECTED-STDERR ARGS...
    name=$1 want=$2 msg=$3
    shift 3
    "$LF" "$@" >/dev/null 2>"$tmp/err" </dev/null
    code=$?
    if [ "$code" = "$want" ] && [ "$(cat "$tmp/err")" = "$msg" ]; then
        ok
    else
        bad "$name: exit $code, stderr:"; head -3 "$tmp/err"
    fi
}
dangling_stderr hprof_jni_dangling_quiet 0 "" classes $D/jni_dangling.hprof
dangling_stderr hprof_jni_dangling_strict 0 "" classes $D/jni_dangling.hprof --strict
dangling_stderr hprof_jni_dangling_note 0 "leakfind: note: '$D/jni_dangling.hprof': 3 references name objects not in the dump, all elements of an object array a JNI global holds, which HotSpot always writes: 3 from java.lang.Object[] 0x3000 (JNI global)" \
    classes $D/jni_dangling.hprof -v
dangling_stderr hprof_field_dangling_warn 0 "leakfind: warning: '$D/dangling_field.hprof': 7 references and 0 roots name objects not in the dump; the most: 4 from java.lang.Object[] 0x3100" \
    classes $D/dangling_field.hprof
dangling_stderr hprof_field_dangling_strict 3 "leakfind: warning: '$D/dangling_field.hprof': 7 references and 0 roots name objects not in the dump; the most: 4 from java.lang.Object[] 0x3100
leakfind: error: '$D/dangling_field.hprof': warnings are errors with --strict" \
    classes $D/dangling_field.hprof --strict
# A converted file keeps where they come from (its META).
"$LF" convert $D/dangling_field.hprof -o "$tmp/dangling_field.lfs" 2>/dev/null
rows_ hprof_field_dangling_lfs "dangling_holders 2
dangling_expected 3
dangling_top_holder 4 from java.lang.Object[] 0x3100" \
    '$1 ~ /^dangling_(holders|expected|top_holder)$/ {print $1, $2}' info "$tmp/dangling_field.lfs" --format tsv

# ManyLoaders (fixtures/java/src/ManyLoaders.java, issue #21 item 5): 500
# URLClassLoaders over one directory, each defining its own class Plugin and
# making one instance (16 bytes, owning a byte[100] of 120: retained 136, as
# LOADERS keeps every loader and so every class). `classes --each-loader`
# shows Plugin as 500 rows, one per loader, `--by-loader --each-loader` as
# 500 loader rows of 1 class each; without --each-loader they are one row
# each (issue 37): Plugin 500 / 8,000 / 68,000 of '500 loaders', and '500 x
# java.net.URLClassLoader' defining 1 class.
ML=$J/many_loaders.hprof.gz
# Plugin rows: how many, distinct loaders, count/shallow/retained summed, rows
# that are not 1 x 16 / 136 of a URLClassLoader.
ML_PLUGIN_AWK='$5 == "Plugin" { n++; if (!($6 in seen)) d++; seen[$6] = 1; c += $1; s += $2; r += $3
    if ($1 != 1 || $2 != 16 || $3 != 136 || $6 !~ /^java\.net\.URLClassLoader 0x[0-9a-f]+$/) bad++ }
    END { print n, d, c, s, r, bad + 0 }'
rows_ many_loaders_plugin_rows "500 500 500 8000 68000 0" "$ML_PLUGIN_AWK" classes $ML --top 0 --format tsv --each-loader
rows_ many_loaders_plugin_folded "500 8000 68000 Plugin 500 loaders" '$5 == "Plugin" {print $1, $2, $3, $5, $6}' \
    classes $ML --top 0 --format tsv
rows_ many_loaders_by_loader_folded "500 8000 68000 500 x java.net.URLClassLoader 1" \
    '$5 ~ /URLClassLoader/ {print $1, $2, $3, $5, $6}' classes $ML --by-loader --top 0 --format tsv
# One row per URLClassLoader: 1 instance, 16, 136, 1 class; the JDK's 567
# classes are the bootstrap loader's (hprof_summary.py loaders), the
# application loader defined ManyLoaders (no instances).
ML_LOADER_AWK='$5 ~ /^java\.net\.URLClassLoader 0x/ { n++; if (!($5 in seen)) d++; seen[$5] = 1; c += $1; s += $2; r += $3; k += $6
    if ($1 != 1 || $2 != 16 || $3 != 136 || $6 != 1) bad++ }
    $5 == "(bootstrap)" { boot = $6 } $5 ~ /AppClassLoader/ { app = $1 " " $2 " " $6 }
    END { print n, d, c, s, r, k, bad + 0; print boot, app }'
rows_ many_loaders_by_loader "500 500 500 8000 68000 500 0
567 0 0 1" "$ML_LOADER_AWK" classes $ML --by-loader --top 0 --format tsv --each-loader
"$LF" convert $ML -o "$tmp/ml.lfs" 2>/dev/null
rows_ many_loaders_by_loader_lfs "500 500 500 8000 68000 500 0
567 0 0 1" "$ML_LOADER_AWK" classes "$tmp/ml.lfs" --by-loader --top 0 --format tsv --each-loader
# PLUGINS: 24 + Object[500] 2016 + 500 x 136 = 70,040. LOADERS owns only
# itself (24 + 2016): each loader is also reachable from its Plugin instance.
rows_ many_loaders_lists "static field ManyLoaders.PLUGINS 24 70040
static field ManyLoaders.LOADERS 24 2040" \
    '$11 ~ /^static field ManyLoaders\.(PLUGINS|LOADERS)$/ {print $11, $4, $5}' \
    dominators $ML --flat --top 0 --min 0
# The loader column names the loader objects themselves: the ids on the Plugin
# rows are exactly the ids of the 500 URLClassLoader instances (dominators).
"$LF" classes $ML --top 0 --format tsv --each-loader 2>/dev/null |
    awk -F'\t' '$5 == "Plugin" {sub(/.* /, "", $6); print $6}' | sort >"$tmp/ml.class_ids"
"$LF" dominators $ML --flat --top 0 --min 0 --format tsv 2>/dev/null |
    awk -F'\t' '$7 == "java.net.URLClassLoader" {print $2}' | sort >"$tmp/ml.object_ids"
if [ "$(wc -l <"$tmp/ml.object_ids")" -eq 500 ] && cmp -s "$tmp/ml.class_ids" "$tmp/ml.object_ids"; then
    ok
else
    bad "many_loaders_loader_ids: Plugin loaders are not the 500 URLClassLoader objects"
fi
# The JVM's histogram: every class's count and bytes, and Plugin as 500
# separate rows (one per class) there as in leakfind.
"$LF" classes $ML --top 0 --format tsv --each-loader >"$tmp/ml.classes" 2>/dev/null
if sh tests/cli/compare_histogram.sh $J/many_loaders.histo.txt "$tmp/ml.classes" >"$tmp/cmp" &&
    [ "$(awk '$4 == "Plugin" && $2 == 1 && $3 == 16' $J/many_loaders.histo.txt | wc -l)" -eq 500 ] &&
    [ "$(awk -F'\t' '$5 == "Plugin"' "$tmp/ml.classes" | wc -l)" -eq 500 ]; then
    ok
else
    bad "histogram many_loaders:"; head -20 "$tmp/cmp"
fi
# A full listing is made on two threads in blocks of 4,096 rows (issue 33
# item 5): the million list nodes must still come in order, node k retaining
# (1,000,000 - k) x 24 bytes and dominated by node k - 1 (LinkedList1M.java).
list_check='$7 == "LinkedList1M$Node" { want = (1000000 - n) * 24
    if ($5 != want || (n > 0 && $3 != prev)) bad++
    prev = $2; n++ } END { print n, bad + 0 }'
for t in 1 2; do
    rows_ linked_list_full_listing_threads_$t "1000000 0" "$list_check" \
        dominators $J/linked_list_1m.hprof.gz --flat --top 0 --min 0 --format tsv --threads $t
done
rows_ linked_list_full_listing_json "1000000 0" \
    '/"class":"LinkedList1M\$Node"/ && match($0, /"retained":[0-9]+/) { r = substr($0, RSTART + 11, RLENGTH - 11); if (r != (1000000 - n) * 24) bad++; n++ } END { print n, bad + 0 }' \
    dominators $J/linked_list_1m.hprof.gz --flat --top 0 --min 0 --format json --threads 2
