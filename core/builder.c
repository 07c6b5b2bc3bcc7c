/* builder.c - records by id -> CSR snapshot. */
#include "builder.h"

#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "idmap.h"
#include "strtab.h"
#include "vec.h"

typedef struct pending_edge {
    uint64_t from_id, to_id;
    uint32_t label;
    uint8_t kind;
    uint8_t weak;
} pending_edge;

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
    uint64_t *object_id, *object_shallow;
    uint32_t *object_class;
    size_t object_count, object_cap, object_cap_shallow, object_cap_class;
    pending_edge *edge;
    size_t edge_count, edge_cap;
    pending_root *root;
    size_t root_count, root_cap;
    uint32_t flags;
};

lf_builder *lf_builder_new(void)
{
    lf_builder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    lf_idmap_init(&b->node_by_id);
    if (lf_strtab_init(&b->strings)) {
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
    free(b->class_name);
    free(b->object_id);
    free(b->object_shallow);
    free(b->object_class);
    free(b->edge);
    free(b->root);
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
                        sizeof(uint64_t))) ||
        (need > b->object_cap_class &&
         lf_vec_reserve((void **)&b->object_class, &b->object_cap_class, need, sizeof(uint32_t))))
        return LF_BUILDER_NOMEM;
    int added = lf_idmap_add(&b->node_by_id, id, (uint32_t)b->object_count);
    if (added < 0)
        return LF_BUILDER_NOMEM;
    if (added > 0)
        return LF_BUILDER_DUPLICATE;
    b->object_id[b->object_count] = id;
    b->object_shallow[b->object_count] = shallow;
    b->object_class[b->object_count] = class_index;
    b->object_count++;
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
    if (b->edge_count == b->edge_cap &&
        lf_vec_reserve((void **)&b->edge, &b->edge_cap, b->edge_count + 1, sizeof *b->edge))
        return LF_BUILDER_NOMEM;
    pending_edge *e = &b->edge[b->edge_count++];
    e->from_id = from_id;
    e->to_id = to_id;
    e->label = label;
    e->kind = (uint8_t)kind;
    e->weak = weak ? 1 : 0;
    return LF_BUILDER_OK;
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
    uint32_t node = lf_idmap_get(&b->node_by_id, id);
    return node == LF_IDMAP_NONE ? LF_NODE_NONE : node;
}

/* Edges ahead of the one being resolved whose slots are loaded meanwhile:
 * enough to cover a cache miss, few enough to stay in cache. */
enum { RESOLVE_AHEAD = 16 };

/* Turns each edge's ids into node numbers (edge->from_id = n: dangling),
 * counts the kept edges per source node into edge_offset and returns the
 * number kept. Successive edges mostly share their source (a reader gives an
 * object's fields together), so the last source is remembered. */
static uint64_t resolve_edges(lf_builder *b, uint64_t *edge_offset, uint64_t *dangling)
{
    const uint32_t n = (uint32_t)b->object_count;
    uint64_t kept = 0, last_from_id = 0;
    uint32_t last_from = LF_NODE_NONE;
    for (size_t i = 0; i < b->edge_count; i++) {
        if (i + RESOLVE_AHEAD < b->edge_count) {
            lf_idmap_prefetch(&b->node_by_id, b->edge[i + RESOLVE_AHEAD].to_id);
            if (b->edge[i + RESOLVE_AHEAD].from_id != b->edge[i + RESOLVE_AHEAD - 1].from_id)
                lf_idmap_prefetch(&b->node_by_id, b->edge[i + RESOLVE_AHEAD].from_id);
        }
        pending_edge *e = &b->edge[i];
        if (last_from == LF_NODE_NONE || e->from_id != last_from_id) {
            last_from_id = e->from_id;
            last_from = node_of(b, e->from_id);
        }
        uint32_t from = last_from, to = node_of(b, e->to_id);
        if (from == LF_NODE_NONE || to == LF_NODE_NONE) {
            (*dangling)++;
            e->from_id = n;
            continue;
        }
        e->from_id = from;
        e->to_id = to;
        edge_offset[from]++;
        kept++;
    }
    return kept;
}

int lf_builder_finish(lf_builder *b, lf_snapshot *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    const uint32_t n = (uint32_t)b->object_count;
    uint64_t *edge_offset = lf_big_calloc((size_t)n + 1, sizeof *edge_offset);
    if (!lf_snapshot_own(out, edge_offset))
        goto nomem;

    uint64_t kept = resolve_edges(b, edge_offset, &out->stats.dangling_edges);
    uint32_t *edge_target = lf_big_malloc((kept ? kept : 1) * sizeof *edge_target);
    uint32_t *edge_label = lf_big_malloc((kept ? kept : 1) * sizeof *edge_label);
    uint8_t *edge_kind = lf_big_malloc(kept ? kept : 1);
    if (!lf_snapshot_own(out, edge_target) || !lf_snapshot_own(out, edge_label) ||
        !lf_snapshot_own(out, edge_kind))
        goto nomem;
    uint64_t sum = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint64_t c = edge_offset[v];
        edge_offset[v] = sum;
        sum += c;
    }
    edge_offset[n] = sum;
    for (size_t i = 0; i < b->edge_count; i++) {
        const pending_edge *e = &b->edge[i];
        if (e->from_id == n)
            continue;
        uint64_t at = edge_offset[e->from_id]++;
        edge_target[at] = (uint32_t)e->to_id | (e->weak ? LF_EDGE_WEAK : 0);
        edge_label[at] = e->label;
        edge_kind[at] = e->kind;
    }
    for (uint32_t v = n; v > 0; v--)
        edge_offset[v] = edge_offset[v - 1];
    edge_offset[0] = 0;

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
                           sizeof(uint64_t)) ||
            lf_vec_reserve((void **)&b->object_class, &b->object_cap_class, 1, sizeof(uint32_t)))
            goto nomem;
    }
    if (!b->class_name &&
        lf_vec_reserve((void **)&b->class_name, &b->class_cap, 1, sizeof *b->class_name))
        goto nomem;
    out->object_id = lf_snapshot_own(out, b->object_id);
    out->object_shallow = lf_snapshot_own(out, b->object_shallow);
    out->object_class = lf_snapshot_own(out, b->object_class);
    out->class_name = lf_snapshot_own(out, b->class_name);
    out->string_bytes = lf_snapshot_own(out, b->strings.bytes);
    out->string_offset = lf_snapshot_own(out, b->strings.offset);
    b->object_id = b->object_shallow = NULL;
    b->object_class = b->class_name = NULL;
    b->strings.bytes = NULL;
    b->strings.offset = NULL;
    out->flags = b->flags;
    out->object_count = n;
    out->edge_count = kept;
    out->edge_offset = edge_offset;
    out->edge_target = edge_target;
    out->edge_label = edge_label;
    out->edge_kind = edge_kind;
    out->class_count = (uint32_t)b->class_count;
    out->root = root;
    out->root_count = roots;
    out->string_count = b->strings.count;
    lf_builder_free(b);
    return 0;

nomem:
    lf_builder_free(b);
    lf_snapshot_free(out);
    return lf_fail_nomem(err, "building the snapshot");
}
