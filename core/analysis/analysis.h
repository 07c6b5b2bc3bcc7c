/* analysis.h - dominators, retained sizes and the dominator tree of a snapshot,
 * computed once (or taken from a leakfind file that stores them). */
#ifndef LF_ANALYSIS_H
#define LF_ANALYSIS_H

#include "../base/progress.h"
#include "../model/snapshot.h"

/* Makes s->idom, s->retained and s->domtree_* available, computed with the
 * LF_DOM_* flags given, unless the snapshot already holds an analysis made
 * with the same flags. threads: at most 1 keeps every pass on the calling
 * thread, else the passes that split use two (same result). */
int lf_analyze(lf_snapshot *s, unsigned dom_flags, unsigned threads, lf_error *err);
/* The same, telling progress (NULL: nobody) how far each of its five passes
 * is ("pass 2 of 5"), in objects: four for the dominators, then the tree. */
int lf_analyze_reporting(lf_snapshot *s, unsigned dom_flags, unsigned threads,
                         const lf_progress *progress, lf_error *err);

typedef struct lf_class_totals {
    uint64_t *count;        /* class -> instances */
    uint64_t *shallow;      /* class -> bytes */
    uint64_t *retained;     /* class -> bytes, nothing counted twice (needs analysis) */
    uint64_t *unreachable_count;
    uint64_t *unreachable_shallow;
} lf_class_totals;

/* Per-class totals; retained is filled only when the snapshot is analysed. */
int lf_class_totals_compute(const lf_snapshot *s, lf_class_totals *t, lf_error *err);
/* qsort_r's comparison of nodes (uint32_t, node space): largest retained
 * first, then node; the snapshot (analysed) is the context, not a static,
 * so that sorts of several snapshots run on several threads at once. */
int lf_node_by_retained(const void *a, const void *b, void *snapshot);
/* The same over any grouping of objects (node -> group < groups), e.g.
 * allocation sites: retained counts each object not below another object
 * of its group in the dominator tree. */
int lf_group_totals_compute(const lf_snapshot *s, const uint32_t *group_of_node, uint32_t groups,
                            lf_class_totals *t, lf_error *err);
/* The same without retained (left 0): counts and shallow bytes alone, for
 * what needs no retained size (trend's counts), skipping a pass over the
 * dominator tree. */
int lf_group_counts_compute(const lf_snapshot *s, const uint32_t *group_of_node, uint32_t groups,
                            lf_class_totals *t, lf_error *err);
void lf_class_totals_free(lf_class_totals *t);

#endif
