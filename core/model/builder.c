/* builder.c - records by id -> CSR snapshot. */
#include "builder.h"

#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "edge_offsets.h"
#include "idmap.h"
#include "site_table.h"
#include "strtab.h"
#include "../base/vec.h"

/* An edge whose source was not the object declared last: its source id. */
typedef struct unplaced_source {
    uint64_t edge;
    uint64_t from_id;
} unplaced_source;

#define SOURCE_UNPLACED LF_NODE_NONE /* edge_from: the id is in unplaced[] */
#define KIND_WEAK 0x80u              /* edge_kind: the weak flag, above the kind */

/* An object's allocation site, given by id (before or after the object). */
typedef struct pending_site {
    uint64_t id;
    uint32_t site, samples;
} pending_site;

typedef struct pending_root {
    uint64_t id;
    uint32_t kind, name;
} pending_root;

struct lf_builder {
    lf_strtab strings;
    Pvoid_t class_by_string;        /* JudyL: string index -> class index + 1 */
    uint32_t *class_name;
    size_t class_count, class_cap;
    lf_idmap node_by_id;
    /* While every object's id is its node number (ids 0, 1, 2... in order, as
     * the OCaml agent gives them), ids need no table; the first other id
     * puts the ones so far into it. */
    int ids_dense;
    int ids_elsewhere; /* lf_builder_ids_elsewhere: the snapshot gets no id array */
    uint64_t expected_objects;
    uint64_t *object_id;
    uint32_t *object_shallow;       /* narrow sizes, the big ones in shallow_big */
    lf_size_table shallow_big;
    uint32_t *object_class;
    size_t object_count, object_cap, object_cap_shallow, object_cap_class;
    /* Pending edges, one array per field, so that when the sources come in
     * node order (a reader gives each object's fields right after it) they
     * become the snapshot's arrays in place. Readers almost always name the
     * object they just declared as the source, so its node is stored at once. */
    uint64_t *edge_to_id;
    uint32_t *edge_from;            /* source node, or SOURCE_UNPLACED */
    /* Labels and kinds are stored once an edge has one (or is weak): until
     * then every edge is plain and these hold nothing (a reader without
     * field names, .gcdump, never fills them). */
    int edges_labelled;
    uint32_t *edge_label;
    uint8_t *edge_kind;             /* kind | KIND_WEAK */
    size_t edge_count, edge_cap_to, edge_cap_from, edge_cap_label, edge_cap_kind;
    unplaced_source *unplaced;
    size_t unplaced_count, unplaced_cap;
    pending_root *root;
    size_t root_count, root_cap;
    uint32_t flags;
    lf_site_table sites;
    pending_site *object_site;
    size_t object_site_count, object_site_cap;
    double sample_rate;
};

lf_builder *lf_builder_new(void)
{
    lf_builder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    lf_idmap_init(&b->node_by_id);
    b->ids_dense = 1;
    if (lf_strtab_init(&b->strings) || lf_site_table_init(&b->sites)) {
        lf_strtab_free(&b->strings);
        free(b);
        return NULL;
    }
    return b;
}

void lf_builder_free(lf_builder *b)
{
    if (!b)
        return;
    Word_t freed;
    JLFA(freed, b->class_by_string);
    (void)freed;
    lf_idmap_free(&b->node_by_id);
    lf_strtab_free(&b->strings);
    lf_big_free(b->class_name);
    lf_big_free(b->object_id);
    lf_big_free(b->object_shallow);
    lf_size_table_free(&b->shallow_big);
    lf_big_free(b->object_class);
    lf_big_free(b->edge_to_id);
    lf_big_free(b->edge_from);
    lf_big_free(b->edge_label);
    lf_big_free(b->edge_kind);
    lf_big_free(b->unplaced);
    lf_big_free(b->root);
    lf_site_table_free(&b->sites);
    lf_big_free(b->object_site);
    free(b);
}

void lf_builder_set_flags(lf_builder *b, uint32_t snapshot_flags)
{
    b->flags = snapshot_flags;
}

int64_t lf_builder_string(lf_builder *b, const char *s, size_t len)
{
    int64_t i = lf_strtab_intern(&b->strings, s, len);
    return i < 0 ? LF_BUILDER_NOMEM : i;
}

