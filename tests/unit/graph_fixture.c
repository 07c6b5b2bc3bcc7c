/* graph_fixture.c - test graphs and reference dominator algorithms. */
#include "graph_fixture.h"
#include "../../core/model/edge_offsets.h"

#include <stdlib.h>
#include <string.h>

void test_graph_build(test_graph *t, uint32_t n, const uint32_t *edges, const uint8_t *weak,
                      uint64_t edge_count, const uint32_t *roots, uint32_t root_count)
{
    memset(t, 0, sizeof *t);
    t->edge_offset = calloc((size_t)n + 1, sizeof *t->edge_offset);
    t->edge_target = malloc((edge_count + 1) * sizeof *t->edge_target);
    t->root_node = malloc(((size_t)root_count + 1) * sizeof *t->root_node);
    t->shallow = malloc(((size_t)n + 1) * sizeof *t->shallow);
    for (uint64_t e = 0; e < edge_count; e++)
        t->edge_offset[edges[2 * e]]++;
    lf_edge_counts_to_offsets((lf_edge_offsets_mut){NULL, t->edge_offset}, n);
    uint64_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, t->edge_offset, ((size_t)n + 1) * sizeof *fill);
    for (uint64_t e = 0; e < edge_count; e++)
        t->edge_target[fill[edges[2 * e]]++] = edges[2 * e + 1] | (weak && weak[e] ? LF_EDGE_WEAK : 0);
    free(fill);
    memcpy(t->root_node, roots, (size_t)root_count * sizeof *roots);
    for (uint32_t v = 0; v < n; v++)
        t->shallow[v] = 1;
    t->g.node_count = n;
    t->g.edge_count = edge_count;
    if (lf_edge_offsets_fit_narrow(edge_count)) {
        t->edge_offset32 = malloc(((size_t)n + 1) * sizeof *t->edge_offset32);
        for (uint32_t v = 0; v <= n; v++)
            t->edge_offset32[v] = (uint32_t)t->edge_offset[v];
        t->g.edge_offset.narrow = t->edge_offset32;
    } else {
        t->g.edge_offset.wide = t->edge_offset;
    }
    t->g.edge_target = t->edge_target;
    t->g.root_count = root_count;
    t->g.root_node = t->root_node;
}

void test_graph_free(test_graph *t)
{
    free(t->edge_offset);
    free(t->edge_offset32);
    free(t->edge_target);
    free(t->root_node);
    free(t->shallow);
}

/* Reverse postorder over strong edges from the super-root (index n). */
static uint32_t reverse_postorder(const lf_graph *g, uint32_t *rpo, uint32_t *rpo_index)
{
    uint32_t n = g->node_count;
    uint8_t *seen = calloc((size_t)n + 1, 1);
    uint32_t *stack = malloc(((size_t)n + 2) * sizeof *stack);
    uint64_t *cursor = malloc(((size_t)n + 2) * sizeof *cursor);
    uint32_t *post = malloc(((size_t)n + 1) * sizeof *post);
    uint32_t count = 0, top = 0;
    stack[top] = n;
    cursor[top++] = 0;
    seen[n] = 1;
    while (top) {
        uint32_t v = stack[top - 1];
        uint64_t c = cursor[top - 1];
        uint64_t begin = v == n ? 0 : lf_graph_edges_begin(g, v);
        uint64_t end = v == n ? g->root_count : lf_graph_edges_end(g, v);
        if (begin + c < end) {
            cursor[top - 1]++;
            uint32_t t = v == n ? g->root_node[c] : g->edge_target[begin + c];
            if (v != n && lf_edge_is_weak(t))
                continue;
            t = lf_edge_node(t);
            if (!seen[t]) {
                seen[t] = 1;
                stack[top] = t;
                cursor[top++] = 0;
            }
        } else {
            post[count++] = v;
            top--;
        }
    }
    for (uint32_t v = 0; v <= n; v++)
        rpo_index[v] = UINT32_MAX;
    for (uint32_t i = 0; i < count; i++) {
        rpo[i] = post[count - 1 - i];
        rpo_index[rpo[i]] = i;
    }
    free(seen);
    free(stack);
    free(cursor);
    free(post);
    return count;
}

