/* graph.h - the heap graph as the algorithms see it: CSR over dense node numbers.
 *
 * Node numbers are 32-bit and dense (0 .. node_count-1). Edge offsets are 32-bit
 * while the graph has fewer than 2^32-1 edges (always, below about 1.8G objects:
 * 4 bytes per object less in every phase) and 64-bit past that, so a graph may
 * hold more than 4G edges. The top bit of an edge target marks a
 * weak edge: it stays in the graph (paths, display) but never counts as
 * ownership, so node numbers are limited to LF_NODE_MAX. Keeping the flag in the
 * target costs no memory and no second array on the dominator hot path.
 */
#ifndef LF_GRAPH_H
#define LF_GRAPH_H

#include <stdint.h>
#include <stddef.h>

#define LF_EDGE_WEAK     0x80000000u
#define LF_EDGE_NODE     0x7fffffffu
#define LF_NODE_MAX      0x7ffffffdu        /* largest valid node count */
#define LF_NODE_SUPER    0xfffffffeu        /* the synthetic super-root */
#define LF_NODE_NONE     0xffffffffu        /* no node (unreachable, absent) */

/* Node space -> edge space, node_count+1 entries: exactly one of the two
 * arrays is set, narrow when the edge total fits. */
typedef struct lf_edge_offsets {
    const uint32_t *narrow;
    const uint64_t *wide;
} lf_edge_offsets;

/* The same while a producer fills it (counts first, then offsets). */
typedef struct lf_edge_offsets_mut {
    uint32_t *narrow;
    uint64_t *wide;
} lf_edge_offsets_mut;

static inline uint64_t lf_edge_offset_at(lf_edge_offsets o, uint64_t v)
{
    return o.narrow ? o.narrow[v] : o.wide[v];
}

static inline uint64_t lf_edge_offsets_get(const lf_edge_offsets_mut *o, uint64_t v)
{
    return o->narrow ? o->narrow[v] : o->wide[v];
}

/* value must fit the width (the producer chose it from the edge total). */
static inline void lf_edge_offsets_set(lf_edge_offsets_mut *o, uint64_t v, uint64_t value)
{
    if (o->narrow)
        o->narrow[v] = (uint32_t)value;
    else
        o->wide[v] = value;
}

static inline lf_edge_offsets lf_edge_offsets_view(lf_edge_offsets_mut o)
{
    return (lf_edge_offsets){o.narrow, o.wide};
}

/* The one array that is set (to hand over or free), NULL when none. */
static inline void *lf_edge_offsets_block(lf_edge_offsets_mut o)
{
    return o.narrow ? (void *)o.narrow : (void *)o.wide;
}

typedef struct lf_graph {
    uint32_t node_count;
    uint64_t edge_count;
    lf_edge_offsets edge_offset;   /* node_count+1 entries, node space -> edge space */
    const uint32_t *edge_target;   /* edge space -> node | LF_EDGE_WEAK */
    uint32_t root_count;
    const uint32_t *root_node;     /* GC roots (node space); duplicates allowed */
} lf_graph;

/* How far a long pass over the graph is, told to whoever asked (graph/ never
 * prints, and knows nothing of core/): done of total nodes of pass (from 1) of
 * passes. Called on the thread doing the work (one thread per pass), when a
 * pass begins, about every LF_GRAPH_PROGRESS_STEP nodes and when it ends. */
typedef struct lf_graph_progress {
    void (*report)(void *ctx, unsigned pass, unsigned passes, uint64_t done, uint64_t total);
    void *ctx;
} lf_graph_progress;

/* Coarse on purpose: hot loops compare one counter per node against it. */
#define LF_GRAPH_PROGRESS_STEP ((uint64_t)1 << 20)

/* Reports done of total for a pass that goes over its nodes `parts` times
 * (done and total count those visits; the report says nodes); returns the
 * count at which to report next (UINT64_MAX when nobody listens: the hot
 * loops' compare never fires). */
static inline uint64_t lf_graph_progress_parts(const lf_graph_progress *p, unsigned pass, unsigned passes,
                                               uint64_t done, uint64_t total, unsigned parts)
{
    if (!p || !p->report)
        return UINT64_MAX;
    p->report(p->ctx, pass, passes, (done < total ? done : total) / parts, total / parts);
    return done + LF_GRAPH_PROGRESS_STEP;
}

static inline uint64_t lf_graph_progress_report(const lf_graph_progress *p, unsigned pass,
                                                unsigned passes, uint64_t done, uint64_t total)
{
    return lf_graph_progress_parts(p, pass, passes, done, total, 1);
}

static inline uint32_t lf_edge_node(uint32_t target) { return target & LF_EDGE_NODE; }
static inline int lf_edge_is_weak(uint32_t target) { return (target & LF_EDGE_WEAK) != 0; }

static inline uint64_t lf_graph_edges_begin(const lf_graph *g, uint32_t v)
{
    return lf_edge_offset_at(g->edge_offset, v);
}

static inline uint64_t lf_graph_edges_end(const lf_graph *g, uint32_t v)
{
    return lf_edge_offset_at(g->edge_offset, (uint64_t)v + 1);
}

/* The first node in [0, node_count) whose edges start at or after edge;
 * node_count when there is none. */
static inline uint32_t lf_edge_offsets_lower_bound(lf_edge_offsets o, uint32_t node_count, uint64_t edge)
{
    uint32_t lo = 0, hi = node_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (lf_edge_offset_at(o, mid) < edge)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Turns edge_offset[v] from node v's edge count into where its edges start,
 * and sets edge_offset[node_count] to the edge total: the CSR offsets every
 * graph builder derives from its counts. The caller knows the total fits the
 * width (edge_offsets.h widens when it does not). */
static inline void lf_edge_counts_to_offsets(lf_edge_offsets_mut o, uint32_t node_count)
{
    uint64_t sum = 0;
    if (o.narrow) {
        for (uint32_t v = 0; v < node_count; v++) {
            uint32_t count = o.narrow[v];
            o.narrow[v] = (uint32_t)sum;
            sum += count;
        }
        o.narrow[node_count] = (uint32_t)sum;
        return;
    }
    for (uint32_t v = 0; v < node_count; v++) {
        uint64_t count = o.wide[v];
        o.wide[v] = sum;
        sum += count;
    }
    o.wide[node_count] = sum;
}

#endif
