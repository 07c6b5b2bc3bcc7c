/* domtree.h - the dominator tree as child lists, and aggregates over it. */
#ifndef LF_DOMTREE_H
#define LF_DOMTREE_H

#include "graph.h"
#include "sizes.h"

/* Child lists of the dominator tree in CSR form. Slot node_count is the
 * super-root. child_offset has node_count+2 entries; children of slot s are
 * child[child_offset[s] .. child_offset[s+1]), largest retained first, ties by
 * node number. Unreachable nodes appear in no list. */
typedef struct lf_domtree {
    uint32_t node_count;
    uint32_t *child_offset;
    uint32_t *child;
} lf_domtree;

/* threads: at most 1 keeps the work on the calling thread (the result is
 * the same). Returns 0 or -1 when out of memory. */
int lf_domtree_build(uint32_t node_count, const uint32_t *idom, const lf_sizes *retained,
                     unsigned threads, lf_domtree *tree);
/* The same, telling progress (NULL: nobody) how far its one pass is. */
int lf_domtree_build_reporting(uint32_t node_count, const uint32_t *idom, const lf_sizes *retained,
                               unsigned threads, lf_domtree *tree, const lf_graph_progress *progress);
void lf_domtree_free(lf_domtree *tree);

static inline uint32_t lf_domtree_slot(uint32_t node_count, uint32_t node)
{
    return node == LF_NODE_SUPER ? node_count : node;
}

/* Retained bytes per class with nothing counted twice: the sum of the retained
 * sizes of the instances that no other instance of their class dominates.
 * skip_empty_of: NULL, or node -> shallow bytes; then instances of 0 bytes
 * are not instances at all (they neither add their retained size nor hide the
 * instances below them), as in Chrome DevTools' Summary view.
 * class_retained has class_count entries, zeroed here. Walks the tree with an
 * explicit stack. Returns 0 or -1 when out of memory. */
int lf_class_retained(const uint32_t *child_offset, const uint32_t *child, uint32_t node_count,
                      const uint32_t *object_class, uint32_t class_count,
                      const lf_sizes *retained, const lf_sizes *skip_empty_of,
                      uint64_t *class_retained);

#endif
