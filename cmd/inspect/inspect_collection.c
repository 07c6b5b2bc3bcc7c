/* inspect_collection.c - `inspect` on a map or set: its entries, key ->
 * value, as Eclipse MAT's collection queries and DevTools' Map entries show
 * them (issue 32, docs/COLLECTIONS.md). The entries are found by the map's
 * own links, not the dominator tree. JVM: the table's slots and each
 * bucket's `next` chain (HashMap, LinkedHashMap, Hashtable, WeakHashMap,
 * ConcurrentHashMap and its tree bins' `first` chains), a TreeMap's `root`
 * and each entry's `left` and `right`. V8: a Map's or Set's `table`, whose
 * slots hold a Map entry's key and value next to each other (slot numbers
 * k and k + 1) and a Set's member alone, in insertion order. .NET: a
 * Dictionary's or HashSet's entry array, each key and its value side by
 * side (core/analysis/dotnet_entries.h); a JVM IdentityHashMap's or
 * Map.of's table the same, paired by index (core/analysis/paired_table.h). */
#include <Judy.h>
#include <stdio.h>
#include <string.h>

#include "../../core/base/vec.h"
#include "../../core/base/bigmem.h"
#include "../../core/analysis/dotnet_entries.h"
#include "../../core/analysis/paired_table.h"
#include "../../core/analysis/v8_table.h"
#include "../../core/hprof/hprof_values.h"
#include "../cli/cli.h"
#include "../cli/string_preview.h"
#include "inspect_rows.h"

static int named(lf_str s, const char *name)
{
    return s.len == strlen(name) && memcmp(s.ptr, name, s.len) == 0;
}

/* The target of node's edge `name` of a kind in `kinds` (a bit per
 * lf_edge_kind; a weak edge too: WeakHashMap's keys), LF_NODE_NONE when
 * null or absent. */
static uint32_t edge_target(const lf_snapshot *s, uint32_t node, const char *name, unsigned kinds)
{
    for (uint64_t e = lf_snapshot_edges_begin(s, node); e < lf_snapshot_edges_end(s, node); e++) {
        uint8_t kind;
        uint32_t label;
        lf_snapshot_edge_info(s, e, &kind, &label);
        if ((kinds >> kind & 1) && named(lf_snapshot_string(s, label), name))
            return lf_edge_node(s->edge_target[e]);
    }
    return LF_NODE_NONE;
}

static uint32_t field_target(const lf_snapshot *s, uint32_t node, const char *name)
{
    return edge_target(s, node, name, 1u << LF_EDGE_KIND_FIELD);
}

/* The map a set keeps its elements in, or node itself when it is a map the
 * rows know; LF_NODE_NONE for anything else. */
static uint32_t map_of(const lf_snapshot *s, uint32_t node, int *keys_only)
{
    static const char *const maps[] = {"java.util.HashMap", "java.util.LinkedHashMap", "java.util.Hashtable",
                                       "java.util.Properties", "java.util.WeakHashMap", "java.util.TreeMap",
                                       "java.util.concurrent.ConcurrentHashMap"};
    static const char *const sets[][2] = {{"java.util.HashSet", "map"}, {"java.util.LinkedHashSet", "map"},
                                          {"java.util.TreeSet", "m"}};
    lf_str cls = lf_snapshot_class_name(s, s->object_class[node]);
    *keys_only = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (named(cls, sets[i][0])) {
            *keys_only = 1;
            uint32_t m = field_target(s, node, sets[i][1]);
            return m == LF_NODE_NONE ? LF_NODE_NONE : map_of(s, m, &(int){0});
        }
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        if (named(cls, maps[i]))
            return node;
    return LF_NODE_NONE;
}

typedef struct entry_walk {
    uint32_t *stack;
    size_t depth, cap;
    Pvoid_t seen;             /* Judy1 of the nodes pushed */
    int failed;
} entry_walk;

static void push(entry_walk *w, uint32_t node)
{
    int fresh;
    if (node == LF_NODE_NONE || w->failed)
        return;
    J1S(fresh, w->seen, (Word_t)node);
    if (fresh == JERR || (fresh && lf_vec_reserve((void **)&w->stack, &w->cap, w->depth + 1, sizeof *w->stack)))
        w->failed = 1;
    else if (fresh)
        w->stack[w->depth++] = node;
}

/* The next entry (a node with a key or a value), LF_NODE_NONE at the end;
 * the slots, chains and subtrees on the way are pushed. */
