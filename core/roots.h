/* roots.h - what each GC root, and each kind of root, keeps alive. */
#ifndef LF_ROOTS_H
#define LF_ROOTS_H

#include "snapshot.h"

typedef struct lf_root_kind_total {
    uint32_t kind;          /* string index of the kind */
    uint64_t roots;         /* root entries of this kind */
    uint64_t objects;       /* distinct objects they name */
    uint64_t retained;      /* bytes those objects keep alive, each object once */
} lf_root_kind_total;

/* Totals per root kind, largest retained first (ties by kind name). Needs the
 * analysis. *totals is malloc'd; returns the count, or -1 (memory). */
int64_t lf_root_kind_totals(const lf_snapshot *s, lf_root_kind_total **totals, lf_error *err);

/* Root indices ordered by the retained size of their object, largest first,
 * ties by root index. *order is malloc'd; returns 0 or -1 (memory). */
int lf_roots_by_retained(const lf_snapshot *s, uint32_t **order, lf_error *err);

#endif
