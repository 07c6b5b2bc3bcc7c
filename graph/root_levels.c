/* root_levels.c - breadth-first levels from the GC roots (root_levels.h). */
#include "root_levels.h"

void lf_root_levels(const lf_graph *g, const uint8_t *is_root, lf_edge_filter filter, void *filter_ctx,
                    uint32_t *level, uint32_t *queue)
{
    const uint32_t n = g->node_count;
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++) {
        level[v] = LF_LEVEL_NONE;
        if (is_root[v / 8] >> (v % 8) & 1) {
            level[v] = 0;
            queue[tail++] = v;
        }
    }
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint64_t e = lf_graph_edges_begin(g, u); e < lf_graph_edges_end(g, u); e++) {
            uint32_t t = g->edge_target[e], w = lf_edge_node(t);
            if (lf_edge_is_weak(t) || level[w] != LF_LEVEL_NONE || (filter && !filter(filter_ctx, u, w)))
                continue;
            level[w] = level[u] + 1;
            queue[tail++] = w;
        }
    }
}

uint32_t lf_sole_nearer_predecessor(const lf_reverse *rev, const uint32_t *level, uint32_t v,
                                    lf_edge_filter filter, void *filter_ctx)
{
    uint32_t sole = LF_NODE_NONE;
    if (level[v] == LF_LEVEL_NONE || level[v] == 0)
        return LF_NODE_NONE;
    for (uint64_t i = lf_reverse_begin(rev, v); i < lf_reverse_end(rev, v); i++) {
        uint32_t s = rev->source[i], p = lf_edge_node(s);
        if (lf_edge_is_weak(s) || level[p] + 1 != level[v] || p == sole || (filter && !filter(filter_ctx, p, v)))
            continue;
        if (sole != LF_NODE_NONE)
            return LF_NODE_NONE; /* a second one */
        sole = p;
    }
    return sole;
}