static uint32_t next_entry(const lf_snapshot *s, entry_walk *w, uint32_t *key, uint32_t *value)
{
    while (w->depth > 0 && !w->failed) {
        uint32_t x = w->stack[--w->depth];
        lf_str cls = lf_snapshot_class_name(s, s->object_class[x]);
        if (cls.len > 2 && memcmp(cls.ptr + cls.len - 2, "[]", 2) == 0) {
            /* a table: its slots from the last, so the walk lists the first first */
            for (uint64_t e = lf_snapshot_edges_end(s, x); e > lf_snapshot_edges_begin(s, x); e--)
                push(w, lf_edge_node(s->edge_target[e - 1]));
            continue;
        }
        static const char *const links[] = {"right", "left", "next", "first"};
        for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
            push(w, field_target(s, x, links[i]));
        *key = field_target(s, x, "key");
        if (*key == LF_NODE_NONE)
            *key = field_target(s, x, "referent"); /* WeakHashMap$Entry */
        *value = field_target(s, x, "value");
        if (*value == LF_NODE_NONE)
            *value = field_target(s, x, "val");
        if (*key != LF_NODE_NONE || *value != LF_NODE_NONE)
            return x;
    }
    return LF_NODE_NONE;
}

/* size, capacity and fill ratio rows. */
static void summary_rows(const inspect_ctx *c, uint64_t size, uint64_t capacity)
{
    char text[64];
    int n = snprintf(text, sizeof text, "%llu", (unsigned long long)size);
    inspect_cells(c, "collection", UINT64_MAX, "size", 4, NULL, text, (size_t)n);
    inspect_object(c, LF_NODE_NONE);
    out_row_end(c->w);
    if (capacity == 0)
        return;
    n = snprintf(text, sizeof text, "%llu", (unsigned long long)capacity);
    inspect_cells(c, "collection", UINT64_MAX, "capacity", 8, NULL, text, (size_t)n);
    inspect_object(c, LF_NODE_NONE);
    out_row_end(c->w);
    n = snprintf(text, sizeof text, "%.3f", (double)size / (double)capacity);
    inspect_cells(c, "collection", UINT64_MAX, "fill_ratio", 10, NULL, text, (size_t)n);
    inspect_object(c, LF_NODE_NONE);
    out_row_end(c->w);
}

/* A key or value for a cell: its text (JVM: a String's or a boxed
 * number's; V8: a string's or a number's), else "ID (class)", else `none`
 * ("null", "undefined"). */
static size_t object_text(const inspect_ctx *c, uint32_t node, const char *none, char *out, size_t size,
                          int *plain)
{
    const char *kind;
    *plain = 0;
    if (node == LF_NODE_NONE)
        return (size_t)snprintf(out, size, "%s", none);
    size_t n = c->s->format == LF_FORMAT_V8 ? inspect_v8_text(c, node, out, size, &kind)
                                            : inspect_hprof_key_text(c, node, out, size);
    if (n)
        return n;
    *plain = 1;
    lf_str cls = lf_snapshot_object_label(c->s, node);
    int k = snprintf(out, size, c->s->flags & LF_SNAP_IDS_AT ? "@%llu (%.*s)" : "0x%llx (%.*s)",
                     (unsigned long long)lf_snapshot_object_id(c->s, node), (int)(cls.len > 200 ? 200 : cls.len),
                     cls.ptr);
    return k < 0 ? 0 : (size_t)k < size ? (size_t)k : size - 1;
}

/* An entry's value cell, c->cell: none for a set, and none in a table
 * when it is only the value's id and class, which the row's own id and
 * class cells show (as a field's object value is shown). */
static const char *entry_value(const inspect_ctx *c, int keys_only, int plain)
{
    if (keys_only || (plain && out_writer_format(c->w) == OUT_TABLE))
        return NULL;
    return c->cell;
}

/* "N more entries" when the rows showed `shown` (at most) of size. */
static void note_more_entries(const inspect_ctx *c, uint64_t size, uint64_t shown)
{
    char text[96];
    if (shown >= size)
        return;
    snprintf(text, sizeof text, "%llu more entries (--elements N or --all)", (unsigned long long)(size - shown));
    inspect_note(c, text);
}

/* The table's length: the map's capacity (0 when it cannot be read). */
static uint64_t capacity_of(const inspect_ctx *c, uint32_t map)
{
    const struct hprof_lazy *l = lf_hprof_lazy(c->s);
    uint32_t table = field_target(c->s, map, "table");
    lf_jobject o;
    lf_error err = {0};
    if (!l || table == LF_NODE_NONE || lf_jobject_read(l, table, &o, &err) || o.kind != LF_J_OBJ_ARRAY)
        return 0;
    return o.length;
}

