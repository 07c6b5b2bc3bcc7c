/* test_root_paths.c - the roots' levels (graph/root_levels.h), the leveled
 * search against the full one, and many targets' merged paths
 * (lf_merge_targets) against the searches one at a time. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/merged_paths.h"
#include "../../core/textgraph/textgraph.h"
#include "../../graph/root_levels.h"
#include "graph_fixture.h"
#include "test.h"
#include "tests.h"

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* A path search over t's graph with its roots. */
typedef struct searcher {
    lf_reverse rev;
    uint8_t *is_root;
    lf_path_search ps;
    uint32_t *level, *queue;
} searcher;

static void searcher_init(searcher *x, const test_graph *t, const uint32_t *roots, uint32_t root_count)
{
    const uint32_t n = t->g.node_count;
    CHECK(lf_reverse_build(&t->g, &x->rev) == 0);
    x->is_root = calloc(n / 8 + 1, 1);
    for (uint32_t r = 0; r < root_count; r++)
        x->is_root[roots[r] / 8] |= (uint8_t)(1u << (roots[r] % 8));
    CHECK(lf_path_search_init(&x->ps, &x->rev, x->is_root) == 0);
    x->level = malloc((n + 1) * sizeof *x->level);
    x->queue = malloc((n + 1) * sizeof *x->queue);
}

static void searcher_free(searcher *x)
{
    lf_path_search_free(&x->ps);
    lf_reverse_free(&x->rev);
    free(x->is_root);
    free(x->level);
    free(x->queue);
}

/* Roots 0 and 5. 3 is reached from 0 through 1 or 2 (a tie: 1's edge is
 * listed first), 4 from root 5 directly and from 3, 6 only through 4, 7
 * only through a weak reference. */
void test_root_levels_hand(void)
{
    const uint32_t edges[] = {0, 1, 0, 2, 1, 3, 2, 3, 3, 4, 5, 4, 4, 6, 0, 7};
    const uint8_t weak[] = {0, 0, 0, 0, 0, 0, 0, 1};
    const uint32_t roots[] = {0, 5};
    test_graph t;
    test_graph_build(&t, 8, edges, weak, 8, roots, 2);
    searcher x;
    searcher_init(&x, &t, roots, 2);
    lf_root_levels(&t.g, x.is_root, NULL, NULL, x.level, x.queue);
    const uint32_t want[] = {0, 1, 1, 2, 1, 0, 2, LF_LEVEL_NONE};
    for (uint32_t v = 0; v < 8; v++)
        CHECK_EQ_U64(x.level[v], want[v]);
    /* sole nearer predecessors: 3 has two (1 and 2), 4 only root 5 (3 is
     * further), 6 only 4 */
    CHECK_EQ_U64(lf_sole_nearer_predecessor(&x.rev, x.level, 3, NULL, NULL), LF_NODE_NONE);
    CHECK_EQ_U64(lf_sole_nearer_predecessor(&x.rev, x.level, 4, NULL, NULL), 5);
    CHECK_EQ_U64(lf_sole_nearer_predecessor(&x.rev, x.level, 6, NULL, NULL), 4);
    CHECK_EQ_U64(lf_sole_nearer_predecessor(&x.rev, x.level, 1, NULL, NULL), 0);
    CHECK_EQ_U64(lf_sole_nearer_predecessor(&x.rev, x.level, 0, NULL, NULL), LF_NODE_NONE);
    CHECK_EQ_U64(lf_sole_nearer_predecessor(&x.rev, x.level, 7, NULL, NULL), LF_NODE_NONE);
    uint32_t path[8];
    CHECK_EQ_U64(lf_shortest_root_path_leveled(&x.ps, x.level, 3, NULL, NULL, path), 3);
    CHECK(path[0] == 0 && path[1] == 1 && path[2] == 3);
    CHECK_EQ_U64(lf_shortest_root_path_leveled(&x.ps, x.level, 6, NULL, NULL, path), 3);
    CHECK(path[0] == 5 && path[1] == 4 && path[2] == 6);
    CHECK_EQ_U64(lf_shortest_root_path_leveled(&x.ps, x.level, 7, NULL, NULL, path), 0);
    searcher_free(&x);
    test_graph_free(&t);
}

/* An exclusion for the random graphs: edges whose ends sum to a multiple of 7. */
static int not_sevens(void *ctx, uint32_t from, uint32_t to)
{
    (void)ctx;
    return (from + to) % 7 != 0;
}

/* Random graphs, with cycles, weak edges, several roots and an exclusion:
 * every node's leveled path is the full search's, and a node's path is its
 * sole nearer predecessor's with the node appended. */
