/* hprof_edges.c - pass 3: every object's edges into its CSR slots, then the
 * thread-local roots among them and the gaps dangling references left. */
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "hprof_passes.h"

/* Pass 3 writes edge targets only: kinds and labels are decoded from the
 * dump when output asks (hprof_lazy.c), which walks the references of a
 * sub-record in the same order as this pass. Slots start as EDGE_UNSET; a
 * node's written edges are a prefix of its slots. */
#define EDGE_UNSET 0xffffffffu

static void put_edge(pass3_state *s, uint64_t *at, uint64_t limit, uint32_t target, int weak)
{
    if (target == LF_NODE_NONE) {
        s->dangling++;
        return;
    }
    if (*at >= limit)
        return; /* counted fewer in pass 2: cannot happen for a consistent file */
    s->target[(*at)++] = target | (weak ? LF_EDGE_WEAK : 0);
}

static int write_static(hprof_reader *r, void *ctx, uint32_t from, uint64_t name_sid,
                        uint64_t value, uint64_t *at)
{
    pass3_state *s = ctx;
    (void)r, (void)name_sid;
    put_edge(s, at, lf_edge_offsets_get(&s->t->edge_offset, from + 1), node_of(s->t, value), 0);
    return 0;
}

static int pass3_visit(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *c, void *state)
{
    pass3_state *s = state;
    node_tables *t = s->t;
    const unsigned id = r->id_size;
    uint64_t obj = hprof_id(c, id);
    uint32_t node = lf_idrank_find(&t->rank, obj);
    if (node == LF_NODE_NONE || hprof_record_at(t->record_low, t->record_high, node) != record_at)
        return 0; /* a duplicate, skipped in pass 2 */
    uint64_t at = lf_edge_offsets_get(&t->edge_offset, node);
    uint64_t limit = lf_edge_offsets_get(&t->edge_offset, node + 1);
    const uint64_t dangling_before = s->dangling;
    switch (tag) {
    case HPROF_CLASS_DUMP: {
        uint32_t k = hprof_class_of_id(r, obj);
        if (k == HPROF_NONE)
            break;
        const hprof_class *kc = &r->classes[k];
        if (r->class_class != HPROF_NONE)
            put_edge(s, &at, limit, t->class_node[r->class_class], 0);
        if (kc->super_id)
            put_edge(s, &at, limit, node_of(t, kc->super_id), 0);
        if (kc->loader_id)
            put_edge(s, &at, limit, node_of(t, kc->loader_id), 0);
        if (kc->array_class != HPROF_NONE)
            put_edge(s, &at, limit, t->class_node[kc->array_class], 0);
        if (hprof_for_each_static_ref(r, s, kc, node, write_static, &at))
            return -1;
        break;
    }
    case HPROF_INSTANCE_DUMP: {
        c->pos += 4;
        uint64_t class_id = hprof_id(c, id);
        uint32_t len = hprof_u4(c);
        uint32_t k = hprof_class_of_id(r, class_id);
        if (k == HPROF_NONE)
            break;
        const hprof_class *kc = &r->classes[k];
        put_edge(s, &at, limit, t->class_node[k], 0);
        if (len != kc->data_size)
            break;
        for (uint32_t f = 0; f < kc->ref_count; f++) {
            const hprof_ref_field *field = &r->ref_fields[kc->ref_start + f];
            hprof_cursor v = {r->data, c->pos + field->offset, r->size};
            uint64_t ref = hprof_id(&v, id);
            if (ref)
                put_edge(s, &at, limit, node_of(t, ref), field->weak);
        }
        break;
    }
    case HPROF_OBJ_ARRAY_DUMP: {
        c->pos += 4;
        uint32_t n = hprof_u4(c);
        uint32_t k = hprof_class_of_id(r, hprof_id(c, id));
        if (k != HPROF_NONE)
            put_edge(s, &at, limit, t->class_node[k], 0);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t ref = hprof_id(c, id);
            if (ref)
                put_edge(s, &at, limit, node_of(t, ref), 0);
        }
        break;
    }
    default: {
        c->pos += 8;
        uint8_t type = hprof_u1(c);
        uint32_t k = type < 12 ? r->prim_array_class[type] : HPROF_NONE;
        if (k != HPROF_NONE)
            put_edge(s, &at, limit, t->class_node[k], 0);
        break;
    }
    }
    if (s->dangling != dangling_before)
        hprof_dangling_note(&s->holders, node, tag, s->dangling - dangling_before);
    return 0;
}

