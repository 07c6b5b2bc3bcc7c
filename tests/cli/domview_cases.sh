# dominators' default view (issue 21.1): summary rows, groups of top owners,
# several roots named (fixtures/graphs/many_owners.txt, values worked out in
# its header), and V8's synthetic levels collapsed
# (fixtures/v8/synthetic_roots.heapsnapshot, fixtures/v8/README.md).
case_ domview_group 0 dominators $G/many_owners.txt --min 5%
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
case_ domview_pair_group 0 dominators $G/pair_owners.txt --top 1
case_ domview_pair_under_min 0 dominators $G/pair_owners.txt --min 201
# Owners no root names, held from 150 levels down a chain and by more
# owners than are kept (fixtures/graphs/deep_holders.txt works it out).
case_ domview_deep_holders 0 dominators $G/deep_holders.txt --depth 1 --top 4 --min 0
# Top owners under two synthetic nodes come out in one order: larger
# retained first, ties by node (fixtures/v8/synthetic_ties.heapsnapshot).
case_ domview_v8_ties 0 dominators fixtures/v8/synthetic_ties.heapsnapshot --format tsv