void test_root_paths_random_vs_search(void)
{
    rng = 88172645463325252ull;
    uint64_t wrong = 0, compared = 0, continued = 0;
    for (int round = 0; round < 300; round++) {
        const uint32_t n = 2 + rnd(60), m = rnd(n * 3), root_count = 1 + rnd(3);
        uint32_t *edges = malloc((2 * (size_t)m + 2) * sizeof *edges), roots[3];
        uint8_t *weak = malloc((size_t)m + 1);
        for (uint32_t i = 0; i < m; i++) {
            edges[2 * i] = rnd(n);
            edges[2 * i + 1] = rnd(n);
            weak[i] = rnd(6) == 0;
        }
        for (uint32_t r = 0; r < root_count; r++)
            roots[r] = rnd(n);
        test_graph t;
        test_graph_build(&t, n, edges, weak, m, roots, root_count);
        searcher x;
        searcher_init(&x, &t, roots, root_count);
        lf_edge_filter filter = round % 2 ? not_sevens : NULL;
        lf_root_levels(&t.g, x.is_root, filter, NULL, x.level, x.queue);
        uint32_t *full = malloc((n + 1) * sizeof *full), *leveled = malloc((n + 1) * sizeof *leveled);
        uint32_t *before = malloc((n + 1) * sizeof *before);
        for (uint32_t v = 0; v < n; v++) {
            int64_t a = lf_shortest_root_path(&x.ps, v, 0, filter, NULL, full);
            int64_t b = lf_shortest_root_path_leveled(&x.ps, x.level, v, filter, NULL, leveled);
            compared++;
            wrong += a != b || (a > 0 && memcmp(full, leveled, (size_t)a * sizeof *full) != 0);
            wrong += a > 0 ? x.level[v] != (uint64_t)a - 1 : x.level[v] != LF_LEVEL_NONE;
            uint32_t p = lf_sole_nearer_predecessor(&x.rev, x.level, v, filter, NULL);
            if (p == LF_NODE_NONE || a == 0)
                continue;
            int64_t c = lf_shortest_root_path(&x.ps, p, 0, filter, NULL, before);
            continued++;
            wrong += c + 1 != a || memcmp(before, full, (size_t)c * sizeof *full) != 0 || full[a - 1] != v;
        }
        free(full), free(leveled), free(before);
        searcher_free(&x);
        test_graph_free(&t);
        free(edges), free(weak);
    }
    CHECK_EQ_U64(wrong, 0);
    CHECK(compared > 5000 && continued > 1000); /* the cases came up */
}

/* A text graph (core/textgraph) of: a doubly linked list of `links` Link
 * objects under root Head (each references the next and the one before),
 * an Object[] of `items` Item objects under root Box, each Item also
 * referencing the next Item, and a ring of Spin objects no root reaches. */
static char *lists_graph(uint32_t links, uint32_t items)
{
    size_t cap = 200 + (size_t)(links + items + 8) * 120, at = 0;
    char *text = malloc(cap);
    at += (size_t)snprintf(text + at, cap - at,
                           "node\t1\t16\tHead\nroot\t1\tstatic field\tList.head\n"
                           "node\t2\t16\tBox\nroot\t2\tstatic field\tBox.it\n"
                           "node\t3\t4016\tjava.lang.Object[]\nedge\t2\t3\tstrong\titems\n"
                           "node\t4\t16\tSpin\nnode\t5\t16\tSpin\nedge\t4\t5\tstrong\tnext\nedge\t5\t4\tstrong\tnext\n");
    for (uint32_t i = 0; i < links; i++) {
        at += (size_t)snprintf(text + at, cap - at, "node\t%u\t24\tLink\n", 100 + i);
        if (i == 0)
            at += (size_t)snprintf(text + at, cap - at, "edge\t1\t100\tstrong\tfirst\n");
        else
            at += (size_t)snprintf(text + at, cap - at, "edge\t%u\t%u\tstrong\tnext\nedge\t%u\t%u\tstrong\tprev\n",
                                   99 + i, 100 + i, 100 + i, 99 + i);
    }
    for (uint32_t i = 0; i < items; i++) {
        at += (size_t)snprintf(text + at, cap - at, "node\t%u\t24\tItem\nedge\t3\t%u\tstrong\t[%u]\n",
                               1000000 + i, 1000000 + i, i);
        if (i > 0)
            at += (size_t)snprintf(text + at, cap - at, "edge\t%u\t%u\tstrong\tnext\n", 999999 + i, 1000000 + i);
    }
    return text;
}

/* The node of every object of class `name`, in node order; how many. */
static size_t of_class(const lf_snapshot *s, const char *name, uint32_t *out)
{
    size_t n = 0;
    for (uint32_t v = 0; v < s->object_count; v++) {
        lf_str c = lf_snapshot_class_name(s, s->object_class[v]);
        if (c.len == strlen(name) && memcmp(c.ptr, name, c.len) == 0)
            out[n++] = v;
    }
    return n;
}

static int same_tree(const lf_merge_tree *a, const lf_merge_tree *b)
{
    if (a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->count; i++) {
        const lf_merge_node *x = &a->node[i], *y = &b->node[i];
        if (x->object != y->object || x->parent != y->parent || x->count != y->count || x->from != y->from ||
            x->links != y->links || x->weak != y->weak || x->folded != y->folded)
            return 0;
    }
    return 1;
}

