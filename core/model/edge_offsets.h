/* edge_offsets.h - choosing and making a graph's edge offsets: 32-bit when
 * the edge total fits, 64-bit otherwise (graph/graph.h's lf_edge_offsets).
 * Every producer allocates through here so one switch forces the wide form. */
#ifndef LF_EDGE_OFFSETS_H
#define LF_EDGE_OFFSETS_H

#include <stdint.h>

#include "../../graph/graph.h"

/* Edge totals at or above this get 64-bit offsets. UINT32_MAX by default:
 * then a node's count and every offset fit 32 bits, and a narrow count that
 * saturated at UINT32_MAX always exceeds the total. Tests set 0 to run the
 * wide form on small graphs (cmd/: LEAKFIND_WIDE_OFFSETS). */
extern uint64_t lf_edge_offsets_wide_from;

static inline int lf_edge_offsets_fit_narrow(uint64_t edge_total)
{
    return edge_total < lf_edge_offsets_wide_from;
}

/* node_count+1 zeroed entries, narrow when edge_bound (the edge total, or a
 * bound on it known before counting) fits. Returns 0, or -1 (memory). */
int lf_edge_offsets_alloc(lf_edge_offsets_mut *o, uint32_t node_count, uint64_t edge_bound);
/* The same, not zeroed: for a reader that sets every entry itself (the
 * pages are then faulted in by whoever sets them, not here). */
int lf_edge_offsets_alloc_unset(lf_edge_offsets_mut *o, uint32_t node_count, uint64_t edge_bound);
void lf_edge_offsets_free(lf_edge_offsets_mut *o);

/* Makes a narrow o wide (same values, node_count+1 entries), for a count
 * about to pass UINT32_MAX. Returns 0, or -1 (memory; o unchanged). */
int lf_edge_offsets_widen(lf_edge_offsets_mut *o, uint32_t node_count);

/* Per-node edge counts in o (entries 0..node_count-1) become offsets; when
 * o is narrow and the total does not fit, into a new wide array (the narrow
 * one freed). Returns the total, or UINT64_MAX (memory; o unchanged). */
uint64_t lf_edge_offsets_from_counts(lf_edge_offsets_mut *o, uint32_t node_count);

/* A copy of o in the width edge_total fits, for a writer: NULL when o is
 * already that width (nothing to free), else a new array the caller frees
 * with lf_big_free(); *narrow says which it is. -1 in *narrow: memory. */
void *lf_edge_offsets_as_stored(lf_edge_offsets o, uint32_t node_count, uint64_t edge_total, int *narrow);

#endif
