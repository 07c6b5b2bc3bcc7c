/* root_levels.h - every node's distance from the GC roots, so that the
 * shortest root paths of many targets (`path --merge` over every instance
 * of a class) cost about what the paths are, not a search each from far.
 *
 * A backward search from target t (paths.h) finds its nearest root at
 * level[t] references. Call S the nodes x it meets at j references from t
 * with level[x] + j == level[t]: the nodes of t's shortest paths. A node of
 * S is always first met from a node of S (the one meeting it is one level
 * further from the roots, hence on a shortest path too), so the order in
 * which the search meets the nodes of S, its ties and the root it stops at
 * do not depend on the nodes outside S: a search that enqueues only
 * predecessors one level nearer the roots gives the same path.
 *
 * And when S holds a single node p one level nearer than t (t's sole
 * nearer predecessor, as every link of a list has), t's path is p's with t
 * appended: the search from t is the search from p, t never met again. A
 * linked list of n nodes then costs n steps, not n * n / 2. */
#ifndef LF_ROOT_LEVELS_H
#define LF_ROOT_LEVELS_H

#include "paths.h"

/* level[v] for every node of g (node_count entries): the fewest strong
 * references from a root (is_root, a bitmap) to v that filter lets through,
 * 0 for a root, LF_LEVEL_NONE when none reaches v. queue: node_count
 * entries of work space. */
void lf_root_levels(const lf_graph *g, const uint8_t *is_root, lf_edge_filter filter, void *filter_ctx,
                    uint32_t *level, uint32_t *queue);

/* The one node that references v strongly from one level nearer the roots
 * (through an edge filter lets through), or LF_NODE_NONE when there are
 * several, or none (v a root or unreached). */
uint32_t lf_sole_nearer_predecessor(const lf_reverse *rev, const uint32_t *level, uint32_t v,
                                    lf_edge_filter filter, void *filter_ctx);

#endif
