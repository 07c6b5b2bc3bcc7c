/* v8_fixture.c - hand-made V8 snapshots and comparisons the V8 tests share. */
#include "v8_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/base/bigmem.h"
#include "test.h"
#include "graph_fixture.h"

char *v8_chain_snapshot_padded(uint32_t k, uint32_t padded_rows, size_t tail_bytes, size_t *len)
{
    size_t cap = 200 + (size_t)k * 64 + (size_t)padded_rows * 80 + tail_bytes, o = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    o += (size_t)snprintf(s + o, cap - o,
        V8_TEST_META
        "\"node_count\":%u,\"edge_count\":%u},\n\"nodes\":[9,1,1,0,1", k + 1, 2 * k);
    for (uint32_t i = 1; i <= k; i++)
        o += (size_t)snprintf(s + o, cap - o, "\n,%*s3,2,%u,16,%u", i <= padded_rows ? 80 : 0, "",
                              2 * i + 1, i < k ? 2u : 1u);
    o += (size_t)snprintf(s + o, cap - o, "],\n\"edges\":[5,3,5");
    for (uint32_t i = 1; i <= k; i++) {
        if (i < k)
            o += (size_t)snprintf(s + o, cap - o, "\n,2,3,%u", 5 * (i + 1));
        o += (size_t)snprintf(s + o, cap - o, "\n,6,4,0");
    }
    o += (size_t)snprintf(s + o, cap - o, "],\n\"strings\":[\"\",\"(root)\",\"N\",\"next\",\"back\"");
    if (tail_bytes) {
        s[o++] = ',';
        s[o++] = '"';
        for (size_t i = 0; i < tail_bytes; i++)
            s[o++] = i % 100 == 99 ? ',' : ' ';
        s[o++] = '"';
    }
    o += (size_t)snprintf(s + o, cap - o, "]}\n");
    *len = o;
    return s;
}

char *v8_chain_snapshot(uint32_t k, size_t *len)
{
    return v8_chain_snapshot_padded(k, 0, 0, len);
}

/* Snapshots one thread and two read alike, object for object and edge for edge. */
void v8_check_same_arrays(const lf_snapshot *one, const lf_snapshot *two)
{
    CHECK_EQ_U64(two->object_count, one->object_count);
    CHECK_EQ_U64(two->edge_count, one->edge_count);
    if (two->object_count != one->object_count || two->edge_count != one->edge_count)
        return;
    const size_t n = one->object_count;
    CHECK(test_sizes_equal(&one->object_shallow, &two->object_shallow, (uint32_t)n));
    CHECK(memcmp(one->object_class, two->object_class, n * sizeof *one->object_class) == 0);
    int offsets_same = 1;
    for (uint32_t v = 0; v < n; v++)
        offsets_same &= lf_snapshot_edges_end(one, v) == lf_snapshot_edges_end(two, v);
    CHECK(offsets_same);
    CHECK(memcmp(one->edge_target, two->edge_target, one->edge_count * sizeof *one->edge_target) == 0);
    /* ids (4 bytes each), kinds and labels are read through the lazy fields */
    CHECK(one->object_id == NULL && two->object_id == NULL);
    uint64_t *ids[2];
    uint8_t *kinds[2];
    uint32_t *labels[2];
    CHECK(lf_snapshot_decode_lazy(one, &ids[0], &kinds[0], &labels[0]) == 0);
    CHECK(lf_snapshot_decode_lazy(two, &ids[1], &kinds[1], &labels[1]) == 0);
    CHECK(ids[0] && ids[1] && kinds[0] && kinds[1] && labels[0] && labels[1]);
    if (ids[0] && ids[1] && kinds[0] && kinds[1] && labels[0] && labels[1]) {
        CHECK(memcmp(ids[0], ids[1], n * sizeof *ids[0]) == 0);
        CHECK(memcmp(kinds[0], kinds[1], one->edge_count) == 0);
        CHECK(memcmp(labels[0], labels[1], one->edge_count * sizeof *labels[0]) == 0);
    }
    for (int k = 0; k < 2; k++) {
        lf_big_free(ids[k]);
        lf_big_free(kinds[k]);
        lf_big_free(labels[k]);
    }
}