/* The dangling edges' holders into stats, with the objects JNI globals name. */
static int dangling_stats(hprof_reader *r, const node_tables *t, const hprof_dangling *d,
                          lf_snapshot_stats *stats)
{
    size_t n = 0;
    uint32_t *jni = malloc((r->root_count + 1) * sizeof *jni);
    if (!jni)
        return lf_fail_nomem(r->err, "reading roots");
    for (size_t i = 0; i < r->root_count; i++)
        if (r->roots[i].tag == HPROF_ROOT_JNI_GLOBAL)
            jni[n++] = node_of(t, r->roots[i].id);
    hprof_dangling_stats(d, jni, n, stats);
    free(jni);
    return 0;
}

/* Reference counts become CSR offsets; the edge slots start unset. */
int hprof_allocate_edges(hprof_read *h)
{
    const uint32_t n = (uint32_t)h->r.id_count;
    const uint64_t total = lf_edge_offsets_from_counts(&h->t.edge_offset, n);
    h->s.t = &h->t;
    h->s.target = total == UINT64_MAX ? NULL : lf_big_result_malloc((total + 1) * sizeof *h->s.target);
    if (!h->s.target)
        return lf_fail_nomem(h->err, "reading references");
    /* Every slot starts unset (and mapped, so pass 3 takes no page faults). */
    memset(h->s.target, 0xff, (total + 1) * sizeof *h->s.target);
    return 0;
}

/* Labels the decoder needs, interned while strings can still be added:
 * the VM links' names and the names of static fields holding references. */
int hprof_intern_edge_labels(hprof_read *h)
{
    hprof_reader *r = &h->r;
    int64_t lc = lf_strtab_intern(&r->strings, "<class>", 7);
    int64_t ls = lf_strtab_intern(&r->strings, "<super>", 7);
    int64_t ll = lf_strtab_intern(&r->strings, "<classloader>", 13);
    int64_t la = lf_strtab_intern(&r->strings, "<array class>", 13);
    h->static_start = malloc((r->class_count + 1) * sizeof *h->static_start);
    if (lc < 0 || ls < 0 || ll < 0 || la < 0 || !h->static_start)
        return lf_fail_nomem(h->err, "reading references");
    h->label_class = (uint32_t)lc;
    h->label_super = (uint32_t)ls;
    h->label_loader = (uint32_t)ll;
    h->label_array = (uint32_t)la;
    size_t static_count = 0, static_cap = 0;
    for (size_t k = 0; k < r->class_count; k++) {
        h->static_start[k] = (uint32_t)static_count;
        hprof_cursor c = {r->data, r->classes[k].statics_at, r->size};
        uint16_t count = hprof_u2(&c);
        for (uint16_t i = 0; i < count; i++) {
            uint64_t sid = hprof_id(&c, r->id_size);
            uint8_t type = hprof_u1(&c);
            c.pos += hprof_type_size(type, r->id_size);
            if (!hprof_type_is_ref(type))
                continue;
            int64_t name = hprof_intern_sid(r, sid);
            if (name < 0 || lf_vec_reserve((void **)&h->static_name, &static_cap, static_count + 1,
                                           sizeof *h->static_name))
                return lf_fail_nomem(h->err, "reading classes");
            h->static_name[static_count++] = (uint32_t)name;
        }
    }
    h->static_start[r->class_count] = (uint32_t)static_count;
    return 0;
}

/* Pass 3: every object's edges into its slots, on each thread its own
 * dangling tally, merged after. */
