/* paths.c - reverse CSR and backwards breadth-first search. */
#include "paths.h"
#include "../core/base/bigmem.h"

#include <pthread.h>
#include <stdlib.h>

/* Two halves of the target range, one per thread: each scans every edge
 * (a sequential read) and writes only its own targets' counts and lists, so
 * there are no atomics and the lists come out the same either way. */
typedef struct reverse_half {
    const lf_graph *g;
    lf_reverse *rev;
    uint32_t lo, hi; /* targets [lo, hi) */
    int fill;
} reverse_half;

static void *reverse_half_run(void *arg)
{
    const reverse_half *h = arg;
    const lf_graph *g = h->g;
    uint64_t *offset = h->rev->offset;
    const uint32_t span = h->hi - h->lo;
    if (!h->fill) {
        for (uint64_t e = 0; e < g->edge_count; e++) {
            uint32_t t = lf_edge_node(g->edge_target[e]);
            if (t - h->lo < span)
                offset[t + 2]++;
        }
        return NULL;
    }
    for (uint32_t v = 0; v < g->node_count; v++)
        for (uint64_t e = lf_graph_edges_begin(g, v); e < lf_graph_edges_end(g, v); e++) {
            uint32_t t = g->edge_target[e], node = lf_edge_node(t);
            if (node - h->lo < span)
                h->rev->source[offset[node + 1]++] = v | (t & LF_EDGE_WEAK);
        }
    return NULL;
}

static void run_reverse_halves(const lf_graph *g, lf_reverse *rev, int fill)
{
    const uint32_t n = g->node_count;
    reverse_half half[2] = {{g, rev, 0, n / 2, fill}, {g, rev, n / 2, n, fill}};
    pthread_t t;
    if (n >= (1u << 16) && pthread_create(&t, NULL, reverse_half_run, &half[1]) == 0) {
        reverse_half_run(&half[0]);
        pthread_join(t, NULL);
    } else {
        reverse_half_run(&half[0]);
        reverse_half_run(&half[1]);
    }
}

int lf_reverse_build(const lf_graph *g, lf_reverse *rev)
{
    const uint32_t n = g->node_count;
    rev->node_count = n;
    rev->offset = lf_big_calloc((size_t)n + 2, sizeof *rev->offset);
    rev->source = lf_big_malloc((g->edge_count ? g->edge_count : 1) * sizeof *rev->source);
    if (!rev->offset || !rev->source) {
        lf_reverse_free(rev);
        return -1;
    }
    /* counts at offset[t + 2], so that after the prefix sum offset[t + 1] is
     * t's start and advancing it while filling leaves it at t's end */
    run_reverse_halves(g, rev, 0);
    for (uint32_t v = 2; v <= n + 1 && n > 0; v++)
        rev->offset[v] += rev->offset[v - 1];
    run_reverse_halves(g, rev, 1);
    return 0;
}

void lf_reverse_free(lf_reverse *rev)
{
    lf_big_free(rev->offset);
    lf_big_free(rev->source);
    rev->offset = NULL;
    rev->source = NULL;
}

#define UNSEEN 0xffffffffu

int lf_path_search_init(lf_path_search *ps, const lf_reverse *rev, const uint8_t *is_root)
{
    const uint32_t n = rev->node_count;
    ps->rev = rev;
    ps->is_root = is_root;
    ps->toward = lf_big_malloc(((size_t)n + 1) * sizeof *ps->toward);
    ps->queue = lf_big_malloc(((size_t)n + 1) * sizeof *ps->queue);
    ps->blocked = lf_big_calloc((size_t)n + 1, 1);
    if (!ps->toward || !ps->queue || !ps->blocked) {
        lf_path_search_free(ps);
        return -1;
    }
    for (uint32_t v = 0; v < n; v++)
        ps->toward[v] = UNSEEN;
    ps->visited = 0;
    return 0;
}

void lf_path_search_free(lf_path_search *ps)
{
    lf_big_free(ps->toward);
    lf_big_free(ps->queue);
    lf_big_free(ps->blocked);
    ps->toward = ps->queue = NULL;
    ps->blocked = NULL;
}

static int root_at(const lf_path_search *ps, uint32_t v)
{
    return ps->is_root[v / 8] >> (v % 8) & 1;
}

/* The search of lf_shortest_root_path; level (root_levels.h) or NULL. With
 * levels it enqueues only predecessors one level nearer the roots: the nodes
 * of the target's shortest paths, whose order among themselves, and so the
 * answer, is the full search's (root_levels.h says why). */
static int64_t search(lf_path_search *ps, uint32_t target, unsigned flags, lf_edge_filter filter,
                      void *filter_ctx, const uint32_t *level, uint32_t *path)
{
    const lf_reverse *rev = ps->rev;
    uint32_t *toward = ps->toward, *queue = ps->queue;
    uint32_t head = 0, tail = 0, found = UNSEEN;
    toward[target] = target;
    queue[tail++] = target;
    if (root_at(ps, target))
        found = target;
    while (head < tail && found == UNSEEN) {
        uint32_t x = queue[head++];
        for (uint64_t i = rev->offset[x]; i < rev->offset[x + 1]; i++) {
            uint32_t s = rev->source[i];
            if (lf_edge_is_weak(s) && !(flags & LF_PATH_FOLLOW_WEAK))
                continue;
            uint32_t p = lf_edge_node(s);
            if (toward[p] != UNSEEN || (level && level[p] + 1 != level[x]) || ps->blocked[p] == 2 ||
                (ps->blocked[p] == 1 && !root_at(ps, p)) || (filter && !filter(filter_ctx, p, x)))
                continue;
            toward[p] = x;
            queue[tail++] = p;
            if (root_at(ps, p)) {
                found = p;
                break;
            }
        }
    }
    int64_t len = 0;
    if (found != UNSEEN)
        for (uint32_t v = found;; v = toward[v]) {
            path[len++] = v;
            if (v == target)
                break;
        }
    for (uint32_t i = 0; i < tail; i++) /* leave the work array as it was */
        toward[queue[i]] = UNSEEN;
    ps->visited += tail;
    return len;
}

int64_t lf_shortest_root_path(lf_path_search *ps, uint32_t target, unsigned flags,
                              lf_edge_filter filter, void *filter_ctx, uint32_t *path)
{
    return search(ps, target, flags, filter, filter_ctx, NULL, path);
}

int64_t lf_shortest_root_path_leveled(lf_path_search *ps, const uint32_t *level, uint32_t target,
                                      lf_edge_filter filter, void *filter_ctx, uint32_t *path)
{
    return level[target] == LF_LEVEL_NONE ? 0 : search(ps, target, 0, filter, filter_ctx, level, path);
}
