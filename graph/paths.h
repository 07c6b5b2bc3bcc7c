/* paths.h - shortest paths from the GC roots, found backwards from a target. */
#ifndef LF_PATHS_H
#define LF_PATHS_H

#include "graph.h"

/* Predecessor lists (reverse CSR): the sources of node v's incoming edges are
 * source[offset[v] .. offset[v+1]), in the order of the forward edges. */
typedef struct lf_reverse {
    uint32_t node_count;
    lf_edge_offsets_mut offset; /* node_count + 2 (the last is scratch): the forward graph's width */
    uint32_t *source;   /* node | LF_EDGE_WEAK when the edge is weak */
} lf_reverse;

/* Where node v's predecessors start and end in source. */
static inline uint64_t lf_reverse_begin(const lf_reverse *rev, uint32_t v)
{
    return lf_edge_offsets_get(&rev->offset, v);
}

static inline uint64_t lf_reverse_end(const lf_reverse *rev, uint32_t v)
{
    return lf_edge_offsets_get(&rev->offset, (uint64_t)v + 1);
}

/* Returns 0 or -1 (memory). */
int lf_reverse_build(const lf_graph *g, lf_reverse *rev);
void lf_reverse_free(lf_reverse *rev);

/* Decides whether the edge from -> to may be followed (an exclusion list);
 * NULL follows every edge. */
typedef int (*lf_edge_filter)(void *ctx, uint32_t from, uint32_t to);

enum { LF_PATH_FOLLOW_WEAK = 1u << 0 };

/* Work arrays for many searches: each search touches and then resets only the
 * nodes it reached, so a thousand searches near their targets stay cheap. */
typedef struct lf_path_search {
    const lf_reverse *rev;
    const uint8_t *is_root;     /* bitmap over nodes */
    uint32_t *toward;           /* node -> the node it leads to, or unseen */
    uint32_t *queue;
    uint8_t *blocked;           /* 1: a search may not pass through this node, but may
                                 * start at it if it is a root; 2: not even that */
    uint64_t visited;           /* nodes the searches so far have queued: their cost */
} lf_path_search;

int lf_path_search_init(lf_path_search *ps, const lf_reverse *rev, const uint8_t *is_root);
void lf_path_search_free(lf_path_search *ps);

/* Breadth-first search backwards from target to the nearest root. On success
 * path[0..len) runs from the root to target and the length (nodes) is
 * returned; 0 when no root reaches target. path needs room for node_count
 * entries. Blocked nodes are not used (see blocked). Ties go to the predecessor
 * listed first, so the answer is always the same. */
int64_t lf_shortest_root_path(lf_path_search *ps, uint32_t target, unsigned flags,
                              lf_edge_filter filter, void *filter_ctx, uint32_t *path);

/* A node no strong path from a root reaches, in root_levels.h's levels. */
#define LF_LEVEL_NONE 0xffffffffu

/* lf_shortest_root_path over strong references, the same answer, searching
 * only the nodes of the target's shortest paths: level from lf_root_levels
 * (root_levels.h) with the same filter, and no node blocked. */
int64_t lf_shortest_root_path_leveled(lf_path_search *ps, const uint32_t *level, uint32_t target,
                                      lf_edge_filter filter, void *filter_ctx, uint32_t *path);

#endif