int64_t lf_builder_frame(lf_builder *b, uint32_t function, uint32_t file, uint32_t line,
                         uint32_t column)
{
    if (function >= b->strings.count || file >= b->strings.count)
        return LF_BUILDER_BAD_INDEX;
    int64_t f = lf_site_table_frame(&b->sites, function, file, line, column);
    return f < 0 ? LF_BUILDER_NOMEM : f;
}

int64_t lf_builder_site(lf_builder *b, uint32_t caller, uint32_t frame)
{
    if (caller >= b->sites.site_count || frame >= b->sites.frame_count)
        return LF_BUILDER_BAD_INDEX;
    int64_t site = lf_site_table_site(&b->sites, caller, frame);
    return site < 0 ? LF_BUILDER_NOMEM : site;
}

int lf_builder_object_site(lf_builder *b, uint64_t id, uint32_t site, uint32_t samples)
{
    if (site >= b->sites.site_count)
        return LF_BUILDER_BAD_INDEX;
    if (lf_vec_reserve((void **)&b->object_site, &b->object_site_cap, b->object_site_count + 1,
                       sizeof *b->object_site))
        return LF_BUILDER_NOMEM;
    b->object_site[b->object_site_count++] = (pending_site){id, site, samples};
    return LF_BUILDER_OK;
}

void lf_builder_set_sample_rate(lf_builder *b, double samples_per_word)
{
    b->sample_rate = samples_per_word > 0 && samples_per_word <= 1 ? samples_per_word : 0;
}

int64_t lf_builder_class(lf_builder *b, const char *name, size_t len)
{
    int64_t str = lf_builder_string(b, name, len);
    if (str < 0)
        return str;
    PWord_t slot;
    JLI(slot, b->class_by_string, (Word_t)str);
    if (slot == PJERR)
        return LF_BUILDER_NOMEM;
    if (*slot == 0) {
        if (b->class_count >= 0xfffffffeu)
            return LF_BUILDER_TOO_MANY;
        if (lf_vec_reserve((void **)&b->class_name, &b->class_cap, b->class_count + 1,
                           sizeof *b->class_name))
            return LF_BUILDER_NOMEM;
        b->class_name[b->class_count++] = (uint32_t)str;
        *slot = b->class_count;
    }
    return (int64_t)*slot - 1;
}

static int leave_dense_ids(lf_builder *b)
{
    uint64_t want = b->expected_objects > b->object_count ? b->expected_objects : b->object_count + 1;
    if (lf_idmap_reserve(&b->node_by_id, want))
        return -1;
    for (size_t i = 0; i < b->object_count; i++)
        if (lf_idmap_add(&b->node_by_id, i, (uint32_t)i) < 0)
            return -1;
    b->ids_dense = 0;
    return 0;
}

int lf_builder_object(lf_builder *b, uint64_t id, uint32_t class_index, uint64_t shallow)
{
    if (b->object_count >= LF_NODE_MAX)
        return LF_BUILDER_TOO_MANY;
    if (class_index >= b->class_count)
        return LF_BUILDER_BAD_INDEX;
    size_t need = b->object_count + 1;
    /* room first, so that an id in the map always has its object */
    if ((need > b->object_cap &&
         lf_vec_reserve((void **)&b->object_id, &b->object_cap, need, sizeof(uint64_t))) ||
        (need > b->object_cap_shallow &&
         lf_vec_reserve((void **)&b->object_shallow, &b->object_cap_shallow, need,
                        sizeof(uint32_t))) ||
        (need > b->object_cap_class &&
         lf_vec_reserve((void **)&b->object_class, &b->object_cap_class, need, sizeof(uint32_t))))
        return LF_BUILDER_NOMEM;
    const uint32_t node = (uint32_t)b->object_count;
    if (lf_size_store(b->object_shallow, &b->shallow_big, node, shallow))
        return LF_BUILDER_NOMEM;
    if (b->ids_dense && id == b->object_count) {
        b->object_id[b->object_count] = id;
        b->object_class[b->object_count] = class_index;
        b->object_count++;
        return LF_BUILDER_OK;
    }
    int added = b->ids_dense && leave_dense_ids(b) ? -1 : lf_idmap_add(&b->node_by_id, id, node);
    if (added != 0) { /* not an object after all: its big size goes too */
        if (shallow >= LF_SIZE_BIG)
            b->shallow_big.count--;
        return added < 0 ? LF_BUILDER_NOMEM : LF_BUILDER_DUPLICATE;
    }
    b->object_id[b->object_count] = id;
    b->object_class[b->object_count] = class_index;
    b->object_count++;
    return LF_BUILDER_OK;
}

