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

/* The two passes for one width of offsets, each a loop of its own: counts
 * at offset[t + 2], so that after the prefix sum offset[t + 1] is t's start
 * and advancing it while filling leaves it at t's end. */
#define REVERSE_PASSES(width, type)                                                                 \
    static void count_##width(const reverse_half *h, type *offset)                                \
    {                                                                                             \
        const lf_graph *g = h->g;                                                                 \
        const uint32_t span = h->hi - h->lo;                                                      \
        for (uint64_t e = 0; e < g->edge_count; e++) {                                            \
            uint32_t t = lf_edge_node(g->edge_target[e]);                                         \
            if (t - h->lo < span)                                                                 \
                offset[t + 2]++;                                                                  \
        }                                                                                         \
    }                                                                                             \
    static void fill_##width(const reverse_half *h, type *offset)                                 \
    {                                                                                             \
        const lf_graph *g = h->g;                                                                 \
        const uint32_t span = h->hi - h->lo;                                                      \
        for (uint32_t v = 0; v < g->node_count; v++)                                              \
            for (uint64_t e = lf_graph_edges_begin(g, v); e < lf_graph_edges_end(g, v); e++) {     \
                uint32_t t = g->edge_target[e], node = lf_edge_node(t);                           \
                if (node - h->lo < span)                                                          \
                    h->rev->source[offset[node + 1]++] = v | (t & LF_EDGE_WEAK);                  \
            }                                                                                     \
    }
REVERSE_PASSES(narrow, uint32_t)
REVERSE_PASSES(wide, uint64_t)

static void *reverse_half_run(void *arg)
{
    const reverse_half *h = arg;
    uint32_t *narrow = h->rev->offset.narrow;
    uint64_t *wide = h->rev->offset.wide;
    if (narrow)
        h->fill ? fill_narrow(h, narrow) : count_narrow(h, narrow);
    else
        h->fill ? fill_wide(h, wide) : count_wide(h, wide);
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

/* The offsets take the forward graph's width: the same edge total, so 4
 * bytes a node where it fits (120 MB less to fault in on a 30M-object
 * dump), 8 past 2^32 edges or where tests force the wide form. */
static int offsets_alloc(const lf_graph *g, lf_reverse *rev)
{
    const size_t entries = (size_t)g->node_count + 2;
    if (g->edge_offset.narrow)
        rev->offset.narrow = lf_big_calloc(entries, sizeof *rev->offset.narrow);
    else
        rev->offset.wide = lf_big_calloc(entries, sizeof *rev->offset.wide);
    return lf_edge_offsets_block(rev->offset) ? 0 : -1;
}

int lf_reverse_build(const lf_graph *g, lf_reverse *rev)
{
    const uint32_t n = g->node_count;
    *rev = (lf_reverse){.node_count = n};
    rev->source = lf_big_malloc((g->edge_count ? g->edge_count : 1) * sizeof *rev->source);
    if (offsets_alloc(g, rev) || !rev->source) {
        lf_reverse_free(rev);
        return -1;
    }
    run_reverse_halves(g, rev, 0);
    lf_edge_offsets_mut *o = &rev->offset;
    for (uint32_t v = 2; v <= n + 1 && n > 0; v++)
        lf_edge_offsets_set(o, v, lf_edge_offsets_get(o, v) + lf_edge_offsets_get(o, v - 1));
    run_reverse_halves(g, rev, 1);
    return 0;
}

void lf_reverse_free(lf_reverse *rev)
{
    lf_big_free(lf_edge_offsets_block(rev->offset));
    lf_big_free(rev->source);
    rev->offset = (lf_edge_offsets_mut){NULL, NULL};
    rev->source = NULL;
}

/* toward[v] holds 1 + the node v leads to, 0 while v is unseen: the array
 * starts as fresh zeroed memory whose pages are mapped in only where a
 * search goes. A mark other than 0 had to be written into every entry
 * first: 4 bytes a node of fresh pages (120 MB on a 30M-object dump, a
 * sixth of `path`'s first touches there). */
#define UNSEEN 0u

int lf_path_search_init(lf_path_search *ps, const lf_reverse *rev, const uint8_t *is_root)
{
    const uint32_t n = rev->node_count;
    ps->rev = rev;
    ps->is_root = is_root;
    ps->toward = lf_big_calloc((size_t)n + 1, sizeof *ps->toward);
    ps->queue = lf_big_malloc(((size_t)n + 1) * sizeof *ps->queue);
    ps->blocked = lf_big_calloc((size_t)n + 1, 1);
    if (!ps->toward || !ps->queue || !ps->blocked) {
        lf_path_search_free(ps);
        return -1;
    }
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
    uint32_t head = 0, tail = 0, found = LF_NODE_NONE;
    toward[target] = target + 1;
    queue[tail++] = target;
    if (root_at(ps, target))
        found = target;
    while (head < tail && found == LF_NODE_NONE) {
        uint32_t x = queue[head++];
        for (uint64_t i = lf_reverse_begin(rev, x); i < lf_reverse_end(rev, x); i++) {
            uint32_t s = rev->source[i];
            if (lf_edge_is_weak(s) && !(flags & LF_PATH_FOLLOW_WEAK))
                continue;
            uint32_t p = lf_edge_node(s);
            if (toward[p] != UNSEEN || (level && level[p] + 1 != level[x]) || ps->blocked[p] == 2 ||
                (ps->blocked[p] == 1 && !root_at(ps, p)) || (filter && !filter(filter_ctx, p, x)))
                continue;
            toward[p] = x + 1;
            queue[tail++] = p;
            if (root_at(ps, p)) {
                found = p;
                break;
            }
        }
    }
    int64_t len = 0;
    if (found != LF_NODE_NONE)
        for (uint32_t v = found;; v = toward[v] - 1) {
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