/* The entries of a JVM table of keys and values side by side
 * (paired_table.h), the first `limit` as rows; returns how many there are,
 * or UINT64_MAX out of memory. */
static uint64_t paired_entries(const inspect_ctx *c, uint32_t table, uint64_t limit)
{
    lf_paired_table_walk w;
    uint32_t key, value;
    uint64_t count = 0;
    char text[4096];
    int rc = lf_paired_table_begin(&w, c->s, table);
    if (rc != 0)
        return rc < 0 ? UINT64_MAX : 0;
    while (lf_paired_table_next(&w, &key, &value)) {
        if (count++ >= limit)
            continue;
        int plain = 0;
        size_t k = object_text(c, key, "null", text, sizeof text, &plain);
        plain = 0;
        size_t v = object_text(c, value, "null", c->cell, c->cell_cap, &plain);
        inspect_cells(c, "entry", count - 1, text, k, "key -> value", entry_value(c, 0, plain), v);
        inspect_object(c, value);
        out_row_end(c->w);
    }
    lf_paired_table_end(&w);
    return count;
}

/* An IdentityHashMap's or Map.of's `table`, a Clojure array map's `array`,
 * when it holds keys and values side by side; LF_NODE_NONE otherwise. */
static uint32_t paired_table_of(const lf_snapshot *s, uint32_t node)
{
    static const char *const fields[] = {"table", "array"};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        lf_paired_table_walk w;
        uint32_t t = field_target(s, node, fields[i]);
        if (t != LF_NODE_NONE && lf_paired_table_begin(&w, s, t) == 0) {
            lf_paired_table_end(&w);
            return t;
        }
    }
    return LF_NODE_NONE;
}

static int inspect_paired(const inspect_ctx *c, uint32_t table)
{
    uint64_t size = paired_entries(c, table, 0);
    if (size == UINT64_MAX || (summary_rows(c, size, 0), paired_entries(c, table, c->elements)) == UINT64_MAX) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    note_more_entries(c, size, c->elements);
    return EXIT_OK;
}

int inspect_collection(const inspect_ctx *c, uint32_t node)
{
    const lf_snapshot *s = c->s;
    uint32_t pairs = paired_table_of(s, node);
    if (pairs != LF_NODE_NONE)
        return inspect_paired(c, pairs);
    int keys_only;
    uint32_t map = map_of(s, node, &keys_only);
    if (map == LF_NODE_NONE)
        return EXIT_OK;
    entry_walk w = {NULL, 0, 0, NULL, 0};
    push(&w, field_target(s, map, "table"));
    push(&w, field_target(s, map, "root"));
    uint64_t size = 0, shown = 0;
    uint32_t key, value;
    char text[4096];
    /* counted first: the summary comes before the entries */
    while (next_entry(s, &w, &key, &value) != LF_NODE_NONE)
        size++;
    summary_rows(c, size, capacity_of(c, map));
    Word_t freed;
    J1FA(freed, w.seen);
    w.depth = 0;
    push(&w, field_target(s, map, "table"));
    push(&w, field_target(s, map, "root"));
    for (; shown < c->elements && next_entry(s, &w, &key, &value) != LF_NODE_NONE; shown++) {
        int plain;
        size_t k = object_text(c, key, "null", text, sizeof text, &plain);
        size_t v = keys_only ? 0 : object_text(c, value, "null", c->cell, c->cell_cap, &plain);
        inspect_cells(c, "entry", shown, text, k, keys_only ? "key" : "key -> value", entry_value(c, keys_only, plain), v);
        inspect_object(c, keys_only ? key : value);
        out_row_end(c->w);
    }
    int failed = w.failed;
    J1FA(freed, w.seen);
    (void)freed;
    lf_big_free(w.stack);
    if (failed) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    note_more_entries(c, size, shown);
    return EXIT_OK;
}

/* The entries of a V8 Map (keys_only 0) or Set in table's slots, the first
 * `limit` as rows; returns how many there are. */
