/* test_dominators.c - Lengauer-Tarjan against reference algorithms. */
#include <stdlib.h>
#include <string.h>

#include "../../graph/dominators.h"
#include "../../graph/halves.h"
#include "../../graph/domtree.h"
#include "../../graph/paths.h"
#include "graph_fixture.h"
#include "test.h"
#include "tests.h"

#define S LF_NODE_SUPER
#define X LF_NODE_NONE

static void run(test_graph *t, unsigned flags, uint32_t *idom, uint64_t *retained)
{
    lf_dominator_result r;
    CHECK(test_dominators(&t->g, t->shallow, flags, idom, retained, &r, NULL) == 0);
}

/* The diamond 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3 from root 0; node 4 is
 * unreachable. */
static const uint32_t diamond_edges[] = {0, 1, 0, 2, 1, 3, 2, 3, 4, 0};
static const uint32_t diamond_roots[] = {0};

/* Builds the graph of n nodes (at most 5), computes its dominators and checks
 * every node's idom and retained size (shallow size 1 each) against the
 * hand-computed want and want_ret. */
static void check_hand_graph(uint32_t n, const uint32_t *e, const uint8_t *weak, uint64_t m,
                             const uint32_t *roots, uint32_t root_count, const uint32_t *want,
                             const uint64_t *want_ret)
{
    test_graph t;
    test_graph_build(&t, n, e, weak, m, roots, root_count);
    uint32_t idom[5];
    uint64_t ret[5];
    run(&t, 0, idom, ret);
    for (uint32_t i = 0; i < n; i++) {
        CHECK_EQ_U64(idom[i], want[i]);
        CHECK_EQ_U64(ret[i], want_ret[i]);
    }
    test_graph_free(&t);
}

void test_dominators_hand_graphs(void)
{
    /* The diamond. */
    {
        uint32_t want[] = {S, 0, 0, 0, X};
        uint64_t want_ret[] = {4, 1, 1, 1, 0};
        check_hand_graph(5, diamond_edges, NULL, 5, diamond_roots, 1, want, want_ret);
    }
    /* Cycle through the root: 0 -> 1 -> 2 -> 0, 2 -> 3; root 0. */
    {
        uint32_t e[] = {0, 1, 1, 2, 2, 0, 2, 3};
        uint32_t roots[] = {0};
        uint32_t want[] = {S, 0, 1, 2};
        uint64_t want_ret[] = {4, 3, 2, 1};
        check_hand_graph(4, e, NULL, 4, roots, 1, want, want_ret);
    }
    /* Weakly-held cache: root 0 -> cache 1 -weak-> 2; 3 (root) -> 2 strongly.
     * 2 is owned by 3, not by the cache; 4 only weakly held: unreachable. */
    {
        uint32_t e[] = {0, 1, 1, 2, 3, 2, 1, 4};
        uint8_t weak[] = {0, 1, 0, 1};
        uint32_t roots[] = {0, 3};
        uint32_t want[] = {S, 0, 3, S, X};
        uint64_t want_ret[] = {2, 1, 1, 2, 0};
        check_hand_graph(5, e, weak, 4, roots, 2, want, want_ret);
    }
    /* Two roots sharing an object: neither root owns it, the super-root does
     * (2 retains itself and 3; each root only itself). */
    {
        uint32_t e[] = {0, 2, 1, 2, 2, 3};
        uint32_t roots[] = {0, 1, 1};
        uint32_t want[] = {S, S, S, 2};
        uint64_t want_ret[] = {1, 1, 2, 1};
        check_hand_graph(4, e, NULL, 3, roots, 3, want, want_ret);
    }
}

static uint64_t rng_state;
static uint32_t rnd(uint32_t bound)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 16) % bound);
}

/* A random graph (edge pairs e, weak flags), its reference dominators and
 * retained sizes, and room for leakfind's. */
typedef struct checked_graph {
    test_graph t;
    uint32_t *e, *idom, *ref;
    uint8_t *weak;
    uint64_t *ret, *ref_ret;
} checked_graph;

