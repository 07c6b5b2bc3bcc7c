# Golden cases, sourced by run.sh. Answers are worked out by hand: see the
# comment at the top of each fixture for what it plants.

# dominators: tree, JSON, depth/top/min/root/flat, table
case_ dom_diamond_tsv 0 dominators $G/diamond.txt
case_ dom_cycle_tsv 0 dominators $G/cycle_root.txt --depth 0
case_ dom_weak_tsv 0 dominators $G/weak_cache.txt
case_ dom_nested_tsv 0 dominators $G/nested_class.txt
case_ dom_nested_json 0 dominators $G/nested_class.txt --format json
case_ dom_nested_depth1 0 dominators $G/nested_class.txt --depth 1
case_ dom_nested_top1 0 dominators $G/nested_class.txt --top 1 --depth 0
case_ dom_nested_min 0 dominators $G/nested_class.txt --min 101
case_ dom_nested_minpct 0 dominators $G/nested_class.txt --min 30%
case_ dom_nested_flat 0 dominators $G/nested_class.txt --flat --top 0 --min 0
case_ dom_nested_flat2 0 dominators $G/nested_class.txt --flat --top 2
case_ dom_huge_flat 0 dominators $G/huge_sizes.txt --flat --top 0 --min 0
case_ dom_huge_flat3 0 dominators $G/huge_sizes.txt --flat --top 3
case_ dom_nested_root 0 dominators $G/nested_class.txt --root 0x2
case_ dom_nested_table 0 dominators $G/nested_class.txt --format table
case_ dom_diamond_keep 0 dominators $G/diamond.txt --keep-unreachable --flat
case_ dom_root_missing 2 dominators $G/nested_class.txt --root 0x99
# 50 is one edit from 5, the diamond's Orphan, which no root reaches
case_ dom_root_near_id 2 dominators $G/diamond.txt --root 50

# classes
case_ classes_nested_tsv 0 classes $G/nested_class.txt
case_ classes_cycle_tsv 0 classes $G/cycle_root.txt
case_ classes_weak_tsv 0 classes $G/weak_cache.txt
case_ classes_weak_json 0 classes $G/weak_cache.txt --format json
case_ classes_weak_shallow 0 classes $G/weak_cache.txt --sort shallow --top 2
case_ classes_weak_table 0 classes $G/weak_cache.txt --format table
# tables show sizes in binary units: 5 + 6 GiB, 2^32 - 1 + 2^32 bytes (8.0 GiB)
case_ classes_huge_table 0 classes $G/huge_sizes.txt --format table
# --by-loader needs class loaders: a text graph has none
case_ classes_by_loader_none 2 classes $G/weak_cache.txt --by-loader

# sites: allocation sites (fixtures/graphs/sites.txt works the answers out)
case_ sites_tsv 0 sites $G/sites.txt
case_ sites_stack2 0 sites $G/sites.txt --stack 2
case_ sites_stack0 0 sites $G/sites.txt --stack 0
case_ sites_json_count 0 sites $G/sites.txt --format json --sort count --top 1
case_ sites_none 0 sites $G/nested_class.txt
case_ info_sites 0 info $G/sites.txt
"$LF" convert $G/sites.txt -o "$tmp/sites.lfs" 2>/dev/null
case_ sites_stack0 0 sites "$tmp/sites.lfs" --stack 0
help_ sites_help sites -h
# diff and trend --by-site (fixtures/graphs/make_sites_series.sh plants 10 entries per step)
case_ diff_by_site 0 diff --by-site $G/sites_series-1.txt $G/sites_series-3.txt
case_ trend_by_site 1 trend --by-site $G/sites_series-1.txt $G/sites_series-2.txt $G/sites_series-3.txt --workload 100,200,300 --exit-code
case_ trend_by_site_stack2 0 trend --by-site --stack 2 $G/sites_series-1.txt $G/sites_series-2.txt $G/sites_series-3.txt --format json
# path --site: the largest objects of matching sites (make: 0x2 retains 200, 0x5 130)
case_ path_site 0 path $G/sites.txt --site a.ml:3 --top 2
case_ path_site_stack2 0 path $G/sites.txt --site loop --stack 2
# loop is an outer frame only (A 5: make < loop < main): the warning says
# --stack 0 looks there
case_ path_site_innermost 0 path $G/sites.txt --site loop
# a misspelt function: none matches, and the warning names 'make'
case_ path_site_misspelt 0 path $G/sites.txt --site mkae
case_ diff_by_site_none 3 diff --by-site $G/nested_class.txt $G/sites_series-3.txt

