/* label_scratch.h - the kinds and labels of a node's first edges, decoded
 * into buffers reused from node to node, for readers that keep labels
 * nowhere in memory and decode them only from a node's first edge on (a JVM
 * dump read in place). Shared by the holder table (holders.c) and the path
 * hop batches (edge_batch.c), which decode each node's edges once. */
#ifndef LF_LABEL_SCRATCH_H
#define LF_LABEL_SCRATCH_H

#include "snapshot.h"

typedef struct lf_label_scratch {
    uint8_t *kind;
    uint32_t *label;
    uint64_t cap;
} lf_label_scratch;

/* 1 when s's labels are decodable only from a node's first edge on. */
int lf_labels_from_start(const lf_snapshot *s);
/* Decodes node's first `count` edges into x->kind[0..count) and
 * x->label[0..count). 0, or -1 when out of memory. */
int lf_label_scratch_decode(lf_label_scratch *x, const lf_snapshot *s, uint32_t node,
                            uint64_t count);
void lf_label_scratch_free(lf_label_scratch *x);

#endif