void reference_idom_chk(const lf_graph *g, uint32_t *idom_out)
{
    uint32_t n = g->node_count;
    uint32_t *rpo = malloc(((size_t)n + 1) * sizeof *rpo);
    uint32_t *rpo_index = malloc(((size_t)n + 1) * sizeof *rpo_index);
    uint32_t count = reverse_postorder(g, rpo, rpo_index);
    /* predecessor lists over strong edges among reachable nodes, super-root = n */
    uint32_t *pred_count = calloc((size_t)n + 1, sizeof *pred_count);
    for (uint32_t r = 0; r < g->root_count; r++)
        pred_count[g->root_node[r]]++;
    for (uint32_t v = 0; v < n; v++)
        for (uint64_t e = lf_graph_edges_begin(g, v); e < lf_graph_edges_end(g, v); e++)
            if (!lf_edge_is_weak(g->edge_target[e]))
                pred_count[g->edge_target[e]]++;
    uint32_t **pred = calloc((size_t)n + 1, sizeof *pred);
    uint32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    for (uint32_t v = 0; v <= n; v++)
        pred[v] = malloc(((size_t)pred_count[v] + 1) * sizeof **pred);
    for (uint32_t r = 0; r < g->root_count; r++)
        pred[g->root_node[r]][fill[g->root_node[r]]++] = n;
    for (uint32_t v = 0; v < n; v++)
        for (uint64_t e = lf_graph_edges_begin(g, v); e < lf_graph_edges_end(g, v); e++)
            if (!lf_edge_is_weak(g->edge_target[e])) {
                uint32_t t = g->edge_target[e];
                pred[t][fill[t]++] = v;
            }
    /* doms[] in rpo index space */
    uint32_t *doms = malloc(((size_t)n + 1) * sizeof *doms);
    for (uint32_t i = 0; i < count; i++)
        doms[i] = UINT32_MAX;
    doms[0] = 0;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t i = 1; i < count; i++) {
            uint32_t v = rpo[i], new_idom = UINT32_MAX;
            for (uint32_t k = 0; k < pred_count[v]; k++) {
                uint32_t p = rpo_index[pred[v][k]];
                if (p == UINT32_MAX || doms[p] == UINT32_MAX)
                    continue;
                if (new_idom == UINT32_MAX) {
                    new_idom = p;
                    continue;
                }
                uint32_t a = p, b = new_idom;
                while (a != b) {
                    while (a > b)
                        a = doms[a];
                    while (b > a)
                        b = doms[b];
                }
                new_idom = a;
            }
            if (doms[i] != new_idom) {
                doms[i] = new_idom;
                changed = 1;
            }
        }
    }
    for (uint32_t v = 0; v < n; v++) {
        uint32_t i = rpo_index[v];
        if (i == UINT32_MAX)
            idom_out[v] = LF_NODE_NONE;
        else
            idom_out[v] = doms[i] == 0 ? LF_NODE_SUPER : rpo[doms[i]];
    }
    for (uint32_t v = 0; v <= n; v++)
        free(pred[v]);
    free(pred);
    free(fill);
    free(pred_count);
    free(doms);
    free(rpo);
    free(rpo_index);
}

/* Nodes reachable from the super-root over strong edges, never entering `removed`. */
static uint64_t reach_mask(const lf_graph *g, uint32_t removed)
{
    uint64_t seen = 0;
    uint32_t stack[128];
    uint32_t top = 0;
    for (uint32_t r = 0; r < g->root_count; r++) {
        uint32_t v = g->root_node[r];
        if (v != removed && !(seen >> v & 1)) {
            seen |= 1ull << v;
            stack[top++] = v;
        }
    }
    while (top) {
        uint32_t v = stack[--top];
        for (uint64_t e = lf_graph_edges_begin(g, v); e < lf_graph_edges_end(g, v); e++) {
            uint32_t t = g->edge_target[e];
            if (lf_edge_is_weak(t) || t == removed || (seen >> t & 1))
                continue;
            seen |= 1ull << t;
            stack[top++] = t;
        }
    }
    return seen;
}

