/* paired_table.c - a map's keys and values side by side in one table
 * (paired_table.h). */
#include "paired_table.h"

#include <stdlib.h>
#include <string.h>

#include "class_kinds.h"
#include "collections.h"

int lf_paired_table_begin(lf_paired_table_walk *w, const lf_snapshot *s, uint32_t array)
{
    memset(w, 0, sizeof *w);
    uint32_t d = array < s->object_count ? s->idom[array] : LF_NODE_NONE;
    if (d >= s->object_count || s->object_class[d] >= s->class_count ||
        !(lf_class_kind(s, s->object_class[d]) & CLASS_PAIRED_TABLE) || !lf_is_reference_array(s, array))
        return 1;
    uint64_t first = lf_snapshot_edges_begin(s, array), count = lf_snapshot_edges_end(s, array) - first;
    if (count > UINT32_MAX)
        return 1;
    uint8_t *kind = malloc(count ? count : 1);
    w->index = malloc((count ? count : 1) * sizeof *w->index);
    w->edge = malloc((count ? count : 1) * sizeof *w->edge);
    if (!kind || !w->index || !w->edge) {
        free(kind);
        lf_paired_table_end(w);
        return -1;
    }
    lf_snapshot_node_edge_infos(s, array, kind, w->index);
    /* the elements' edges alone, in order: an array's edge to its class
     * (HPROF's "<class>") is none of its entries */
    for (uint32_t e = 0; e < (uint32_t)count; e++)
        if (kind[e] == LF_EDGE_KIND_ELEMENT) {
            w->index[w->count] = w->index[e];
            w->edge[w->count++] = first + e;
        }
    free(kind);
    if (w->count == 0) { /* no indices (a .gcdump's, a converted V8 array) */
        lf_paired_table_end(w);
        return 1;
    }
    w->s = s;
    return 0;
}

/* Element k's target, LF_NODE_NONE for a weak one (no entry of the table's own). */
static uint32_t target_at(const lf_paired_table_walk *w, uint32_t k)
{
    uint32_t t = w->s->edge_target[w->edge[k]];
    return lf_edge_is_weak(t) ? LF_NODE_NONE : lf_edge_node(t);
}

int lf_paired_table_next(lf_paired_table_walk *w, uint32_t *key, uint32_t *value)
{
    *key = *value = LF_NODE_NONE;
    if (w->next >= w->count)
        return 0;
    uint32_t k = w->next++, index = w->index[k];
    if (index % 2 == 1) { /* a value whose key is null */
        *value = target_at(w, k);
        return 1;
    }
    *key = target_at(w, k);
    if (w->next < w->count && w->index[w->next] == index + 1)
        *value = target_at(w, w->next++);
    return 1;
}

void lf_paired_table_end(lf_paired_table_walk *w)
{
    free(w->index);
    free(w->edge);
    w->index = NULL;
    w->edge = NULL;
    w->count = w->next = 0;
}