int lf_builder_reserve(lf_builder *b, uint64_t objects, uint64_t edges)
{
    if (objects > LF_NODE_MAX)
        objects = LF_NODE_MAX;
    b->expected_objects = objects;
    size_t o = (size_t)objects, e = (size_t)edges;
    /* the arrays the snapshot keeps (sizes, classes, the edges' targets,
     * packed into edge_to_id) are results from the start: in the result
     * store's files when it is on, not in the analysis' anonymous memory */
    if ((o && (lf_vec_reserve((void **)&b->object_id, &b->object_cap, o, sizeof(uint64_t)) ||
               lf_vec_reserve_result((void **)&b->object_shallow, &b->object_cap_shallow, o,
                                     sizeof(uint32_t)) ||
               lf_vec_reserve_result((void **)&b->object_class, &b->object_cap_class, o,
                                     sizeof(uint32_t)) ||
               (!b->ids_dense && lf_idmap_reserve(&b->node_by_id, objects)))) ||
        (e && (lf_vec_reserve_result((void **)&b->edge_to_id, &b->edge_cap_to, e, sizeof *b->edge_to_id) ||
               lf_vec_reserve((void **)&b->edge_from, &b->edge_cap_from, e, sizeof *b->edge_from) ||
               lf_vec_reserve((void **)&b->edge_label, &b->edge_cap_label, e,
                              sizeof *b->edge_label) ||
               lf_vec_reserve((void **)&b->edge_kind, &b->edge_cap_kind, e, sizeof *b->edge_kind))))
        return LF_BUILDER_NOMEM;
    return LF_BUILDER_OK;
}

/* The first labelled (or weak) edge: the plain ones before it get label 0
 * and kind none. */
static int label_edges_so_far(lf_builder *b)
{
    size_t need = b->edge_count + 1;
    if ((need > b->edge_cap_label &&
         lf_vec_reserve((void **)&b->edge_label, &b->edge_cap_label, need, sizeof *b->edge_label)) ||
        (need > b->edge_cap_kind &&
         lf_vec_reserve((void **)&b->edge_kind, &b->edge_cap_kind, need, sizeof *b->edge_kind)))
        return LF_BUILDER_NOMEM;
    memset(b->edge_label, 0, b->edge_count * sizeof *b->edge_label);
    memset(b->edge_kind, 0, b->edge_count);
    b->edges_labelled = 1;
    return LF_BUILDER_OK;
}

int lf_builder_edge(lf_builder *b, uint64_t from_id, uint64_t to_id, int weak, lf_edge_kind kind,
                    uint32_t label)
{
    if ((kind == LF_EDGE_KIND_FIELD || kind == LF_EDGE_KIND_INTERNAL) &&
        label >= b->strings.count)
        return LF_BUILDER_BAD_INDEX;
    if ((unsigned)kind >= LF_EDGE_KIND_COUNT)
        return LF_BUILDER_BAD_INDEX;
    size_t i = b->edge_count, need = i + 1;
    if ((need > b->edge_cap_to && lf_vec_reserve((void **)&b->edge_to_id, &b->edge_cap_to, need,
                                                 sizeof *b->edge_to_id)) ||
        (need > b->edge_cap_from && lf_vec_reserve((void **)&b->edge_from, &b->edge_cap_from,
                                                   need, sizeof *b->edge_from)) ||
        (!b->edges_labelled && (weak || kind != LF_EDGE_KIND_NONE || label != 0) &&
         label_edges_so_far(b)) ||
        (b->edges_labelled && need > b->edge_cap_label &&
         lf_vec_reserve((void **)&b->edge_label, &b->edge_cap_label, need, sizeof *b->edge_label)) ||
        (b->edges_labelled && need > b->edge_cap_kind &&
         lf_vec_reserve((void **)&b->edge_kind, &b->edge_cap_kind, need, sizeof *b->edge_kind)))
        return LF_BUILDER_NOMEM;
    uint32_t from = SOURCE_UNPLACED;
    if (b->object_count && b->object_id[b->object_count - 1] == from_id) {
        from = (uint32_t)(b->object_count - 1);
    } else {
        if (b->unplaced_count == b->unplaced_cap &&
            lf_vec_reserve((void **)&b->unplaced, &b->unplaced_cap, b->unplaced_count + 1,
                           sizeof *b->unplaced))
            return LF_BUILDER_NOMEM;
        b->unplaced[b->unplaced_count++] = (unplaced_source){i, from_id};
    }
    b->edge_to_id[i] = to_id;
    b->edge_from[i] = from;
    if (b->edges_labelled) {
        b->edge_label[i] = label;
        b->edge_kind[i] = (uint8_t)((unsigned)kind | (weak ? KIND_WEAK : 0));
    }
    b->edge_count = need;
    return LF_BUILDER_OK;
}

