/* snapshot.c - accessors and ownership of the snapshot model. */
#include "snapshot.h"
#include "../base/bigmem.h"
#include "../base/resident.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
        lf_big_free(s->owned[i]);
    if (s->map) {
        lf_resident_untrack(s->map);
        munmap(s->map, s->map_size);
    }
    memset(s, 0, sizeof *s);
}

uint64_t lf_snapshot_object_id(const lf_snapshot *s, uint32_t node)
{
    return s->object_id ? s->object_id[node] : s->lazy->object_id(s->lazy->ctx, node);
}

uint32_t lf_snapshot_find_id(const lf_snapshot *s, uint64_t id)
{
    if (s->flags & LF_SNAP_IDS_SORTED) {
        uint32_t lo = 0, hi = s->object_count;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (lf_snapshot_object_id(s, mid) < id)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < s->object_count && lf_snapshot_object_id(s, lo) == id ? lo : LF_NODE_NONE;
    }
    for (uint32_t v = 0; v < s->object_count; v++)
        if (lf_snapshot_object_id(s, v) == id)
            return v;
    return LF_NODE_NONE;
}

uint32_t lf_snapshot_edge_source(const lf_snapshot *s, uint64_t edge)
{
    uint32_t lo = 0, hi = s->object_count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (lf_snapshot_edges_begin(s, mid) <= edge)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void lf_snapshot_node_edge_infos(const lf_snapshot *s, uint32_t node, uint8_t *kind, uint32_t *label)
{
    uint64_t first = lf_snapshot_edges_begin(s, node), end = lf_snapshot_edges_end(s, node);
    if (s->edge_kind && s->edge_label) {
        memcpy(kind, s->edge_kind + first, end - first);
        memcpy(label, s->edge_label + first, (end - first) * sizeof *label);
    } else if (s->lazy->edge_range) {
        s->lazy->edge_range(s->lazy->ctx, first, end, kind, label);
    } else {
        s->lazy->node_edges(s->lazy->ctx, s, node, end, kind, label);
    }
}

int lf_snapshot_edge_info(const lf_snapshot *s, uint64_t edge, uint8_t *kind, uint32_t *label)
{
    if (s->edge_kind && s->edge_label) {
        *kind = s->edge_kind[edge];
        *label = s->edge_label[edge];
        return 0;
    }
    if (s->lazy->edge_range) {
        s->lazy->edge_range(s->lazy->ctx, edge, edge + 1, kind, label);
        return 0;
    }
    *kind = LF_EDGE_KIND_NONE;
    *label = 0;
    uint32_t node = lf_snapshot_edge_source(s, edge);
    uint64_t first = lf_snapshot_edges_begin(s, node), count = edge - first + 1;
    /* most objects have few edges: decoded on the stack, where no allocation
     * can fail and leave the edge without its label */
    enum { ON_STACK = 512 };
    uint8_t kind_here[ON_STACK];
    uint32_t label_here[ON_STACK];
    int big = count > ON_STACK;
    uint8_t *kinds = big ? lf_big_malloc(count) : kind_here;
    uint32_t *labels = big ? lf_big_malloc(count * sizeof *labels) : label_here;
    int rc = kinds && labels ? 0 : -1;
    if (rc == 0) {
        s->lazy->node_edges(s->lazy->ctx, s, node, edge + 1, kinds, labels);
        *kind = kinds[count - 1];
        *label = labels[count - 1];
    }
    if (big) {
        lf_big_free(kinds);
        lf_big_free(labels);
    }
    return rc;
}

int lf_snapshot_edge_types(const lf_snapshot *s, uint64_t first, uint64_t end, uint8_t *type)
{
    if (s->edge_type) {
        if (end > first)
            memcpy(type, s->edge_type + first, end - first);
        return 1;
    }
    if (!s->lazy || !s->lazy->edge_types)
        return 0;
    if (end > first)
        s->lazy->edge_types(s->lazy->ctx, first, end, type);
    return 1;
}

int lf_snapshot_decode_lazy(const lf_snapshot *s, uint64_t **ids_out, uint8_t **kinds_out,
                            uint32_t **labels_out)
{
    *ids_out = NULL;
    *kinds_out = NULL;
    *labels_out = NULL;
    if (!s->lazy)
        return 0;
    const uint32_t n = s->object_count;
    uint64_t *ids = NULL;
    uint8_t *kinds = NULL;
    uint32_t *labels = NULL;
    if (!s->object_id && !(ids = lf_big_malloc(((size_t)n + 1) * sizeof *ids)))
        goto nomem;
    if ((!s->edge_kind || !s->edge_label) &&
        (!(kinds = lf_big_malloc(s->edge_count + 1)) || !(labels = lf_big_malloc((s->edge_count + 1) * sizeof *labels))))
        goto nomem;
    int by_node = labels && !s->lazy->edge_range;
    if (labels && !by_node && s->edge_count)
        s->lazy->edge_range(s->lazy->ctx, 0, s->edge_count, kinds, labels);
    for (uint32_t v = 0; v < n && (ids || by_node); v++) {
        if (ids)
            ids[v] = s->lazy->object_id(s->lazy->ctx, v);
        const uint64_t first = lf_snapshot_edges_begin(s, v), end = lf_snapshot_edges_end(s, v);
        if (by_node && end > first)
            s->lazy->node_edges(s->lazy->ctx, s, v, end, kinds + first, labels + first);
    }
    *ids_out = ids;
    *kinds_out = kinds;
    *labels_out = labels;
    return 0;
nomem:
    lf_big_free(ids);
    lf_big_free(kinds);
    lf_big_free(labels);
    return -1;
}

/* Whether any of the four targets at p names node `to`. Output looks up the
 * edges of one large array once per element it holds (dominators --flat):
 * scanning four at a time took that lookup from a quarter of such a listing
 * to a small part of it. */
static inline int block_names(const uint32_t *p, uint32_t to)
{
#ifdef __SSE2__
    __m128i t = _mm_and_si128(_mm_loadu_si128((const __m128i *)p), _mm_set1_epi32((int)LF_EDGE_NODE));
    return _mm_movemask_epi8(_mm_cmpeq_epi32(t, _mm_set1_epi32((int)to))) != 0;
#else
    return lf_edge_node(p[0]) == to || lf_edge_node(p[1]) == to || lf_edge_node(p[2]) == to ||
           lf_edge_node(p[3]) == to;
#endif
}

uint64_t lf_snapshot_find_edge(const lf_snapshot *s, uint32_t from, uint32_t to)
{
    uint64_t weak_match = UINT64_MAX;
    uint64_t e = lf_snapshot_edges_begin(s, from), end = lf_snapshot_edges_end(s, from);
    while (e < end) {
        while (end - e >= 4 && !block_names(s->edge_target + e, to))
            e += 4;
        /* the block holding a match (or the last few edges), one by one */
        for (uint64_t stop = end - e >= 4 ? e + 4 : end; e < stop; e++) {
            uint32_t t = s->edge_target[e];
            if (lf_edge_node(t) != to)
                continue;
            if (!lf_edge_is_weak(t))
                return e;
            if (weak_match == UINT64_MAX)
                weak_match = e;
        }
    }
    return weak_match;
}

size_t lf_snapshot_edge_label(const lf_snapshot *s, uint64_t edge, char *buf, size_t size)
{
    uint8_t kind;
    uint32_t label;
    lf_snapshot_edge_info(s, edge, &kind, &label);
    return lf_snapshot_label_text(s, kind, label, buf, size);
}

size_t lf_snapshot_label_text(const lf_snapshot *s, uint8_t kind, uint32_t label, char *buf, size_t size)
{
    int n = 0;
    switch (kind) {
    case LF_EDGE_KIND_FIELD:
    case LF_EDGE_KIND_INTERNAL: {
        /* copied, not printed: output asks for one per row */
        lf_str name = lf_snapshot_string(s, label);
        size_t len = name.len > 4000 ? 4000 : name.len;
        if (size == 0)
            return 0;
        len = strnlen(name.ptr, len < size - 1 ? len : size - 1); /* as "%.*s" did: up to a NUL */
        memcpy(buf, name.ptr, len);
        buf[len] = '\0';
        return len;
    }
    case LF_EDGE_KIND_ELEMENT: { /* by hand: printf was 4% of a full listing of arrays */
        char text[16], *p = text + sizeof text;
        *--p = ']';
        do
            *--p = (char)('0' + label % 10);
        while ((label /= 10) != 0);
        *--p = '[';
        n = (int)(text + sizeof text - p);
        if (size) { /* cut as snprintf cuts */
            size_t len = (size_t)n < size ? (size_t)n : size - 1;
            memcpy(buf, p, len);
            buf[len] = '\0';
        }
        break;
    }
    default:
        if (size)
            buf[0] = '\0';
    }
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}

uint32_t lf_snapshot_named_index(const lf_snapshot *s, uint32_t node)
{
    uint32_t lo = 0, hi = s->named_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->named_node[mid] < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->named_count && s->named_node[lo] == node ? lo : UINT32_MAX;
}

const lf_place *lf_snapshot_place(const lf_snapshot *s, uint32_t node)
{
    uint32_t lo = 0, hi = s->place_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->place[mid].node < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->place_count && s->place[lo].node == node ? &s->place[lo] : NULL;
}

lf_str lf_snapshot_object_label(const lf_snapshot *s, uint32_t node)
{
    uint32_t lo = lf_snapshot_named_index(s, node);
    if (lo != UINT32_MAX)
        return lf_snapshot_string(s, s->named_string[lo]);
    return lf_snapshot_class_name(s, s->object_class[node]);
}

const lf_object_text *lf_snapshot_object_text(const lf_snapshot *s, uint32_t node)
{
    uint32_t lo = 0, hi = s->text_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->text[mid].node < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->text_count && s->text[lo].node == node ? &s->text[lo] : NULL;
}
