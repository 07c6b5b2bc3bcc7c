# dominators' default view (issue 21.1): summary rows, groups of top owners,
# several roots named (fixtures/graphs/many_owners.txt, values worked out in
# its header), and V8's synthetic levels collapsed
# (fixtures/v8/synthetic_roots.heapsnapshot, fixtures/v8/README.md).
# A group row summarises (issue 33.1): its members are listed only with
# --members, so the single owners after it stay on the first screen.
case_ domview_group_summary 0 dominators $G/many_owners.txt --min 5%
case_ domview_group_members 0 dominators $G/many_owners.txt --min 5% --members
case_ domview_no_group 0 dominators $G/many_owners.txt --min 5% --no-group
case_ domview_default 0 dominators $G/many_owners.txt
case_ domview_group_json 0 dominators $G/many_owners.txt --min 5% --depth 1 --format json
# the Map's table is a backing store: it costs no depth, so the default depth
# (3) reaches Map -> table -> {sourceCode} -> SourceCode, as --depth 4 does
case_ domview_v8_synthetic 0 dominators fixtures/v8/synthetic_roots.heapsnapshot --format tsv
case_ domview_v8_synthetic_depth4 0 dominators fixtures/v8/synthetic_roots.heapsnapshot --depth 4 --format tsv
# a top owner no root names: the roots whose objects hold it
# (fixtures/graphs/shared_owner.txt works it out)
case_ domview_shared_owner 0 dominators $G/shared_owner.txt
# --root shows the tree as it is: the synthetic nodes are rows there.
case_ domview_v8_raw 0 dominators fixtures/v8/synthetic_roots.heapsnapshot --root @1 --depth 0 --format tsv
# The edges of the grouping rule (fixtures/graphs/pair_owners.txt): two
# owners not shown alone make a group; together under --min they do not.
case_ domview_pair_group_summary 0 dominators $G/pair_owners.txt --top 1
case_ domview_pair_group_members 0 dominators $G/pair_owners.txt --top 1 --members
case_ domview_pair_under_min 0 dominators $G/pair_owners.txt --min 201
# Owners no root names, held from 150 levels down a chain and by more
# owners than are kept (fixtures/graphs/deep_holders.txt works it out).
case_ domview_deep_holders 0 dominators $G/deep_holders.txt --depth 1 --top 4 --min 0
# The root column counts every root, not those the listing names (issue 48:
# "4 roots: finaliser 2000, 1999, ..." where 2,000 finalisers hold the
# object; fixtures/graphs/make_finaliser_shared.sh works it out).
rows_ domview_finaliser_shared_count "0x1 2000 roots: finaliser 2000, finaliser 1999, finaliser 1998, ..." \
    '$2 == "0x1" { print $2, $11 }' dominators $G/finaliser_shared.txt --format tsv
# Top owners held only by top owners no root names either: their holders'
# holders are named (issue 48: a coqtop owner's column was empty;
# fixtures/graphs/unnamed_holders.txt works it out).
rows_ domview_unnamed_holders "0x10 5 roots: global Global.[79], global Other.[1], stack thread 0 frame 1: Main.run, ...
0x21 3 roots: stack thread 0 frame 1: Main.run, finaliser 1, finaliser 2
0x22 2 roots: finaliser 1, finaliser 2" \
    '$2 == "0x10" || $2 == "0x21" || $2 == "0x22" { print $2, $11 }' \
    dominators $G/unnamed_holders.txt --format tsv --top 0 --min 0
# cut to a table's width, a list keeps its count and its first roots
export COLUMNS=80
rows_ domview_root_list_80 "1 1" \
    '/Resource/ { sub(/.*Resource +/, ""); print index($0, "2000 roots: finaliser 2000, ") == 1, substr($0, length($0) - 2) == "…" }' \
    dominators $G/finaliser_shared.txt --top 3 --format table
unset COLUMNS
# Top owners under two synthetic nodes come out in one order: larger
# retained first, ties by node (fixtures/v8/synthetic_ties.heapsnapshot).
case_ domview_v8_ties 0 dominators fixtures/v8/synthetic_ties.heapsnapshot --format tsv
# A child holding nearly all of its parent costs no depth, except along a
# chain of one class and past 8 such levels (fixtures/graphs/dominant_child.txt).
case_ domview_dominant_child 0 dominators $G/dominant_child.txt --format tsv
# The EventBus service (fixtures/java/src/EventBusService.java has the sizes):
# group rows summarise, so the bus (6.6% of the heap) is among the first
# eleven rows, and its dominant list and array cost no depth: the default
# view reaches "900 x Listener". Before, it was row 74 and showed no listener.
rows_ event_bus_first_screen "0 16 32456 EventBus static field EventBusService.BUS
1 24 32440 java.util.ArrayList listeners
2 3616 32416 java.lang.Object[] elementData
3 28800 28800 900 x Listener " \
    '$1 == 0 { on = ($7 == "EventBus" && NR <= 12) } on { print $1, $4, $5, $7, $8 $11 }' \
    dominators $J/event_bus.hprof.gz --format tsv