# info
case_ info_weak_tsv 0 info $G/weak_cache.txt
case_ info_diamond_json 0 info $G/diamond.txt --format json

# convert, then every command on the leakfind file gives the same answers
case_ convert_nested 0 convert $G/nested_class.txt -o "$tmp/nested.lfs"
case_ dom_nested_tsv 0 dominators "$tmp/nested.lfs"
case_ classes_nested_tsv 0 classes "$tmp/nested.lfs"
case_ convert_weak 0 convert $G/weak_cache.txt --output "$tmp/weak.lfs"
case_ dom_weak_tsv 0 dominators "$tmp/weak.lfs"
case_ info_weak_lfs 0 info "$tmp/weak.lfs"
case_ convert_weak_noanalysis 0 convert $G/weak_cache.txt --no-analysis -o "$tmp/weak-bare.lfs"
case_ classes_weak_tsv 0 classes "$tmp/weak-bare.lfs"
case_ convert_lfs_to_lfs 0 convert "$tmp/weak.lfs" -o "$tmp/weak2.lfs"
cmp -s "$tmp/weak.lfs" "$tmp/weak2.lfs" && ok || bad "convert of a converted file is not byte-identical"

# sizes of 4 GiB or more (fixtures/graphs/big_chain.txt works them out): the
# same answers from the text graph, from its .lfs (whose big tables are the
# OSHB and RETB chunks) and from a .lfs without the analysis
case_ dom_big_chain 0 dominators $G/big_chain.txt --flat --top 0 --min 0
case_ classes_big_chain 0 classes $G/big_chain.txt
case_ info_big_chain 0 info $G/big_chain.txt
case_ convert_big_chain 0 convert $G/big_chain.txt -o "$tmp/big_chain.lfs"
grep -q OSHB "$tmp/big_chain.lfs" && grep -q RETB "$tmp/big_chain.lfs" && ok ||
    bad "big_chain.lfs has no OSHB or RETB chunk"
case_ dom_big_chain 0 dominators "$tmp/big_chain.lfs" --flat --top 0 --min 0
case_ classes_big_chain 0 classes "$tmp/big_chain.lfs"
case_ convert_big_chain_bare 0 convert $G/big_chain.txt --no-analysis -o "$tmp/big_chain-bare.lfs"
case_ dom_big_chain 0 dominators "$tmp/big_chain-bare.lfs" --flat --top 0 --min 0
case_ classes_big_chain 0 classes "$tmp/big_chain-bare.lfs"

