/* snapshot.c - accessors and ownership of the snapshot model. */
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>

lf_str lf_snapshot_string(const lf_snapshot *s, uint32_t index)
{
    lf_str out = {"?", 1};
    if (index < s->string_count) {
        out.ptr = s->string_bytes + s->string_offset[index];
        out.len = (size_t)(s->string_offset[index + 1] - s->string_offset[index]);
    }
    return out;
}

lf_str lf_snapshot_class_name(const lf_snapshot *s, uint32_t class_index)
{
    if (class_index >= s->class_count) {
        lf_str out = {"?", 1};
        return out;
    }
    return lf_snapshot_string(s, s->class_name[class_index]);
}

lf_graph lf_snapshot_graph(const lf_snapshot *s)
{
    lf_graph g = {
        .node_count = s->object_count,
        .edge_count = s->edge_count,
        .edge_offset = s->edge_offset,
        .edge_target = s->edge_target,
        .root_count = 0,
        .root_node = NULL,
    };
    return g;
}

void *lf_snapshot_own(lf_snapshot *s, void *p)
{
    if (!p || s->owned_count == sizeof s->owned / sizeof s->owned[0])
        return NULL;
    s->owned[s->owned_count++] = p;
    return p;
}

void lf_snapshot_free(lf_snapshot *s)
{
    for (unsigned i = 0; i < s->owned_count; i++)
        free(s->owned[i]);
    if (s->map)
        munmap(s->map, s->map_size);
    memset(s, 0, sizeof *s);
}

uint32_t lf_snapshot_find_id(const lf_snapshot *s, uint64_t id)
{
    for (uint32_t v = 0; v < s->object_count; v++)
        if (s->object_id[v] == id)
            return v;
    return LF_NODE_NONE;
}

uint64_t lf_snapshot_find_edge(const lf_snapshot *s, uint32_t from, uint32_t to)
{
    uint64_t weak_match = UINT64_MAX;
    for (uint64_t e = s->edge_offset[from]; e < s->edge_offset[from + 1]; e++) {
        uint32_t t = s->edge_target[e];
        if (lf_edge_node(t) != to)
            continue;
        if (!lf_edge_is_weak(t))
            return e;
        if (weak_match == UINT64_MAX)
            weak_match = e;
    }
    return weak_match;
}

size_t lf_snapshot_edge_label(const lf_snapshot *s, uint64_t edge, char *buf, size_t size)
{
    int n = 0;
    switch (s->edge_kind[edge]) {
    case LF_EDGE_KIND_FIELD:
    case LF_EDGE_KIND_INTERNAL: {
        lf_str name = lf_snapshot_string(s, s->edge_label[edge]);
        n = snprintf(buf, size, "%.*s", (int)(name.len > 4000 ? 4000 : name.len), name.ptr);
        break;
    }
    case LF_EDGE_KIND_ELEMENT:
        n = snprintf(buf, size, "[%u]", s->edge_label[edge]);
        break;
    default:
        if (size)
            buf[0] = '\0';
    }
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}

lf_str lf_snapshot_object_label(const lf_snapshot *s, uint32_t node)
{
    uint32_t lo = 0, hi = s->named_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->named_node[mid] < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->named_count && s->named_node[lo] == node)
        return lf_snapshot_string(s, s->named_string[lo]);
    return lf_snapshot_class_name(s, s->object_class[node]);
}
