/* paths.c - reverse CSR and backwards breadth-first search. */
#include "paths.h"

#include <stdlib.h>

int lf_reverse_build(const lf_graph *g, lf_reverse *rev)
{
    const uint32_t n = g->node_count;
    rev->node_count = n;
    rev->offset = calloc((size_t)n + 2, sizeof *rev->offset);
    rev->source = malloc((g->edge_count ? g->edge_count : 1) * sizeof *rev->source);
    if (!rev->offset || !rev->source) {
        lf_reverse_free(rev);
        return -1;
    }
    /* counts at offset[t + 2], so that after the prefix sum offset[t + 1] is
     * t's start and advancing it while filling leaves it at t's end */
    for (uint64_t e = 0; e < g->edge_count; e++)
        rev->offset[lf_edge_node(g->edge_target[e]) + 2]++;
    for (uint32_t v = 2; v <= n + 1 && n > 0; v++)
        rev->offset[v] += rev->offset[v - 1];
    for (uint32_t v = 0; v < n; v++)
        for (uint64_t e = g->edge_offset[v]; e < g->edge_offset[v + 1]; e++) {
            uint32_t t = g->edge_target[e];
            rev->source[rev->offset[lf_edge_node(t) + 1]++] = v | (t & LF_EDGE_WEAK);
        }
    return 0;
}

void lf_reverse_free(lf_reverse *rev)
{
    free(rev->offset);
    free(rev->source);
    rev->offset = NULL;
    rev->source = NULL;
}

#define UNSEEN 0xffffffffu

int64_t lf_shortest_root_path(const lf_reverse *rev, const uint8_t *is_root, uint32_t target,
                              unsigned flags, lf_edge_filter filter, void *filter_ctx,
                              uint32_t *path)
{
    const uint32_t n = rev->node_count;
    /* toward[v]: the node v leads to on its way to target (target: itself) */
    uint32_t *toward = malloc(((size_t)n + 1) * sizeof *toward);
    uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue);
    if (!toward || !queue) {
        free(toward);
        free(queue);
        return -1;
    }
    for (uint32_t v = 0; v < n; v++)
        toward[v] = UNSEEN;
    uint32_t head = 0, tail = 0, found = UNSEEN;
    toward[target] = target;
    queue[tail++] = target;
    if (is_root[target / 8] >> (target % 8) & 1)
        found = target;
    while (head < tail && found == UNSEEN) {
        uint32_t x = queue[head++];
        for (uint64_t i = rev->offset[x]; i < rev->offset[x + 1]; i++) {
            uint32_t s = rev->source[i];
            if (lf_edge_is_weak(s) && !(flags & LF_PATH_FOLLOW_WEAK))
                continue;
            uint32_t p = lf_edge_node(s);
            if (toward[p] != UNSEEN || (filter && !filter(filter_ctx, p, x)))
                continue;
            toward[p] = x;
            queue[tail++] = p;
            if (is_root[p / 8] >> (p % 8) & 1) {
                found = p;
                break;
            }
        }
    }
    int64_t len = 0;
    if (found != UNSEEN) {
        for (uint32_t v = found;; v = toward[v]) {
            path[len++] = v;
            if (v == target)
                break;
        }
    }
    free(toward);
    free(queue);
    return len;
}
