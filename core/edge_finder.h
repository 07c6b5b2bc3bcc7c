/* edge_finder.h - many "which edge of A points at B" questions about one snapshot.
 *
 * lf_snapshot_find_edge scans A's edges, which is right for one question.
 * Listing every object with the edge its dominator holds it by asks it once
 * per element of each large array, and each scan reads the whole array's
 * edges again (a quadratic 18% of a 30M-row listing, bound by memory
 * bandwidth). A finder sorts the edges of a node with many of them once, on
 * its first question, and answers later ones by bisection; smaller nodes are
 * scanned. The answers are lf_snapshot_find_edge's. */
#ifndef LF_EDGE_FINDER_H
#define LF_EDGE_FINDER_H

#include "snapshot.h"

typedef struct lf_edge_finder {
    const lf_snapshot *s;
    void *sorted; /* JudyL: node -> its edges as sorted keys (see edge_finder.c) */
} lf_edge_finder;

void lf_edge_finder_init(lf_edge_finder *f, const lf_snapshot *s);
/* The edge from `from` to `to`, a strong one if there is one (the first in
 * edge order of its kind); UINT64_MAX if none. */
uint64_t lf_edge_finder_find(lf_edge_finder *f, uint32_t from, uint32_t to);
void lf_edge_finder_free(lf_edge_finder *f);

#endif