int hprof_edge_pass(hprof_read *h)
{
    pass3_state per_thread[HPROF_MAX_THREADS];
    void *states[HPROF_MAX_THREADS];
    hprof_dangling_init(&h->s.holders);
    for (unsigned k = 0; k < HPROF_MAX_THREADS; k++) {
        per_thread[k] = h->s;
        states[k] = &per_thread[k];
    }
    if (hprof_walk_parallel(&h->r, h->threads, 3, pass3_visit, states) < 0)
        return -1;
    for (unsigned k = 0; k < HPROF_MAX_THREADS; k++) {
        h->s.dangling += per_thread[k].dangling;
        hprof_dangling_merge(&h->s.holders, &per_thread[k].holders);
    }
    if (h->s.dangling && dangling_stats(&h->r, &h->t, &h->s.holders, &h->out->stats))
        return -1;
    return 0;
}

/* Thread-local roots go in the unset slots after their thread's own edges;
 * remembered as (thread, slot in its list, label) until the edge numbers
 * are final. */
int hprof_place_thread_local_roots(hprof_read *h)
{
    hprof_reader *r = &h->r;
    size_t count = 0;
    for (size_t i = 0; i < r->root_count; i++)
        count += h->thread_label[i] >= 0;
    h->frame_edge = lf_big_malloc((count + 1) * sizeof *h->frame_edge);
    h->frame_label = lf_big_malloc((count + 1) * sizeof *h->frame_label);
    h->frame_thread = lf_big_malloc((count + 1) * sizeof *h->frame_thread);
    if (!h->frame_edge || !h->frame_label || !h->frame_thread)
        return lf_fail_nomem(h->err, "reading roots");
    const lf_edge_offsets_mut *edge_offset = &h->t.edge_offset;
    uint32_t *target = h->s.target;
    for (size_t i = 0; i < r->root_count; i++) {
        if (h->thread_label[i] < 0)
            continue;
        uint32_t thread = thread_node(r, &h->t, r->roots[i].thread_serial);
        uint32_t node = node_of(&h->t, r->roots[i].id);
        const uint64_t first = lf_edge_offsets_get(edge_offset, thread);
        uint64_t at = first, limit = lf_edge_offsets_get(edge_offset, thread + 1);
        while (at < limit && target[at] != EDGE_UNSET)
            at++;
        if (at == limit || node == LF_NODE_NONE)
            continue;
        target[at] = node;
        h->frame_thread[h->frame_count] = thread;
        h->frame_edge[h->frame_count] = at - first;
        h->frame_label[h->frame_count++] = (uint32_t)h->thread_label[i];
    }
    lf_big_free(h->thread_label);
    h->thread_label = NULL;
    return 0;
}

/* Closes the gaps dangling references left. A node's written edges are a
 * prefix of its slots, so a node whose last slot is set is complete.
 * Returns the number of edges kept. */
uint64_t hprof_close_edge_gaps(hprof_read *h)
{
    const uint32_t n = (uint32_t)h->r.id_count;
    lf_edge_offsets_mut *edge_offset = &h->t.edge_offset;
    uint64_t kept = 0;
    uint32_t *target = h->s.target;
    for (uint32_t v = 0; v < n; v++) {
        uint64_t begin = lf_edge_offsets_get(edge_offset, v), end = lf_edge_offsets_get(edge_offset, v + 1);
        if (end > begin && target[end - 1] == EDGE_UNSET)
            while (end > begin && target[end - 1] == EDGE_UNSET)
                end--;
        lf_edge_offsets_set(edge_offset, v, kept);
        if (kept != begin)
            memmove(target + kept, target + begin, (end - begin) * sizeof *target);
        kept += end - begin;
    }
    lf_edge_offsets_set(edge_offset, n, kept);
    return kept;
}

/* Frame edges by final edge number (threads are few: insertion sort). */
void hprof_number_frame_edges(hprof_read *h)
{
    uint64_t *edge = h->frame_edge;
    uint32_t *label = h->frame_label;
    for (size_t i = 0; i < h->frame_count; i++) {
        edge[i] += lf_edge_offsets_get(&h->t.edge_offset, h->frame_thread[i]);
        for (size_t j = i; j > 0 && edge[j - 1] > edge[j]; j--) {
            uint64_t e = edge[j];
            edge[j] = edge[j - 1];
            edge[j - 1] = e;
            uint32_t l = label[j];
            label[j] = label[j - 1];
            label[j - 1] = l;
        }
    }
    lf_big_free(h->frame_thread);
    h->frame_thread = NULL;
}
