/* test_gcdump.c - the .gcdump reader on dumps made to order (gcdump_writer.c)
 * with hand-computed answers, on every cut of one, and on a real dotnet-gcdump
 * file's retained sizes against the reference dominators. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/gcdump/gcdump.h"
#include "../../core/input/open.h"
#include "gcdump_writer.h"
#include "graph_fixture.h"
#include "test.h"
#include "tests.h"

/* The hand graph (docs/DOTNET.md's rules, worked by hand):
 *   node 0 [.NET Roots] -> 1 [static vars], 3 [local vars], 5 [other roots]
 *   1 -> 2 [static var System.Collections.Generic.List<Acme.Node>.Nodes] -> 6
 *   3 -> 7, 7, 12 (UNDEFINED at address 0: nothing)
 *   5 -> 4 [strong Handles] -> 8
 *   6 Acme.Node @0x1000 24 B -> 7, 9
 *   7 Acme.Node @0x1020 40 B (its own size) -> 6, 11 (UNDEFINED at 0x9000: dangling)
 *   8 System.Byte[] (Bytes > 1K) @0x2000 2,024 B
 *   9 Acme.Program+[]c__DisplayClass0_0 @0x3000 32 B -> 10
 *   10 System.Int32<,> @0x4000 56 B */
static const gw_type hand_types[] = {
    {"UNDEFINED", 0},
    {"Acme.Node", 24},
    {"System.Byte[] (Bytes > 1K)", 2024},
    {"Acme.Program+[]c__DisplayClass0_0", 32},
    {"System.Int32<,>", 56},
    {"[.NET Roots]", 0},
    {"[static vars]", 0},
    {"[static var System.Collections.Generic.List<Acme.Node>.Nodes]", 0},
    {"[local vars]", 0},
    {"[other roots]", 0},
    {"[strong Handles]", 0},
};
static const uint32_t c0[] = {1, 3, 5}, c1[] = {2}, c2[] = {6}, c3[] = {7, 7, 12}, c4[] = {8}, c5[] = {4},
                      c6[] = {7, 9}, c7[] = {6, 11}, c9[] = {10};
static const gw_node hand_nodes[] = {
    {5, -1, 0, 3, c0},       {6, -1, 0, 1, c1},      {7, -1, 0, 1, c2},  {8, -1, 0, 3, c3},
    {10, -1, 0, 1, c4},      {9, -1, 0, 1, c5},      {1, -1, 0x1000, 2, c6}, {1, 40, 0x1020, 2, c7},
    {2, -1, 0x2000, 0, NULL}, {3, -1, 0x3000, 1, c9}, {4, -1, 0x4000, 0, NULL}, {0, -1, 0x9000, 0, NULL},
    {0, -1, 0, 0, NULL},
};
#define HAND_NODES (sizeof hand_nodes / sizeof hand_nodes[0])
#define HAND_TYPES (sizeof hand_types / sizeof hand_types[0])

static int parse(const gw_buf *b, lf_snapshot *s, lf_error *err)
{
    return lf_gcdump_parse(b->data, b->len, NULL, s, err);
}

static int64_t node_of(const lf_snapshot *s, uint64_t id)
{
    uint32_t n = lf_snapshot_find_id(s, id);
    return n == LF_NODE_NONE ? -1 : (int64_t)n;
}

