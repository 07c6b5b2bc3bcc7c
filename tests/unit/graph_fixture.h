/* graph_fixture.h - small graphs built from edge lists, and reference
 * dominator algorithms that are obviously correct rather than fast. */
#ifndef LF_GRAPH_FIXTURE_H
#define LF_GRAPH_FIXTURE_H

#include <stdint.h>

#include "../../graph/dominators.h"
#include "../../graph/domtree.h"
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

/* 64-bit sizes in graph/'s 4-byte form (sizes.h), in a copy of the test's. */
typedef struct test_sizes {
    lf_sizes sizes;
    uint32_t *narrow;
    lf_size_table big;
} test_sizes;
const lf_sizes *test_sizes_make(test_sizes *t, const uint64_t *wide, uint32_t n);
void test_sizes_free(test_sizes *t);
/* Whether two sizes say the same for nodes 0 .. n-1, big table included. */
int test_sizes_equal(const lf_sizes *a, const lf_sizes *b, uint32_t n);

/* graph/'s calls with 64-bit sizes in and out, so that tests state sizes
 * as numbers: the narrow form and its big table are made and read here. */
int test_dominators(const lf_graph *g, const uint64_t *shallow, unsigned flags, uint32_t *idom,
                    uint64_t *retained, lf_dominator_result *result, const lf_graph_progress *progress);
int test_domtree_build(uint32_t n, const uint32_t *idom, const uint64_t *retained, unsigned threads,
                       lf_domtree *tree, const lf_graph_progress *progress);
int test_class_retained(const uint32_t *child_offset, const uint32_t *child, uint32_t n,
                        const uint32_t *object_class, uint32_t class_count, const uint64_t *retained,
                        const uint64_t *skip_empty_of, uint64_t *class_retained);

#endif
