/* graph.h - the heap graph as the algorithms see it: CSR over dense node numbers.
 *
 * Node numbers are 32-bit and dense (0 .. node_count-1). Edge offsets are 64-bit
 * so a graph may hold more than 4G edges. The top bit of an edge target marks a
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

typedef struct lf_graph {
    uint32_t node_count;
    uint64_t edge_count;
    const uint64_t *edge_offset;   /* node_count+1 entries, node space -> edge space */
    const uint32_t *edge_target;   /* edge space -> node | LF_EDGE_WEAK */
    uint32_t root_count;
    const uint32_t *root_node;     /* GC roots (node space); duplicates allowed */
} lf_graph;

static inline uint32_t lf_edge_node(uint32_t target) { return target & LF_EDGE_NODE; }
static inline int lf_edge_is_weak(uint32_t target) { return (target & LF_EDGE_WEAK) != 0; }

#endif
