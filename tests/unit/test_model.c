/* test_model.c - the snapshot model: finding a holding edge, the string table, id sorting and ranking, id sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/analysis/analysis.h"
#include "../../core/base/bigmem.h"
#include "../../core/base/file.h"
#include "../../core/base/resident.h"
#include "../../core/model/edge_batch.h"
#include "../../core/model/idrank.h"
#include "../../core/model/idset.h"
#include "../../core/lfs/lfs.h"
#include "../../core/writer/lfs_writer.h"
#include "../../core/model/strtab.h"
#include "../../core/textgraph/textgraph.h"
#include "test.h"
#include <xxhash.h>
#include "test_support.h"
#include "tests.h"

/* Labels of the test graph's edges: element index 1000 + edge number, given
 * from a node's first edge on, as the lazy JVM reader gives them. */
static void fake_node_edges(const void *ctx, const lf_snapshot *s, uint32_t node, uint64_t end,
                            uint8_t *kind, uint32_t *label)
{
    (void)ctx;
    for (uint64_t e = lf_snapshot_edges_begin(s, node); e < end; e++) {
        kind[e - lf_snapshot_edges_begin(s, node)] = LF_EDGE_KIND_ELEMENT;
        label[e - lf_snapshot_edges_begin(s, node)] = (uint32_t)(1000 + e);
    }
}

void test_find_edge(void)
{
    /* Node 0 has 5003 edges (not a multiple of four): mostly to node 1; node
     * 2 weakly at 500, strongly at 700 and 900; node 3 only weakly at 3 and
     * 4999; node 4 last of all (the partial block); node 5 never. Node 1 has
     * one edge, to node 4. The scan and a batch (each question twice, in two
     * orders; labels in memory, then decoded from each node's first edge)
     * give the same, constructed answers. */
    const uint32_t deg = 5003;
    uint32_t *target = malloc((deg + 1) * sizeof *target);
    uint32_t *label = malloc((deg + 1) * sizeof *label);
    uint8_t *kind = malloc(deg + 1);
    for (uint32_t e = 0; e <= deg; e++) {
        target[e] = 1;
        label[e] = 1000 + e;
        kind[e] = LF_EDGE_KIND_ELEMENT;
    }
    target[500] = 2 | LF_EDGE_WEAK;
    target[700] = 2;
    target[900] = 2;
    target[3] = 3 | LF_EDGE_WEAK;
    target[4999] = 3 | LF_EDGE_WEAK;
    target[5002] = 4;
    target[deg] = 4;
    uint64_t offset[7] = {0, deg, deg + 1, deg + 1, deg + 1, deg + 1, deg + 1};
    lf_snapshot s;
    memset(&s, 0, sizeof s);
    s.object_count = 6;
    s.edge_count = deg + 1;
    s.edge_offset.wide = offset;
    s.edge_target = target;
    s.edge_kind = kind;
    s.edge_label = label;
    const struct {
        uint32_t from, to;
        uint64_t want;
    } ask[] = {
        {0, 2, 700},  /* strong beats an earlier weak */
        {0, 3, 3},    /* only weak: the first */
        {0, 4, 5002}, {0, 1, 0}, {0, 5, UINT64_MAX}, {1, 4, deg},
        {2, 4, UINT64_MAX}, /* no edges */
    };
    enum { N = sizeof ask / sizeof ask[0] };
    lf_edge_question q[2 * N];
    lf_edge_answer a[2 * N];
    uint64_t wrong = 0;
    for (size_t i = 0; i < N; i++) {
        wrong += lf_snapshot_find_edge(&s, ask[i].from, ask[i].to) != ask[i].want;
        q[i] = (lf_edge_question){ask[i].from, ask[i].to};
        q[2 * N - 1 - i] = q[i];
    }
    const lf_lazy_fields lazy = {NULL, NULL, fake_node_edges, NULL, NULL};
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            s.edge_kind = NULL, s.edge_label = NULL;
            s.lazy = &lazy;
        }
        CHECK(lf_edge_batch_answer(&s, q, 2 * N, a) == 0);
        for (size_t i = 0; i < 2 * N; i++) {
            uint64_t want = ask[i < N ? i : 2 * N - 1 - i].want;
            int weak = want != UINT64_MAX && lf_edge_is_weak(target[want]);
            uint8_t flags = want == UINT64_MAX ? 0 : LF_HOP_FOUND | (weak ? LF_HOP_WEAK : 0);
            wrong += a[i].flags != flags;
            if (want != UINT64_MAX)
                wrong += a[i].kind != LF_EDGE_KIND_ELEMENT || a[i].label != 1000 + want;
        }
    }
    CHECK_EQ_U64(wrong, 0);
    free(target);
    free(label);
    free(kind);
}

