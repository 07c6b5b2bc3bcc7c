/* test_trend_holders.c - the series' holders found again in a snapshot
 * (lf_trend_holders_nodes): from what was noted while the last snapshot was
 * counted, and by a pass over another snapshot's signatures; what the
 * counting pass reads per snapshot (class counts without retained sizes,
 * the collections table placed node by node). */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/analysis/collections.h"
#include "../../core/analysis/holders.h"
#include "../../core/analysis/owners.h"
#include "../../core/analysis/trend.h"
#include "../../core/textgraph/textgraph.h"
#include "../../graph/halves.h"
#include "test.h"
#include "test_support.h"
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

/* Whether holder row r counts trend class `name`. */
static int row_of_class(const lf_trend *t, size_t r, const char *name)
{
    uint32_t c = t->holders.row_class[r];
    size_t len = t->names.offset[c + 1] - t->names.offset[c];
    return len == strlen(name) && memcmp(t->names.bytes + t->names.offset[c], name, len) == 0;
}

/* The holder key of the first row of trend class `name`. */
static uint64_t key_of(const lf_trend *t, const char *name)
{
    for (size_t r = 0; r < t->holders.rows; r++)
        if (row_of_class(t, r, name))
            return t->holders.row_key[r];
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

/* A snapshot big enough for the last count's places to go on a thread of
 * their own (trend_holders.c, past LF_THREADED_MIN_NODES): a static
 * field's Map whose Item[] holds `items` Items, and a Registry whose
 * Object[] holds `buckets` chains of two Cells, each Cell holding a Value. */
static void make_big(lf_snapshot *s, uint32_t items, uint32_t buckets)
{
    size_t size = 256 + (size_t)(items + 5 * buckets) * 64, at = 0;
    char *text = malloc(size);
    CHECK(text != NULL);
    if (!text)
        return;
    at += (size_t)snprintf(text + at, size - at,
                           "node\t0x10\t24\tMap\nnode\t0x20\t%u\tItem[]\nedge\t0x10\t0x20\tstrong\ttable\n"
                           "root\t0x10\tstatic field\tCache.map\nnode\t0x30\t16\tRegistry\n"
                           "node\t0x40\t%u\tjava.lang.Object[]\nedge\t0x30\t0x40\tstrong\tcells\n"
                           "root\t0x30\tstatic field\tApp.registry\n",
                           16 + 8 * items, 16 + 8 * buckets);
    for (uint32_t i = 0; i < items; i++)
        at += (size_t)snprintf(text + at, size - at, "node\t0x%x\t32\tItem\nedge\t0x20\t0x%x\tstrong\t%u\n",
                               0x100000 + i, 0x100000 + i, i);
    for (uint32_t b = 0; b < buckets; b++) {
        uint32_t cell = 0x1000000 + 4 * b;
        at += (size_t)snprintf(text + at, size - at,
                               "node\t0x%x\t24\tCell\nnode\t0x%x\t24\tCell\nnode\t0x%x\t16\tValue\n"
                               "node\t0x%x\t16\tValue\nedge\t0x40\t0x%x\tstrong\t%u\n"
                               "edge\t0x%x\t0x%x\tstrong\tnext\nedge\t0x%x\t0x%x\tstrong\tvalue\n"
                               "edge\t0x%x\t0x%x\tstrong\tvalue\n",
                               cell, cell + 1, cell + 2, cell + 3, cell, b, cell, cell + 1, cell, cell + 2, cell + 1,
                               cell + 3);
    }
    lf_error err;
    CHECK(lf_textgraph_parse((const uint8_t *)text, at, s, &err) == 0);
    s->flags &= ~(unsigned)LF_SNAP_IDS_STABLE;
    CHECK(lf_analyze(s, 0, 1, &err) == 0);
    free(text);
}

/* Objects of trend class `name` in snapshot k, over every holder. */
static uint64_t class_total(const lf_trend *t, const char *name, uint32_t k)
{
    uint64_t total = 0;
    for (size_t r = 0; r < t->holders.rows; r++)
        if (row_of_class(t, r, name))
            total += t->holders.count[r * t->holders.capacity + k];
    return total;
}

/* The last snapshot's count with its places made on another thread gives
 * the rows, keys and counts of the count that places them itself: a series
 * of three snapshots of 60,000 to 70,000 Items and 3,000 to 3,500 buckets,
 * counted with one thread and with two. Every Item, Cell and Value is
 * counted once, under some holder. */
void test_trend_places_ahead(void)
{
    lf_snapshot s[3];
    lf_trend t[2];
    lf_error err;
    for (int i = 0; i < 3; i++)
        make_big(&s[i], 60000 + 5000 * (uint32_t)i, 3000 + 250 * (uint32_t)i);
    CHECK(s[2].object_count >= LF_THREADED_MIN_NODES);
    for (int k = 0; k < 2; k++) {
        CHECK(lf_trend_init(&t[k], 3, &err) == 0);
        lf_trend_use_threads(&t[k], k ? 2 : 1);
        for (int i = 0; i < 3; i++)
            CHECK(lf_trend_add(&t[k], &s[i], &err) == 0);
    }
    CHECK_EQ_U64(t[1].holders.rows, t[0].holders.rows);
    for (size_t r = 0; r < t[0].holders.rows && r < t[1].holders.rows; r++) {
        CHECK_EQ_U64(t[1].holders.row_class[r], t[0].holders.row_class[r]);
        CHECK_EQ_U64(t[1].holders.row_key[r], t[0].holders.row_key[r]);
        for (uint32_t k = 0; k < 3; k++)
            CHECK_EQ_U64(t[1].holders.count[r * 3 + k], t[0].holders.count[r * 3 + k]);
    }
    for (int k = 0; k < 2; k++) {
        CHECK_EQ_U64(class_total(&t[k], "Item", 2), 70000);
        CHECK_EQ_U64(class_total(&t[k], "Cell", 2), 2 * 3500);
        CHECK_EQ_U64(class_total(&t[k], "Value", 2), 2 * 3500);
        lf_trend_free(&t[k]);
    }
    for (int i = 0; i < 3; i++)
        lf_snapshot_free(&s[i]);
}

/* text as a snapshot, analysed, ids as addresses (matched by signature) */
static void parse(lf_snapshot *s, const char *text)
{
    lf_error err;
    CHECK(lf_textgraph_parse((const uint8_t *)text, strlen(text), s, &err) == 0);
    s->flags &= ~(unsigned)LF_SNAP_IDS_STABLE;
    CHECK(lf_analyze(s, 0, 1, &err) == 0);
}

static uint32_t class_index(const lf_snapshot *s, const char *name)
{
    for (uint32_t c = 0; c < s->class_count; c++)
        if (test_str_is(lf_snapshot_class_name(s, c), name))
            return c;
    return UINT32_MAX;
}

/* Counts without retained sizes (trend's): a Map of 24 bytes holding an
 * Item[] of 40 holding 3 Items of 32, and an Item no root reaches. */
void test_trend_group_counts(void)
{
    lf_snapshot s;
    parse(&s, "node\t0x10\t24\tMap\nnode\t0x20\t40\tItem[]\nedge\t0x10\t0x20\tstrong\ttable\n"
              "node\t0x30\t32\tItem\nnode\t0x31\t32\tItem\nnode\t0x32\t32\tItem\nnode\t0x99\t32\tItem\n"
              "edge\t0x20\t0x30\tstrong\t0\nedge\t0x20\t0x31\tstrong\t1\nedge\t0x20\t0x32\tstrong\t2\n"
              "root\t0x10\tstatic field\tCache.map\n");
    lf_class_totals t, with_retained;
    lf_error err;
    CHECK(lf_group_counts_compute(&s, s.object_class, s.class_count, &t, &err) == 0);
    CHECK(lf_group_totals_compute(&s, s.object_class, s.class_count, &with_retained, &err) == 0);
    uint32_t map = class_index(&s, "Map"), item = class_index(&s, "Item");
    CHECK(map != UINT32_MAX && item != UINT32_MAX);
    if (map != UINT32_MAX && item != UINT32_MAX) {
        CHECK_EQ_U64(t.count[item], 4);
        CHECK_EQ_U64(t.shallow[item], 128);
        CHECK_EQ_U64(t.unreachable_count[item], 1);
        CHECK_EQ_U64(t.unreachable_shallow[item], 32);
        CHECK_EQ_U64(t.count[map], 1);
        CHECK_EQ_U64(t.retained[map], 0); /* not computed */
        CHECK_EQ_U64(with_retained.retained[map], 24 + 40 + 3 * 32);
        for (uint32_t c = 0; c < s.class_count; c++) {
            CHECK_EQ_U64(t.count[c], with_retained.count[c]);
            CHECK_EQ_U64(t.shallow[c], with_retained.shallow[c]);
        }
    }
    lf_class_totals_free(&t);
    lf_class_totals_free(&with_retained);
    lf_snapshot_free(&s);
}

/* The signatures' walk over an analysed snapshot: its arrays (freed by
 * the caller) and the chains it found. */
typedef struct signed_walk {
    lf_holders holders;
    uint64_t *sig;
    uint32_t *order;
    size_t count;
    void *chains;
} signed_walk;

static void walk_signatures(const lf_snapshot *s, signed_walk *w)
{
    lf_error err;
    lf_holders_init(&w->holders, s);
    w->sig = malloc(((size_t)s->object_count + 1) * sizeof *w->sig);
    w->order = malloc(((size_t)s->reachable_count + 1) * sizeof *w->order);
    w->count = 0;
    w->chains = NULL;
    CHECK(w->sig && w->order &&
          lf_owner_signatures(&w->holders, w->sig, w->order, NULL, &w->count, &w->chains, &err) == 0);
}

static void signed_walk_free(signed_walk *w)
{
    lf_holders_free(&w->holders);
    free(w->sig);
    free(w->order);
}

/* Where the collections placed each object: its owner above (0: none) and
 * its structure and inside flags. */
typedef struct place_want {
    uint64_t id, up;
    uint8_t flags;
} place_want;

static void check_places(const lf_snapshot *s, const lf_collections *c, const place_want *want, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        uint32_t v = lf_snapshot_find_id(s, want[k].id);
        CHECK(v != LF_NODE_NONE);
        if (v == LF_NODE_NONE)
            continue;
        uint32_t up = want[k].up ? lf_snapshot_find_id(s, want[k].up) : LF_NODE_NONE;
        CHECK_EQ_U64(c->up[v], up);
        CHECK_EQ_U64(c->flags[v] & (LF_COLL_STRUCTURE | LF_COLL_INSIDE), want[k].flags);
    }
}