/* Builds c->t from c->e and c->weak (m edges) with random shallow sizes,
 * and computes the reference. A few sizes do not fit 4 bytes (5 GiB and
 * more), a few are 2^32 - 1 (the narrow form's marker), so that retained
 * sizes cross 4 GiB on both sides of a split. */
static void checked_graph_build(checked_graph *c, uint32_t n, uint64_t m, const uint32_t *roots,
                                uint32_t root_count)
{
    test_graph_build(&c->t, n, c->e, c->weak, m, roots, root_count);
    for (uint32_t v = 0; v < n; v++) {
        uint32_t pick = rnd(40);
        c->t.shallow[v] = pick == 0 ? 0xffffffffull : pick == 1 ? (5ull << 30) + rnd(1000) : 1 + rnd(100);
    }
    c->idom = malloc(n * sizeof *c->idom);
    c->ref = malloc(n * sizeof *c->ref);
    c->ret = malloc(n * sizeof *c->ret);
    c->ref_ret = malloc(n * sizeof *c->ref_ret);
    reference_idom_chk(&c->t.g, c->ref);
    reference_retained(n, c->ref, c->t.shallow, c->ref_ret);
}

static void checked_graph_free(checked_graph *c)
{
    free(c->idom);
    free(c->ref);
    free(c->ret);
    free(c->ref_ret);
    free(c->e);
    free(c->weak);
    test_graph_free(&c->t);
}

void test_dominators_random_vs_reference(void)
{
    int mismatches = 0;
    for (int seed = 1; seed <= 5000; seed++) {
        rng_state = 0x9e3779b97f4a7c15ull * (uint64_t)seed;
        int small = seed <= 2500; /* small graphs are also checked by definition */
        uint32_t n = small ? 1 + rnd(12) : 1 + rnd(seed % 10 == 0 ? 2000 : 200);
        uint64_t m = rnd(n * 4 + 2);
        checked_graph c;
        uint32_t *e = c.e = malloc((m + 1) * 2 * sizeof *e);
        uint8_t *weak = c.weak = malloc(m + 1);
        for (uint64_t i = 0; i < m; i++) {
            uint32_t from = rnd(n);
            /* mostly near edges (trees, chains), some far ones (sharing, cycles) */
            uint32_t to = rnd(4) ? (from + 1 + rnd(3)) % n : rnd(n);
            if (rnd(20) == 0)
                to = from; /* self-loop */
            e[2 * i] = from;
            e[2 * i + 1] = to;
            weak[i] = rnd(7) == 0;
            if (i > 0 && rnd(15) == 0) { /* duplicate edge */
                e[2 * i] = e[2 * i - 2];
                e[2 * i + 1] = e[2 * i - 1];
            }
        }
        uint32_t root_count = rnd(4) + (rnd(10) != 0);
        uint32_t roots[8];
        for (uint32_t r = 0; r < root_count; r++)
            roots[r] = rnd(n);
        checked_graph_build(&c, n, m, roots, root_count);
        run(&c.t, 0, c.idom, c.ret);
        int bad = memcmp(c.idom, c.ref, n * sizeof *c.idom) != 0 ||
                  memcmp(c.ret, c.ref_ret, n * sizeof *c.ret) != 0;
        if (small) {
            uint32_t def[64];
            reference_idom_definition(&c.t.g, def);
            bad |= memcmp(def, c.ref, n * sizeof *def) != 0;
        }
        if (bad && mismatches++ < 5)
            fprintf(stderr, "  seed %d (n=%u, m=%llu): dominators differ from the reference\n",
                    seed, n, (unsigned long long)m);
        checked_graph_free(&c);
    }
    CHECK_EQ_U64(mismatches, 0);
}

/* Graphs big enough for two threads (the predecessor listing splits its
 * target nodes by the work the DFS counted), with hubs, duplicate edges,
 * roots reached by edges and repeated in the root list, checked against the
 * reference; with LF_DOM_UNREACHED_ALONE too, where every node no root
 * reaches must come out as its own top-level entry (idom the super-root,
 * retained its own size) and the others as without the flag. */