static uint64_t v8_entries(const inspect_ctx *c, uint32_t table, int keys_only, uint64_t limit)
{
    lf_v8_table_walk w;
    uint32_t key, value;
    uint64_t count = 0;
    char text[4096];
    lf_v8_table_begin(&w, c->s, table, keys_only);
    while (lf_v8_table_next(&w, &key, &value)) {
        if (count++ >= limit)
            continue;
        int plain = 0;
        size_t k = key == LF_NODE_NONE ? (size_t)snprintf(text, sizeof text, "(small integer)")
                                       : object_text(c, key, "undefined", text, sizeof text, &plain);
        plain = 0;
        size_t v = keys_only               ? 0
                   : value == LF_NODE_NONE ? (size_t)snprintf(c->cell, c->cell_cap, "(small integer)")
                                           : object_text(c, value, "undefined", c->cell, c->cell_cap, &plain);
        inspect_cells(c, "entry", count - 1, text, k, keys_only ? "key" : "key -> value",
                      entry_value(c, keys_only, plain), v);
        inspect_object(c, keys_only ? key : value);
        out_row_end(c->w);
    }
    return count;
}

int inspect_v8_collection(const inspect_ctx *c, uint32_t node)
{
    int keys_only;
    uint32_t table = lf_v8_collection_table(c->s, node, &keys_only);
    if (table == LF_NODE_NONE)
        return EXIT_OK;
    uint64_t size = v8_entries(c, table, keys_only, 0);
    summary_rows(c, size, 0);
    v8_entries(c, table, keys_only, c->elements);
    note_more_entries(c, size, c->elements);
    return EXIT_OK;
}

/* A .NET key or value for a cell: a string's text where the file keeps it
 * (a .NET core through the agent), else "ID (class)"; "null" for none. */
static size_t dotnet_text(const inspect_ctx *c, uint32_t node, char *out, size_t size, int *plain)
{
    size_t len = 0;
    char text[CLI_PREVIEW_CELL];
    if (node != LF_NODE_NONE && c->s->text_count && cli_string_preview_text(c->s, node, text, &len)) {
        *plain = 0;
        return (size_t)snprintf(out, size, "%.*s", (int)len, text);
    }
    return object_text(c, node, "null", out, size, plain);
}

/* The entries of a .NET entry array, the first `limit` as rows; returns how
 * many there are. */
static uint64_t dotnet_entries(const inspect_ctx *c, uint32_t array, uint64_t limit)
{
    lf_dotnet_entries_walk w;
    uint32_t key, value;
    uint64_t count = 0;
    char text[4096];
    if (lf_dotnet_entries_begin(&w, c->s, array) != 0)
        return 0;
    while (lf_dotnet_entries_next(&w, &key, &value)) {
        if (count++ >= limit)
            continue;
        int plain = 0;
        /* a value type's key or value is no object: its type, unrecorded */
        size_t k = key == LF_NODE_NONE && w.key_is_value
                       ? (size_t)snprintf(text, sizeof text, "(%.*s)", (int)w.key_type.len, w.key_type.ptr)
                       : dotnet_text(c, key, text, sizeof text, &plain);
        plain = 0;
        size_t v = w.keys_only ? 0
                   : value == LF_NODE_NONE && w.value_is_value
                       ? (size_t)snprintf(c->cell, c->cell_cap, "(%.*s)", (int)w.value_type.len, w.value_type.ptr)
                       : dotnet_text(c, value, c->cell, c->cell_cap, &plain);
        inspect_cells(c, "entry", count - 1, text, k, w.keys_only ? "key" : "key -> value",
                      entry_value(c, w.keys_only, plain), v);
        inspect_object(c, w.keys_only ? key : value);
        out_row_end(c->w);
    }
    return count;
}

/* node's entry array: node itself, or the one it holds (a Dictionary's
 * _entries, which it dominates); LF_NODE_NONE when none. */
static uint32_t dotnet_entry_array(const lf_snapshot *s, uint32_t node)
{
    lf_dotnet_entries_walk w;
    if (lf_dotnet_entries_begin(&w, s, node) == 0)
        return node;
    for (uint64_t e = lf_snapshot_edges_begin(s, node); e < lf_snapshot_edges_end(s, node); e++) {
        uint32_t t = lf_edge_node(s->edge_target[e]);
        if (t < s->object_count && s->idom[t] == node && lf_dotnet_entries_begin(&w, s, t) == 0)
            return t;
    }
    return LF_NODE_NONE;
}

int inspect_dotnet_collection(const inspect_ctx *c, uint32_t node)
{
    uint32_t array = dotnet_entry_array(c->s, node);
    if (array == LF_NODE_NONE)
        return EXIT_OK;
    uint64_t size = dotnet_entries(c, array, 0);
    summary_rows(c, size, 0);
    dotnet_entries(c, array, c->elements);
    note_more_entries(c, size, c->elements);
    return EXIT_OK;
}
