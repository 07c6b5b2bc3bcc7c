/* dominators.h - immediate dominators and retained sizes from a synthetic super-root. */
#ifndef LF_DOMINATORS_H
#define LF_DOMINATORS_H

#include "graph.h"
#include "sizes.h"

enum {
    /* Objects no root reaches become children of the super-root, in node order. */
    LF_DOM_KEEP_UNREACHABLE = 1u << 0,
    /* Objects no root reaches become children of the super-root one by one,
     * each retaining only itself (their references are not followed). */
    LF_DOM_UNREACHED_ALONE = 1u << 1,
    /* Every pass on the calling thread (--threads 1). A choice of how, not
     * of what: the result is the same either way. */
    LF_DOM_ONE_THREAD = 1u << 2,
};

typedef struct lf_dominator_result {
    uint32_t reachable_count;      /* nodes reached from the super-root */
    uint64_t reachable_shallow;    /* sum of shallow sizes of reachable nodes */
} lf_dominator_result;

/* Fills idom (node space -> node, LF_NODE_SUPER for top owners, LF_NODE_NONE
 * when unreachable) and retained (node space -> bytes, 0 when unreachable, in
 * the narrow form of sizes.h: the sizes of 4 GiB or more go to retained_big,
 * an empty table the caller frees, sorted by node on return). Both arrays have
 * g->node_count entries and belong to the caller. Only strong edges count. The
 * graph must be valid (targets and roots below node_count).
 * Returns 0, or -1 when memory runs out (outputs are then unspecified). */
int lf_dominators_compute(const lf_graph *g, const lf_sizes *shallow, unsigned flags, uint32_t *idom,
                          uint32_t *retained, lf_size_table *retained_big, lf_dominator_result *result);
/* The same, telling progress (NULL: nobody) how far each of its
 * LF_DOM_PASSES passes is: search, predecessors, semidominators, then
 * immediate dominators with retained sizes. */
#define LF_DOM_PASSES 4
int lf_dominators_compute_reporting(const lf_graph *g, const lf_sizes *shallow, unsigned flags,
                                    uint32_t *idom, uint32_t *retained, lf_size_table *retained_big,
                                    lf_dominator_result *result, const lf_graph_progress *progress);

#endif
