/* dominators.c - Lengauer-Tarjan semidominators, Semi-NCA immediate dominators.
 *
 * Variant: the "simple" Lengauer-Tarjan (path compression, no balanced linking)
 * computes semidominators; immediate dominators then come from the Semi-NCA rule
 * of Georgiadis and Tarjan (idom(w) is the nearest dominator-tree ancestor of
 * parent(w) whose preorder number is at most sdom(w)), which replaces LT's
 * buckets. Why: on heap graphs the simple variant is faster in practice than the
 * balanced one (LLVM made the same choice), and dropping the buckets saves two
 * arrays per node, which is what bounds peak memory on a 30M-object heap.
 *
 * Nothing here recurses, and no stack grows with the heap:
 *  - the DFS keeps its path in parent[] (the tree path is the stack) and the
 *    per-vertex edge cursor in the memory that later holds semi[] and label[];
 *  - path compression walks up reversing ancestor[] pointers, then walks back
 *    down restoring them compressed (pointer reversal instead of a stack).
 *
 * Index spaces: "node" numbers come from the graph; "dfn" numbers are DFS
 * preorder numbers, dfn 0 being the super-root. Arrays are named *_by_dfn or
 * node_to_dfn/dfn_to_node to say which space they are indexed by.
 *
 * Memory at peak (semidominator phase): 28 bytes per reachable node plus 4 per
 * strong reachable edge, plus the caller's outputs.
 */
#include "dominators.h"

#include <stdlib.h>

#define DFN_NONE 0xffffffffu
#define ROOT_PENDING 0xffffffffu     /* node_to_dfn: a root not yet visited */
#define ROOT_FLAG 0x80000000u        /* node_to_dfn: a visited root (dfn < 2^31) */
#define SKIP 0xffffffffu             /* edge_to_dfn: an edge that is not a listed pred */
#define ROOT_PENDING 0xffffffffu     /* node_to_dfn: a root not yet visited */
#define ROOT_FLAG 0x80000000u        /* node_to_dfn: a visited root (dfn < 2^31) */

/* Returns the vertex with the smallest semi[label] on the compressed path from v
 * up to (excluding) its forest root, compressing that path. */
static inline uint32_t eval_and_compress(uint32_t v, uint32_t *ancestor, uint32_t *label,
                                         const uint32_t *semi)
{
    uint32_t a = ancestor[v];
    if (a == DFN_NONE)
        return v;
    if (ancestor[a] == DFN_NONE)
        return label[v];
    /* Walk up while the ancestor is not a forest root, reversing pointers. */
    uint32_t x = v, reversed = DFN_NONE;
    while (ancestor[ancestor[x]] != DFN_NONE) {
        uint32_t up = ancestor[x];
        ancestor[x] = reversed;
        reversed = x;
        x = up;
    }
    /* x is the topmost vertex below the forest root; walk back down. */
    while (reversed != DFN_NONE) {
        uint32_t y = reversed;
        reversed = ancestor[y];
        if (semi[label[x]] < semi[label[y]])
            label[y] = label[x];
        ancestor[y] = ancestor[x];
        x = y;
    }
    return label[v];
}

