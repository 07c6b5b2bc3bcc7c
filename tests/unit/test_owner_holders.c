/* test_owner_holders.c - the top owners that hold a top owner no root
 * names (lf_owner_holders_find), from the list of edges into such owners
 * made by the first search and from a pass over every edge: the same
 * holders, in the same order. */
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/analysis/owner_holders.h"
#include "../../core/textgraph/textgraph.h"
#include "test.h"
#include "tests.h"

/* Two rooted top owners, a (0x10) and b (0x20). a and b both hold s
 * (0x30), so none of them dominates it: a top owner no root names. s and a
 * hold t (0x40), another; c (0x50, under b) holds s weakly, which holds
 * nothing. a's child d (0x60) holds s too: its holder is its top owner, a,
 * already listed. Strong edges into s and t: a->s, b->s, d->s, s->t, a->t. */
static const char graph[] =
    "node\t0x10\t16\tA\nnode\t0x20\t16\tB\nnode\t0x30\t16\tS\nnode\t0x40\t16\tT\n"
    "node\t0x50\t16\tC\nnode\t0x60\t16\tD\n"
    "root\t0x10\tstatic field\tX.a\nroot\t0x20\tstatic field\tX.b\n"
    "edge\t0x10\t0x30\tstrong\ts\nedge\t0x10\t0x40\tstrong\tt\nedge\t0x10\t0x60\tstrong\td\n"
    "edge\t0x20\t0x30\tstrong\ts\nedge\t0x20\t0x50\tstrong\tc\n"
    "edge\t0x30\t0x40\tstrong\tt\nedge\t0x50\t0x30\tweak\ts\nedge\t0x60\t0x30\tstrong\ts\n";

static uint32_t node_of(const lf_snapshot *s, uint64_t id)
{
    for (uint32_t v = 0; v < s->object_count; v++)
        if (lf_snapshot_object_id(s, v) == id)
            return v;
    return LF_NODE_NONE;
}

/* The holders' ids of owner, "0x10 0x20", into buf. */
static const char *holders_text(const lf_owner_holders *h, const lf_snapshot *s, uint32_t owner, char *buf,
                                size_t size)
{
    const uint32_t *holder;
    size_t n = lf_owner_holders_get(h, owner, &holder), at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s0x%llx", i ? " " : "",
                               (unsigned long long)lf_snapshot_object_id(s, holder[i]));
    return buf;
}

void test_owner_holders_listed(void)
{
    lf_snapshot s;
    lf_error err;
    CHECK(lf_textgraph_parse((const uint8_t *)graph, sizeof graph - 1, &s, &err) == 0);
    CHECK(lf_analyze(&s, 0, 1, &err) == 0);
    const uint32_t owner[2] = {node_of(&s, 0x30), node_of(&s, 0x40)};
    CHECK(owner[0] != LF_NODE_NONE && owner[1] != LF_NODE_NONE);
    CHECK(s.idom[owner[0]] == LF_NODE_SUPER && s.idom[owner[1]] == LF_NODE_SUPER);
    char text[2][64];
    for (int every = 0; every < 2; every++) {
        lf_owner_holders h;
        lf_owner_holders_init(&h);
        if (every)
            h.into_state = -1; /* as past the list's bounds: a pass over every edge */
        /* one owner at a time, as a listing's levels ask */
        CHECK(lf_owner_holders_find(&h, &s, &owner[0], 1) == 0);
        CHECK(lf_owner_holders_find(&h, &s, &owner[1], 1) == 0);
        CHECK(h.into_state == (every ? -1 : 1));
        if (!every)
            CHECK(h.into_len == 5); /* a->s, a->t, b->s, s->t, d->s: not the weak c->s */
        CHECK(strcmp(holders_text(&h, &s, owner[0], text[0], sizeof text[0]), "0x10 0x20") == 0);
        CHECK(strcmp(holders_text(&h, &s, owner[1], text[1], sizeof text[1]), "0x10 0x30") == 0);
        lf_owner_holders_free(&h);
    }
    lf_snapshot_free(&s);
}
