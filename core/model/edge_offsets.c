/* edge_offsets.c - narrow or wide edge offsets, and turning counts into them. */
#include "edge_offsets.h"
#include "../base/bigmem.h"

uint64_t lf_edge_offsets_wide_from = UINT32_MAX;

static int offsets_alloc(lf_edge_offsets_mut *o, uint32_t node_count, uint64_t edge_bound, int zeroed)
{
    const size_t entries = (size_t)node_count + 1;
    o->narrow = NULL;
    o->wide = NULL;
    if (lf_edge_offsets_fit_narrow(edge_bound))
        o->narrow = zeroed ? lf_big_result_calloc(entries, sizeof *o->narrow)
                           : lf_big_result_malloc(entries * sizeof *o->narrow);
    else
        o->wide = zeroed ? lf_big_result_calloc(entries, sizeof *o->wide)
                         : lf_big_result_malloc(entries * sizeof *o->wide);
    return o->narrow || o->wide ? 0 : -1;
}

int lf_edge_offsets_alloc(lf_edge_offsets_mut *o, uint32_t node_count, uint64_t edge_bound)
{
    return offsets_alloc(o, node_count, edge_bound, 1);
}

int lf_edge_offsets_alloc_unset(lf_edge_offsets_mut *o, uint32_t node_count, uint64_t edge_bound)
{
    return offsets_alloc(o, node_count, edge_bound, 0);
}

void lf_edge_offsets_free(lf_edge_offsets_mut *o)
{
    lf_big_free(o->narrow);
    lf_big_free(o->wide);
    o->narrow = NULL;
    o->wide = NULL;
}

int lf_edge_offsets_widen(lf_edge_offsets_mut *o, uint32_t node_count)
{
    if (!o->narrow)
        return 0;
    uint64_t *wide = lf_big_result_malloc(((size_t)node_count + 1) * sizeof *wide);
    if (!wide)
        return -1;
    for (size_t v = 0; v <= node_count; v++)
        wide[v] = o->narrow[v];
    lf_big_free(o->narrow);
    o->narrow = NULL;
    o->wide = wide;
    return 0;
}

uint64_t lf_edge_offsets_from_counts(lf_edge_offsets_mut *o, uint32_t node_count)
{
    uint64_t total = 0;
    if (o->narrow) {
        for (uint32_t v = 0; v < node_count; v++)
            total += o->narrow[v];
        if (!lf_edge_offsets_fit_narrow(total) && lf_edge_offsets_widen(o, node_count))
            return UINT64_MAX;
    }
    lf_edge_counts_to_offsets(*o, node_count);
    return lf_edge_offsets_get(o, node_count);
}

void *lf_edge_offsets_as_stored(lf_edge_offsets o, uint32_t node_count, uint64_t edge_total, int *narrow)
{
    *narrow = edge_total <= UINT32_MAX;
    if (*narrow == (o.narrow != NULL))
        return NULL;
    const size_t entries = (size_t)node_count + 1;
    uint32_t *as_narrow = *narrow ? lf_big_malloc(entries * sizeof *as_narrow) : NULL;
    uint64_t *as_wide = *narrow ? NULL : lf_big_malloc(entries * sizeof *as_wide);
    if (!as_narrow && !as_wide) {
        *narrow = -1;
        return NULL;
    }
    for (size_t v = 0; v < entries; v++) {
        if (as_narrow)
            as_narrow[v] = (uint32_t)o.wide[v];
        else
            as_wide[v] = o.narrow[v];
    }
    return as_narrow ? (void *)as_narrow : (void *)as_wide;
}