void test_strtab_interning(void)
{
    lf_strtab t;
    CHECK(lf_strtab_init(&t) == 0);
    CHECK_EQ_U64(lf_strtab_intern(&t, "", 0), 0);
    int64_t a = lf_strtab_intern(&t, "alpha", 5);
    int64_t b = lf_strtab_intern(&t, "beta", 4);
    CHECK_EQ_U64(a, 1);
    CHECK_EQ_U64(b, 2);
    CHECK_EQ_U64(lf_strtab_intern(&t, "alpha", 5), 1);
    CHECK_EQ_U64(lf_strtab_intern(&t, "alph", 4), 3); /* a prefix is another string */
    /* enough strings to force the hash table to grow several times */
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "s%d", i);
        CHECK_EQ_U64(lf_strtab_intern(&t, buf, (size_t)n), 4 + (uint64_t)i);
    }
    for (int i = 0; i < 5000; i += 777) {
        int n = snprintf(buf, sizeof buf, "s%d", i);
        CHECK_EQ_U64(lf_strtab_find(&t, buf, (size_t)n), 4 + (uint64_t)i);
    }
    CHECK(lf_strtab_find(&t, "missing", 7) == -1);
    CHECK_EQ_U64(t.offset[2] - t.offset[1], 5);
    CHECK(memcmp(t.bytes + t.offset[2], "beta", 4) == 0);
    lf_strtab_free(&t);
}

/* Appended strings are found only once made canonical; equal bytes become
 * the first of them that was entered, whichever the order. */
void test_strtab_append_canonical(void)
{
    lf_strtab t;
    CHECK(lf_strtab_init(&t) == 0);
    CHECK_EQ_U64(lf_strtab_append(&t, "dup", 3), 1);
    CHECK_EQ_U64(lf_strtab_append(&t, "x", 1), 2);
    CHECK_EQ_U64(lf_strtab_append(&t, "dup", 3), 3);
    CHECK(lf_strtab_find(&t, "dup", 3) == -1); /* appended: not entered */
    CHECK_EQ_U64(lf_strtab_canonical(&t, 3), 3);
    CHECK_EQ_U64(lf_strtab_canonical(&t, 1), 3);
    CHECK_EQ_U64(lf_strtab_canonical(&t, 3), 3);
    CHECK_EQ_U64(lf_strtab_find(&t, "dup", 3), 3);
    CHECK_EQ_U64(lf_strtab_intern(&t, "dup", 3), 3);
    CHECK_EQ_U64(lf_strtab_intern(&t, "x", 1), 4); /* string 2 was never entered */
    CHECK_EQ_U64(lf_strtab_canonical(&t, 2), 4);
    /* 6000 appended, every third entered: the slots grow several times and
     * keep only the entered ones */
    char buf[32];
    for (int i = 0; i < 6000; i++) {
        int n = snprintf(buf, sizeof buf, "a%d", i);
        CHECK_EQ_U64(lf_strtab_append(&t, buf, (size_t)n), 5 + (uint64_t)i);
    }
    for (int i = 0; i < 6000; i += 3)
        CHECK_EQ_U64(lf_strtab_canonical(&t, 5 + (uint32_t)i), 5 + (uint64_t)i);
    uint64_t wrong = 0;
    for (int i = 0; i < 6000; i++) {
        int n = snprintf(buf, sizeof buf, "a%d", i);
        wrong += lf_strtab_find(&t, buf, (size_t)n) != (i % 3 == 0 ? 5 + (int64_t)i : -1);
    }
    CHECK_EQ_U64(wrong, 0);
    CHECK_EQ_U64(t.hashed, 2 + 2000 + 1); /* "", dup, x (as 4), 2000 of the a's */
    CHECK_EQ_U64(lf_strtab_find(&t, "x", 1), 4);
    CHECK_EQ_U64(lf_strtab_intern(&t, "a1", 2), 6005);
    CHECK_EQ_U64(t.count, 6006);
    lf_strtab_free(&t);
}

static void check_sorted(const uint64_t *ids, uint64_t n, uint64_t sum);