static int str_is(lf_str s, const char *want)
{
    return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

static int has_root(const lf_snapshot *s, uint64_t id, const char *kind, const char *name)
{
    for (uint32_t r = 0; r < s->root_count; r++)
        if (lf_snapshot_object_id(s, s->root[r].node) == id &&
            str_is(lf_snapshot_string(s, s->root[r].kind), kind) &&
            str_is(lf_snapshot_string(s, s->root[r].name), name))
            return 1;
    return 0;
}

static void check_hand_objects(const lf_snapshot *s)
{
    static const struct {
        uint64_t id;
        uint64_t shallow;
        const char *cls;
    } want[] = {{0x1000, 24, "Acme.Node"},
                {0x1020, 40, "Acme.Node"},
                {0x2000, 2024, "System.Byte[]"},
                {0x3000, 32, "Acme.Program+<>c__DisplayClass0_0"},
                {0x4000, 56, "System.Int32[,]"}};
    CHECK(s->object_count == 5);
    CHECK(s->class_count == 4); /* the synthetic nodes' types make no class */
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int64_t n = node_of(s, want[i].id);
        CHECK(n >= 0);
        if (n < 0)
            continue;
        CHECK(lf_snapshot_shallow(s, (uint32_t)n) == want[i].shallow);
        CHECK(str_is(lf_snapshot_class_name(s, s->object_class[n]), want[i].cls));
    }
}

static void check_hand_references(const lf_snapshot *s)
{
    int64_t a = node_of(s, 0x1000), b = node_of(s, 0x1020), c = node_of(s, 0x3000), d = node_of(s, 0x4000);
    CHECK(s->edge_count == 4);
    CHECK(s->stats.dangling_edges == 1); /* 0x1020 -> 0x9000, never described */
    CHECK(lf_snapshot_find_edge(s, (uint32_t)a, (uint32_t)b) != UINT64_MAX);
    CHECK(lf_snapshot_find_edge(s, (uint32_t)a, (uint32_t)c) != UINT64_MAX);
    CHECK(lf_snapshot_find_edge(s, (uint32_t)b, (uint32_t)a) != UINT64_MAX);
    CHECK(lf_snapshot_find_edge(s, (uint32_t)c, (uint32_t)d) != UINT64_MAX);
    CHECK(s->flags & LF_SNAP_NO_FIELD_NAMES);
}

static void check_hand_roots(const lf_snapshot *s)
{
    CHECK(has_root(s, 0x1000, "static field", "Nodes"));
    CHECK(has_root(s, 0x1020, "local", ""));
    CHECK(has_root(s, 0x2000, "strong handle", ""));
    for (uint32_t r = 0; r < s->root_count; r++) /* none other */
        CHECK(has_root(s, 0x1000, "static field", "Nodes") &&
              (lf_snapshot_object_id(s, s->root[r].node) == 0x1000 ||
               lf_snapshot_object_id(s, s->root[r].node) == 0x1020 ||
               lf_snapshot_object_id(s, s->root[r].node) == 0x2000));
}

void test_gcdump_hand_graph(void)
{
    gw_buf b = {0};
    CHECK(gw_write_dump(&b, 10, hand_types, HAND_TYPES, hand_nodes, HAND_NODES, -1) == 0);
    lf_snapshot s;
    lf_error err;
    CHECK(lf_gcdump_detect(b.data, b.len));
    if (parse(&b, &s, &err) != 0) {
        char msg[800];
        lf_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "  %s\n", msg);
        CHECK(0);
        gw_free(&b);
        return;
    }
    CHECK(s.format == LF_FORMAT_GCDUMP);
    check_hand_objects(&s);
    check_hand_references(&s);
    check_hand_roots(&s);
    /* retained: 0x1000 holds the closure and its array (0x1020 is a root
     * of its own): 24 + 32 + 56 */
    CHECK(lf_analyze(&s, 0, 1, &err) == 0);
    CHECK(lf_snapshot_retained(&s, (uint32_t)node_of(&s, 0x1000)) == 112);
    CHECK(lf_snapshot_retained(&s, (uint32_t)node_of(&s, 0x1020)) == 40);
    lf_snapshot_free(&s);
    gw_free(&b);
}

static void expect_error(const gw_buf *b, const char *reason, const char *detail_part)
{
    lf_snapshot s;
    lf_error err;
    memset(&err, 0, sizeof err);
    int rc = parse(b, &s, &err);
    CHECK(rc != 0);
    if (rc == 0) {
        lf_snapshot_free(&s);
        return;
    }
    CHECK(err.kind == LF_ERR_INPUT);
    CHECK(strcmp(err.reason, reason) == 0);
    if (!strstr(err.detail, detail_part)) {
        fprintf(stderr, "  detail '%s' lacks '%s'\n", err.detail, detail_part);
        CHECK(0);
    }
}

