/* test_v8.c - the V8 reader's two-thread split, on a snapshot big enough to
 * be split (over 4 MiB), gives the same arrays as one thread; and a chain's
 * retained sizes come out as built. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis.h"
#include "../../core/v8.h"
#include "test.h"
#include "tests.h"

/* (root) -> n1 -> n2 -> ... -> nK, each node 16 bytes, ids 2i+1; node i also
 * has a weak edge back to the root. */
static char *chain_snapshot(uint32_t k, size_t *len)
{
    size_t cap = 200 + (size_t)k * 64, o = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    o += (size_t)snprintf(s + o, cap - o,
        "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],"
        "\"node_types\":[[\"hidden\",\"array\",\"string\",\"object\",\"code\",\"closure\",\"regexp\","
        "\"number\",\"native\",\"synthetic\"]],\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],"
        "\"edge_types\":[[\"context\",\"element\",\"property\",\"internal\",\"hidden\",\"shortcut\",\"weak\"]]},"
        "\"node_count\":%u,\"edge_count\":%u},\n\"nodes\":[9,1,1,0,1", k + 1, 2 * k);
    for (uint32_t i = 1; i <= k; i++)
        o += (size_t)snprintf(s + o, cap - o, "\n,3,2,%u,16,%u", 2 * i + 1, i < k ? 2u : 1u);
    o += (size_t)snprintf(s + o, cap - o, "],\n\"edges\":[5,3,5");
    for (uint32_t i = 1; i <= k; i++) {
        if (i < k)
            o += (size_t)snprintf(s + o, cap - o, "\n,2,3,%u", 5 * (i + 1));
        o += (size_t)snprintf(s + o, cap - o, "\n,6,4,0");
    }
    o += (size_t)snprintf(s + o, cap - o, "],\n\"strings\":[\"\",\"(root)\",\"N\",\"next\",\"back\"]}\n");
    *len = o;
    return s;
}

void test_v8_threads_same(void)
{
    const uint32_t k = 300000;
    size_t len = 0;
    char *json = chain_snapshot(k, &len);
    CHECK(json != NULL);
    if (!json)
        return;
    CHECK(len > (4u << 20)); /* the reader splits from 4 MiB on */
    lf_snapshot one, two;
    lf_error err;
    CHECK(lf_v8_parse((const uint8_t *)json, len, 1, &one, &err) == 0);
    CHECK(lf_v8_parse((const uint8_t *)json, len, 2, &two, &err) == 0);
    CHECK_EQ_U64(one.object_count, k + 1);
    CHECK_EQ_U64(one.edge_count, 2ull * k);
    CHECK_EQ_U64(two.object_count, one.object_count);
    CHECK_EQ_U64(two.edge_count, one.edge_count);
    if (one.object_count == k + 1 && two.object_count == k + 1 && two.edge_count == one.edge_count) {
        CHECK(memcmp(one.object_id, two.object_id, (k + 1) * sizeof *one.object_id) == 0);
        CHECK(memcmp(one.object_shallow, two.object_shallow, (k + 1) * sizeof *one.object_shallow) == 0);
        CHECK(memcmp(one.edge_offset, two.edge_offset, (k + 2) * sizeof *one.edge_offset) == 0);
        CHECK(memcmp(one.edge_target, two.edge_target, one.edge_count * sizeof *one.edge_target) == 0);
        CHECK(memcmp(one.edge_label, two.edge_label, one.edge_count * sizeof *one.edge_label) == 0);
        CHECK_EQ_U64(one.object_id[k], 2ull * k + 1);
        CHECK(lf_analyze(&two, 0, &err) == 0);
        /* n1 retains the whole chain; n(k/2) the second half */
        CHECK_EQ_U64(two.retained[1], 16ull * k);
        CHECK_EQ_U64(two.retained[k / 2], 16ull * (k - k / 2 + 1));
        CHECK_EQ_U64(two.idom[k], k - 1);
    }
    lf_snapshot_free(&one);
    lf_snapshot_free(&two);
    free(json);
}