/* Heard of the targets without a strong path. */
typedef struct heard {
    uint32_t target[8];
    int weak[8];
    unsigned n;
} heard;

static void hear(void *ctx, uint32_t target, int weak)
{
    heard *h = ctx;
    if (h->n < 8) {
        h->target[h->n] = target;
        h->weak[h->n++] = weak;
    }
}

/* The merged tree of many targets: the leveled searches build the tree the
 * searches one at a time build, node for node, grouped and not; and the
 * counts are the construction's. */
void test_merge_targets_leveled_vs_each(void)
{
    const uint32_t links = 3000, items = 200;
    char *text = lists_graph(links, items);
    lf_snapshot s;
    lf_error err;
    CHECK(lf_textgraph_parse((const uint8_t *)text, strlen(text), &s, &err) == 0);
    free(text);
    lf_graph g = lf_snapshot_graph(&s);
    lf_reverse rev;
    CHECK(lf_reverse_build(&g, &rev) == 0);
    uint8_t *is_root = calloc(s.object_count / 8 + 1, 1);
    for (uint32_t r = 0; r < s.root_count; r++)
        is_root[s.root[r].node / 8] |= (uint8_t)(1u << (s.root[r].node % 8));
    lf_path_search ps;
    CHECK(lf_path_search_init(&ps, &rev, is_root) == 0);
    uint32_t *target = malloc(((size_t)s.object_count + 4) * sizeof *target);
    /* the list's links last first (each search from the far end), the
     * items, and the unreachable ring twice */
    size_t n = of_class(&s, "Link", target);
    CHECK_EQ_U64(n, links);
    for (size_t i = 0; i < n / 2; i++) {
        uint32_t swap = target[i];
        target[i] = target[n - 1 - i];
        target[n - 1 - i] = swap;
    }
    n += of_class(&s, "Item", target + n);
    size_t spins = of_class(&s, "Spin", target + n);
    CHECK_EQ_U64(spins, 2);
    n += spins;
    for (int group = 0; group <= 1; group++) {
        lf_merge_tree each = {0}, leveled = {0}, switched = {0};
        heard heard_each = {{0}, {0}, 0}, heard_leveled = {{0}, {0}, 0}, heard_switched = {{0}, {0}, 0};
        CHECK_EQ_U64(lf_merge_targets(&each, &s, &ps, target, n, NULL, NULL, group, -1, hear, &heard_each),
                     links + items);
        CHECK_EQ_U64(lf_merge_targets(&leveled, &s, &ps, target, n, NULL, NULL, group, 1, hear, &heard_leveled),
                     links + items);
        /* one at a time until the searches have cost a pass: the first few links */
        CHECK_EQ_U64(lf_merge_targets(&switched, &s, &ps, target, n, NULL, NULL, group, 0, hear, &heard_switched),
                     links + items);
        lf_merge_finish(&each);
        lf_merge_finish(&leveled);
        lf_merge_finish(&switched);
        CHECK(same_tree(&each, &leveled));
        CHECK(same_tree(&each, &switched));
        CHECK(heard_switched.n == heard_each.n &&
              memcmp(heard_switched.target, heard_each.target, sizeof heard_each.target) == 0);
        CHECK_EQ_U64(heard_leveled.n, 2);
        CHECK(heard_leveled.n == heard_each.n &&
              memcmp(heard_leveled.target, heard_each.target, sizeof heard_each.target) == 0);
        CHECK(heard_leveled.weak[0] == 0 && heard_leveled.weak[1] == 0);
        /* the roots' nodes: Head with every link's path, Box with every item's */
        uint32_t head_count = 0, box_count = 0, chain = 0;
        for (size_t i = 0; i < leveled.count; i++) {
            const lf_merge_node *m = &leveled.node[i];
            lf_str c = lf_snapshot_class_name(&s, s.object_class[m->object]);
            if (m->parent == LF_MERGE_NONE && c.len == 4 && memcmp(c.ptr, "Head", 4) == 0)
                head_count = m->count;
            if (m->parent == LF_MERGE_NONE && c.len == 3 && memcmp(c.ptr, "Box", 3) == 0)
                box_count = m->count;
            if (m->links > chain)
                chain = m->links;
        }
        CHECK_EQ_U64(head_count, links);
        CHECK_EQ_U64(box_count, items);
        /* grouped, the list is one node, its chain all the links; not
         * grouped, one node per link (and per item, the array and the roots) */
        CHECK_EQ_U64(chain, group ? links : 0);
        if (!group)
            CHECK_EQ_U64(leveled.count, 2 + links + 1 + items);
        lf_merge_free(&each);
        lf_merge_free(&leveled);
        lf_merge_free(&switched);
    }
    free(target);
    lf_path_search_free(&ps);
    free(is_root);
    lf_reverse_free(&rev);
    lf_snapshot_free(&s);
}
