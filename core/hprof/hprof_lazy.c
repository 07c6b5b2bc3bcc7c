/* hprof_lazy.c - edge kinds and labels re-read from the dump.
 *
 * Pass 3 of the reader wrote a node's edges in the order of its candidates
 * (below), leaving out null references and ids with no object. Decoding
 * walks the same candidates: when the node has as many edges as candidates,
 * none was left out and they pair in order; else each edge takes the next
 * candidate whose id is the id of the edge's target: a dangling or null
 * candidate can never match a node, so no id has to be resolved and
 * nothing else is kept. */
#include "hprof_lazy.h"

#include <string.h>

#include "../base/bsearch.h"

/* One reference a sub-record holds, as pass 3 lists them. */
typedef struct candidate {
    uint64_t id;
    uint32_t label;
    uint8_t kind;
} candidate;

typedef struct candidate_walk {
    const hprof_lazy *l;
    hprof_cursor c;         /* at the next element / static field */
    uint8_t tag;
    uint32_t k;             /* class index of the record's class (or of the class dumped) */
    uint32_t step;          /* position in the fixed prefix, then the item number */
    uint32_t items;         /* elements, ref fields or static fields to go through */
    uint32_t static_ref;    /* reference statics seen so far */
    uint64_t class_id;
    uint64_t fields_at;     /* instance field bytes */
} candidate_walk;

static uint64_t read_id(const hprof_lazy *l, uint64_t at)
{
    hprof_cursor c = {l->data, at, l->size};
    return hprof_id(&c, l->id_size);
}

static uint32_t class_of_id(const hprof_lazy *l, uint64_t id)
{
    return hprof_class_hash_find(l->class_hash_id, l->class_hash_index, l->class_hash_shift, id);
}

static void walk_start(candidate_walk *w, const hprof_lazy *l, uint32_t node)
{
    memset(w, 0, sizeof *w);
    w->l = l;
    uint64_t at = hprof_record_at(l->record_low, l->record_high, node);
    w->tag = l->data[at];
    w->c = (hprof_cursor){l->data, at + 1, l->size};
    uint64_t obj = hprof_id(&w->c, l->id_size);
    w->k = HPROF_NONE;
    switch (w->tag) {
    case HPROF_CLASS_DUMP:
        w->k = class_of_id(l, obj);
        if (w->k != HPROF_NONE) {
            w->c.pos = l->classes[w->k].statics_at;
            w->items = hprof_u2(&w->c);
        }
        break;
    case HPROF_INSTANCE_DUMP: {
        w->c.pos += 4;
        w->class_id = hprof_id(&w->c, l->id_size);
        uint32_t len = hprof_u4(&w->c);
        w->k = class_of_id(l, w->class_id);
        w->fields_at = w->c.pos;
        if (w->k != HPROF_NONE && len == l->classes[w->k].data_size)
            w->items = l->classes[w->k].ref_count;
        break;
    }
    case HPROF_OBJ_ARRAY_DUMP:
        w->c.pos += 4;
        w->items = hprof_u4(&w->c);
        w->class_id = hprof_id(&w->c, l->id_size);
        w->k = class_of_id(l, w->class_id);
        break;
    default: { /* primitive array */
        w->c.pos += 8;
        uint8_t type = hprof_u1(&w->c);
        w->k = type < 12 ? l->prim_array_class[type] : HPROF_NONE;
        if (w->k != HPROF_NONE)
            w->class_id = l->classes[w->k].id;
        break;
    }
    }
}

/* The next candidate; 0 when there are no more. */
static int walk_next(candidate_walk *w, candidate *out)
{
    const hprof_lazy *l = w->l;
    if (w->k == HPROF_NONE)
        return 0;
    if (w->tag == HPROF_CLASS_DUMP) {
        const hprof_class *kc = &l->classes[w->k];
        /* mirror -> java.lang.Class, super, loader, array class, then statics */
        while (w->step < 4) {
            uint32_t s = w->step++;
            if (s == 0 && l->class_class != HPROF_NONE)
                *out = (candidate){l->classes[l->class_class].id, l->class_label, LF_EDGE_KIND_INTERNAL};
            else if (s == 1 && kc->super_id)
                *out = (candidate){kc->super_id, l->super_label, LF_EDGE_KIND_INTERNAL};
            else if (s == 2 && kc->loader_id)
                *out = (candidate){kc->loader_id, l->loader_label, LF_EDGE_KIND_INTERNAL};
            else if (s == 3 && kc->array_class != HPROF_NONE)
                *out = (candidate){l->classes[kc->array_class].id, l->array_label, LF_EDGE_KIND_INTERNAL};
            else
                continue;
            return 1;
        }
        while (w->step - 4 < w->items) {
            w->step++;
            w->c.pos += l->id_size; /* name */
            uint8_t type = hprof_u1(&w->c);
            if (!hprof_type_is_ref(type)) {
                w->c.pos += hprof_type_size(type, l->id_size);
                continue;
            }
            uint64_t value = hprof_id(&w->c, l->id_size);
            uint32_t j = l->static_start[w->k] + w->static_ref++;
            if (value && j < l->static_start[w->k + 1]) {
                *out = (candidate){value, l->static_name[j], LF_EDGE_KIND_FIELD};
                return 1;
            }
        }
        return 0;
    }
    if (w->step == 0) {
        w->step = 1;
        *out = (candidate){w->class_id, l->class_label, LF_EDGE_KIND_INTERNAL};
        return 1;
    }
    while (w->step - 1 < w->items) {
        uint32_t i = w->step++ - 1;
        if (w->tag == HPROF_INSTANCE_DUMP) {
            const hprof_ref_field *f = &l->ref_fields[l->classes[w->k].ref_start + i];
            uint64_t value = read_id(l, w->fields_at + f->offset);
            if (value) {
                *out = (candidate){value, f->name, LF_EDGE_KIND_FIELD};
                return 1;
            }
        } else if (w->tag == HPROF_OBJ_ARRAY_DUMP) {
            uint64_t value = hprof_id(&w->c, l->id_size);
            if (value) {
                *out = (candidate){value, i, LF_EDGE_KIND_ELEMENT};
                return 1;
            }
        }
    }
    return 0;
}

