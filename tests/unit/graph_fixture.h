/* graph_fixture.h - small graphs built from edge lists, and reference
 * dominator algorithms that are obviously correct rather than fast. */
#ifndef LF_GRAPH_FIXTURE_H
#define LF_GRAPH_FIXTURE_H

#include <stdint.h>

#include "../../graph/graph.h"

typedef struct test_graph {
    lf_graph g;
    uint64_t *edge_offset;       /* always built wide... */
    uint32_t *edge_offset32;     /* ...and given to g narrow unless lf_edge_offsets_wide_from says not */
    uint32_t *edge_target;
    uint32_t *root_node;
    uint64_t *shallow;
} test_graph;

/* edges: pairs (from, to); weak[i] marks edge i weak (may be NULL). */
void test_graph_build(test_graph *t, uint32_t n, const uint32_t *edges, const uint8_t *weak,
                      uint64_t edge_count, const uint32_t *roots, uint32_t root_count);
void test_graph_free(test_graph *t);

/* Cooper-Harvey-Kennedy iterative dominators over strong edges from the
 * super-root. idom as in lf_dominators_compute. */
void reference_idom_chk(const lf_graph *g, uint32_t *idom);
/* The definition: d dominates v iff removing d disconnects v. n <= 64. */
void reference_idom_definition(const lf_graph *g, uint32_t *idom);
/* Retained sizes from an idom array by walking each node's dominator chain. */
void reference_retained(uint32_t n, const uint32_t *idom, const uint64_t *shallow,
                        uint64_t *retained);

#endif
