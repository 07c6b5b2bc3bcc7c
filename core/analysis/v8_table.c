/* v8_table.c - a V8 Map's or Set's entries (v8_table.h). */
#include "v8_table.h"

#include <string.h>

#include "class_kinds.h"

/* The target of node's field or internal edge `name`, LF_NODE_NONE when absent. */
static uint32_t named_target(const lf_snapshot *s, uint32_t node, const char *name)
{
    for (uint64_t e = lf_snapshot_edges_begin(s, node); e < lf_snapshot_edges_end(s, node); e++) {
        uint8_t kind;
        uint32_t label;
        lf_snapshot_edge_info(s, e, &kind, &label);
        if ((kind == LF_EDGE_KIND_FIELD || kind == LF_EDGE_KIND_INTERNAL) &&
            lf_name_is(lf_snapshot_string(s, label), name))
            return lf_edge_node(s->edge_target[e]);
    }
    return LF_NODE_NONE;
}

uint32_t lf_v8_collection_table(const lf_snapshot *s, uint32_t node, int *keys_only)
{
    *keys_only = 0;
    if (s->source_format != LF_FORMAT_V8 || node >= s->object_count || s->object_class[node] >= s->class_count)
        return LF_NODE_NONE;
    lf_str cls = lf_snapshot_class_name(s, s->object_class[node]);
    *keys_only = lf_name_is(cls, "Set") || lf_name_is(cls, "WeakSet");
    if (!*keys_only && !lf_name_is(cls, "Map") && !lf_name_is(cls, "WeakMap"))
        return LF_NODE_NONE;
    return named_target(s, node, "table"); /* none: Map.prototype and the like */
}

/* A slot number of a table edge ("67"); -1 when the label is none. */
static int64_t slot_of(const lf_snapshot *s, uint64_t e)
{
    uint8_t kind;
    uint32_t label;
    lf_snapshot_edge_info(s, e, &kind, &label);
    if (kind == LF_EDGE_KIND_ELEMENT)
        return label;
    lf_str name = lf_snapshot_string(s, label);
    int64_t slot = 0;
    if (kind != LF_EDGE_KIND_INTERNAL || name.len == 0 || name.len > 9)
        return -1;
    for (size_t i = 0; i < name.len; i++) {
        if (name.ptr[i] < '0' || name.ptr[i] > '9')
            return -1;
        slot = slot * 10 + (name.ptr[i] - '0');
    }
    return slot;
}

/* A Map's entry takes 3 slots (key, value, chain), so its key's slot number
 * has one remainder by 3: the one of the slots whose next one is an edge
 * too. A lone edge is a key when its slot has that remainder, else a value;
 * -1 when no entry has both (then a lone edge is taken for a value). */
static int key_remainder(const lf_snapshot *s, uint32_t table)
{
    uint64_t end = lf_snapshot_edges_end(s, table);
    for (uint64_t e = lf_snapshot_edges_begin(s, table); e + 1 < end; e++) {
        int64_t slot = slot_of(s, e);
        if (slot >= 0 && slot_of(s, e + 1) == slot + 1)
            return (int)(slot % 3);
    }
    return -1;
}

void lf_v8_table_begin(lf_v8_table_walk *w, const lf_snapshot *s, uint32_t table, int keys_only)
{
    w->s = s;
    w->keys_only = keys_only;
    if (table >= s->object_count) {
        w->edge = w->end = 0;
        w->key_remainder = -1;
        return;
    }
    w->edge = lf_snapshot_edges_begin(s, table);
    w->end = lf_snapshot_edges_end(s, table);
    w->key_remainder = keys_only ? 0 : key_remainder(s, table);
}

int lf_v8_table_next(lf_v8_table_walk *w, uint32_t *key, uint32_t *value)
{
    const lf_snapshot *s = w->s;
    for (; w->edge < w->end; w->edge++) {
        int64_t slot = slot_of(s, w->edge);
        if (slot < 0)
            continue;
        *key = lf_edge_node(s->edge_target[w->edge++]);
        *value = LF_NODE_NONE;
        if (w->keys_only)
            return 1;
        if (w->edge < w->end && slot_of(s, w->edge) == slot + 1)
            *value = lf_edge_node(s->edge_target[w->edge++]);
        else if (w->key_remainder < 0 || slot % 3 != w->key_remainder)
            *value = *key, *key = LF_NODE_NONE; /* a small integer key */
        return 1;
    }
    return 0;
}