void test_dominators_threaded_vs_reference(void)
{
    int mismatches = 0;
    for (int seed = 1; seed <= 6; seed++) {
        rng_state = 0x2545f4914f6cdd1dull * (uint64_t)seed;
        uint32_t n = LF_THREADED_MIN_NODES + rnd(3 * LF_THREADED_MIN_NODES);
        uint64_t m = 2 * (uint64_t)n + rnd(n);
        checked_graph c;
        uint32_t *e = c.e = malloc(m * 2 * sizeof *e);
        uint8_t *weak = c.weak = malloc(m);
        for (uint64_t i = 0; i < m; i++) {
            uint32_t from = rnd(n), r = rnd(10);
            /* near edges, a few hubs (class-like), far edges; some duplicates */
            uint32_t to = r < 6 ? (from + 1 + rnd(4)) % n : r < 8 ? rnd(16) * (n / 16) : rnd(n);
            if (i > 0 && rnd(12) == 0)
                from = e[2 * i - 2], to = e[2 * i - 1];
            e[2 * i] = from;
            e[2 * i + 1] = to;
            weak[i] = rnd(9) == 0;
        }
        uint32_t roots[40], root_count = 0;
        for (uint32_t r = 0; r < 32; r++)
            roots[root_count++] = rnd(n);
        roots[root_count++] = roots[3]; /* listed twice */
        roots[root_count++] = 5 * (n / 16); /* a hub */
        checked_graph_build(&c, n, m, roots, root_count);
        run(&c.t, 0, c.idom, c.ret);
        int bad = memcmp(c.idom, c.ref, n * sizeof *c.idom) != 0 ||
                  memcmp(c.ret, c.ref_ret, n * sizeof *c.ret) != 0;
        run(&c.t, LF_DOM_UNREACHED_ALONE, c.idom, c.ret);
        uint32_t alone = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (c.ref[v] == X) {
                alone++;
                bad |= c.idom[v] != S || c.ret[v] != c.t.shallow[v];
            } else {
                bad |= c.idom[v] != c.ref[v] || c.ret[v] != c.ref_ret[v];
            }
        }
        CHECK(alone > 0 && alone < n); /* the graphs have both kinds */
        if (bad && mismatches++ < 5)
            fprintf(stderr, "  seed %d (n=%u): dominators differ from the reference\n", seed, n);
        checked_graph_free(&c);
    }
    CHECK_EQ_U64(mismatches, 0);
}

void test_dominators_keep_unreachable(void)
{
    /* 0 root -> 1; 2 -> 3 -> 2 and 4 -> 3 are unreachable garbage. With the flag,
     * the first unreached node in node order (2) becomes a root; it reaches 3;
     * then 4 becomes a root too, so 3 has two "root" paths: idom(3) = super. */
    uint32_t e[] = {0, 1, 2, 3, 3, 2, 4, 3};
    uint32_t roots[] = {0};
    test_graph t;
    test_graph_build(&t, 5, e, NULL, 4, roots, 1);
    uint32_t idom[5];
    uint64_t ret[5];
    run(&t, LF_DOM_KEEP_UNREACHABLE, idom, ret);
    uint32_t want[] = {S, 0, S, S, S};
    for (int i = 0; i < 5; i++)
        CHECK_EQ_U64(idom[i], want[i]);
    run(&t, 0, idom, ret);
    CHECK_EQ_U64(idom[2], X);
    CHECK_EQ_U64(idom[4], X);
    test_graph_free(&t);
}

/* The chain 0 -> 1 -> ... -> n-1 from root 0, every node also pointing
 * back at the root: node i's idom is i - 1 and it retains n - i. */
static void build_chain_to_root(test_graph *t, uint32_t n)
{
    uint32_t *e = malloc((size_t)n * 4 * sizeof *e);
    uint64_t m = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        e[2 * m] = i, e[2 * m + 1] = i + 1, m++;
        e[2 * m] = i + 1, e[2 * m + 1] = 0, m++;
    }
    uint32_t roots[] = {0};
    test_graph_build(t, n, e, NULL, m, roots, 1);
    free(e);
}