# bad input: exit 3 with the offset or line; system errors exit 4
head -c 100 "$tmp/nested.lfs" >"$tmp/truncated.lfs"
case_ err_truncated_lfs 3 dominators "$tmp/truncated.lfs"
cp "$tmp/nested.lfs" "$tmp/flipped.lfs"
# the byte of OCLS entry 5, wherever the chunk table puts OCLS
lfs_chunk_offset() {
    i=0
    while [ $i -lt 64 ]; do
        if [ "$(dd if="$1" bs=1 skip=$((64 + 32 * i)) count=4 2>/dev/null)" = "$2" ]; then
            od -A n -t u8 -j $((64 + 32 * i + 8)) -N 8 "$1" | tr -d ' '
            return
        fi
        i=$((i + 1))
    done
}
printf '\377' | dd of="$tmp/flipped.lfs" bs=1 seek=$(($(lfs_chunk_offset "$tmp/flipped.lfs" OCLS) + 20)) conv=notrunc 2>/dev/null
case_ err_flipped_lfs 3 classes "$tmp/flipped.lfs"
case_ err_not_a_dump 3 info tests/cli/inputs/not_a_dump.txt
# recognisable non-dumps: what the file is and what to take instead
N=tests/cli/inputs/not_dumps
case_ err_cpuprofile 3 info $N/node.cpuprofile
case_ err_heapprofile 3 info $N/node.heapprofile
case_ err_phd 3 classes $N/ibm.phd
case_ err_core 3 dominators $N/core.elf
gzip -c $N/node.heapprofile >"$tmp/profile.gz"
case_ err_gzip_heapprofile 3 info "$tmp/profile.gz"
case_ err_bad_line 3 dominators tests/cli/inputs/bad_line.txt
case_ err_missing 4 info tests/cli/inputs/no-such-file.txt
: >"$tmp/empty"
case_ err_empty 3 info "$tmp/empty"
case_ warn_dangling 0 classes tests/cli/inputs/dangling.txt
case_ err_dangling_strict 3 classes tests/cli/inputs/dangling.txt --strict
case_ quiet_dangling 0 classes tests/cli/inputs/dangling.txt -q

# usage errors: exit 2
case_ usage_none 2
case_ usage_unknown_command 2 frobnicate $G/diamond.txt
case_ usage_mistyped_command 2 domintors $G/diamond.txt
# a dump given without a command: the command that answers for it is named,
# suspects for one file, diff for two, trend for three (a path that is no
# file stays an unknown command)
case_ usage_file_no_command 2 $G/diamond.txt
# the command offered, on a line of its own, pastes back as given: a name
# with a blank in it is one quoted word
cp $G/diamond.txt "$tmp/a b.txt"
expect usage_file_no_command_quoted "    leakfind suspects '$tmp/a b.txt'" \
    "$("$LF" "$tmp/a b.txt" 2>&1 | sed -n 2p)"
case_ usage_two_files_no_command 2 $G/garbage_before.txt $G/garbage_after.txt --top 3
case_ usage_three_files_no_command 2 $G/growing_array-1.txt $G/growing_array-2.txt $G/growing_array-3.txt
# options before the command are read as if after it ("leakfind -q
# suspects heap.hprof"); the diamond's App retains 100+40+60+500, Shared 500
case_ usage_options_before_command 0 --format tsv --top 2 classes $G/diamond.txt
case_ usage_options_before_file 2 -q --memory 1G $G/diamond.txt
case_ usage_options_no_command 2 --top 3
case_ usage_mistyped_command_after_option 2 -q domintors $G/diamond.txt
# "leakfind help trend" is "leakfind trend -h"; a misspelt one is named
"$LF" help trend >"$tmp/help1" 2>&1
"$LF" trend -h >"$tmp/help2" 2>&1
cmp -s "$tmp/help1" "$tmp/help2" && head -1 "$tmp/help1" | grep -q "^usage: leakfind trend " && ok ||
    bad "help trend: not trend -h"
case_ usage_help_misspelt_command 2 help trnd
case_ usage_unknown_option 2 dominators $G/diamond.txt --frob
# a misspelt option names the closest, the command's own or a global one
case_ usage_misspelt_option 2 suspects $G/diamond.txt --threshhold 5
case_ usage_misspelt_global_option 2 classes $G/diamond.txt --formt tsv
case_ usage_bad_format 2 classes $G/diamond.txt --format xml
case_ usage_bad_top 2 classes $G/diamond.txt --top -3
case_ usage_bad_min 2 dominators $G/diamond.txt --min lots
case_ usage_missing_value 2 dominators $G/diamond.txt --depth
case_ usage_two_inputs 2 info $G/diamond.txt $G/diamond.txt
case_ usage_convert_no_output 2 convert $G/diamond.txt

