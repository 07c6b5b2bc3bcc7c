/* test_v8.c - the V8 reader's two-thread split, on a snapshot big enough to
 * be split (over 4 MiB), gives the same arrays as one thread; and a chain's
 * retained sizes come out as built. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/v8/v8.h"
#include "graph_fixture.h"
#include "v8_fixture.h"
#include "test.h"
#include "tests.h"
#include "../../core/base/bigmem.h"

/* Reads the chain snapshot of k + 1 nodes with one thread and with two. */
static void read_with_one_and_two(const char *json, size_t len, uint32_t k, lf_snapshot *one, lf_snapshot *two)
{
    lf_error err;
    CHECK(lf_v8_parse((const uint8_t *)json, len, 1, 0, one, &err) == 0);
    CHECK(lf_v8_parse((const uint8_t *)json, len, 2, 0, two, &err) == 0);
    CHECK_EQ_U64(one->object_count, k + 1);
    CHECK_EQ_U64(one->edge_count, 2ull * k);
    v8_check_same_arrays(one, two);
}

/* The two-thread reader guesses where to split an array before it knows its
 * end, from the values per byte at its start and at the middle of that
 * guess: blanks at the start, and a long string after the edges, make it
 * land past the nodes array, inside the string (the second thread must then
 * leave the array to the first). */
void test_v8_split_guess_past_end(void)
{
    const uint32_t k = 300000;
    size_t len = 0;
    char *json = v8_chain_snapshot_padded(k, 3000, 40u << 20, &len);
    CHECK(json != NULL);
    if (!json)
        return;
    CHECK(len > (4u << 20));
    lf_snapshot one, two;
    read_with_one_and_two(json, len, k, &one, &two);
    if (two.object_count == k + 1) {
        CHECK_EQ_U64(lf_snapshot_object_id(&two, k), 2ull * k + 1);
        CHECK_EQ_U64(lf_snapshot_shallow(&two, k), 16);
        CHECK_EQ_U64(lf_snapshot_edges_end(&two, k), 2ull * k);
    }
    lf_snapshot_free(&one);
    lf_snapshot_free(&two);
    free(json);
}

void test_v8_threads_same(void)
{
    const uint32_t k = 300000;
    size_t len = 0;
    char *json = v8_chain_snapshot(k, &len);
    CHECK(json != NULL);
    if (!json)
        return;
    CHECK(len > (4u << 20)); /* the reader splits from 4 MiB on */
    lf_snapshot one, two;
    lf_error err;
    read_with_one_and_two(json, len, k, &one, &two);
    if (one.object_count == k + 1 && two.object_count == k + 1 && two.edge_count == one.edge_count) {
        CHECK_EQ_U64(lf_snapshot_object_id(&one, k), 2ull * k + 1);
        CHECK(lf_analyze(&two, 0, 2, &err) == 0);
        CHECK(lf_analyze(&one, 0, 1, &err) == 0); /* every pass on this thread */
        CHECK(memcmp(one.idom, two.idom, (k + 1) * sizeof *one.idom) == 0);
        CHECK(test_sizes_equal(&one.retained, &two.retained, k + 1));
        CHECK(memcmp(one.domtree_offset, two.domtree_offset, (k + 3) * sizeof *one.domtree_offset) == 0);
        CHECK(memcmp(one.domtree_child, two.domtree_child, (k + 1) * sizeof *one.domtree_child) == 0);
        /* labels, read back from the file from the row noted before each
         * edge: node i's are "next" (edge 2i-1) then "back" (edge 2i) */
        uint64_t wrong = 0;
        for (uint64_t e = 1; e < 2ull * k; e += 97) {
            char label[16];
            uint8_t kind;
            uint32_t raw_label;
            lf_snapshot_edge_info(&two, e, &kind, &raw_label);
            lf_snapshot_edge_label(&two, e, label, sizeof label);
            wrong += kind != LF_EDGE_KIND_FIELD || strcmp(label, e % 2 ? "next" : "back") != 0;
        }
        CHECK_EQ_U64(wrong, 0);
        char first[16];
        lf_snapshot_edge_label(&two, 0, first, sizeof first);
        CHECK(strcmp(first, "next") == 0);
        /* n1 retains the whole chain; n(k/2) the second half */
        CHECK_EQ_U64(lf_snapshot_retained(&two, 1), 16ull * k);
        CHECK_EQ_U64(lf_snapshot_retained(&two, k / 2), 16ull * (k - k / 2 + 1));
        CHECK_EQ_U64(two.idom[k], k - 1);
    }
    lf_snapshot_free(&one);
    lf_snapshot_free(&two);
    free(json);
}

/* --partial on the chain snapshot cut inside its edges, inside its strings
 * and inside its nodes. */