void lf_builder_ids_elsewhere(lf_builder *b)
{
    b->ids_elsewhere = 1;
}

int lf_builder_root(lf_builder *b, uint64_t id, uint32_t kind_string, uint32_t name_string)
{
    if (kind_string >= b->strings.count || name_string >= b->strings.count)
        return LF_BUILDER_BAD_INDEX;
    if (lf_vec_reserve((void **)&b->root, &b->root_cap, b->root_count + 1, sizeof *b->root))
        return LF_BUILDER_NOMEM;
    pending_root *r = &b->root[b->root_count++];
    r->id = id;
    r->kind = kind_string;
    r->name = name_string;
    return LF_BUILDER_OK;
}

static uint32_t node_of(const lf_builder *b, uint64_t id)
{
    if (b->ids_dense)
        return id < b->object_count ? (uint32_t)id : LF_NODE_NONE;
    uint32_t node = lf_idmap_get(&b->node_by_id, id);
    return node == LF_IDMAP_NONE ? LF_NODE_NONE : node;
}

/* Edges ahead of the one being resolved whose slots are loaded meanwhile:
 * enough to cover a cache miss, few enough to stay in cache. */
enum { RESOLVE_AHEAD = 16 };

/* The source node of edge i, whose source is unplaced[*next] when it was not
 * known when recorded. Unplaced sources mostly repeat (an object's fields
 * come together), so the last one is remembered. */
static uint32_t source_of(lf_builder *b, size_t i, size_t *next, uint64_t *last_id,
                          uint32_t *last_node)
{
    if (b->edge_from[i] != SOURCE_UNPLACED)
        return b->edge_from[i];
    uint64_t id = b->unplaced[(*next)++].from_id;
    if (*last_node == LF_NODE_NONE || id != *last_id) {
        *last_id = id;
        *last_node = node_of(b, id);
    }
    return *last_node;
}

/* Turns each edge's ids into node numbers in place: edge_from[i] becomes
 * the source (LF_NODE_NONE: dangling), the target goes to uint32 i of the
 * edge_to_id array (behind the ids still to read). Counts the kept edges per
 * source node into edge_offset; *in_order: the sources never decrease. */
static uint64_t resolve_edges(lf_builder *b, lf_edge_offsets_mut edge_offset, uint64_t *dangling,
                              int *in_order)
{
    uint32_t *to_node = (uint32_t *)b->edge_to_id;
    uint64_t kept = 0, last_id = 0;
    uint32_t last_node = LF_NODE_NONE, prev_from = 0;
    size_t next_unplaced = 0;
    *in_order = b->edge_count > 0;
    for (size_t i = 0; i < b->edge_count; i++) {
        if (!b->ids_dense && i + RESOLVE_AHEAD < b->edge_count)
            lf_idmap_prefetch(&b->node_by_id, b->edge_to_id[i + RESOLVE_AHEAD]);
        uint32_t from = source_of(b, i, &next_unplaced, &last_id, &last_node);
        uint32_t to = node_of(b, b->edge_to_id[i]);
        if (from == LF_NODE_NONE || to == LF_NODE_NONE) {
            (*dangling)++;
            b->edge_from[i] = LF_NODE_NONE;
            continue;
        }
        if (from < prev_from)
            *in_order = 0;
        prev_from = from;
        b->edge_from[i] = from;
        to_node[i] = to;
        /* narrow only when the edges recorded fit: no count wraps */
        if (edge_offset.narrow)
            edge_offset.narrow[from]++;
        else
            edge_offset.wide[from]++;
        kept++;
    }
    return kept;
}

/* All edges plain: labels and kinds of zeros, never written (the pages
 * stay unmapped until read). */
static int plain_labels(lf_builder *b, size_t count)
{
    lf_big_free(b->edge_label);
    lf_big_free(b->edge_kind);
    b->edge_label = lf_big_result_calloc(count, sizeof *b->edge_label);
    b->edge_kind = lf_big_result_calloc(count, 1);
    return b->edge_label && b->edge_kind ? 0 : -1;
}