# -h on every command
for c in info classes dominators convert; do help_ help_$c $c -h; help_ help_$c $c --help; done
help_ help_main --help

# roots: what each root alone keeps alive; per kind, each object once
case_ roots_multi_tsv 0 roots $G/roots_multi.txt
case_ roots_multi_top2 0 roots $G/roots_multi.txt --top 2
case_ roots_multi_kinds 0 roots $G/roots_multi.txt --by-kind
case_ roots_multi_kinds_json 0 roots $G/roots_multi.txt --by-kind --format json
# What each kind keeps alive as a whole, shared memory included, and what
# several kinds share (fixtures/graphs/root_kinds.txt works it out).
case_ roots_kind_reach 0 roots $G/root_kinds.txt --by-kind --format tsv
# Each root's reachable bytes, shared ones included, and the limit on the
# walks (fixtures/graphs/reach_budget.txt works it out).
case_ roots_reach_budget 0 roots $G/reach_budget.txt --format tsv
case_ roots_reach_all 0 roots $G/reach_budget.txt --format tsv --all-reachable
case_ roots_nested_tsv 0 roots $G/nested_class.txt
# one object a root kind names 7 times is one row of 7; what two roots hold
# together is a "several roots" row named by the roots of its holders,
# "2 roots: static field App, static field Current"
# (fixtures/graphs/roots_repeats.txt)
case_ roots_repeats 0 roots $G/roots_repeats.txt
# a 'several roots' row held by another one: its holders' roots, a level up
rows_ roots_shared_levels "0x5 3 roots: static field C.c, JNI global a, JNI global b|0x4 2 roots: JNI global a, JNI global b|" \
    '$5 == "several roots" { printf "%s %s|", $1, $7 } END { print "" }' roots $G/shared_levels.txt --format tsv
case_ roots_nested_tsv 0 roots "$tmp/nested.lfs"
help_ help_roots roots -h

# path: shortest strong path from a root, hop by hop (see the fixtures' comments)
case_ path_nested 0 path $G/nested_class.txt 0x6
case_ path_nested_lfs 0 path "$tmp/nested.lfs" 6
case_ path_diamond 0 path $G/diamond.txt 4
case_ path_diamond_exclude 0 path $G/diamond.txt 4 --exclude Left.shared
case_ path_diamond_exclude_both 0 path $G/diamond.txt 4 --exclude Left.shared --exclude Right.shared
case_ path_root 0 path $G/diamond.txt 0x1
case_ path_weak 0 path $G/weak_cache.txt 4 5
case_ path_unreachable 0 path $G/diamond.txt 5
case_ path_class 0 path $G/nested_class.txt --class Item --top 2
case_ path_missing 2 path $G/diamond.txt 0x99
# 6 is one edit from each of 1-5; path has no retained sizes, so the three
# largest by their own (diamond.txt: Shared 500, App 100, Right 60) are offered
case_ path_near_id 2 path $G/diamond.txt 6
# a snapshot and no object: the commands that list ids, with the
# snapshot's name to paste (a name the shell would split, quoted)
case_ path_no_target 2 path $G/diamond.txt
case_ inspect_no_target 2 inspect $G/diamond.txt
expect inspect_no_target_quoted "    leakfind dominators '$tmp/my dump'\\''s.txt'" \
    "$("$LF" inspect "$tmp/my dump's.txt" 2>&1 | sed -n 2p)"
