/* test_paired_table.c - a JVM map's keys and values side by side in one
 * table (core/analysis/paired_table.h), on hand-written graphs: the pairs
 * expected follow from the element indices the edges carry. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/paired_table.h"
#include "test.h"
#include "tests.h"
#include "test_support.h"

/* A map 0x1 of class `map` whose table 0x2 (java.lang.Object[]) references
 * node 0x10 + i at each index of `indices` (comma-separated; "-" for an
 * edge without an index), rooted at the map. */
static int parse_table(lf_snapshot *s, const char *map, const char *indices)
{
    char text[4096], list[512];
    size_t at = (size_t)snprintf(text, sizeof text,
                                 "node\t0x1\t40\t%s\nroot\t0x1\tstatic field\tApp.map\n"
                                 "node\t0x2\t256\tjava.lang.Object[]\nedge\t0x1\t0x2\tstrong\ttable\n",
                                 map);
    snprintf(list, sizeof list, "%s", indices);
    uint32_t id = 0x10;
    for (char *index = strtok(list, ","); index && at < sizeof text; index = strtok(NULL, ","), id++)
        at += (size_t)snprintf(text + at, sizeof text - at, "node\t0x%x\t16\tApp.Thing\nedge\t0x2\t0x%x\tstrong%s%s\n",
                               id, id, strcmp(index, "-") ? "\t" : "", strcmp(index, "-") ? index : "");
    return test_parse_analyzed(text, s);
}

/* The walk's entries as "key:value" ids past 0x10 ("-" for none), one
 * space between; "not begun" when the walk refuses the table. */
static void entries_text(const lf_snapshot *s, char *out, size_t size)
{
    lf_paired_table_walk w;
    uint32_t table = lf_snapshot_find_id(s, 0x2), key, value;
    size_t at = 0;
    out[0] = 0;
    if (lf_paired_table_begin(&w, s, table) != 0) {
        snprintf(out, size, "not begun");
        return;
    }
    while (lf_paired_table_next(&w, &key, &value))
        test_append_pair(s, 0x10, key, value, out, size, &at);
    lf_paired_table_end(&w);
}

static void check_pairs(const char *map, const char *indices, const char *want)
{
    lf_snapshot s;
    char got[512];
    CHECK(parse_table(&s, map, indices) == 0);
    entries_text(&s, got, sizeof got);
    char what[512];
    snprintf(what, sizeof what, "%s [%s]: entries", map, indices);
    test_expect_text(what, got, want);
    lf_snapshot_free(&s);
}

void test_paired_table_pairs(void)
{
    /* key at 2i, value at 2i + 1; empty slots between entries (an
     * IdentityHashMap's table is open addressing) shift nothing */
    check_pairs("java.util.IdentityHashMap", "0,1,6,7,10,11", "0:1 2:3 4:5");
    /* a null value (no edge at 3): key 2 alone; a null key (no edge at 4,
     * which IdentityHashMap writes as its NULL_KEY object, Map.of never) */
    check_pairs("java.util.IdentityHashMap", "0,1,2,5", "0:1 2:- -:3");
    /* Map.of with more than two entries, and Clojure's array map */
    check_pairs("java.util.ImmutableCollections$MapN", "2,3,4,5", "0:1 2:3");
    check_pairs("clojure.lang.PersistentArrayMap", "0,1", "0:1");
    /* a HashMap's table holds entry objects: no pairs */
    check_pairs("java.util.HashMap", "0,1", "not begun");
    /* references without indices (a .gcdump's): no pairs to tell */
    check_pairs("java.util.IdentityHashMap", "-,-", "not begun");
}
