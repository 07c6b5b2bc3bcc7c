/* diff.h - what changed between two snapshots, per class (classes matched by
 * name: ids differ between processes and dumps). Counts are of live
 * (reachable) objects: garbage waiting for a collection is not growth. */
#ifndef LF_DIFF_H
#define LF_DIFF_H

#include "../model/snapshot.h"
#include "grouping.h"
#include "../model/strtab.h"

typedef struct lf_class_delta {
    uint32_t name;                   /* index in lf_class_diff.names */
    uint64_t count[2], shallow[2], retained[2]; /* [0] before, [1] after */
    /* when ids are stable: live objects only in the after snapshot (new) or
     * only in the before one (deleted), and their bytes */
    uint64_t created, deleted, created_bytes, freed_bytes;
} lf_class_delta;

typedef struct lf_class_diff {
    lf_strtab names;
    lf_class_delta *row;
    uint32_t rows;
    uint32_t shared_classes;         /* names with instances in both */
    int by_id;                       /* created/deleted filled: both have stable ids */
} lf_class_diff;

/* Both snapshots analysed. Rows in no particular order. Returns 0 or -1. */
int lf_diff_classes(const lf_snapshot *before, const lf_snapshot *after, lf_class_diff *d,
                    lf_error *err);
/* The same by any grouping (grouping.h): rows are groups matched by name. */
int lf_diff_groups(const lf_snapshot *before, const lf_grouping *group_before,
                   const lf_snapshot *after, const lf_grouping *group_after, lf_class_diff *d,
                   lf_error *err);
void lf_class_diff_free(lf_class_diff *d);

#endif