void test_dominators_long_chain(void)
{
    /* 10,000,000 nodes: i -> i+1 from root 0, and every node also points back to
     * the root (a cycle through it) so path compression walks long chains. */
    const uint32_t n = 10000000;
    test_graph t;
    build_chain_to_root(&t, n);
    uint32_t *idom = malloc(n * sizeof *idom);
    uint64_t *ret = malloc(n * sizeof *ret);
    run(&t, 0, idom, ret);
    uint32_t wrong = 0;
    for (uint32_t i = 1; i < n; i++)
        wrong += idom[i] != i - 1 || ret[i] != n - i;
    CHECK_EQ_U64(idom[0], S);
    CHECK_EQ_U64(ret[0], n);
    CHECK_EQ_U64(wrong, 0);

    /* The tree of a 10M chain also sorts and walks without recursion. */
    lf_domtree tree;
    CHECK(test_domtree_build(n, idom, ret, 2, &tree, NULL) == 0);
    CHECK_EQ_U64(tree.child_offset[n + 1] - tree.child_offset[n], 1);
    uint32_t *cls = calloc(n, sizeof *cls);
    uint64_t class_ret[1];
    CHECK(test_class_retained(tree.child_offset, tree.child, n, cls, 1, ret, NULL, class_ret) == 0);
    CHECK_EQ_U64(class_ret[0], n);
    free(cls);
    lf_domtree_free(&tree);
    free(idom);
    free(ret);
    test_graph_free(&t);
}

/* The ladder of issue 39, with second rungs (k >= 2). Nodes: the root
 * holder 0, spine i = 1 + i, leaf i = 1 + k + i, rung i = 1 + 2k + i. Edges,
 * in the order the DFS takes them: holder -> spine 0 -> spine 1 -> ... ->
 * spine k-1, spine i -> leaf i -> rung i, then holder -> every leaf and
 * spine 0 -> every rung. The DFS goes down the spine first, so leaf i's DFS
 * parent is spine i while its semidominator is the holder, i spine links
 * up: Semi-NCA climbed those links for every leaf and rung (k^2 steps).
 * A rung's semidominator is spine 0, but leaf i, between them, has a
 * smaller one: the rung shares the leaf's idom (the bucket step's other
 * case). Every leaf and rung can be reached around the spine, so: idom of
 * spine i is spine i-1 (spine 0: the holder), of every leaf and rung the
 * holder; spine i retains the k - i spine nodes from it down, the holder
 * all 3k + 1 nodes. */
static void build_ladder(test_graph *t, uint32_t k)
{
    const uint32_t spine = 1, leaf = 1 + k, rung = 1 + 2 * k;
    uint32_t *e = malloc((size_t)k * 12 * sizeof *e);
    uint64_t m = 0;
#define LADDER_EDGE(from, to) (e[2 * m] = (from), e[2 * m + 1] = (to), m++)
    LADDER_EDGE(0, spine);
    for (uint32_t i = 0; i < k; i++) {
        if (i + 1 < k)
            LADDER_EDGE(spine + i, spine + i + 1);
        LADDER_EDGE(spine + i, leaf + i);
        LADDER_EDGE(leaf + i, rung + i);
        LADDER_EDGE(0, leaf + i);
        LADDER_EDGE(spine, rung + i);
    }
#undef LADDER_EDGE
    uint32_t roots[] = {0};
    test_graph_build(t, 1 + 3 * k, e, NULL, m, roots, 1);
    free(e);
}

/* Counts the nodes of the ladder whose idom or (ret not NULL) retained
 * size is not the construction's. */
static uint32_t ladder_wrong(uint32_t k, const uint32_t *idom, const uint64_t *ret)
{
    uint32_t wrong = idom[0] != S || (ret && ret[0] != 3 * (uint64_t)k + 1);
    for (uint32_t i = 0; i < k; i++) {
        wrong += idom[1 + i] != i || (ret && ret[1 + i] != k - i); /* spine i-1, or the holder */
        wrong += idom[1 + k + i] != 0 || (ret && ret[1 + k + i] != 1);
        wrong += idom[1 + 2 * k + i] != 0 || (ret && ret[1 + 2 * k + i] != 1);
    }
    return wrong;
}

