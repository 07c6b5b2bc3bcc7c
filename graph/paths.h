/* paths.h - shortest paths from the GC roots, found backwards from a target. */
#ifndef LF_PATHS_H
#define LF_PATHS_H

#include "graph.h"

/* Predecessor lists (reverse CSR): the sources of node v's incoming edges are
 * source[offset[v] .. offset[v+1]), in the order of the forward edges. */
typedef struct lf_reverse {
    uint32_t node_count;
    uint64_t *offset;   /* node_count + 1 */
    uint32_t *source;   /* node | LF_EDGE_WEAK when the edge is weak */
} lf_reverse;

/* Returns 0 or -1 (memory). */
int lf_reverse_build(const lf_graph *g, lf_reverse *rev);
void lf_reverse_free(lf_reverse *rev);

/* Decides whether the edge from -> to may be followed (an exclusion list);
 * NULL follows every edge. */
typedef int (*lf_edge_filter)(void *ctx, uint32_t from, uint32_t to);

enum { LF_PATH_FOLLOW_WEAK = 1u << 0 };

/* Breadth-first search backwards from target to the nearest root (is_root: a
 * bitmap over nodes). On success path[0..len) runs from the root to target
 * and the length (nodes) is returned; 0 when no root reaches target; -1 when
 * out of memory. path needs room for node_count entries. Ties go to the
 * predecessor listed first, so the answer is always the same. */
int64_t lf_shortest_root_path(const lf_reverse *rev, const uint8_t *is_root, uint32_t target,
                              unsigned flags, lf_edge_filter filter, void *filter_ctx,
                              uint32_t *path);

#endif