void reference_idom_definition(const lf_graph *g, uint32_t *idom)
{
    uint32_t n = g->node_count;
    uint64_t reachable = reach_mask(g, UINT32_MAX);
    uint64_t dominated_by[64]; /* d -> set of v that d strictly dominates */
    for (uint32_t d = 0; d < n; d++)
        dominated_by[d] = (reachable >> d & 1) ? reachable & ~reach_mask(g, d) & ~(1ull << d) : 0;
    for (uint32_t v = 0; v < n; v++) {
        if (!(reachable >> v & 1)) {
            idom[v] = LF_NODE_NONE;
            continue;
        }
        /* the strict dominator of v dominated by all others: the one with most dominators */
        uint32_t best = LF_NODE_SUPER;
        int best_depth = -1;
        for (uint32_t d = 0; d < n; d++) {
            if (!(dominated_by[d] >> v & 1))
                continue;
            int depth = 0;
            for (uint32_t x = 0; x < n; x++)
                depth += (int)(dominated_by[x] >> d & 1);
            if (depth > best_depth) {
                best_depth = depth;
                best = d;
            }
        }
        idom[v] = best;
    }
}

void reference_retained(uint32_t n, const uint32_t *idom, const uint64_t *shallow,
                        uint64_t *retained)
{
    for (uint32_t v = 0; v < n; v++)
        retained[v] = 0;
    for (uint32_t v = 0; v < n; v++) {
        if (idom[v] == LF_NODE_NONE)
            continue;
        for (uint32_t x = v; x != LF_NODE_SUPER; x = idom[x])
            retained[x] += shallow[v];
    }
}

const lf_sizes *test_sizes_make(test_sizes *t, const uint64_t *wide, uint32_t n)
{
    memset(t, 0, sizeof *t);
    t->narrow = malloc(((size_t)n + 1) * sizeof *t->narrow);
    for (uint32_t v = 0; v < n; v++)
        if (lf_size_store(t->narrow, &t->big, v, wide[v]))
            abort();
    t->sizes = lf_sizes_of(t->narrow, &t->big);
    return &t->sizes;
}

void test_sizes_free(test_sizes *t)
{
    free(t->narrow);
    lf_size_table_free(&t->big);
}

int test_sizes_equal(const lf_sizes *a, const lf_sizes *b, uint32_t n)
{
    if (memcmp(a->narrow, b->narrow, (size_t)n * sizeof *a->narrow) || a->big_count != b->big_count)
        return 0;
    return a->big_count == 0 || memcmp(a->big, b->big, (size_t)a->big_count * sizeof *a->big) == 0;
}

int test_dominators(const lf_graph *g, const uint64_t *shallow, unsigned flags, uint32_t *idom,
                    uint64_t *retained, lf_dominator_result *result, const lf_graph_progress *progress)
{
    const uint32_t n = g->node_count;
    test_sizes in;
    uint32_t *narrow = malloc(((size_t)n + 1) * sizeof *narrow);
    lf_size_table big = {0};
    int rc = lf_dominators_compute_reporting(g, test_sizes_make(&in, shallow, n), flags, idom, narrow,
                                             &big, result, progress);
    lf_sizes out = lf_sizes_of(narrow, &big);
    for (uint32_t v = 0; rc == 0 && v < n; v++)
        retained[v] = lf_sizes_get(&out, v);
    test_sizes_free(&in);
    free(narrow);
    lf_size_table_free(&big);
    return rc;
}

int test_domtree_build(uint32_t n, const uint32_t *idom, const uint64_t *retained, unsigned threads,
                       lf_domtree *tree, const lf_graph_progress *progress)
{
    test_sizes r;
    const lf_sizes *sizes = test_sizes_make(&r, retained, n);
    int rc = lf_domtree_build_reporting(n, idom, sizes, threads, tree, progress);
    test_sizes_free(&r);
    return rc;
}

int test_class_retained(const uint32_t *child_offset, const uint32_t *child, uint32_t n,
                        const uint32_t *object_class, uint32_t class_count, const uint64_t *retained,
                        const uint64_t *skip_empty_of, uint64_t *class_retained)
{
    test_sizes r, skip;
    const lf_sizes *skip_sizes = skip_empty_of ? test_sizes_make(&skip, skip_empty_of, n) : NULL;
    int rc = lf_class_retained(child_offset, child, n, object_class, class_count,
                               test_sizes_make(&r, retained, n), skip_sizes, class_retained);
    test_sizes_free(&r);
    if (skip_empty_of)
        test_sizes_free(&skip);
    return rc;
}