void test_dominators_ladder(void)
{
    /* Small: against the reference and the construction, on one thread
     * and on two. */
    {
        const uint32_t k = 2000, n = 1 + 3 * k;
        test_graph t;
        build_ladder(&t, k);
        uint32_t *idom = malloc(n * sizeof *idom), *ref = malloc(n * sizeof *ref);
        uint64_t *ret = malloc(n * sizeof *ret);
        reference_idom_chk(&t.g, ref);
        CHECK_EQ_U64(ladder_wrong(k, ref, NULL), 0);
        for (unsigned one = 0; one < 2; one++) {
            run(&t, one ? LF_DOM_ONE_THREAD : 0, idom, ret);
            CHECK(memcmp(idom, ref, n * sizeof *idom) == 0);
            CHECK_EQ_U64(ladder_wrong(k, idom, ret), 0);
        }
        free(idom);
        free(ref);
        free(ret);
        test_graph_free(&t);
    }
    /* Big: 3M nodes, where the old walk took 10^12 steps. */
    {
        const uint32_t k = 1000000, n = 1 + 3 * k;
        test_graph t;
        build_ladder(&t, k);
        uint32_t *idom = malloc(n * sizeof *idom);
        uint64_t *ret = malloc(n * sizeof *ret);
        run(&t, 0, idom, ret);
        CHECK_EQ_U64(ladder_wrong(k, idom, ret), 0);
        free(idom);
        free(ret);
        test_graph_free(&t);
    }
}

void test_domtree_children_sorted(void)
{
    /* root 0 owns 1..40 with shallow sizes chosen so the order is known. */
    const uint32_t n = 41;
    uint32_t e[80];
    for (uint32_t i = 1; i < n; i++) {
        e[2 * (i - 1)] = 0;
        e[2 * (i - 1) + 1] = i;
    }
    uint32_t roots[] = {0};
    test_graph t;
    test_graph_build(&t, n, e, NULL, n - 1, roots, 1);
    for (uint32_t i = 1; i < n; i++)
        t.shallow[i] = (i * 7) % 13; /* ties among equal sizes break by node number */
    uint32_t idom[41];
    uint64_t ret[41];
    run(&t, 0, idom, ret);
    lf_domtree tree;
    CHECK(test_domtree_build(n, idom, ret, 2, &tree, NULL) == 0);
    CHECK_EQ_U64(tree.child_offset[1] - tree.child_offset[0], 40);
    for (uint32_t k = tree.child_offset[0] + 1; k < tree.child_offset[1]; k++) {
        uint32_t a = tree.child[k - 1], b = tree.child[k];
        CHECK(ret[a] > ret[b] || (ret[a] == ret[b] && a < b));
    }
    /* 12 is the largest size (i*7%13 == 12 for i = 11, 24, 37) */
    CHECK_EQ_U64(tree.child[tree.child_offset[0]], 11);
    CHECK_EQ_U64(tree.child[tree.child_offset[0] + 1], 24);
    CHECK_EQ_U64(tree.child[tree.child_offset[n]], 0);
    lf_domtree_free(&tree);
    test_graph_free(&t);
}

void test_domtree_long_lists_sorted(void)
{
    /* Root 0 owns 3000 leaves, so the list takes the radix sort; a second
     * round gives one leaf more than 4 GiB, so it takes the comparison sort.
     * Sizes repeat a lot: ties must still come out by node number. */
    const uint32_t n = 3001;
    uint32_t *idom = malloc(n * sizeof *idom);
    uint64_t *ret = malloc(n * sizeof *ret);
    for (int round = 0; round < 2; round++) {
        rng_state = 0x2545f4914f6cdd1dull + (uint64_t)round;
        idom[0] = S;
        ret[0] = 0;
        for (uint32_t i = 1; i < n; i++) {
            idom[i] = 0;
            ret[i] = rnd(round ? 500 : 70000);
            if (round && i == 1234)
                ret[i] = 5000000000ull;
            ret[0] += ret[i];
        }
        lf_domtree tree;
        CHECK(test_domtree_build(n, idom, ret, 2, &tree, NULL) == 0);
        CHECK_EQ_U64(tree.child_offset[1] - tree.child_offset[0], n - 1);
        uint32_t wrong = 0;
        for (uint32_t k = tree.child_offset[0] + 1; k < tree.child_offset[1]; k++) {
            uint32_t a = tree.child[k - 1], b = tree.child[k];
            wrong += !(ret[a] > ret[b] || (ret[a] == ret[b] && a < b));
        }
        CHECK_EQ_U64(wrong, 0);
        if (round)
            CHECK_EQ_U64(tree.child[0], 1234);
        lf_domtree_free(&tree);
    }
    free(idom);
    free(ret);
}

