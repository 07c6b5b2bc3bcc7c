/* test_builder.c - the id map and the builder's two ways of placing edges. */
#include <stdlib.h>

#include "../../core/model/builder.h"
#include "../../core/model/idmap.h"
#include "../../graph/graph.h"
#include "test.h"
#include "tests.h"

/* 300,000 ids through many grows: addresses (multiples of 8), small integers
 * and ids equal modulo every table size (they share a home slot). */
static uint64_t nth_id(uint32_t i)
{
    switch (i % 3) {
    case 0: return 0x7f0000001000ull + 24ull * i;
    case 1: return i;
    default: return (uint64_t)i << 40;
    }
}

void test_idmap(void)
{
    lf_idmap m;
    lf_idmap_init(&m);
    const uint32_t n = 300000;
    CHECK(lf_idmap_get(&m, 5) == LF_IDMAP_NONE);
    int added_all = 1;
    for (uint32_t i = 0; i < n; i++)
        added_all &= lf_idmap_add(&m, nth_id(i), i) == 0;
    CHECK(added_all);
    CHECK_EQ_U64(m.count, n);
    uint32_t found = 0, repeats = 0;
    for (uint32_t i = 0; i < n; i++) {
        found += lf_idmap_get(&m, nth_id(i)) == i;
        repeats += lf_idmap_add(&m, nth_id(i), 7) == 1;
    }
    CHECK_EQ_U64(found, n);
    CHECK_EQ_U64(repeats, n);
    CHECK_EQ_U64(m.count, n);
    CHECK(lf_idmap_get(&m, 0x7f0000001000ull + 8) == LF_IDMAP_NONE); /* between addresses */
    CHECK(lf_idmap_get(&m, (uint64_t)(n + 1) << 40) == LF_IDMAP_NONE);
    CHECK(lf_idmap_get(&m, nth_id(4)) == 4);
    lf_idmap_free(&m);
}

/* A reserved map takes its ids without growing; a reserve below what it holds
 * changes nothing, one above it keeps every entry. */
void test_idmap_reserve(void)
{
    lf_idmap m;
    lf_idmap_init(&m);
    CHECK(lf_idmap_reserve(&m, 100000) == 0);
    uint64_t slots = m.mask + 1;
    CHECK(slots * 5 >= 100000 * 8);
    for (uint32_t i = 0; i < 100000; i++)
        lf_idmap_add(&m, nth_id(i), i);
    CHECK_EQ_U64(m.mask + 1, slots);
    CHECK(lf_idmap_reserve(&m, 10) == 0);
    CHECK_EQ_U64(m.mask + 1, slots);
    CHECK(lf_idmap_reserve(&m, 1000000) == 0);
    CHECK(m.mask + 1 > slots);
    uint32_t found = 0;
    for (uint32_t i = 0; i < 100000; i++)
        found += lf_idmap_get(&m, nth_id(i)) == i;
    CHECK_EQ_U64(found, 100000);
    CHECK_EQ_U64(m.count, 100000);
    lf_idmap_free(&m);
}

/* Objects 10, 20, 30 (nodes 0, 1, 2). Edges: in order (each after its
 * source object, as the OCaml agent gives them) or not (sources 30, 10, 20,
 * the first before any object exists); one dangling edge in each. The
 * snapshot is the same: node 0 -> 1 (element 0) and -> 2 (weak, element 1),
 * node 1 -> 0 (element 5), node 2 -> 2 (element 9). */