/* The collections table placed node by node in preorder: a static field's
 * java.util.HashMap (0x10) whose table (0x20) holds a bucket of two entries
 * (0x30, then 0x31 by next), each with an Item value (0x40, 0x41), the
 * first Item a Leaf (0x50); beside it an app.Owner (0x60) holding a Thing
 * (0x70) by a field. The table and the entries are structure, what they
 * hold is inside the map, and the map is the owner above all of them; the
 * Thing's owner is its dominator. */
void test_collections_placed_in_preorder(void)
{
    lf_snapshot s;
    parse(&s, "node\t0x10\t48\tjava.util.HashMap\nnode\t0x20\t80\tjava.util.HashMap$Node[]\n"
              "node\t0x30\t32\tjava.util.HashMap$Node\nnode\t0x31\t32\tjava.util.HashMap$Node\n"
              "node\t0x40\t16\tItem\nnode\t0x41\t16\tItem\nnode\t0x50\t16\tLeaf\n"
              "node\t0x60\t16\tapp.Owner\nnode\t0x70\t16\tThing\n"
              "edge\t0x10\t0x20\tstrong\ttable\nedge\t0x20\t0x30\tstrong\t0\nedge\t0x30\t0x31\tstrong\tnext\n"
              "edge\t0x30\t0x40\tstrong\tvalue\nedge\t0x31\t0x41\tstrong\tvalue\nedge\t0x40\t0x50\tstrong\tx\n"
              "edge\t0x60\t0x70\tstrong\tt\n"
              "root\t0x10\tstatic field\tCache.map\nroot\t0x60\tstatic field\tApp.owner\n");
    signed_walk w;
    walk_signatures(&s, &w);
    uint64_t *sig = w.sig;
    CHECK_EQ_U64(w.count, 9);
    lf_collections c;
    lf_collections_builder b;
    CHECK(lf_collections_begin(&b, &c, &s, sig, w.chains) == 0);
    for (size_t i = 0; i < w.count; i++)
        lf_collections_place(&b, w.order[i]);
    lf_collections_end(&b);
    static const place_want want[] = {
        {0x10, 0, 0},
        {0x20, 0x10, LF_COLL_STRUCTURE | LF_COLL_INSIDE},
        {0x30, 0x10, LF_COLL_STRUCTURE | LF_COLL_INSIDE},
        {0x31, 0x10, LF_COLL_STRUCTURE | LF_COLL_INSIDE},
        {0x40, 0x10, LF_COLL_INSIDE},
        {0x41, 0x10, LF_COLL_INSIDE},
        {0x50, 0x10, LF_COLL_INSIDE},
        {0x60, 0, 0},
        {0x70, 0x60, 0},
    };
    check_places(&s, &c, want, sizeof want / sizeof *want);
    /* a chain's link shares its head's signature, and same-class is by class */
    uint32_t head = lf_snapshot_find_id(&s, 0x30), link = lf_snapshot_find_id(&s, 0x31);
    CHECK_EQ_U64(sig[head], sig[link]);
    CHECK(lf_same_class(&s, s.object_class[head], s.object_class[link]));
    CHECK(!lf_same_class(&s, s.object_class[head], s.object_class[lf_snapshot_find_id(&s, 0x40)]));
    lf_collections_free(&c);
    signed_walk_free(&w);
    lf_snapshot_free(&s);
}