/* Reference order of a child list: larger retained first, then node number. */
static const uint64_t *ref_retained;
static int ref_before(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (ref_retained[a] != ref_retained[b])
        return ref_retained[a] > ref_retained[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

void test_domtree_every_list(void)
{
    /* Root 0 (under the super-root) owns 10 inner nodes, each owning 30
     * leaves; 5 leaves are unreachable. The build splits the slots in two
     * halves mid-way through the inner nodes: every list must hold exactly
     * the nodes whose idom it is, in the order a plain qsort gives. */
    const uint32_t inner = 10, leaves = 30, n = 1 + inner + inner * leaves + 5;
    uint32_t *idom = malloc(n * sizeof *idom);
    uint64_t *ret = calloc(n, sizeof *ret);
    rng_state = 77;
    idom[0] = S;
    for (uint32_t i = 1; i <= inner; i++)
        idom[i] = 0;
    for (uint32_t i = inner + 1; i < n - 5; i++) {
        idom[i] = 1 + (i - inner - 1) / leaves;
        ret[i] = rnd(9); /* many ties */
        ret[idom[i]] += ret[i];
    }
    for (uint32_t i = n - 5; i < n; i++)
        idom[i] = LF_NODE_NONE;
    for (uint32_t i = 1; i <= inner; i++)
        ret[0] += ret[i];
    lf_domtree tree;
    CHECK(test_domtree_build(n, idom, ret, 2, &tree, NULL) == 0);
    ref_retained = ret;
    uint32_t want[64], wrong = 0;
    for (uint32_t slot = 0; slot <= n; slot++) {
        uint32_t parent = slot == n ? S : slot, count = 0;
        for (uint32_t v = 0; v < n; v++)
            if (idom[v] == parent && count < 64)
                want[count++] = v;
        qsort(want, count, sizeof *want, ref_before);
        uint32_t at = tree.child_offset[slot], len = tree.child_offset[slot + 1] - at;
        wrong += len != count;
        for (uint32_t k = 0; k < len && k < count; k++)
            wrong += tree.child[at + k] != want[k];
    }
    CHECK_EQ_U64(wrong, 0);
    CHECK_EQ_U64(tree.child_offset[n + 1], n - 5);
    lf_domtree_free(&tree);
    free(idom);
    free(ret);
}

/* A class whose instances dominate each other: list nodes 0 -> 1 -> 2 (class
 * 0), each owning a payload 3, 4, 5 (class 1); 6 (class 0) is a separate root;
 * every node retains 1 of its own. class_ret: lf_class_retained's totals,
 * shallow (may be NULL) its sizes for skipping empty nodes. */
static void nested_class_retained(const uint64_t *shallow, uint64_t class_ret[2])
{
    uint32_t e[] = {0, 1, 1, 2, 0, 3, 1, 4, 2, 5};
    uint32_t roots[] = {0, 6};
    test_graph t;
    test_graph_build(&t, 7, e, NULL, 5, roots, 2);
    uint32_t idom[7];
    uint64_t ret[7];
    run(&t, 0, idom, ret);
    lf_domtree tree;
    CHECK(test_domtree_build(7, idom, ret, 2, &tree, NULL) == 0);
    uint32_t cls[] = {0, 0, 0, 1, 1, 1, 0};
    CHECK(test_class_retained(tree.child_offset, tree.child, 7, cls, 2, ret, shallow, class_ret) == 0);
    lf_domtree_free(&tree);
    test_graph_free(&t);
}

void test_class_retained_nested(void)
{
    /* Class 0 retained = retained(0) + retained(6) = 6 + 1, not 6+4+2+1. */
    uint64_t class_ret[2];
    nested_class_retained(NULL, class_ret);
    CHECK_EQ_U64(class_ret[0], 7);
    CHECK_EQ_U64(class_ret[1], 3);
}

void test_class_retained_skips_empty(void)
{
    /* List node 0 and payload 3 of 0 bytes (as V8 nodes whose size DevTools
     * moved into their owner): they are no instances, so 1 is the top
     * ListNode and 4, 5 the top payloads. Class 0: retained(1) + retained(6)
     * = 4 + 1; class 1: 1 + 1. */
    uint64_t shallow[] = {0, 1, 1, 0, 1, 1, 1};
    uint64_t class_ret[2];
    nested_class_retained(shallow, class_ret);
    CHECK_EQ_U64(class_ret[0], 5);
    CHECK_EQ_U64(class_ret[1], 2);
}

/* Edges listed out of place in g's reverse lists (each at its target, in
 * the order of the forward edges, weak bit kept), or UINT64_MAX when the
 * offsets' width is not the forward graph's. */
static uint64_t reverse_lists_misplaced(const lf_graph *g)
{
    lf_reverse rev;
    CHECK(lf_reverse_build(g, &rev) == 0);
    if ((rev.offset.narrow != NULL) != (g->edge_offset.narrow != NULL)) {
        lf_reverse_free(&rev);
        return UINT64_MAX;
    }
    const uint32_t n = g->node_count;
    uint64_t bad = lf_reverse_begin(&rev, n) != g->edge_count;
    for (uint32_t v = 0; v < n; v++) {
        for (uint64_t i = lf_reverse_begin(&rev, v); i + 1 < lf_reverse_end(&rev, v); i++)
            bad += lf_edge_node(rev.source[i]) > lf_edge_node(rev.source[i + 1]);
    }
    uint64_t *seen = calloc(n + 1, sizeof *seen);
    for (uint32_t s = 0; s < n; s++)
        for (uint64_t f = lf_graph_edges_begin(g, s); f < lf_graph_edges_end(g, s); f++) {
            uint32_t target = lf_edge_node(g->edge_target[f]);
            uint64_t at = lf_reverse_begin(&rev, target) + seen[target]++;
            bad += rev.source[at] != (s | (g->edge_target[f] & LF_EDGE_WEAK));
        }
    free(seen);
    lf_reverse_free(&rev);
    return bad;
}

void test_reverse_lists(void)
{
    /* 100,000 nodes (two threads build the lists), with 32-bit offsets and
     * with 64-bit ones (a graph of 2^32 edges and more). */
    const uint32_t n = 100000;
    const uint64_t m = 300000;
    uint32_t *e = malloc(m * 2 * sizeof *e);
    uint8_t *weak = malloc(m);
    rng_state = 12345;
    for (uint64_t i = 0; i < m; i++) {
        e[2 * i] = rnd(n);
        e[2 * i + 1] = rnd(n);
        weak[i] = rnd(5) == 0;
    }
    uint32_t roots[] = {0};
    test_graph t;
    test_graph_build(&t, n, e, weak, m, roots, 1);
    CHECK_EQ_U64(reverse_lists_misplaced(&t.g), 0);
    /* the same graph in the other width (test_dominators_wide builds it wide) */
    uint32_t *narrow = malloc(((size_t)n + 1) * sizeof *narrow);
    uint64_t *wide = malloc(((size_t)n + 1) * sizeof *wide);
    for (uint32_t v = 0; v <= n; v++)
        narrow[v] = (uint32_t)(wide[v] = lf_edge_offset_at(t.g.edge_offset, v));
    lf_graph g = t.g;
    g.edge_offset = t.g.edge_offset.narrow ? (lf_edge_offsets){NULL, wide} : (lf_edge_offsets){narrow, NULL};
    CHECK_EQ_U64(reverse_lists_misplaced(&g), 0);
    free(narrow);
    free(wide);
    test_graph_free(&t);
    free(e);
    free(weak);
}

/* Progress: what lf_dominators_compute_reporting and lf_domtree_build_reporting
 * tell, recorded. */
typedef struct progress_log {
    unsigned count;
    struct {
        unsigned pass, passes;
        uint64_t done, total;
    } at[256];
} progress_log;

static void log_progress(void *ctx, unsigned pass, unsigned passes, uint64_t done, uint64_t total)
{
    progress_log *log = ctx;
    if (log->count < 256)
        log->at[log->count].pass = pass, log->at[log->count].passes = passes,
        log->at[log->count].done = done, log->at[log->count].total = total;
    log->count++;
}

/* Every pass of passes, in order, from 0 to total[pass - 1], never going
 * back; at least min_reports each. */
static void check_passes(const progress_log *log, unsigned passes, const uint64_t *total, unsigned min_reports)
{
    CHECK(log->count <= 256);
    unsigned i = 0;
    for (unsigned pass = 1; pass <= passes; pass++) {
        unsigned first = i;
        for (; i < log->count && log->at[i].pass == pass; i++) {
            CHECK_EQ_U64(log->at[i].passes, passes);
            CHECK_EQ_U64(log->at[i].total, total[pass - 1]);
            if (i > first)
                CHECK(log->at[i].done >= log->at[i - 1].done);
        }
        CHECK(i - first >= min_reports);
        if (i > first) {
            CHECK_EQ_U64(log->at[first].done, 0);
            CHECK_EQ_U64(log->at[i - 1].done, total[pass - 1]);
        }
    }
    CHECK_EQ_U64(i, log->count); /* nothing after the last pass */
}

void test_dominators_progress(void)
{
    /* The diamond with an unreachable node 4: passes 1-2 count the 5
     * nodes, 3-4 the 4 reached; blocks of 1M nodes, so besides starts and
     * ends only the reports between a pass's parts: pass 2's halves run one
     * after the other on so small a graph (half 0 ends at 5 of 10 node
     * visits: 2 nodes), and pass 4's three loops of 4 (12 in all): the
     * first ends at 4 (4/3 = 1), the second at 8 (2). */
    {
        test_graph t;
        test_graph_build(&t, 5, diamond_edges, NULL, 5, diamond_roots, 1);
        uint32_t idom[5];
        uint64_t ret[5];
        lf_dominator_result r;
        progress_log log = {0};
        lf_graph_progress to = {log_progress, &log};
        CHECK(test_dominators(&t.g, t.shallow, 0, idom, ret, &r, &to) == 0);
        const uint64_t want[][2] = {{1, 0}, {1, 5}, {2, 0}, {2, 2}, {2, 5},
                                    {3, 0}, {3, 4}, {4, 0}, {4, 1}, {4, 2}, {4, 4}};
        CHECK_EQ_U64(log.count, 11);
        for (unsigned i = 0; i < 11 && i < log.count; i++) {
            CHECK_EQ_U64(log.at[i].pass, want[i][0]);
            CHECK_EQ_U64(log.at[i].done, want[i][1]);
            CHECK_EQ_U64(log.at[i].total, want[i][0] <= 2 ? 5 : 4);
        }
        CHECK_EQ_U64(idom[3], 0); /* and the answer is still the answer */
        test_graph_free(&t);
    }
    /* A chain of 3.5M nodes, each also pointing back to the root: every
     * pass crosses 1M-node steps, on two threads and on one (where the
     * halves of a pass run one after the other). */
    const uint32_t n = 3500000;
    test_graph t;
    build_chain_to_root(&t, n);
    uint32_t *idom = malloc(n * sizeof *idom);
    uint64_t *ret = malloc(n * sizeof *ret);
    const uint64_t totals[] = {n, n, n, n};
    for (unsigned one = 0; one < 2; one++) {
        lf_dominator_result r;
        progress_log log = {0};
        lf_graph_progress to = {log_progress, &log};
        CHECK(test_dominators(&t.g, t.shallow, one ? LF_DOM_ONE_THREAD : 0, idom, ret, &r,
                                              &to) == 0);
        check_passes(&log, 4, totals, 4); /* 0, 1M, 2M, 3M, ..., 3.5M */
        CHECK_EQ_U64(ret[0], n);
        log.count = 0;
        lf_domtree tree;
        CHECK(test_domtree_build(n, idom, ret, one ? 1 : 2, &tree, &to) == 0);
        check_passes(&log, 1, totals, 4);
        lf_domtree_free(&tree);
    }
    free(idom);
    free(ret);
    test_graph_free(&t);
}