static uint64_t lazy_object_id(const void *ctx, uint32_t node)
{
    const hprof_lazy *l = ctx;
    return read_id(l, hprof_record_at(l->record_low, l->record_high, node) + 1);
}

/* The labels of node's own edges first..own_end into kind[e - first] and
 * label[e - first] for e < end, when its record has as many candidates as
 * it has own edges: then none was left out, and edge i is candidate i (no
 * target's id to read: one random read of the dump per edge). 1 when so,
 * else 0 (what was written is to be overwritten). */
static int labels_in_order(const hprof_lazy *l, uint32_t node, uint64_t first, uint64_t own_end, uint64_t end,
                           uint8_t *kind, uint32_t *label)
{
    candidate_walk w;
    candidate c;
    uint64_t count = 0, own = own_end - first, wanted = (end < own_end ? end : own_end) - first;
    walk_start(&w, l, node);
    while (count <= own && walk_next(&w, &c)) {
        if (count < wanted) {
            kind[count] = c.kind;
            label[count] = c.label;
        }
        count++;
    }
    return count == own;
}

/* The same without reading the record, for an instance whose own edges are
 * as many as its class's reference fields and the class edge: then none was
 * null or dangling, and edge i + 1 is field i. Two thirds of the holder
 * table's dominators on BigHeap's dump, whose records were each a cache
 * miss. The node's class names an instance when it is a dump class other
 * than java.lang.Class (class objects) and no array names a class with
 * fields. 1 when so, else 0. */
static int labels_from_class(const hprof_lazy *l, const lf_snapshot *s, uint32_t node, uint64_t first,
                             uint64_t own_end, uint64_t end, uint8_t *kind, uint32_t *label)
{
    const uint32_t k = s->object_class[node];
    if (!l->class_tells_instance || k >= l->class_count || k == l->class_class)
        return 0;
    const hprof_class *kc = &l->classes[k];
    if (kc->ref_count == 0 || own_end - first != 1 + (uint64_t)kc->ref_count)
        return 0;
    const uint64_t wanted = (end < own_end ? end : own_end) - first;
    for (uint64_t i = 0; i < wanted; i++) {
        kind[i] = i ? LF_EDGE_KIND_FIELD : LF_EDGE_KIND_INTERNAL;
        label[i] = i ? l->ref_fields[kc->ref_start + i - 1].name : l->class_label;
    }
    return 1;
}

/* The same by matching ids: each edge takes the next candidate whose id is
 * its target's (dangling references were left out). */
static void labels_by_id(const hprof_lazy *l, const lf_snapshot *s, uint32_t node, uint64_t first, uint64_t own_end,
                         uint64_t end, uint8_t *kind, uint32_t *label)
{
    candidate_walk w;
    walk_start(&w, l, node);
    int more = 1;
    for (uint64_t e = first; e < end && e < own_end; e++) {
        uint8_t *k = &kind[e - first];
        uint32_t *lab = &label[e - first];
        *k = LF_EDGE_KIND_NONE;
        *lab = 0;
        uint64_t target_id = lazy_object_id(l, lf_edge_node(s->edge_target[e]));
        candidate c;
        while (more && (more = walk_next(&w, &c)))
            if (c.id == target_id) {
                *k = c.kind;
                *lab = c.label;
                break;
            }
    }
}

static void lazy_node_edges(const void *ctx, const lf_snapshot *s, uint32_t node, uint64_t end,
                            uint8_t *kind, uint32_t *label)
{
    const hprof_lazy *l = ctx;
    const uint64_t first = lf_snapshot_edges_begin(s, node), last = lf_snapshot_edges_end(s, node);
    /* The thread-local roots under a thread come after its own references. */
    size_t lo = lf_lower_bound_u64(l->frame_edge, l->frame_count, first);
    uint64_t own_end = lo < l->frame_count && l->frame_edge[lo] < last ? l->frame_edge[lo] : last;
    if (!labels_from_class(l, s, node, first, own_end, end, kind, label) &&
        !labels_in_order(l, node, first, own_end, end, kind, label))
        labels_by_id(l, s, node, first, own_end, end, kind, label);
    for (uint64_t e = own_end; e < end; e++) {
        size_t f = lo + (size_t)(e - own_end);
        kind[e - first] = LF_EDGE_KIND_NONE;
        label[e - first] = 0;
        if (f < l->frame_count && l->frame_edge[f] == e) {
            kind[e - first] = LF_EDGE_KIND_INTERNAL;
            label[e - first] = l->frame_label[f];
        }
    }
}

int hprof_lazy_is(const lf_lazy_fields *f)
{
    return f->node_edges == lazy_node_edges;
}

void hprof_lazy_init(hprof_lazy *l)
{
    l->fields.ctx = l;
    l->fields.object_id = lazy_object_id;
    l->fields.node_edges = lazy_node_edges;
}