void test_sort_ids(void)
{
    /* few runs (merged) and many runs (radix), both against a simple check */
    static const unsigned run_counts[] = {1, 2, 3, 17, 64, 65, 5000};
    for (size_t k = 0; k < sizeof run_counts / sizeof run_counts[0]; k++) {
        const uint64_t n = 20000;
        uint64_t *ids = malloc(n * sizeof *ids);
        uint64_t sum = 0, x = 12345;
        for (uint64_t i = 0; i < n; i++) {
            /* runs of ascending values restarting at a random base */
            if (i % (n / run_counts[k] + 1) == 0)
                x = (x * 6364136223846793005ull + 1442695040888963407ull) >> 20;
            x += 8 + (i % 5) * 8;
            ids[i] = x;
            sum += x;
        }
        CHECK(lf_sort_u64(ids, n) == 0);
        check_sorted(ids, n, sum);
        free(ids);
    }
}

/* Sorted ascending, and the same values (their sum) as before. */
static void check_sorted(const uint64_t *ids, uint64_t n, uint64_t sum)
{
    uint64_t check = 0;
    int sorted = 1;
    for (uint64_t i = 0; i < n; i++) {
        check += ids[i];
        if (i)
            sorted &= ids[i - 1] <= ids[i];
    }
    CHECK(sorted);
    CHECK_EQ_U64(check, sum);
}

void test_sort_ids_dump_order(void)
{
    /* A dump's order: a few thousand classes in no order, then long runs of
     * objects in address order (one per heap space). */
    const uint64_t classes = 3000, run = 6000, n = classes + 3 * run;
    uint64_t *ids = malloc(n * sizeof *ids), x = 99, sum = 0;
    for (uint64_t i = 0; i < classes; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        ids[i] = (x >> 24) & ~7ull;
    }
    for (uint64_t r = 0; r < 3; r++)
        for (uint64_t i = 0; i < run; i++)
            ids[classes + r * run + i] = ((3 - r) << 40) + i * 16;
    for (uint64_t i = 0; i < n; i++)
        sum += ids[i];
    CHECK(lf_sort_u64(ids, n) == 0);
    check_sorted(ids, n, sum);
    free(ids);
}

void test_sort_ids_one_long_run(void)
{
    /* one long sorted run with short unsorted runs before and after it */
    const uint64_t before = 1000, run = 10000, after = 700, n = before + run + after;
    uint64_t *ids = malloc(n * sizeof *ids), x = 7, sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (i >= before && i < before + run) {
            ids[i] = 4096 + (i - before) * 24;
        } else {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            ids[i] = (x >> 30) & ~7ull;
        }
        sum += ids[i];
    }
    CHECK(lf_sort_u64(ids, n) == 0);
    check_sorted(ids, n, sum);
    free(ids);
}

void test_idrank(void)
{
    /* dense, 8-aligned addresses: the rank bitmap; then sparse ones: binary search */
    for (int sparse = 0; sparse < 2; sparse++) {
        const uint64_t n = 5000;
        uint64_t *ids = malloc(n * sizeof *ids);
        for (uint64_t i = 0; i < n; i++)
            ids[i] = 0xfc000000ull + i * (sparse ? (1ull << 40) : 24) + (i % 3) * 8;
        lf_idrank r;
        CHECK(lf_idrank_build(&r, ids, n) == 0);
        CHECK(sparse ? r.words == NULL : r.words != NULL);
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < n; i++) {
            wrong += lf_idrank_find(&r, ids[i]) != i;
            wrong += lf_idrank_find(&r, ids[i] + 4) != LF_IDRANK_NONE; /* misaligned */
            if (!sparse && i + 1 < n && ids[i] + 8 < ids[i + 1])
                wrong += lf_idrank_find(&r, ids[i] + 8) != LF_IDRANK_NONE; /* a gap */
        }
        CHECK_EQ_U64(wrong, 0);
        CHECK_EQ_U64(lf_idrank_find(&r, 0), LF_IDRANK_NONE);
        CHECK_EQ_U64(lf_idrank_find(&r, ids[n - 1] + 8), LF_IDRANK_NONE);
        lf_idrank_free(&r);
        free(ids);
    }
    /* ids spanning every 64-bit value (found by fuzz_hprof): the slot count
     * wraps to 0; this is sparse, not a zero-word bitmap written past its end */
    const uint64_t ends[2] = {0, UINT64_MAX};
    lf_idrank r;
    CHECK(lf_idrank_build(&r, ends, 2) == 0);
    CHECK(r.words == NULL);
    CHECK_EQ_U64(lf_idrank_find(&r, UINT64_MAX), 1);
    CHECK_EQ_U64(lf_idrank_find(&r, 1), LF_IDRANK_NONE);
    lf_idrank_free(&r);
}

