/* test_trend_holders.c - the series' holders found again in a snapshot
 * (lf_trend_holders_nodes): from what was noted while the last snapshot was
 * counted, and by a pass over another snapshot's signatures. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/analysis/trend.h"
#include "../../core/textgraph/textgraph.h"
#include "test.h"
#include "tests.h"

/* A static field holds a Map (24 bytes) whose Item[] (16 + 8 per item)
 * holds `items` Items of 32 bytes each; ids as addresses (not stable). */
static void make(lf_snapshot *s, int items)
{
    char text[4096];
    size_t at = (size_t)snprintf(text, sizeof text,
                                 "node\t0x10\t24\tMap\nnode\t0x20\t%d\tItem[]\nedge\t0x10\t0x20\tstrong\ttable\n"
                                 "root\t0x10\tstatic field\tCache.map\n", 16 + 8 * items);
    for (int i = 0; i < items; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, "node\t0x%x\t32\tItem\nedge\t0x20\t0x%x\tstrong\t%d\n",
                               0x100 + i, 0x100 + i, i);
    lf_error err;
    CHECK(lf_textgraph_parse((const uint8_t *)text, at, s, &err) == 0);
    s->flags &= ~(unsigned)LF_SNAP_IDS_STABLE; /* matched by signature, as HPROF is */
    CHECK(lf_analyze(s, 0, 1, &err) == 0);
}

/* The holder key of the first row of trend class `name`. */
static uint64_t key_of(const lf_trend *t, const char *name)
{
    for (size_t r = 0; r < t->holders.rows; r++) {
        uint32_t c = t->holders.row_class[r];
        size_t len = t->names.offset[c + 1] - t->names.offset[c];
        if (len == strlen(name) && memcmp(t->names.bytes + t->names.offset[c], name, len) == 0)
            return t->holders.row_key[r];
    }
    return 0;
}

void test_trend_holders_nodes(void)
{
    lf_snapshot s[3];
    lf_trend t;
    lf_error err;
    CHECK(lf_trend_init(&t, 3, &err) == 0);
    for (int i = 0; i < 3; i++) {
        make(&s[i], 2 + 2 * i);
        CHECK(lf_trend_add(&t, &s[i], &err) == 0);
    }
    /* Items are held by the array, the Map by its root (its own row) */
    uint64_t keys[3] = {key_of(&t, "Item"), key_of(&t, "Map"), 0}, top[3];
    uint32_t node[3];
    CHECK(keys[0] != 0 && keys[1] != 0);
    /* the last: as noted; the Map alone is under the roots, retaining
     * 24 + (16 + 8 * 6) + 6 * 32 bytes */
    CHECK(lf_trend_holders_nodes(&t.holders, &s[2], keys, 3, node, top, &err) == 0);
    CHECK_EQ_U64(node[0], lf_snapshot_find_id(&s[2], 0x20));
    CHECK_EQ_U64(top[0], 0);
    CHECK_EQ_U64(node[1], lf_snapshot_find_id(&s[2], 0x10));
    CHECK_EQ_U64(top[1], 24 + 64 + 192);
    CHECK_EQ_U64(node[2], LF_NODE_NONE);
    CHECK_EQ_U64(top[2], 0);
    /* the first: by a pass over its signatures, 24 + 32 + 64 */
    CHECK(lf_trend_holders_nodes(&t.holders, &s[0], keys, 3, node, top, &err) == 0);
    CHECK_EQ_U64(node[0], lf_snapshot_find_id(&s[0], 0x20));
    CHECK_EQ_U64(node[1], lf_snapshot_find_id(&s[0], 0x10));
    CHECK_EQ_U64(top[1], 24 + 32 + 64);
    lf_trend_free(&t);
    for (int i = 0; i < 3; i++)
        lf_snapshot_free(&s[i]);
}
