/* hprof_objects.c - pass 2: every node's class, shallow size and reference
 * count (so the CSR offsets are known before pass 3 writes an edge), and the
 * names of class objects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "hprof_passes.h"

static const node_tables *current_tables; /* for qsort, which takes no context */

/* Whether a reference value in the file is null (byte order does not matter). */
static inline int ref_is_null(const uint8_t *p, unsigned id_size)
{
    if (id_size == 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v == 0;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v == 0;
}

static int by_class_node(const void *a, const void *b)
{
    uint32_t x = current_tables->class_node[*(const uint32_t *)a];
    uint32_t y = current_tables->class_node[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}

/* A node's shallow size; the rare one of 4 GiB or more under the lock. */
static inline void set_shallow(node_tables *t, uint32_t node, uint64_t bytes)
{
    if (bytes < LF_SIZE_BIG) {
        t->shallow[node] = (uint32_t)bytes;
        return;
    }
    pthread_mutex_lock(&t->big_lock);
    if (lf_size_store(t->shallow, &t->shallow_big, node, bytes))
        t->big_failed = 1;
    pthread_mutex_unlock(&t->big_lock);
}

static const char *prim_array_name(uint8_t type)
{
    switch (type) {
    case HPROF_BOOLEAN: return "boolean[]";
    case HPROF_CHAR: return "char[]";
    case HPROF_FLOAT: return "float[]";
    case HPROF_DOUBLE: return "double[]";
    case HPROF_BYTE: return "byte[]";
    case HPROF_SHORT: return "short[]";
    case HPROF_INT: return "int[]";
    default: return "long[]";
    }
}

static int count_static(hprof_reader *r, void *ctx, uint32_t from, uint64_t name_sid,
                        uint64_t value, uint64_t *count)
{
    (void)r, (void)ctx, (void)from, (void)name_sid, (void)value;
    (*count)++;
    return 0;
}

/* Pass 2 for each kind of object: class and shallow size of node, and the
 * number of its references (c after the object id); -1 after an error. */
static int64_t measure_class_object(hprof_reader *r, node_tables *t, uint32_t node, uint64_t obj)
{
    uint32_t k = hprof_class_of_id(r, obj);
    if (k == HPROF_NONE) { /* id 0: no reference can name it; a bare object */
        r->warnings++;
        t->class_of[node] = t->mirror_class;
        set_shallow(t, node, 0);
        return 0;
    }
    const hprof_class *kc = &r->classes[k];
    t->class_node[k] = node;
    t->class_of[node] = r->class_class != HPROF_NONE ? r->class_class : t->mirror_class;
    set_shallow(t, node, hprof_mirror_shallow(r, kc));
    uint64_t edges = 0;
    edges += kc->super_id != 0;
    edges += kc->loader_id != 0;
    edges += kc->array_class != HPROF_NONE;
    edges += r->class_class != HPROF_NONE; /* mirror -> java.lang.Class */
    if (hprof_for_each_static_ref(r, NULL, kc, node, count_static, &edges))
        return -1;
    return (int64_t)edges;
}

static inline uint64_t measure_instance(hprof_reader *r, node_tables *t, uint32_t node, hprof_cursor *c)
{
    const unsigned id = r->id_size;
    c->pos += 4;
    uint64_t class_id = hprof_id(c, id);
    uint32_t len = hprof_u4(c);
    uint32_t k = hprof_class_of_id(r, class_id);
    if (k == HPROF_NONE) {
        r->warnings++;
        t->class_of[node] = t->unknown_class;
        set_shallow(t, node, (r->header_size + len + r->alignment - 1) / r->alignment * r->alignment);
        return 0;
    }
    const hprof_class *kc = &r->classes[k];
    t->class_of[node] = k;
    set_shallow(t, node, kc->shallow);
    if (len != kc->data_size) {
        r->warnings++; /* field data that disagrees with the class: no fields read */
        return 1;
    }
    uint64_t edges = 1; /* -> its class */
    const uint8_t *data = r->data + c->pos;
    for (uint32_t f = 0; f < kc->ref_count; f++)
        edges += !ref_is_null(data + r->ref_fields[kc->ref_start + f].offset, id);
    return edges;
}

/* An array whose class has reference fields (each thread's reader copy
 * notes it; hprof_walk_parallel merges them). */
static inline void note_array_class(hprof_reader *r, uint32_t k)
{
    if (k != HPROF_NONE && r->classes[k].ref_count)
        r->array_class_has_fields = 1;
}

static inline uint64_t measure_object_array(hprof_reader *r, node_tables *t, uint32_t node, hprof_cursor *c)
{
    const unsigned id = r->id_size;
    c->pos += 4;
    uint32_t n = hprof_u4(c);
    uint32_t k = hprof_class_of_id(r, hprof_id(c, id));
    uint64_t edges = k != HPROF_NONE; /* -> its class */
    t->class_of[node] = k == HPROF_NONE ? t->obj_array_class : k;
    note_array_class(r, k);
    set_shallow(t, node, hprof_array_shallow(r, n, r->ref_size));
    const uint8_t *p = r->data + c->pos;
    for (uint32_t i = 0; i < n; i++, p += id)
        edges += !ref_is_null(p, id);
    return edges;
}

static inline uint64_t measure_primitive_array(hprof_reader *r, node_tables *t, uint32_t node, hprof_cursor *c)
{
    c->pos += 4;
    uint32_t n = hprof_u4(c);
    uint8_t type = hprof_u1(c);
    uint32_t k = type < 12 ? r->prim_array_class[type] : HPROF_NONE;
    t->class_of[node] = k == HPROF_NONE ? t->prim_class[type < 12 ? type : HPROF_LONG] : k;
    note_array_class(r, k);
    set_shallow(t, node, hprof_array_shallow(r, n, hprof_type_size(type, r->id_size)));
    return k != HPROF_NONE; /* -> its class */
}

static int pass2_visit(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *c, void *state)
{
    node_tables *t = state;
    uint64_t obj = hprof_id(c, r->id_size);
    uint32_t node = lf_idrank_find(&t->rank, obj); /* pass 1 saw every id, 0 included */
    if (node == LF_NODE_NONE || (t->seen && t->seen[node])) {
        r->warnings++; /* a second object with the same id: ignored */
        return 0;
    }
    if (t->seen)
        t->seen[node] = 1;
    if (t->object_site)
        t->object_site[node] = hprof_be32(r->data + c->pos);
    t->record_low[node] = (uint32_t)record_at;
    if (t->record_high)
        t->record_high[node] = (uint8_t)(record_at >> 32);
    uint64_t edges;
    if (tag == HPROF_INSTANCE_DUMP) {
        edges = measure_instance(r, t, node, c);
    } else if (tag == HPROF_OBJ_ARRAY_DUMP) {
        edges = measure_object_array(r, t, node, c);
    } else if (tag == HPROF_CLASS_DUMP) {
        int64_t counted = measure_class_object(r, t, node, obj);
        if (counted < 0)
            return -1;
        edges = (uint64_t)counted;
    } else {
        edges = measure_primitive_array(r, t, node, c);
    }
    /* fits a narrow count: an object's references are ids in one record,
     * whose length is a u4 */
    lf_edge_offsets_set(&t->edge_offset, node, edges);
    return 0;
}

/* Extra classes for objects whose class the dump does not describe. Made
 * before the passes so that threads only read them; the unused ones are
 * dropped after pass 2. */
static int make_extra_classes(hprof_reader *r, node_tables *t)
{
    static const uint8_t prim[] = {HPROF_BOOLEAN, HPROF_CHAR, HPROF_FLOAT, HPROF_DOUBLE,
                                   HPROF_BYTE, HPROF_SHORT, HPROF_INT, HPROF_LONG};
    const char *names[16];
    uint32_t *slot[16];
    size_t k = 0;
    if (r->class_class == HPROF_NONE) {
        names[k] = "java.lang.Class";
        slot[k++] = &t->mirror_class;
    } else {
        t->mirror_class = r->class_class;
    }
    names[k] = "java.lang.Object[]";
    slot[k++] = &t->obj_array_class;
    names[k] = "<unknown class>";
    slot[k++] = &t->unknown_class;
    for (size_t i = 0; i < 12; i++)
        t->prim_class[i] = HPROF_NONE;
    for (size_t i = 0; i < sizeof prim; i++) {
        if (r->prim_array_class[prim[i]] != HPROF_NONE) {
            t->prim_class[prim[i]] = r->prim_array_class[prim[i]];
            continue;
        }
        names[k] = prim_array_name(prim[i]);
        slot[k++] = &t->prim_class[prim[i]];
    }
    for (size_t i = 0; i < k; i++) {
        int64_t str = lf_strtab_intern(&r->strings, names[i], strlen(names[i]));
        if (str < 0)
            return lf_fail_nomem(r->err, "reading classes");
        t->extra_name[i] = (uint32_t)str;
        *slot[i] = (uint32_t)(r->class_count + i);
    }
    t->extra_count = k;
    return 0;
}

static void drop_unused_extra_classes(const hprof_reader *r, node_tables *t, uint32_t n)
{
    const uint32_t first = (uint32_t)r->class_count;
    uint8_t used[16] = {0};
    for (uint32_t v = 0; v < n; v++)
        if (t->class_of[v] >= first)
            used[t->class_of[v] - first] = 1;
    uint32_t remap[16];
    size_t kept = 0;
    for (size_t i = 0; i < t->extra_count; i++) {
        remap[i] = first + (uint32_t)kept;
        if (used[i])
            t->extra_name[kept++] = t->extra_name[i];
    }
    if (kept == t->extra_count)
        return;
    for (uint32_t v = 0; v < n; v++)
        if (t->class_of[v] >= first)
            t->class_of[v] = remap[t->class_of[v] - first];
    t->extra_count = kept;
}

/* After pass 2: each node's trace serial becomes its site; a dump whose
 * traces name no frame it has gets no sites after all. */
static int read_object_sites(hprof_reader *r, node_tables *t, uint32_t n, lf_site_table *sites)
{
    if (lf_site_table_init(sites))
        return lf_fail_nomem(r->err, "reading allocation sites");
    int64_t with_site = hprof_object_sites(r, t->object_site, n, sites);
    if (with_site < 0)
        return -1;
    if (with_site == 0) {
        lf_big_free(t->object_site);
        t->object_site = NULL;
        lf_site_table_free(sites);
    }
    return 0;
}

/* The per-node tables pass 2 fills. */
static int allocate_node_tables(hprof_read *h)
{
    hprof_reader *r = &h->r;
    node_tables *t = &h->t;
    const uint32_t n = (uint32_t)r->id_count;
    t->class_of = lf_big_result_malloc(((size_t)n + 1) * sizeof *t->class_of);
    t->shallow = lf_big_result_malloc(((size_t)n + 1) * sizeof *t->shallow);
    t->big_lock_made = pthread_mutex_init(&t->big_lock, NULL) == 0;
    /* the total is not known before pass 2 has counted: narrow, widened
     * then if it does not fit */
    const int offsets_failed = lf_edge_offsets_alloc(&t->edge_offset, n, 0);
    /* Only a dump with repeated ids needs to mark the first of each, and
     * only one of 4 GiB or more has offsets that need a fifth byte. */
    const int repeats = h->ids_met > r->id_count, past_4g = r->size > UINT32_MAX;
    t->seen = repeats ? lf_big_calloc((size_t)n + 1, 1) : NULL;
    t->record_low = lf_big_result_malloc(((size_t)n + 1) * sizeof *t->record_low);
    t->record_high = past_4g ? lf_big_result_malloc((size_t)n + 1) : NULL;
    t->class_node = malloc((r->class_count + 1) * sizeof *t->class_node);
    /* serials per object only when some object has an allocation trace */
    t->object_site = r->has_alloc_traces ? lf_big_result_calloc((size_t)n + 1, sizeof *t->object_site) : NULL;
    if (!t->class_of || !t->shallow || !t->big_lock_made || offsets_failed || (repeats && !t->seen) ||
        !t->class_node || !t->record_low || (past_4g && !t->record_high) ||
        (r->has_alloc_traces && !t->object_site))
        return lf_fail_nomem(h->err, "reading objects");
    for (size_t i = 0; i <= r->class_count; i++)
        t->class_node[i] = LF_NODE_NONE;
    return 0;
}

/* Pass 2: every node's class, shallow size and reference count. */
int hprof_measure_pass(hprof_read *h)
{
    hprof_reader *r = &h->r;
    node_tables *t = &h->t;
    if (allocate_node_tables(h) || make_extra_classes(r, t))
        return -1;
    void *states[HPROF_MAX_THREADS];
    for (unsigned k = 0; k < HPROF_MAX_THREADS; k++)
        states[k] = t;
    if (hprof_walk_parallel(r, h->threads, 2, pass2_visit, states) < 0)
        return -1;
    if (t->big_failed)
        return lf_fail_nomem(h->err, "reading objects");
    lf_size_table_sort(&t->shallow_big); /* threads add in any order */
    lf_big_free(t->seen);
    t->seen = NULL;
    drop_unused_extra_classes(r, t, (uint32_t)r->id_count);
    if (t->object_site && read_object_sites(r, t, (uint32_t)r->id_count, &h->sites))
        return -1;
    return 0;
}

/* Class objects are shown as "class com.acme.Foo": (node, string) pairs
 * sorted by node, owned by the snapshot. */
int hprof_name_class_objects(hprof_read *h)
{
    hprof_reader *r = &h->r;
    lf_snapshot *out = h->out;
    uint32_t *named = malloc((r->class_count + 1) * 2 * sizeof *named);
    /* class_node is by class; sort the pairs by node */
    uint32_t *order = malloc((r->class_count + 1) * sizeof *order);
    if (!named || !order || !lf_snapshot_own(out, named)) {
        free(named);
        free(order);
        return lf_fail_nomem(h->err, "reading classes");
    }
    uint32_t named_count = 0;
    for (size_t k = 0; k < r->class_count; k++)
        if (h->t.class_node[k] != LF_NODE_NONE)
            order[named_count++] = (uint32_t)k;
    current_tables = &h->t;
    qsort(order, named_count, sizeof *order, by_class_node);
    char label[1100];
    for (uint32_t i = 0; i < named_count; i++) {
        uint32_t k = order[i];
        uint64_t off = r->strings.offset[r->classes[k].name];
        uint64_t len = r->strings.offset[r->classes[k].name + 1] - off;
        int m = snprintf(label, sizeof label, "class %.*s", (int)(len > 1000 ? 1000 : len),
                         r->strings.bytes + off);
        int64_t str = lf_strtab_intern(&r->strings, label, (size_t)m);
        if (str < 0) {
            free(order);
            return lf_fail_nomem(h->err, "reading classes");
        }
        named[i] = h->t.class_node[k];
        named[named_count + i] = (uint32_t)str;
    }
    free(order);
    out->named_count = named_count;
    out->named_node = named;
    out->named_string = named + named_count;
    return 0;
}