/* Ids k * stride + offset (k < n, ascending by construction), added to two
 * sets in a scrambled order with every tenth one twice, the sets merged:
 * every id must rank k, ids between them none, and the repeats counted. */
static uint64_t idset_wrong_ranks(uint64_t offset, uint64_t stride, uint64_t n, uint64_t odd_at,
                                  int *listed)
{
    lf_idset a, b;
    lf_idset_init(&a);
    lf_idset_init(&b);
    uint64_t wrong = 0, added = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = i * 7919 % n; /* n is not a multiple of 7919: a permutation */
        lf_idset *to = k < n / 2 ? &a : &b;
        wrong += lf_idset_add(to, offset + k * stride) != 0;
        added++;
        if (k % 10 == 0) {
            wrong += lf_idset_add(to, offset + k * stride) != 0;
            added++;
        }
    }
    if (odd_at < n) { /* one id of another residue mod 8, between two others */
        wrong += lf_idset_add(&b, offset + odd_at * stride + 1) != 0;
        added++;
    }
    wrong += lf_idset_merge(&a, &b) != 0;
    wrong += a.count != added;
    lf_idrank r;
    uint64_t *sorted = NULL;
    wrong += lf_idset_finish(&a, &r, &sorted) != 0;
    uint64_t unique = n + (odd_at < n);
    wrong += r.count != unique;
    *listed = sorted != NULL; /* the ids came back as a list for the index to search */
    for (uint64_t k = 0; k < n; k++) {
        uint64_t want = k + (odd_at < k); /* the odd id ranks right after id odd_at */
        wrong += lf_idrank_find(&r, offset + k * stride) != want;
        if (stride > 8)
            wrong += lf_idrank_find(&r, offset + k * stride + 8) != LF_IDRANK_NONE;
    }
    if (odd_at < n)
        wrong += lf_idrank_find(&r, offset + odd_at * stride + 1) != odd_at + 1;
    wrong += lf_idrank_find(&r, offset + n * stride) != LF_IDRANK_NONE;
    lf_idrank_free(&r);
    free(sorted);
    lf_idset_free(&a);
    lf_idset_free(&b);
    return wrong;
}

void test_idset(void)
{
    int listed = 0;
    /* a dense heap over several 4 MiB chunks, 8-aligned: the bitmaps become the index */
    CHECK_EQ_U64(idset_wrong_ranks(0x600123400ull, 24, 700001, UINT64_MAX, &listed), 0);
    CHECK_EQ_U64(listed, 0);
    /* the same with every id 5 past a multiple of 8 */
    CHECK_EQ_U64(idset_wrong_ranks(0x600654325ull, 40, 300007, UINT64_MAX, &listed), 0);
    CHECK_EQ_U64(listed, 0);
    /* one id of another residue: the set becomes a list, sorted at the end */
    CHECK_EQ_U64(idset_wrong_ranks(0x10000ull, 16, 200003, 150000, &listed), 0);
    CHECK_EQ_U64(listed, 1);
    /* ids 1 TiB apart: too spread out for bitmaps, a list */
    CHECK_EQ_U64(idset_wrong_ranks(0x1000ull, 1ull << 40, 5003, UINT64_MAX, &listed), 0);
    CHECK_EQ_U64(listed, 1);
    /* 60 ids 1 GiB apart fit in bitmaps, which are too spread out for one index */
    CHECK_EQ_U64(idset_wrong_ranks(0x1000ull, 1ull << 30, 60, UINT64_MAX, &listed), 0);
    CHECK_EQ_U64(listed, 1);
    /* nothing added */
    lf_idset e;
    lf_idset_init(&e);
    lf_idrank r;
    uint64_t *sorted = NULL;
    CHECK(lf_idset_finish(&e, &r, &sorted) == 0);
    CHECK_EQ_U64(r.count, 0);
    CHECK_EQ_U64(lf_idrank_find(&r, 8), LF_IDRANK_NONE);
    lf_idrank_free(&r);
    free(sorted);
}
