/* trend_holders.h - where each class's objects accumulate, over a series.
 *
 * A class that grows with the workload is a leak when its objects pile up
 * under one holder; VM warm-up (compiled code, JIT caches) adds a few
 * objects under each of many holders, once. An object's holder is its
 * nearest strict dominator-tree ancestor that existed in the first snapshot
 * of the series, or the roots (none did):
 *  - stable ids (V8): "existed" is by id, and only the objects new since the
 *    first snapshot are counted, so a holder's counts start at 0;
 *  - otherwise (HPROF: ids are addresses, objects move) "existed" is by
 *    signature (owners.h: the path from the roots, indices and addresses left
 *    out): every object is counted, under the signature of its holder, so the
 *    objects of all holders on one path add up.
 *
 * Kept between snapshots: per (class, holder) one count per snapshot, the
 * first snapshot's ids (stable ids only), and per signature seen its parent
 * and path step, and each row's holder's step (to name holders at the end). */
#ifndef LF_TREND_HOLDERS_H
#define LF_TREND_HOLDERS_H

#include <Judy.h>

#include "../model/snapshot.h"
#include "../model/strtab.h"

typedef struct lf_trend_holders {
    uint32_t capacity;        /* snapshots */
    unsigned threads;         /* for each snapshot's holder table (holders.h) */
    int by_id;                /* the series has stable ids */
    Pvoid_t first_ids;        /* Judy1: the first snapshot's reachable ids (by_id) */
    /* signatures seen, with their first-snapshot mark and their names */
    Pvoid_t known;            /* signature -> index + 1 */
    uint64_t *known_parent;   /* [index] the parent's signature, 0 at the top */
    uint32_t *known_step;     /* [index] "field (class)" in steps */
    uint8_t *known_first;     /* [index] 1: in the first snapshot */
    size_t known_count, parent_cap, step_cap, first_cap;
    lf_strtab steps;
    /* rows: one per (class, holder) */
    Pvoid_t *by_class;        /* [class] JudyL: holder key -> row + 1 */
    size_t classes, classes_cap;
    uint32_t *row_class;      /* [row] class (lf_trend's name index) */
    uint64_t *row_key;        /* [row] holder: its id + 1 (by_id) or signature; 0: the roots */
    uint64_t *row_parent;     /* [row] the holder's parent's signature, to name it */
    uint32_t *row_step;       /* [row] the holder's own step in steps; UINT32_MAX: the roots */
    uint64_t *count;          /* [row * capacity + snapshot] objects */
    uint64_t *bytes;          /* [row * capacity + snapshot] their shallow bytes */
    size_t rows, key_cap, class_cap, parent_row_cap, step_row_cap, count_cap, bytes_cap;
    /* recent (class, key) -> row + 1, so that the objects of one holder,
     * which come together in preorder, skip by_class's lookup */
    struct lf_trend_row_memo { uint64_t key; uint32_t cls, row; } row_memo[1024];
    /* recent signature -> index + 1 in known, so that the objects of one
     * holder (an array's elements) skip known's lookup */
    struct lf_trend_known_memo { uint64_t sig; uint32_t index; } known_memo[1024];
    /* Without stable ids, noted while the last snapshot announced is
     * counted, per signature index: its node there that retains most, and
     * per (signature index, class) the bytes its top-level nodes retain
     * (suspects' holders, without a second pass over that snapshot's
     * signatures) */
    struct lf_trend_last { uint32_t node; uint64_t retained; } *last;
    size_t last_len, last_cap;
    Pvoid_t last_top;          /* JudyL: index << 32 | class name -> bytes */
    const uint32_t *last_idom; /* that snapshot's idom array: which it was; NULL: none */
} lf_trend_holders;

int lf_trend_holders_init(lf_trend_holders *h, uint32_t snapshots, lf_error *err);
/* Counts snapshot `series` (0 first) of s; objects are grouped by
 * group_of_node (their class, or their allocation site) and class_row maps
 * a group to the caller's row number (UINT32_MAX: not counted); the objects
 * whose bit is set in skip (NULL: none) are not counted. */
int lf_trend_holders_add(lf_trend_holders *h, const lf_snapshot *s, uint32_t series,
                         const uint32_t *group_of_node, const uint32_t *class_row, const uint64_t *skip,
                         lf_error *err);
void lf_trend_holders_free(lf_trend_holders *h);
/* For each signature keys[0..n) (row keys, 0 for the roots), the node of s
 * with that signature that retains most (the first in the dominator tree's
 * preorder among equals; LF_NODE_NONE for none) into node[], and the bytes
 * retained by those of them directly under the roots that are of that
 * node's class name into top[] (an untyped OCaml signature masks a block's
 * size: a frame's table, list and tree share one). s is the
 * series' last snapshot (then read from what was noted while counting it) or
 * any other (then one pass over its signatures). 0 or -1 with err set. */
int lf_trend_holders_nodes(const lf_trend_holders *h, const lf_snapshot *s, const uint64_t *keys, size_t n,
                           uint32_t *node, uint64_t *top, lf_error *err);
/* The holder of a row by its path, "static field A.x (A) / list
 * (java.util.ArrayList)", at most its last 12 hops; "(GC roots)" for none. */
size_t lf_trend_holder_name(const lf_trend_holders *h, size_t row, char *buf, size_t size);

#endif
