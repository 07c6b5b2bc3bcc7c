/* snapshot.c - accessors and ownership of the snapshot model. */
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>
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