case_ path_bad_exclude 2 path $G/diamond.txt 4 --exclude Left
# a misspelt field excludes nothing: the path is path_diamond's, with a
# warning that names Left's field 'shared'
case_ path_exclude_misspelt 0 path $G/diamond.txt 4 --exclude Left.shard
help_ help_path path -h
case_ path_diamond_all 0 path $G/diamond.txt 4 --all
case_ path_disjoint_all 0 path $G/disjoint.txt 5 --all
case_ path_merge 0 path $G/nested_class.txt --class Item --top 0 --merge
# a linked list of one class is one row with its length (fixtures/graphs/make_token_chain.sh):
# 300 undisposed registrations, not a tree 300 deep
case_ path_merge_chain 0 path $G/token_chain.txt --class CallbackNode --merge --top 0 --format tsv
# a doubly linked list of 4,000 links (each references the next and the one
# before: .NET's and Java's LinkedList) under root Head: one Head row and
# one Link row, every path through both, the chain all 4,000 links. Each
# link's search used to walk back to the head, 4,000 * 4,000 / 2 steps.
awk 'BEGIN { OFS = "\t"; print "node", 1, 16, "Head"; print "root", 1, "static field", "List.head"
    for (i = 2; i <= 4001; i++) { print "node", i, 24, "Link"
        if (i == 2) print "edge", 1, 2, "strong", "first"
        else { print "edge", i - 1, i, "strong", "next"; print "edge", i, i - 1, "strong", "prev" } } }' \
    >"$tmp/linked_list.txt"
rows_ path_merge_linked_list "0 4000 Head |1 4000 Link 4000|" 'NR > 1 { printf "%s %s %s %s|", $1, $2, $6, $11 } END { print "" }' \
    path "$tmp/linked_list.txt" --class Link --merge --top 0 --format tsv
# The dominators tree folds a chain of 8 or more links of one class into its
# head's members (core/analysis/collections.c, heads_chain): the head under
# root Queue.head holds 9 links of 24 B, each holding an Item of 100, so the
# head shows the 10 Items, alike, as "10 x Item", 1,000 B (not 7 of them one
# row each, --top 7, then "3 x Item"), and "9 x Link (entries)", 216 B. One
# link fewer (a chain of 7) keeps the tree as it was: the first link nested
# below the head.
chain_graph() { # chain_graph LINKS: a head and LINKS links, an Item each
    awk -v links="$1" 'BEGIN { OFS = "\t"; print "root", 1, "static field", "Queue.head"
        for (i = 1; i <= links + 1; i++) { print "node", i, 24, "Link"; print "node", 100 + i, 100, "Item"
            print "edge", i, 100 + i, "strong", "item"; if (i > 1) print "edge", i - 1, i, "strong", "next" } }'
}
chain_graph 9 >"$tmp/chain9.txt"
# A collection's members alike in size are their class's row, save the
# ones that stand out of it (twice its mean): the README's example heap
# (fixtures/example/make_example.sh) holds 300 Listeners of 32 + 1,040 B
# in its list, each past --min on so small a heap; they read as ten rows of
# listeners and buffers, then "290 x com.acme.Listener". Below, 20 Items of
# 100 B and one of 5,000 B (mean 333) in one list: the big one alone.
rows_ dom_members_alike "2 300 x com.acme.Listener 321600|2 50 x java.lang.ref.WeakReference 1600|" '$1 == 2 { printf "%s %s %s|", $1, $7, $5 } END { print "" }' \
    dominators fixtures/example/app.lfs --depth 2 --format tsv
awk 'BEGIN { OFS = "\t"; print "node", 1, 24, "java.util.ArrayList"; print "root", 1, "static field", "Box.items"
    print "node", 2, 100, "java.lang.Object[]"; print "edge", 1, 2, "strong", "elementData"
    for (i = 0; i <= 20; i++) { print "node", 10 + i, i == 7 ? 5000 : 100, "Item"; print "edge", 2, 10 + i, "strong", i } }' \
    >"$tmp/alike.txt"
rows_ dom_members_stand_out "0x11 5000 [7]|20 x Item 2000 |" '$1 == 2 { printf "%s %s %s|", ($2 != "" ? $2 : $7), $5, $8 } END { print "" }' \
    dominators "$tmp/alike.txt" --format tsv
chain_graph 7 >"$tmp/chain7.txt"
rows_ dom_chain_folded "1 10 x Item 1000|1 9 x Link (entries) 216|" \
    '$1 == 1 && $7 !~ /^Item$/ || $1 == 1 && n++ < 1 { printf "%s %s %s|", $1, $7, $5 } END { print "" }' \
    dominators "$tmp/chain9.txt" --top 7 --format tsv
