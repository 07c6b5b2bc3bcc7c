/* site_table.h - builds a snapshot's allocation sites (DESIGN 10): frames and
 * stacks interned, so that a reader may name the same stack many times (one
 * per object in an HPROF or OCaml dump) and get one site.
 *
 *   int64_t f = lf_site_table_frame(&t, fn, file, line, col);
 *   int64_t site = lf_site_table_site(&t, caller_site, f);   // caller 0: outermost
 *
 * Frame 0 and site 0 exist from the start (site 0: "no site"). */
#ifndef LF_SITE_TABLE_H
#define LF_SITE_TABLE_H

#include "snapshot.h"

typedef struct lf_site_table {
    lf_frame *frame;
    uint32_t frame_count, frame_cap;
    lf_site *site;
    uint32_t site_count, site_cap;
    /* open addressing: index + 1, 0 = empty */
    uint32_t *frame_slot, *site_slot;
    uint32_t frame_mask, site_mask;
} lf_site_table;

int lf_site_table_init(lf_site_table *t);
void lf_site_table_free(lf_site_table *t);
/* The frame's index (interned), or -1 when out of memory or full. */
int64_t lf_site_table_frame(lf_site_table *t, uint32_t function, uint32_t file, uint32_t line,
                            uint32_t column);
/* The site of `frame` called from the stack `caller` (interned), or -1 when
 * out of memory, full, or caller/frame were never returned. */
int64_t lf_site_table_site(lf_site_table *t, uint32_t caller, uint32_t frame);
/* Hands frames and sites to s (owned by it from then on) and empties t. */
int lf_site_table_give(lf_site_table *t, lf_snapshot *s);

#endif
