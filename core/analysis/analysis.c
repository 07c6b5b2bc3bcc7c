/* analysis.c - runs the graph algorithms over a snapshot. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../../graph/dominators.h"
#include "../../graph/domtree.h"

#define ANALYSIS_PASSES (LF_DOM_PASSES + 1)

/* graph/'s passes, told as this stage's: the dominators' passes first, then
 * the tree's one. */
typedef struct pass_relay {
    const lf_progress *to;
    unsigned first; /* this stage's number of graph/'s pass 1, less one */
} pass_relay;

static void relay_pass(void *ctx, unsigned pass, unsigned passes, uint64_t done, uint64_t total)
{
    static const char *const stage[ANALYSIS_PASSES] = {"pass 1 of 5", "pass 2 of 5", "pass 3 of 5",
                                                       "pass 4 of 5", "pass 5 of 5"};
    const pass_relay *r = ctx;
    unsigned k = r->first + pass - 1;
    (void)passes;
    r->to->report(r->to->ctx, k < ANALYSIS_PASSES ? stage[k] : "", done, total);
}

int lf_analyze(lf_snapshot *s, unsigned dom_flags, unsigned threads, lf_error *err)
{
    return lf_analyze_reporting(s, dom_flags, threads, NULL, err);
}

int lf_analyze_reporting(lf_snapshot *s, unsigned dom_flags, unsigned threads,
                         const lf_progress *progress, lf_error *err)
{
    if ((s->flags & LF_SNAP_UNREACHED_ALONE) && !(dom_flags & LF_DOM_KEEP_UNREACHABLE))
        dom_flags |= LF_DOM_UNREACHED_ALONE;
    if (!s->class_kind_memo && s->class_count && s->owned_count < sizeof s->owned / sizeof s->owned[0] &&
        (s->class_kind_memo = lf_snapshot_own(s, lf_big_calloc(s->class_count, sizeof *s->class_kind_memo))))
        s->class_kind_memo_count = s->class_count; /* none (no memory): each question answered afresh */
    if (s->idom && s->analysis_flags == dom_flags)
        return 0;
    const uint32_t n = s->object_count;
    uint32_t *root_node = malloc((s->root_count ? s->root_count : 1) * sizeof *root_node);
    uint32_t *idom = lf_big_result_malloc((n ? n : 1) * sizeof *idom);
    uint32_t *retained = lf_big_result_malloc((n ? n : 1) * sizeof *retained);
    lf_size_table retained_big = {0};
    if (!root_node || !idom || !retained)
        goto nomem;
    for (uint32_t r = 0; r < s->root_count; r++)
        root_node[r] = s->root[r].node;
    lf_graph g = lf_snapshot_graph(s);
    g.root_count = s->root_count;
    g.root_node = root_node;
    lf_dominator_result result;
    unsigned how = threads > 1 ? 0 : LF_DOM_ONE_THREAD; /* not stored: not part of the result */
    pass_relay dom_relay = {progress, 0}, tree_relay = {progress, LF_DOM_PASSES};
    const int telling = progress && progress->report;
    lf_graph_progress dom_progress = {relay_pass, &dom_relay}, tree_progress = {relay_pass, &tree_relay};
    if (lf_dominators_compute_reporting(&g, &s->object_shallow, dom_flags | how, idom, retained,
                                        &retained_big, &result, telling ? &dom_progress : NULL))
        goto nomem;
    free(root_node);
    root_node = NULL;
    lf_domtree tree;
    lf_sizes retained_sizes = lf_sizes_of(retained, &retained_big);
    if (lf_domtree_build_reporting(n, idom, &retained_sizes, threads, &tree,
                                   telling ? &tree_progress : NULL))
        goto nomem;
    if (s->owned_count + 5 > sizeof s->owned / sizeof s->owned[0]) {
        lf_domtree_free(&tree);
        goto nomem;
    }
    s->idom = lf_snapshot_own(s, idom);
    s->retained = retained_sizes;
    lf_snapshot_own(s, retained);
    lf_snapshot_own(s, retained_big.entry); /* NULL (no big size) takes no slot */
    s->domtree_offset = lf_snapshot_own(s, tree.child_offset);
    s->domtree_child = lf_snapshot_own(s, tree.child);
    s->reachable_count = result.reachable_count;
    s->reachable_shallow = result.reachable_shallow;
    s->analysis_flags = dom_flags;
    return 0;
nomem:
    free(root_node);
    lf_big_free(idom);
    lf_big_free(retained);
    lf_size_table_free(&retained_big);
    return lf_fail_nomem(err, "computing dominators");
}

int lf_class_totals_compute(const lf_snapshot *s, lf_class_totals *t, lf_error *err)
{
    return lf_group_totals_compute(s, s->object_class, s->class_count, t, err);
}

int lf_group_counts_compute(const lf_snapshot *s, const uint32_t *group_of_node, uint32_t groups,
                            lf_class_totals *t, lf_error *err)
{
    memset(t, 0, sizeof *t);
    size_t k = groups ? groups : 1;
    t->count = calloc(k, sizeof *t->count);
    t->shallow = calloc(k, sizeof *t->shallow);
    t->retained = calloc(k, sizeof *t->retained);
    t->unreachable_count = calloc(k, sizeof *t->unreachable_count);
    t->unreachable_shallow = calloc(k, sizeof *t->unreachable_shallow);
    if (!t->count || !t->shallow || !t->retained || !t->unreachable_count ||
        !t->unreachable_shallow) {
        lf_class_totals_free(t);
        return lf_fail_nomem(err, "class totals");
    }
    for (uint32_t v = 0; v < s->object_count; v++) {
        if (!lf_snapshot_counted(s, v))
            continue;
        uint32_t c = group_of_node[v];
        t->count[c]++;
        t->shallow[c] += lf_snapshot_shallow(s, v);
        if (s->idom && s->idom[v] == LF_NODE_NONE) {
            t->unreachable_count[c]++;
            t->unreachable_shallow[c] += lf_snapshot_shallow(s, v);
        }
    }
    return 0;
}

int lf_group_totals_compute(const lf_snapshot *s, const uint32_t *group_of_node, uint32_t groups,
                            lf_class_totals *t, lf_error *err)
{
    if (lf_group_counts_compute(s, group_of_node, groups, t, err))
        return -1;
    if (s->idom && lf_class_retained(s->domtree_offset, s->domtree_child, s->object_count,
                                     group_of_node, groups, &s->retained,
                                     (s->flags & LF_SNAP_EMPTY_UNCOUNTED) ? &s->object_shallow : NULL,
                                     t->retained)) {
        lf_class_totals_free(t);
        return lf_fail_nomem(err, "class totals");
    }
    return 0;
}

void lf_class_totals_free(lf_class_totals *t)
{
    free(t->count);
    free(t->shallow);
    free(t->retained);
    free(t->unreachable_count);
    free(t->unreachable_shallow);
    memset(t, 0, sizeof *t);
}

int lf_node_by_retained(const void *pa, const void *pb, void *snapshot)
{
    const lf_snapshot *s = snapshot;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    uint64_t ra = lf_snapshot_retained(s, a), rb = lf_snapshot_retained(s, b);
    if (ra != rb)
        return ra > rb ? -1 : 1;
    return a < b ? -1 : a > b;
}