rows_ dom_chain_short "1 Link next|1 Item item|" '$1 == 1 { printf "%s %s %s|", $1, $7, $8 } END { print "" }' \
    dominators "$tmp/chain7.txt" --format tsv
# Simple class names (fixtures/graphs/simple_names.txt, issue 33 item 2): the
# part after the last '.' or '$' names a class, as does Outer$Inner; the
# largest StageListener is 2 (48). Node ends two classes: an error listing
# both (exit 2); a glob takes all; a typo gets the closest name; --exclude
# takes simple names too (without StageListener.next, 3 is reached the long
# way, through 4 and 5).
case_ path_simple_name_nested 0 path $G/simple_names.txt --class StageListener --top 1
case_ path_simple_name_outer 0 path $G/simple_names.txt --class 'Pipeline$StageListener' --top 1
case_ path_simple_name_ambiguous 2 path $G/simple_names.txt --class Node
case_ path_simple_name_glob 0 path $G/simple_names.txt --class '*Node' --top 0
case_ path_simple_name_suggest 2 path $G/simple_names.txt --class StageListner
# a name given with a package the dump does not have: its last name is
# compared with the classes' (it got no suggestion at all)
case_ path_package_not_in_dump_suggest 2 path $G/simple_names.txt --class com.example.StageListener
case_ path_exclude_simple_name 0 path $G/simple_names.txt 0x3 --exclude StageListener.next
case_ path_exclude_ambiguous 2 path $G/simple_names.txt 0x3 --exclude Node.listener
case_ path_nested_json 0 path $G/nested_class.txt 6 --retained --format json
case_ path_nested_table 0 path $G/nested_class.txt 6 --retained --format table
# A table fits $COLUMNS (fixtures/graphs/wide_table.txt, issues 33 and 47):
# unlimited it is 195 wide (class 60 with the summary row, root 58). At 160
# the optional columns go (shallow, hidden, group: a note names them),
# retained_pct's header takes two lines ("retained" over "pct": a table too
# wide splits the headers wider than their numbers), which leaves room for
# idom, and the rest fits whole. At 80 retained_pct goes too (the class
# would be narrower than 28), and class and root share what is left: the
# class's packages to their initials (c.e.r.SessionRegistry), else its end
# (...SessionRegistry$Entry[]); the root its kind and its end. A last text
# with only empty cells right of it runs to the table's edge: the summary
# row's "3 com.example.registry.SessionRegistry$Entry" whole over the blank
# field column (it read "3 …egistry$Entry"). Every line fits. TSV (and
# JSON) are never cut. --no-group keeps the array's summary row
# (grouped by class it would read "4 x ...$Entry (entries)").
export COLUMNS=160
case_ table_wide_160 0 dominators $G/wide_table.txt --top 1 --depth 3 --min 0 --no-group --format table
export COLUMNS=80
case_ table_wide_80 0 dominators $G/wide_table.txt --top 1 --depth 3 --min 0 --no-group --format table
export COLUMNS=40
case_ table_wide_tsv 0 dominators $G/wide_table.txt --top 1 --depth 3 --min 0 --no-group --format tsv
unset COLUMNS
case_ roots_nested_json 0 roots $G/nested_class.txt --format json

