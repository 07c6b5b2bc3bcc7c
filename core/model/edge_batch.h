/* edge_batch.h - for many pairs (from, to): the edge by which from holds to
 * and its label, for output that names the hops of many paths (`path`).
 *
 * One question alone (lf_snapshot_find_edge, then lf_snapshot_edge_info)
 * scans from's edges and, on a JVM dump, decodes their labels from the first
 * on: asking it for a path through each element of a large array is quadratic
 * (issue 19). A batch groups its questions by from, scans each from's edges
 * once and decodes them once, up to the last edge any of them names: the
 * work is the questions plus the edges of their distinct sources. */
#ifndef LF_EDGE_BATCH_H
#define LF_EDGE_BATCH_H

#include "snapshot.h"

typedef struct lf_edge_question {
    uint32_t from, to; /* node space */
} lf_edge_question;

enum { LF_HOP_FOUND = 1u << 0, LF_HOP_WEAK = 1u << 1 };

/* The edge lf_snapshot_find_edge gives (a strong one if there is one, the
 * first in edge order of its kind): flags LF_HOP_*, and when found its kind
 * (lf_edge_kind) and raw label, as lf_snapshot_edge_info gives them. */
typedef struct lf_edge_answer {
    uint32_t label;
    uint8_t kind;
    uint8_t flags;
} lf_edge_answer;

/* Answers q[0..count) into answer[0..count). Returns 0 or -1 (memory). */
int lf_edge_batch_answer(const lf_snapshot *s, const lf_edge_question *q, size_t count,
                         lf_edge_answer *answer);

#endif
