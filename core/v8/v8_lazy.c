/* v8_lazy.c - edge kinds and labels of a V8 snapshot, read back from its text.
 *
 * Labels and kinds (5 bytes per edge: 204 MB on a 1 GB snapshot) are used
 * only by output, yet held them through the analysis, where they set the
 * high-water mark together with the dominator passes; on this project's
 * virtual machines every fresh page costs. The snapshot keeps the file
 * mapped instead, and the reader notes where every 64th edge row starts:
 * an edge is decoded from the row noted before it (at most 63 rows on). */
#include "v8_internal.h"
#include "v8_values.h"

#include <stdlib.h>

/* The next number at or after *p (the edges array holds only digits,
 * commas and blanks: it was checked when read). */
uint64_t v8_next_number(const uint8_t *d, uint64_t end, uint64_t *p)
{
    uint64_t at = *p, v = 0;
    while (at < end && (unsigned)(d[at] - '0') >= 10)
        at++;
    for (unsigned digits = 0; at < end && (unsigned)(d[at] - '0') < 10 && digits < 20; digits++)
        v = v * 10 + (unsigned)(d[at++] - '0');
    *p = at;
    return v;
}

uint32_t v8_edge_name_far(const v8_raw *raw, uint64_t e)
{
    uint64_t at = raw->edge_row_at[e / V8_ROW_STEP];
    uint64_t skip = (e % V8_ROW_STEP) * raw->edge_fields + raw->edge_name_field;
    for (uint64_t k = 0; k < skip; k++)
        v8_next_number(raw->file, raw->file_size, &at);
    uint64_t name = v8_next_number(raw->file, raw->file_size, &at); /* <= UINT32_MAX: checked when read */
    return name >= raw->name_cut ? raw->name_cut : (uint32_t)name;
}

void v8_lazy_edge_range(const v8_lazy *l, uint64_t first, uint64_t end, uint8_t *kind, uint32_t *label)
{
    uint64_t value[V8_MAX_FIELDS];
    for (v8_row_cursor c = v8_rows_from(l, first); c.row < end;) {
        uint64_t row = c.row;
        v8_rows_next(l, &c, value);
        if (row < first)
            continue;
        uint64_t type = value[l->type_field], name = value[l->name_field];
        uint8_t t = type < l->type_count ? l->type_kind[type] : V8E_OTHER;
        uint64_t at = row - first;
        if (t == V8E_ELEMENT || t == V8E_HIDDEN) {
            kind[at] = LF_EDGE_KIND_ELEMENT;
            label[at] = (uint32_t)name;
            continue;
        }
        kind[at] = t == V8E_INTERNAL ? LF_EDGE_KIND_INTERNAL : LF_EDGE_KIND_FIELD;
        /* names past the strings read (a cut snapshot) are its placeholder */
        label[at] = name < l->string_count ? V8_STRING_BASE + (uint32_t)name : l->missing_name;
    }
}

static void lazy_node_edges(const void *ctx, const lf_snapshot *s, uint32_t node, uint64_t end, uint8_t *kind,
                            uint32_t *label)
{
    v8_lazy_edge_range(ctx, lf_snapshot_edges_begin(s, node), end, kind, label);
}

static void lazy_edge_range(const void *ctx, uint64_t first, uint64_t end, uint8_t *kind, uint32_t *label)
{
    v8_lazy_edge_range(ctx, first, end, kind, label);
}

static void lazy_edge_types(const void *ctx, uint64_t first, uint64_t end, uint8_t *type)
{
    lf_v8_edge_types(ctx, first, end, type);
}

static uint64_t lazy_object_id(const void *ctx, uint32_t node)
{
    const v8_lazy *l = ctx;
    return l->object_id[node];
}

int v8_lazy_is(const lf_lazy_fields *f)
{
    return f->node_edges == lazy_node_edges;
}

void v8_lazy_init(v8_lazy *l)
{
    l->lazy.ctx = l;
    l->lazy.object_id = lazy_object_id;
    l->lazy.node_edges = lazy_node_edges;
    l->lazy.edge_range = lazy_edge_range;
    l->lazy.edge_types = lazy_edge_types;
}