# diff: leak_before -> leak_after adds 3 Listeners (32) with their byte[] (80)
# under Registry.listeners, drops 2 Cache entries (24), churns 4 Temps (no change)
case_ diff_leak_tsv 0 diff $G/leak_before.txt $G/leak_after.txt
case_ diff_leak_json 0 diff $G/leak_before.txt $G/leak_after.txt --top 2 --format json
case_ diff_leak_exit_code 1 diff $G/leak_before.txt $G/leak_after.txt --exit-code --min-count 3
case_ diff_same 0 diff $G/leak_before.txt $G/leak_before.txt --exit-code
# a process that does not leak, twice (fixtures/graphs/steady_*.txt): the
# defaults count its runtime's +3 DateTimeOffset, and the note says so and
# what to give instead; a threshold from the workload passes
case_ diff_steady_default 1 diff $G/steady_before.txt $G/steady_after.txt --exit-code
case_ diff_steady_min_count 0 diff $G/steady_before.txt $G/steady_after.txt --exit-code --min-count 10
# a class that is only garbage in one snapshot has no row (garbage_before.txt)
case_ diff_garbage_tsv 0 diff $G/garbage_before.txt $G/garbage_after.txt --format tsv
"$LF" diff $G/leak_before.txt $G/leak_after.txt --exit-code --min-count 4 >/dev/null 2>&1
[ $? = 0 ] && ok || bad "diff --min-count 4 should not flag"
"$LF" diff $G/leak_before.txt $G/leak_after.txt --exit-code --min-count 3 --min-bytes 200 >/dev/null 2>&1
[ $? = 1 ] && ok || bad "diff --min-bytes 200 should flag byte[]"
"$LF" diff $G/leak_before.txt $G/leak_after.txt --exit-code --min-bytes 300 >/dev/null 2>&1
[ $? = 0 ] && ok || bad "diff --min-bytes 300 should not flag"
case_ diff_formats 2 diff $J/planted_leak.hprof $G/leak_after.txt
"$LF" diff $G/diamond.txt $G/leak_after.txt >/dev/null 2>"$tmp/err"
cmp -s "$tmp/err" tests/cli/expected/diff_unrelated.err && ok || bad "diff unrelated warning"
case_ diff_usage 2 diff $G/leak_before.txt
help_ help_diff diff -h

# trend over series_1..3: 3 Listeners (and their byte[]) more per step, Entry
# fluctuates (3, 1, 4): slope 0.50, r2 = 1.0^2 / (2 * 4.667) = 0.107, not monotonic
S="$G/series_1.txt $G/series_2.txt $G/series_3.txt"
case_ trend_series 0 trend $S --min-growth 5
case_ trend_series_default 0 trend $S
case_ trend_series_workload 0 trend $S --workload 100,200,300 --min-growth 5
case_ trend_series_json 0 trend $S --min-growth 5 --top 1 --format json
case_ trend_series 1 trend $S --min-growth 5 --exit-code
case_ trend_series_default 0 trend $S --exit-code
case_ trend_two 2 trend $G/series_1.txt $G/series_2.txt
# three snapshots to diff: trend and suspects named, which read a series
case_ diff_three 2 diff $G/series_1.txt $G/series_2.txt $G/series_3.txt
case_ trend_workload_count 2 trend $S --workload 1,2
case_ trend_workload_flat 2 trend $S --workload 5,5,5
help_ help_trend trend -h
help_ help_report report -h
# trend's verdicts and order (fixtures/graphs/make_uneven_series.sh): Plugin
# grew 8-fold in bursts (r2 0.779) and is listed first, "grows, uneven", above
# the flagged steady Session; Split grows in a line under three holders at
# once, a third each: flagged (not warm-up, which is Code's, 1 or 2 objects
# under each of 20 holders), but not with --min-growth 40, which no one
# holder's 18 reaches; --exit-code counts only flagged rows and says so
U="$G/uneven_series-1.txt $G/uneven_series-2.txt $G/uneven_series-3.txt $G/uneven_series-4.txt"
case_ trend_uneven 0 trend $U
case_ trend_uneven_exit 1 trend $U --exit-code
case_ trend_uneven_gate 0 trend $U --exit-code --min-growth 40
case_ trend_uneven_r2 1 trend $U --exit-code --min-r2 0.7 --top 1 --format json
# diff --owners: the growth is in Registry's list, as Listeners: 2 -> 5 with
# their byte[] (4 -> 10 objects, 3 x (32 + 80) = 336 bytes more; Registry's
# own +360 includes the array's growth, and the Listeners carry over 90% of
# it, so they are the row); the byte[] under them grew 2 -> 5 (+240 bytes).
case_ diff_owners 0 diff $G/leak_before.txt $G/leak_after.txt --owners
case_ diff_owners 1 diff $G/leak_before.txt $G/leak_after.txt --owners --exit-code --min-count 5
# trend --owners, first to last: Registry's Listeners with their byte[] 4 -> 16
# objects (3 a step: 6.00 per unit), +672 bytes; Cache's Entries 3 -> 4.
case_ trend_owners 0 trend $S --owners
# stable ids ("#!stable-ids"): 3 new Listeners and byte[] (ids 12-14, 22-24),
# the 4 Temps all new (34-37) and all deleted (30-33), 2 Entries deleted (41, 42)
# the Temps, replaced one for one, are left out with a note; --all lists
# them (4 new, 4 deleted, 64 bytes each way) and the unchanged Thread
case_ diff_stable 0 diff $G/stable_before.txt $G/stable_after.txt
case_ diff_stable_all 0 diff $G/stable_before.txt $G/stable_after.txt --all
# diamond's 4 live classes and series_3's 9 share none
"$LF" trend $G/diamond.txt $G/series_2.txt $G/series_3.txt >/dev/null 2>"$tmp/err"
cmp -s "$tmp/err" tests/cli/expected/trend_unrelated.err && ok || { bad "trend unrelated warning"; cat "$tmp/err"; }
case_ diff_stable_table 0 diff $G/stable_before.txt $G/stable_after.txt --top 2 --format table
# stable ids survive conversion: the leakfind files give the same answer
case_ convert_stable1 0 convert $G/stable_before.txt -o "$tmp/stable_before.lfs"
case_ convert_stable2 0 convert $G/stable_after.txt -o "$tmp/stable_after.lfs"
case_ diff_stable 0 diff "$tmp/stable_before.lfs" "$tmp/stable_after.lfs"