/* The resolved edges, in node order already, become the snapshot's arrays
 * where they are: dangling ones squeezed out, targets packed to 32 bits. */
static int keep_edges_in_place(lf_builder *b, uint64_t kept, lf_snapshot *out)
{
    const uint32_t *to_node = (const uint32_t *)b->edge_to_id;
    uint32_t *target = (uint32_t *)b->edge_to_id;
    uint64_t at = 0;
    for (size_t i = 0; i < b->edge_count; i++) {
        if (b->edge_from[i] == LF_NODE_NONE)
            continue;
        if (!b->edges_labelled) {
            target[at++] = to_node[i];
            continue;
        }
        uint8_t kind = b->edge_kind[i];
        target[at] = to_node[i] | ((kind & KIND_WEAK) ? LF_EDGE_WEAK : 0);
        b->edge_label[at] = b->edge_label[i];
        b->edge_kind[at] = (uint8_t)(kind & ~KIND_WEAK);
        at++;
    }
    size_t keep = kept ? kept : 1;
    if (!b->edges_labelled && plain_labels(b, keep))
        return -1;
    /* giving back the tails cannot fail in a way that loses the data */
    uint32_t *t = lf_big_realloc(b->edge_to_id, keep * sizeof *t);
    uint32_t *l = lf_big_realloc(b->edge_label, keep * sizeof *l);
    uint8_t *k = lf_big_realloc(b->edge_kind, keep);
    out->edge_target = lf_snapshot_own(out, t ? t : (uint32_t *)b->edge_to_id);
    out->edge_label = lf_snapshot_own(out, l ? l : b->edge_label);
    out->edge_kind = lf_snapshot_own(out, k ? k : b->edge_kind);
    b->edge_to_id = NULL;
    b->edge_label = NULL;
    b->edge_kind = NULL;
    return out->edge_target && out->edge_label && out->edge_kind ? 0 : -1;
}

/* Counting sort of the resolved edges by source into new arrays (stable:
 * a node's edges keep their order); edge_offset holds each node's start. */
static int scatter_edges(lf_builder *b, uint64_t kept, lf_edge_offsets_mut edge_offset, lf_snapshot *out)
{
    const uint32_t n = (uint32_t)b->object_count;
    const uint32_t *to_node = (const uint32_t *)b->edge_to_id;
    uint32_t *target = lf_big_result_malloc((kept ? kept : 1) * sizeof *target);
    uint32_t *label = b->edges_labelled ? lf_big_result_malloc((kept ? kept : 1) * sizeof *label)
                                        : lf_big_result_calloc(kept ? kept : 1, sizeof *label);
    uint8_t *kind = b->edges_labelled ? lf_big_result_malloc(kept ? kept : 1) : lf_big_result_calloc(kept ? kept : 1, 1);
    out->edge_target = lf_snapshot_own(out, target);
    out->edge_label = lf_snapshot_own(out, label);
    out->edge_kind = lf_snapshot_own(out, kind);
    if (!target || !label || !kind)
        return -1;
    for (size_t i = 0; i < b->edge_count; i++) {
        uint32_t from = b->edge_from[i];
        if (from == LF_NODE_NONE)
            continue;
        uint64_t at = lf_edge_offsets_get(&edge_offset, from);
        lf_edge_offsets_set(&edge_offset, from, at + 1);
        if (!b->edges_labelled) { /* label and kind: the zeros calloc gave */
            target[at] = to_node[i];
            continue;
        }
        target[at] = to_node[i] | ((b->edge_kind[i] & KIND_WEAK) ? LF_EDGE_WEAK : 0);
        label[at] = b->edge_label[i];
        kind[at] = (uint8_t)(b->edge_kind[i] & ~KIND_WEAK);
    }
    for (uint32_t v = n; v > 0; v--)
        lf_edge_offsets_set(&edge_offset, v, lf_edge_offsets_get(&edge_offset, v - 1));
    lf_edge_offsets_set(&edge_offset, 0, 0);
    return 0;
}

/* Sites go to the snapshot when any object was given one (ids that name
 * no object are dropped like dangling references). */