void test_gcdump_errors(void)
{
    gw_buf b = {0};
    CHECK(gw_write_dump(&b, 8, hand_types, HAND_TYPES, hand_nodes, HAND_NODES, -1) == 0);
    expect_error(&b, "unsupported .gcdump", "GCHeapDump version 8");
    gw_free(&b);
    CHECK(gw_write_dump(&b, 10, hand_types, HAND_TYPES, hand_nodes, HAND_NODES, 9999) == 0);
    expect_error(&b, "bad .gcdump", "the graph's total size says 9999 bytes, its nodes add up to 2176");
    gw_free(&b);
    /* a child out of range: node 6's first child 7 becomes 7 + 100 */
    uint32_t far[] = {107, 9};
    gw_node bad[HAND_NODES];
    memcpy(bad, hand_nodes, sizeof bad);
    bad[6].child = far;
    CHECK(gw_write_dump(&b, 10, hand_types, HAND_TYPES, bad, HAND_NODES, -1) == 0);
    expect_error(&b, "bad .gcdump", "node 6's child 107, of 13 nodes");
    gw_free(&b);
}

/* Every cut of the file fails with an input error, none crashes. */
void test_gcdump_every_cut(void)
{
    gw_buf b = {0};
    CHECK(gw_write_dump(&b, 10, hand_types, HAND_TYPES, hand_nodes, HAND_NODES, -1) == 0);
    for (size_t cut = 0; cut < b.len; cut++) {
        lf_snapshot s;
        lf_error err;
        int rc = lf_gcdump_parse(b.data, cut, NULL, &s, &err);
        if (rc == 0) {
            fprintf(stderr, "  a cut at %zu of %zu parsed\n", cut, b.len);
            lf_snapshot_free(&s);
        }
        CHECK(rc != 0 && err.kind == LF_ERR_INPUT);
    }
    gw_free(&b);
}

/* A real dump (fixtures/dotnet): retained sizes as the reference
 * dominators (Cooper-Harvey-Kennedy, graph_fixture.c) give them. */
void test_gcdump_retained_vs_reference(void)
{
    lf_snapshot s;
    lf_error err;
    if (lf_open("fixtures/dotnet/dumps/leaky.3.gcdump", NULL, &s, &err) != 0 || lf_analyze(&s, 0, 1, &err) != 0) {
        CHECK(0);
        return;
    }
    lf_graph g = lf_snapshot_graph(&s);
    uint32_t n = s.object_count;
    uint32_t *roots = malloc(((size_t)s.root_count + 1) * sizeof *roots);
    for (uint32_t r = 0; roots && r < s.root_count; r++)
        roots[r] = s.root[r].node;
    g.root_count = s.root_count;
    g.root_node = roots;
    uint32_t *idom = malloc((size_t)n * sizeof *idom);
    uint64_t *shallow = malloc((size_t)n * sizeof *shallow), *ret = malloc((size_t)n * sizeof *ret);
    CHECK(idom && shallow && ret && roots);
    if (idom && shallow && ret && roots) {
        for (uint32_t v = 0; v < n; v++)
            shallow[v] = lf_snapshot_shallow(&s, v);
        reference_idom_chk(&g, idom);
        reference_retained(n, idom, shallow, ret);
        uint32_t wrong = 0;
        for (uint32_t v = 0; v < n; v++)
            if (ret[v] != lf_snapshot_retained(&s, v) && wrong++ < 3)
                fprintf(stderr, "  node %u: retained %llu, the reference %llu (idom %u, ours %u)\n", v,
                        (unsigned long long)lf_snapshot_retained(&s, v), (unsigned long long)ret[v],
                        idom[v], s.idom[v]);
        CHECK(wrong == 0);
        CHECK(n > 6000);
    }
    free(idom);
    free(shallow);
    free(ret);
    free(roots);
    lf_snapshot_free(&s);
}