# record: options and the program come apart at '--'; errors before anything runs
help_ help_record record -h
case_ record_no_program 2 record --every-major 2
case_ record_no_dashes 2 record ./prog
case_ record_bad_every 2 record --every-major 0 -- /bin/true
case_ record_bad_signal 2 record --signal HUP1 -- /bin/true
case_ record_missing 2 record -- /nonexistent/prog
case_ record_not_ocaml 3 record -- /bin/true
# a program cut after its ELF header: its section table lies past the end
head -c 64 /bin/true > "$tmp/cut-elf" && chmod +x "$tmp/cut-elf"
case_ record_cut_elf 3 record -- "$tmp/cut-elf"

# progress: on a terminal (script gives one) -q quiets messages, not progress;
# --no-progress turns it off; the owner matching of diff --owners shows.
if command -v script >/dev/null 2>&1; then
    script -qec "$LF diff -q --owners $G/stable_before.txt $G/stable_after.txt" /dev/null >"$tmp/tty" 2>&1
    if grep -q "matching owners" "$tmp/tty" && grep -q "computing dominators" "$tmp/tty"; then
        ok
    else
        bad "progress_quiet_terminal: no progress with -q on a terminal"
    fi
    script -qec "$LF diff --no-progress --owners $G/stable_before.txt $G/stable_after.txt" /dev/null >"$tmp/tty" 2>&1
    if grep -q "leakfind: .*\.\.\." "$tmp/tty"; then
        bad "progress_off: progress shown with --no-progress"
    else
        ok
    fi
fi
# The OCaml finaliser leak (fixtures/ocaml/README.md): 50 values of 1,016 B,
# each kept only by its own finaliser's closure (32 B): the finaliser kind
# keeps 100 objects, 52,400 B, alive by itself, shared by no other kind.
rows_ roots_kind_reach_finaliser "finaliser 100 52400" '$8 == "finaliser" {print $8, $5, $6}' \
    roots fixtures/ocaml/snapshots/finaliser.lfs --by-kind --format tsv