/* The chains found by the signatures' walk decide alone what is structure
 * when no class does: a program's app.Table (0x10) whose Object[] (0x20)
 * holds buckets of Cells, a class no rule knows. Bucket [0] is a chain
 * (0x30, then 0x31 by next); bucket [1] a single Cell (0x32), which shares
 * the chain's signature (an element's index is one "[]"), so it is an entry
 * too. Each Cell holds an Item. Without the chains the Cells would be
 * elements of the array and the link's up its head. */
void test_collections_chains_from_signatures(void)
{
    lf_snapshot s;
    parse(&s, "node\t0x10\t16\tapp.Table\nnode\t0x20\t32\tjava.lang.Object[]\n"
              "node\t0x30\t24\tCell\nnode\t0x31\t24\tCell\nnode\t0x32\t24\tCell\n"
              "node\t0x40\t16\tItem\nnode\t0x41\t16\tItem\nnode\t0x42\t16\tItem\n"
              "edge\t0x10\t0x20\tstrong\tcells\nedge\t0x20\t0x30\tstrong\t0\nedge\t0x20\t0x32\tstrong\t1\n"
              "edge\t0x30\t0x31\tstrong\tnext\nedge\t0x30\t0x40\tstrong\tvalue\n"
              "edge\t0x31\t0x41\tstrong\tvalue\nedge\t0x32\t0x42\tstrong\tvalue\n"
              "root\t0x10\tstatic field\tApp.table\n");
    signed_walk w;
    walk_signatures(&s, &w);
    uint64_t *sig = w.sig;
    void *chains = w.chains;
    CHECK_EQ_U64(w.count, 8);
    uint32_t head = lf_snapshot_find_id(&s, 0x30), single = lf_snapshot_find_id(&s, 0x32);
    CHECK(head != LF_NODE_NONE && single != LF_NODE_NONE);
    int set = 0;
    J1C(set, chains, 0, -1); /* one chain, so one signature */
    CHECK_EQ_U64(set, 1);
    if (head != LF_NODE_NONE && single != LF_NODE_NONE) {
        CHECK_EQ_U64(sig[single], sig[head]);
        J1T(set, chains, (Word_t)sig[head]);
        CHECK(set);
    }
    lf_collections c;
    CHECK(lf_collections_build(&c, &s, w.order, w.count, sig, chains) == 0);
    static const place_want want[] = {
        {0x10, 0, 0},
        {0x20, 0x10, 0},
        {0x30, 0x20, LF_COLL_STRUCTURE | LF_COLL_INSIDE},
        {0x31, 0x20, LF_COLL_STRUCTURE | LF_COLL_INSIDE},
        {0x32, 0x20, LF_COLL_STRUCTURE | LF_COLL_INSIDE},
        {0x40, 0x20, LF_COLL_INSIDE},
        {0x41, 0x20, LF_COLL_INSIDE},
        {0x42, 0x20, LF_COLL_INSIDE},
    };
    check_places(&s, &c, want, sizeof want / sizeof *want);
    /* a walk that keeps its path's places itself (trend's count) gets each
     * node's place from its dominator's: the same places, nothing stored */
    signed_walk again;
    walk_signatures(&s, &again);
    lf_collections_builder below;
    CHECK(lf_collections_begin(&below, NULL, &s, again.sig, again.chains) == 0);
    size_t same = 0, placed = 0;
    for (size_t i = 0; i < again.count; i++) {
        uint32_t v = again.order[i], d = s.idom[v];
        if (d == LF_NODE_SUPER)
            continue;
        lf_coll_place dp = {c.up[d], c.flags[d]};
        lf_coll_place p = lf_collections_place_below(&below, v, d, &dp);
        placed++;
        same += p.up == c.up[v] && p.flags == (c.flags[v] & (LF_COLL_STRUCTURE | LF_COLL_INSIDE));
    }
    CHECK_EQ_U64(placed, 7);
    CHECK_EQ_U64(same, 7);
    lf_collections_end(&below);
    signed_walk_free(&again);
    lf_collections_free(&c);
    signed_walk_free(&w);
    lf_snapshot_free(&s);
}