static int give_sites(lf_builder *b, lf_snapshot *out)
{
    if (!b->object_site_count)
        return 0;
    const uint32_t n = out->object_count;
    uint32_t *site = lf_big_result_calloc((size_t)n + 1, sizeof *site);
    if (!lf_snapshot_own(out, site))
        return -1;
    uint32_t *samples = NULL;
    if (b->sample_rate > 0) {
        samples = lf_big_result_calloc((size_t)n + 1, sizeof *samples);
        if (!lf_snapshot_own(out, samples))
            return -1;
    }
    for (size_t i = 0; i < b->object_site_count; i++) {
        uint32_t node = node_of(b, b->object_site[i].id);
        if (node == LF_NODE_NONE)
            continue;
        site[node] = b->object_site[i].site;
        if (samples)
            samples[node] = b->object_site[i].samples;
    }
    if (lf_site_table_give(&b->sites, out))
        return -1;
    out->object_site = site;
    out->object_samples = samples;
    out->sample_rate = samples ? b->sample_rate : 0;
    return 0;
}

int lf_builder_finish(lf_builder *b, lf_snapshot *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    const uint32_t n = (uint32_t)b->object_count;
    lf_edge_offsets_mut edge_offset;
    if (lf_edge_offsets_alloc(&edge_offset, n, b->edge_count) ||
        !lf_snapshot_own(out, lf_edge_offsets_block(edge_offset))) {
        lf_edge_offsets_free(&edge_offset);
        goto nomem;
    }

    int in_order;
    uint64_t kept = resolve_edges(b, edge_offset, &out->stats.dangling_edges, &in_order);
    lf_edge_counts_to_offsets(edge_offset, n);
    if (in_order ? keep_edges_in_place(b, kept, out) : scatter_edges(b, kept, edge_offset, out))
        goto nomem;

    lf_root *root = lf_big_malloc((b->root_count ? b->root_count : 1) * sizeof *root);
    if (!lf_snapshot_own(out, root))
        goto nomem;
    uint32_t roots = 0;
    for (size_t i = 0; i < b->root_count; i++) {
        uint32_t node = node_of(b, b->root[i].id);
        if (node == LF_NODE_NONE) {
            out->stats.dangling_roots++;
            continue;
        }
        root[roots].node = node;
        root[roots].kind = b->root[i].kind;
        root[roots].name = b->root[i].name;
        root[roots].reserved = 0;
        roots++;
    }

    /* Hand the arrays over to the snapshot. */
    if (!b->object_id) { /* an empty snapshot still gets valid pointers */
        if (lf_vec_reserve((void **)&b->object_id, &b->object_cap, 1, sizeof(uint64_t)) ||
            lf_vec_reserve((void **)&b->object_shallow, &b->object_cap_shallow, 1,
                           sizeof(uint32_t)) ||
            lf_vec_reserve((void **)&b->object_class, &b->object_cap_class, 1, sizeof(uint32_t)))
            goto nomem;
    }
    if (!b->class_name &&
        lf_vec_reserve((void **)&b->class_name, &b->class_cap, 1, sizeof *b->class_name))
        goto nomem;
    if (b->ids_elsewhere && b->ids_dense) { /* the reader gives the ids (lf_lazy_fields) */
        lf_big_free(b->object_id);
        b->object_id = NULL;
    } else {
        out->object_id = lf_snapshot_own(out, b->object_id);
    }
    out->object_shallow = lf_sizes_of(lf_snapshot_own(out, b->object_shallow), &b->shallow_big);
    lf_snapshot_own(out, b->shallow_big.entry); /* in node order already: nodes are made in order */
    b->shallow_big = (lf_size_table){0};
    out->object_class = lf_snapshot_own(out, b->object_class);
    out->class_name = lf_snapshot_own(out, b->class_name);
    out->string_bytes = lf_snapshot_own(out, b->strings.bytes);
    out->string_offset = lf_snapshot_own(out, b->strings.offset);
    b->object_id = NULL;
    b->object_shallow = NULL;
    b->object_class = b->class_name = NULL;
    b->strings.bytes = NULL;
    b->strings.offset = NULL;
    out->flags = b->flags;
    out->object_count = n;
    out->edge_count = kept;
    out->edge_offset = lf_edge_offsets_view(edge_offset);
    out->class_count = (uint32_t)b->class_count;
    out->root = root;
    out->root_count = roots;
    out->string_count = b->strings.count;
    if (give_sites(b, out))
        goto nomem;
    lf_builder_free(b);
    return 0;

nomem:
    lf_builder_free(b);
    lf_snapshot_free(out);
    return lf_fail_nomem(err, "building the snapshot");
}