void test_v8_partial(void)
{
    const uint32_t k = 300000, m = 100000;
    size_t len = 0;
    char *json = v8_chain_snapshot(k, &len);
    CHECK(json != NULL);
    if (!json)
        return;
    lf_snapshot s;
    lf_error err;
    /* Keep R = 2m + 1 edge rows: the root's and those of n1..nm. Cut one
     * digit after the comma that ends row R. */
    const uint64_t rows = 2ull * m + 1;
    const char *edges = strstr(json, "\"edges\":[");
    CHECK(edges != NULL);
    if (!edges) {
        free(json);
        return;
    }
    const char *p = edges + 9;
    for (uint64_t commas = 0; commas < 3 * rows; p++)
        commas += *p == ',';
    const size_t comma_at = (size_t)(p - 1 - json), cut = comma_at + 2; /* rows are "\n,2,3,X" */
    for (unsigned threads = 1; threads <= 2; threads++) {
        CHECK(lf_v8_parse((const uint8_t *)json, cut, threads, 0, &s, &err) == -1);
        CHECK(err.truncated == 1);
        CHECK(lf_v8_parse((const uint8_t *)json, cut, threads, 1, &s, &err) == 0);
        CHECK(s.flags & LF_SNAP_PARTIAL);
        CHECK_EQ_U64(s.stats.cut_at, comma_at);
        CHECK_EQ_U64(s.object_count, k + 1);
        CHECK_EQ_U64(s.edge_count, rows);
        CHECK(lf_analyze(&s, 0, 2, &err) == 0);
        if (lf_snapshot_has_retained(&s)) {
            /* n1 .. n(m+1) hang on the chain; the nodes after it lost their edges */
            CHECK_EQ_U64(lf_snapshot_retained(&s, 1), 16ull * (m + 1));
            CHECK_EQ_U64(lf_snapshot_edges_begin(&s, m + 2) - lf_snapshot_edges_end(&s, m), 0);
            CHECK_EQ_U64(lf_snapshot_retained(&s, m + 2), 16); /* alone: nothing reaches it */
        }
        lf_snapshot_free(&s);
    }
    /* cut inside the strings after "N": "next" and "back" are missing */
    const char *strings = strstr(json, "\"N\",");
    CHECK(strings != NULL);
    if (strings) {
        size_t at = (size_t)(strings - json) + 6;
        CHECK(lf_v8_parse((const uint8_t *)json, at, 1, 1, &s, &err) == 0);
        CHECK_EQ_U64(s.edge_count, 2ull * k);
        CHECK_EQ_U64(s.stats.cut_at, at);
        lf_str cls = lf_snapshot_class_name(&s, s.object_class[1]);
        CHECK(cls.len == 1 && cls.ptr[0] == 'N');
        char label[64];
        lf_snapshot_edge_label(&s, lf_snapshot_edges_begin(&s, 1), label, sizeof label);
        CHECK(strcmp(label, "(name cut off)") == 0);
        lf_snapshot_free(&s);
    }
    /* cut inside the nodes: nothing to analyse, even with --partial */
    const char *nodes_end = strstr(json, "],\n\"edges\"");
    CHECK(nodes_end != NULL);
    if (nodes_end) {
        CHECK(lf_v8_parse((const uint8_t *)json, (size_t)(nodes_end - json) - 3, 1, 1, &s, &err) == -1);
        CHECK(err.truncated == 0); /* no "--partial can help" hint */
    }
    free(json);
}

/* (root) with 70 property edges "p" to one object, edge 66 named
 * far_name: a name the edge word cannot hold (V8_NAME_FAR and up) is read
 * back from the file, row 66 being two rows after the one noted at 64. */
static char *far_name_snapshot(const char *far_name)
{
    size_t cap = 4096, o = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    o += (size_t)snprintf(s + o, cap - o,
        V8_TEST_META
        "\"node_count\":2,\"edge_count\":70},\n\"nodes\":[9,1,1,0,70,3,2,3,16,0],\n\"edges\":[");
    for (int e = 0; e < 70; e++)
        o += (size_t)snprintf(s + o, cap - o, "%s2,%s,5", e ? "," : "", e == 66 ? far_name : "3");
    o += (size_t)snprintf(s + o, cap - o, "],\n\"strings\":[\"\",\"(root)\",\"A\",\"p\"]}\n");
    return s;
}

void test_v8_far_names(void)
{
    static const char *const far[] = {"536870910", "536870911", "999999999", "4294967295"};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        char *json = far_name_snapshot(far[i]);
        CHECK(json != NULL);
        if (!json)
            return;
        lf_snapshot s;
        lf_error err;
        CHECK(lf_v8_parse((const uint8_t *)json, strlen(json), 1, 0, &s, &err) == -1);
        char want[128];
        snprintf(want, sizeof want, "edge 66 names string %s of 4", far[i]);
        CHECK(strcmp(err.reason, "string index out of range") == 0);
        if (strcmp(err.detail, want) != 0) {
            fprintf(stderr, "  detail '%s', expected '%s'\n", err.detail, want);
            CHECK(0);
        }
        /* the member's position: just after the comma that ends "nodes" */
        CHECK_EQ_U64(err.position, (uint64_t)(strstr(json, ",\n\"edges\"") - json) + 1);
        free(json);
    }
}