static void build(int in_order, lf_snapshot *s)
{
    lf_builder *b = lf_builder_new();
    lf_error err;
    int64_t cls = lf_builder_class(b, "C", 1);
    CHECK(cls == 0);
    if (in_order) {
        /* as the OCaml agent does: a hint, here below what comes */
        CHECK(lf_builder_reserve(b, 2, 1) == 0);
        CHECK(lf_builder_object(b, 10, 0, 8) == 0);
        CHECK(lf_builder_edge(b, 10, 20, 0, LF_EDGE_KIND_ELEMENT, 0) == 0);
        CHECK(lf_builder_edge(b, 10, 99, 0, LF_EDGE_KIND_ELEMENT, 3) == 0); /* dangling */
        CHECK(lf_builder_edge(b, 10, 30, 1, LF_EDGE_KIND_ELEMENT, 1) == 0);
        CHECK(lf_builder_object(b, 20, 0, 8) == 0);
        CHECK(lf_builder_edge(b, 20, 10, 0, LF_EDGE_KIND_ELEMENT, 5) == 0);
        CHECK(lf_builder_object(b, 30, 0, 8) == 0);
        CHECK(lf_builder_edge(b, 30, 30, 0, LF_EDGE_KIND_ELEMENT, 9) == 0);
    } else {
        CHECK(lf_builder_edge(b, 30, 30, 0, LF_EDGE_KIND_ELEMENT, 9) == 0);
        CHECK(lf_builder_object(b, 10, 0, 8) == 0);
        CHECK(lf_builder_object(b, 20, 0, 8) == 0);
        CHECK(lf_builder_edge(b, 10, 20, 0, LF_EDGE_KIND_ELEMENT, 0) == 0);
        CHECK(lf_builder_edge(b, 20, 10, 0, LF_EDGE_KIND_ELEMENT, 5) == 0);
        CHECK(lf_builder_edge(b, 98, 10, 0, LF_EDGE_KIND_ELEMENT, 4) == 0); /* dangling */
        CHECK(lf_builder_edge(b, 10, 30, 1, LF_EDGE_KIND_ELEMENT, 1) == 0);
        CHECK(lf_builder_object(b, 30, 0, 8) == 0);
    }
    CHECK(lf_builder_object(b, 20, 0, 8) == LF_BUILDER_DUPLICATE);
    CHECK(lf_builder_finish(b, s, &err) == 0);
}

void test_builder_edge_orders(void)
{
    for (int in_order = 0; in_order < 2; in_order++) {
        lf_snapshot s;
        build(in_order, &s);
        CHECK_EQ_U64(s.object_count, 3);
        CHECK_EQ_U64(s.edge_count, 4);
        CHECK_EQ_U64(s.stats.dangling_edges, 1);
        static const uint64_t offset[] = {0, 2, 3, 4};
        static const uint32_t target[] = {1, 2 | LF_EDGE_WEAK, 0, 2};
        static const uint32_t label[] = {0, 1, 5, 9};
        for (int v = 0; v < 4; v++)
            CHECK_EQ_U64(lf_snapshot_edges_begin(&s, v), offset[v]);
        for (int e = 0; e < 4; e++) {
            CHECK_EQ_U64(s.edge_target[e], target[e]);
            CHECK_EQ_U64(s.edge_label[e], label[e]);
            CHECK_EQ_U64(s.edge_kind[e], LF_EDGE_KIND_ELEMENT);
        }
        lf_snapshot_free(&s);
    }
}

/* Ids 0, 1, 2 in order need no id table; a repeated id is still a duplicate,
 * and a later id out of that order (100) moves them all into the table:
 * edges given before and after resolve the same. Nodes: 0, 1, 2, 100 -> 3. */
void test_builder_dense_ids(void)
{
    lf_builder *b = lf_builder_new();
    lf_error err;
    lf_snapshot s;
    CHECK(lf_builder_class(b, "C", 1) == 0);
    CHECK(lf_builder_reserve(b, 3, 3) == 0);
    CHECK(lf_builder_object(b, 0, 0, 8) == 0);
    CHECK(lf_builder_edge(b, 0, 2, 0, LF_EDGE_KIND_ELEMENT, 0) == 0);
    CHECK(lf_builder_object(b, 1, 0, 8) == 0);
    CHECK(lf_builder_edge(b, 1, 100, 0, LF_EDGE_KIND_ELEMENT, 1) == 0);
    CHECK(lf_builder_object(b, 2, 0, 8) == 0);
    CHECK(lf_builder_object(b, 1, 0, 8) == LF_BUILDER_DUPLICATE);
    CHECK(lf_builder_object(b, 100, 0, 8) == 0);
    CHECK(lf_builder_edge(b, 100, 0, 0, LF_EDGE_KIND_ELEMENT, 2) == 0);
    CHECK(lf_builder_edge(b, 2, 7, 0, LF_EDGE_KIND_ELEMENT, 3) == 0); /* dangling */
    CHECK(lf_builder_finish(b, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 4);
    CHECK_EQ_U64(s.stats.dangling_edges, 1);
    uint64_t offset[] = {0, 1, 2, 2, 3};
    uint32_t target[] = {2, 3, 0};
    for (uint32_t v = 0; v <= 4; v++)
        CHECK_EQ_U64(lf_snapshot_edges_begin(&s, v), offset[v]);
    for (uint32_t e = 0; e < 3; e++)
        CHECK_EQ_U64(lf_edge_node(s.edge_target[e]), target[e]);
    lf_snapshot_free(&s);
}