int lf_dominators_compute(const lf_graph *g, const uint64_t *shallow, unsigned flags,
                          uint32_t *idom, uint64_t *retained, lf_dominator_result *result)
{
    const uint32_t n = g->node_count;
    const size_t slots = (size_t)n + 1; /* dfn space: super-root plus every node */
    const uint64_t *edge_offset = g->edge_offset;
    const uint32_t *edge_target = g->edge_target;

    uint32_t *node_to_dfn = calloc(slots, sizeof *node_to_dfn); /* 0 = not visited */
    uint32_t *dfn_to_node = malloc(slots * sizeof *dfn_to_node);
    uint32_t *parent_by_dfn = malloc(slots * sizeof *parent_by_dfn);
    uint64_t *cursor_by_dfn = malloc(slots * sizeof *cursor_by_dfn);
    uint64_t *pred_offset = calloc(slots + 1, sizeof *pred_offset);
    uint32_t *edge_to_dfn = malloc((g->edge_count ? g->edge_count : 1) * sizeof *edge_to_dfn);
    uint32_t *pred = NULL;
    if (!node_to_dfn || !dfn_to_node || !parent_by_dfn || !cursor_by_dfn || !pred_offset ||
        !edge_to_dfn)
        goto nomem;

    /* Depth-first search from the super-root. Every edge it examines gets, in
     * edge_to_dfn[], its target's dfn, or SKIP when the edge cannot change a
     * semidominator: weak edges, DFS tree edges (the parent is the implicit
     * first predecessor) and edges into roots (a root's semidominator is the
     * super-root whatever else points at it; on a heap that drops every
     * instance -> class edge of a rooted class). Only the remaining
     * predecessors are counted and listed. */
    for (uint32_t r = 0; r < g->root_count; r++)
        node_to_dfn[g->root_node[r]] = ROOT_PENDING;
    uint32_t next_dfn = 1;
    dfn_to_node[0] = DFN_NONE;
    parent_by_dfn[0] = DFN_NONE;
    uint32_t root_cursor = 0, unreached_scan = 0;
    uint32_t v = 0;
    for (;;) {
        if (v == 0) {
            uint32_t root;
            if (root_cursor < g->root_count) {
                root = g->root_node[root_cursor++];
            } else if (flags & LF_DOM_KEEP_UNREACHABLE) {
                while (unreached_scan < n && node_to_dfn[unreached_scan] != 0)
                    unreached_scan++;
                if (unreached_scan == n)
                    break;
                root = unreached_scan;
            } else {
                break;
            }
            uint32_t d = node_to_dfn[root];
            if (d == 0 || d == ROOT_PENDING) {
                d = next_dfn++;
                dfn_to_node[d] = root;
                parent_by_dfn[d] = 0;
                cursor_by_dfn[d] = edge_offset[root];
                v = d;
            }
            node_to_dfn[root] = (d & ~ROOT_FLAG) | ROOT_FLAG;
            continue;
        }
        uint32_t node = dfn_to_node[v];
        uint64_t e = cursor_by_dfn[v], end = edge_offset[node + 1];
        uint32_t descend = 0;
        if (e == edge_offset[node]) {
            /* First look at this node: start the loads its children will need
             * (the DFS is one long chain of dependent cache misses otherwise). */
            for (uint64_t p = e; p < end && p < e + 8; p++) {
                uint32_t t = edge_target[p] & LF_EDGE_NODE;
                __builtin_prefetch(&node_to_dfn[t]);
                __builtin_prefetch(&edge_offset[t]);
            }
        }
        while (e < end) {
            uint64_t at = e++;
            uint32_t t = edge_target[at];
            if (lf_edge_is_weak(t)) {
                edge_to_dfn[at] = SKIP;
                continue;
            }
            uint32_t d = node_to_dfn[t];
            if (d == 0 || d == ROOT_PENDING) {
                descend = next_dfn++;
                node_to_dfn[t] = descend | (d == ROOT_PENDING ? ROOT_FLAG : 0);
                dfn_to_node[descend] = t;
                parent_by_dfn[descend] = v;
                cursor_by_dfn[descend] = edge_offset[t];
                edge_to_dfn[at] = SKIP;
                break;
            }
            edge_to_dfn[at] = (d & ROOT_FLAG) ? SKIP : d;
        }
        cursor_by_dfn[v] = e;
        v = descend ? descend : parent_by_dfn[v];
    }
    const uint32_t count = next_dfn; /* dfn 0 .. count-1 are in use */

    /* Count the listed predecessors, in node order so the edge arrays are
     * read sequentially (the DFS keeps to its dependent chain of loads). */
    for (uint32_t node = 0; node < n; node++) {
        uint32_t d = node_to_dfn[node];
        if (d == 0)
            continue;
        if (d & ROOT_FLAG)
            pred_offset[d & ~ROOT_FLAG]++; /* the super-root */
        for (uint64_t e = edge_offset[node], end = edge_offset[node + 1]; e < end; e++) {
            uint32_t t = edge_to_dfn[e];
            if (t != SKIP)
                pred_offset[t]++;
        }
    }
    uint64_t total = 0;
    for (uint32_t d = 0; d < count; d++) {
        uint64_t c = pred_offset[d];
        pred_offset[d] = total;
        total += c;
    }
    pred_offset[count] = total;
    pred = malloc((total ? total : 1) * sizeof *pred);
    if (!pred)
        goto nomem;
    for (uint32_t node = 0; node < n; node++) {
        uint32_t d = node_to_dfn[node];
        if (d == 0)
            continue;
        if (d & ROOT_FLAG) {
            d &= ~ROOT_FLAG;
            pred[pred_offset[d]++] = 0;
        }
        for (uint64_t e = edge_offset[node], end = edge_offset[node + 1]; e < end; e++) {
            uint32_t t = edge_to_dfn[e];
            if (t != SKIP)
                pred[pred_offset[t]++] = d;
        }
    }
    free(edge_to_dfn);
    edge_to_dfn = NULL;
    /* Each pred_offset[d] now holds the end of d's list: shift to get starts. */
    for (uint32_t d = count; d > 0; d--)
        pred_offset[d] = pred_offset[d - 1];
    pred_offset[0] = 0;

    /* node_to_dfn is no longer needed: its memory becomes ancestor[]. */
    uint32_t *ancestor = node_to_dfn;
    uint32_t *semi = (uint32_t *)cursor_by_dfn;
    uint32_t *label = semi + slots;
    for (uint32_t d = 0; d < count; d++) {
        semi[d] = d;
        label[d] = d;
        ancestor[d] = DFN_NONE;
    }
    for (uint32_t w = count - 1; w > 0; w--) {
        uint32_t best = parent_by_dfn[w]; /* the tree edge, never listed */
        for (uint64_t p = pred_offset[w], end = pred_offset[w + 1]; p < end; p++) {
            uint32_t u = pred[p];
            if (u > w)
                u = semi[eval_and_compress(u, ancestor, label, semi)];
            if (u < best)
                best = u;
        }
        semi[w] = best;
        ancestor[w] = parent_by_dfn[w]; /* link w into the forest */
    }
    free(pred);
    pred = NULL;
    free(pred_offset);
    pred_offset = NULL;

    /* Semi-NCA: ancestor[] becomes idom_by_dfn[], filled in preorder. */
    uint32_t *idom_by_dfn = ancestor;
    idom_by_dfn[0] = 0;
    for (uint32_t w = 1; w < count; w++) {
        uint32_t x = parent_by_dfn[w];
        while (x > semi[w])
            x = idom_by_dfn[x];
        idom_by_dfn[w] = x;
    }

    for (uint32_t node = 0; node < n; node++) {
        idom[node] = LF_NODE_NONE;
        retained[node] = 0;
    }
    /* Retained sizes are summed in dfn space, where a dominator is usually
     * close to its children, in the 8 bytes per vertex semi[] and label[] used. */
    uint64_t *retained_by_dfn = cursor_by_dfn;
    uint64_t reachable_shallow = 0;
    retained_by_dfn[0] = 0;
    for (uint32_t w = 1; w < count; w++) {
        uint32_t node = dfn_to_node[w];
        uint32_t d = idom_by_dfn[w];
        idom[node] = d == 0 ? LF_NODE_SUPER : dfn_to_node[d];
        retained_by_dfn[w] = shallow[node];
        reachable_shallow += shallow[node];
    }
    /* Children follow their dominator in preorder: accumulate bottom-up. */
    for (uint32_t w = count - 1; w > 0; w--)
        retained_by_dfn[idom_by_dfn[w]] += retained_by_dfn[w];
    for (uint32_t w = 1; w < count; w++)
        retained[dfn_to_node[w]] = retained_by_dfn[w];
    result->reachable_count = count - 1;
    result->reachable_shallow = reachable_shallow;

    free(node_to_dfn);
    free(dfn_to_node);
    free(parent_by_dfn);
    free(cursor_by_dfn);
    return 0;

nomem:
    free(edge_to_dfn);
    free(node_to_dfn);
    free(dfn_to_node);
    free(parent_by_dfn);
    free(cursor_by_dfn);
    free(pred_offset);
    free(pred);
    return -1;
}