/* Node rows whose numbers and separators take each path of the number
 * parser (the whole-row fast path takes up to 15 digits a value and ',' or
 * one blank then ',' after it; anything else goes value by value): ids of
 * 1 to 10 digits, sizes of 1 to 20 digits (up to 2^64 - 1), and blanks of
 * several kinds around the commas. Each shape comes in every kind of row,
 * among the first rows and among the last, where a row is too close to the
 * array's end for the fast path. Node i's id and size are ids[i % 10] and
 * sizes[i % 10]. */
void test_v8_number_shapes(void)
{
    static const uint64_t ids[10] = {1, 12345, 1234567, 12345678, 123456789, 4294967295u, 7, 99999999,
                                     10000000, 3};
    static const uint64_t sizes[10] = {0, 9, 1234567, 12345678, 123456789012345ull, 1234567890123456ull,
                                       18446744073709551615ull, 99999999999999ull, 100000000000000ull, 16};
    static const char *const seps[5] = {",", "\n,", " ,", ",\n  ", "\r\n,"};
    const uint32_t k = 90; /* nodes besides the root: each shape in each kind of row, three times */
    char *s = malloc(16384);
    CHECK(s != NULL);
    if (!s)
        return;
    size_t o = (size_t)snprintf(s, 16384, V8_TEST_META "\"node_count\":%u,\"edge_count\":%u},\n\"nodes\":[9,1,1,0,%u",
                                k + 1, k, k);
    for (uint32_t i = 1; i <= k; i++) {
        /* the separator before field f: rows of ',' only and of one blank and
         * ',' (the fast path's), and rows with every kind */
        const char *sep[5];
        for (unsigned f = 0; f < 5; f++)
            sep[f] = i % 3 == 0 ? seps[0] : i % 3 == 1 ? seps[1 + f % 2] : seps[(i + f) % 5];
        o += (size_t)snprintf(s + o, 16384 - o, "%s3%s2%s%llu%s%llu%s0", sep[0], sep[1], sep[2],
                              (unsigned long long)ids[i % 10], sep[3], (unsigned long long)sizes[i % 10], sep[4]);
    }
    o += (size_t)snprintf(s + o, 16384 - o, "],\n\"edges\":[");
    for (uint32_t i = 1; i <= k; i++)
        o += (size_t)snprintf(s + o, 16384 - o, "%s1,%u,%u", i > 1 ? "\n," : "", i, 5 * i);
    o += (size_t)snprintf(s + o, 16384 - o, "],\n\"strings\":[\"\",\"(root)\",\"N\"]}\n");
    lf_snapshot snap;
    lf_error err;
    CHECK(lf_v8_parse((const uint8_t *)s, o, 1, 0, &snap, &err) == 0);
    if (snap.object_count == k + 1) {
        uint64_t wrong_ids = 0, wrong_sizes = 0;
        for (uint32_t i = 1; i <= k; i++) {
            wrong_ids += lf_snapshot_object_id(&snap, i) != ids[i % 10];
            wrong_sizes += lf_snapshot_shallow(&snap, i) != sizes[i % 10];
        }
        CHECK_EQ_U64(wrong_ids, 0);
        CHECK_EQ_U64(wrong_sizes, 0);
    }
    lf_snapshot_free(&snap);
    free(s);
}

/* The parse keeps the largest string name an edge looks up, so that
 * checking the names reads the edges again only when one is out of range.
 * On the chain snapshot (5 strings, split between two threads), one
 * property edge of the second half named 9: the file is refused, naming
 * that edge. The same edge as an element with index 9 is no name: read. */
void test_v8_names_checked_split(void)
{
    const uint32_t k = 300000, node = k * 3 / 4; /* its "next" edge: edge 2 * node - 1 */
    for (int element = 0; element < 2; element++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            size_t len = 0;
            char *json = v8_chain_snapshot(k, &len);
            CHECK(json != NULL && len > (4u << 20));
            if (!json)
                return;
            char row[32];
            snprintf(row, sizeof row, "\n,2,3,%u\n", 5 * (node + 1));
            char *at = strstr(json, row);
            CHECK(at != NULL);
            if (!at) {
                free(json);
                return;
            }
            at[2] = element ? '1' : '2';
            at[4] = '9';
            lf_snapshot s;
            lf_error err;
            int rc = lf_v8_parse((const uint8_t *)json, len, threads, 0, &s, &err);
            if (element) {
                CHECK(rc == 0);
                if (rc == 0)
                    lf_snapshot_free(&s);
            } else {
                char want[96];
                snprintf(want, sizeof want, "edge %u names string 9 of 5", 2 * node - 1);
                CHECK(rc == -1);
                CHECK(rc == -1 && strcmp(err.reason, "string index out of range") == 0);
                if (rc == -1 && strcmp(err.detail, want) != 0) {
                    fprintf(stderr, "  detail '%s', expected '%s'\n", err.detail, want);
                    CHECK(0);
                }
            }
            free(json);
        }
}
