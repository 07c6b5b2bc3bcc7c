/* hprof_snapshot.c - the read's arrays handed to the snapshot, with the
 * decoder of edge kinds and labels over the mapped dump. */
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "hprof_passes.h"

/* class -> its defining loader's node (LF_NODE_NONE: the bootstrap loader,
 * or the classes the dump does not describe); NULL when out of memory. */
static uint32_t *loader_nodes(const hprof_reader *r, const node_tables *t)
{
    size_t classes = r->class_count + t->extra_count;
    uint32_t *loader = malloc((classes + 1) * sizeof *loader);
    if (!loader)
        return NULL;
    for (size_t k = 0; k < classes; k++)
        loader[k] = k < r->class_count ? node_of(t, r->classes[k].loader_id) : LF_NODE_NONE;
    return loader;
}

/* Class names (dumped classes, then the extra ones) and class loaders, for
 * the snapshot; the id index is no longer needed. */
int hprof_finish_classes(hprof_read *h)
{
    hprof_reader *r = &h->r;
    node_tables *t = &h->t;
    uint32_t *class_loader = loader_nodes(r, t);
    if (!class_loader || !lf_snapshot_own(h->out, class_loader)) {
        free(class_loader);
        return lf_fail_nomem(h->err, "reading classes");
    }
    h->out->class_loader = class_loader;
    lf_idrank_free(&t->rank);
    lf_big_free(r->sorted_ids); /* still here when the rank index needed them */
    r->sorted_ids = NULL;
    h->class_name = malloc((r->class_count + t->extra_count + 1) * sizeof *h->class_name);
    h->lazy = calloc(1, sizeof *h->lazy);
    if (!h->class_name || !h->lazy)
        return lf_fail_nomem(h->err, "reading classes");
    for (size_t i = 0; i < r->class_count; i++)
        h->class_name[i] = r->classes[i].name;
    for (size_t i = 0; i < t->extra_count; i++)
        h->class_name[r->class_count + i] = t->extra_name[i];
    return 0;
}

/* The decoder of ids, edge kinds and labels, over the mapped dump. */
static void make_lazy_fields(hprof_read *h)
{
    hprof_reader *r = &h->r;
    *h->lazy = (hprof_lazy){
        .data = r->data, .size = r->size, .id_size = r->id_size,
        .record_low = h->t.record_low, .record_high = h->t.record_high,
        .classes = r->classes, .class_count = r->class_count, .ref_fields = r->ref_fields,
        .class_hash_id = r->class_hash_id, .class_hash_index = r->class_hash_index,
        .class_hash_shift = r->class_hash_shift, .class_class = r->class_class,
        .class_tells_instance = !r->array_class_has_fields,
        .static_start = h->static_start, .static_name = h->static_name,
        .class_label = h->label_class, .super_label = h->label_super,
        .loader_label = h->label_loader, .array_label = h->label_array,
        .frame_edge = h->frame_edge, .frame_label = h->frame_label, .frame_count = h->frame_count};
    memcpy(h->lazy->prim_array_class, r->prim_array_class, sizeof h->lazy->prim_array_class);
    hprof_lazy_init(h->lazy);
}

/* Hands every array to the snapshot, which owns them from here on. */
int hprof_hand_over(hprof_read *h, uint64_t edge_count)
{
    hprof_reader *r = &h->r;
    node_tables *t = &h->t;
    lf_snapshot *out = h->out;
    make_lazy_fields(h);
    out->format = LF_FORMAT_HPROF;
    out->source_format = LF_FORMAT_HPROF;
    out->flags = LF_SNAP_IDS_SORTED | (r->cut_at ? LF_SNAP_PARTIAL : 0);
    out->stats.cut_at = r->cut_at;
    out->stats.cut_missing = r->cut_missing;
    out->object_count = (uint32_t)r->id_count;
    out->edge_count = edge_count;
    out->class_count = (uint32_t)(r->class_count + t->extra_count);
    out->root_count = (uint32_t)h->root_count;
    out->string_count = r->strings.count;
    void *handed[] = {t->class_of, t->shallow, lf_edge_offsets_block(t->edge_offset), h->s.target,
                      h->class_name, h->roots, r->strings.offset, r->strings.bytes, t->record_low,
                      t->record_high, r->classes, r->ref_fields, r->class_hash_id, r->class_hash_index,
                      h->static_start, h->static_name, h->frame_edge, h->frame_label, h->lazy};
    for (size_t i = 0; i < sizeof handed / sizeof handed[0]; i++)
        if (handed[i] && !lf_snapshot_own(out, handed[i]))
            lf_big_free(handed[i]); /* cannot happen: the snapshot has room for all */
    out->object_class = t->class_of;
    out->object_shallow = lf_sizes_of(t->shallow, &t->shallow_big);
    if (lf_snapshot_own(out, t->shallow_big.entry))
        t->shallow_big = (lf_size_table){0};
    out->edge_offset = lf_edge_offsets_view(t->edge_offset);
    out->edge_target = h->s.target;
    out->class_name = h->class_name;
    out->root = h->roots;
    out->lazy = &h->lazy->fields;
    out->string_offset = r->strings.offset;
    out->string_bytes = r->strings.bytes;
    r->strings.offset = NULL;
    r->strings.bytes = NULL;
    r->classes = NULL;
    r->ref_fields = NULL;
    r->class_hash_id = NULL;
    r->class_hash_index = NULL;
    t->class_of = NULL;
    t->shallow = NULL;
    t->edge_offset = (lf_edge_offsets_mut){NULL, NULL};
    t->record_low = NULL;
    t->record_high = NULL;
    h->s.target = NULL;
    h->class_name = NULL;
    h->roots = NULL;
    h->lazy = NULL;
    h->static_start = h->static_name = h->frame_label = NULL;
    h->frame_edge = NULL;
    return 0;
}

/* Allocation sites, when some object has a trace with frames. */
int hprof_hand_over_sites(hprof_read *h)
{
    uint32_t *object_site = h->t.object_site;
    if (!object_site)
        return 0;
    if (!lf_snapshot_own(h->out, object_site))
        return lf_fail_nomem(h->err, "reading allocation sites");
    h->t.object_site = NULL;
    if (lf_site_table_give(&h->sites, h->out))
        return lf_fail_nomem(h->err, "reading allocation sites");
    h->out->object_site = object_site;
    return 0;
}