/* Owner signatures' table leaves a chain's links out (an object of its
 * dominator's class) and answers them alone when asked: every answer is
 * the full table's. A java.util.HashMap (0x10) whose table (0x20) holds a
 * bucket of three entries (0x30, 0x31, 0x32 by next), each holding a
 * String by "key"; the entries 0x31 and 0x32 are links. */
void test_holders_links_left_out(void)
{
    lf_snapshot s;
    parse(&s, "node\t0x10\t48\tjava.util.HashMap\nnode\t0x20\t80\tjava.util.HashMap$Node[]\n"
              "node\t0x30\t32\tjava.util.HashMap$Node\nnode\t0x31\t32\tjava.util.HashMap$Node\n"
              "node\t0x32\t32\tjava.util.HashMap$Node\n"
              "node\t0x40\t24\tjava.lang.String\nnode\t0x41\t24\tjava.lang.String\nnode\t0x42\t24\tjava.lang.String\n"
              "edge\t0x10\t0x20\tstrong\ttable\nedge\t0x20\t0x30\tstrong\t5\n"
              "edge\t0x30\t0x40\tstrong\tkey\nedge\t0x30\t0x31\tstrong\tnext\n"
              "edge\t0x31\t0x41\tstrong\tkey\nedge\t0x31\t0x32\tweak\tmark\nedge\t0x31\t0x32\tstrong\tnext\n"
              "edge\t0x32\t0x42\tstrong\tkey\n"
              "root\t0x10\tstatic field\tCache.map\n");
    lf_error err;
    lf_holders walked, all;
    lf_holders_init(&walked, &s);
    lf_holders_init(&all, &s);
    lf_holders_expect_all(&all);
    uint64_t *sig = malloc(((size_t)s.object_count + 1) * sizeof *sig);
    uint32_t *order = malloc(((size_t)s.reachable_count + 1) * sizeof *order);
    size_t count = 0;
    CHECK(sig && order && lf_owner_signatures(&walked, sig, order, NULL, &count, NULL, &err) == 0);
    CHECK_EQ_U64(count, 8);
    uint32_t first = lf_snapshot_find_id(&s, 0x10);
    lf_holders_get(&all, first); /* answered alone: no work done yet */
    lf_holders_get(&all, first); /* the full table */
    CHECK(lf_holders_ready(&all));
    CHECK(!lf_holders_ready(&walked)); /* links are answered alone: one thread */
    uint32_t links[] = {lf_snapshot_find_id(&s, 0x31), lf_snapshot_find_id(&s, 0x32)};
    for (int i = 0; i < 2; i++) {
        CHECK(links[i] != LF_NODE_NONE);
        if (links[i] != LF_NODE_NONE) /* left out of the table */
            CHECK(walked.kind[links[i]] != all.kind[links[i]]);
    }
    for (size_t i = 0; i < count; i++) {
        lf_holder a = lf_holders_get(&walked, order[i]), b = lf_holders_get(&all, order[i]);
        CHECK_EQ_U64(a.kind, b.kind);
        CHECK_EQ_U64(a.label, b.label);
    }
    /* the links' holder edges, named: the strong "next", never the weak "mark" */
    char text[64];
    for (int i = 0; i < 2; i++) {
        if (links[i] == LF_NODE_NONE)
            continue;
        lf_holder h = lf_holders_get(&walked, links[i]);
        lf_snapshot_label_text(&s, h.kind, h.label, text, sizeof text);
        CHECK(strcmp(text, "next") == 0);
    }
    CHECK(!lf_holders_failed(&walked));
    lf_holders_free(&walked);
    lf_holders_free(&all);
    free(sig);
    free(order);
    lf_snapshot_free(&s);
}
