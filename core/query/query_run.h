/* query_run.h - the pass's state, shared by the object listings
 * (query_run.c) and the groups (query_groups.c); internal to core/query. */
#ifndef LF_QUERY_RUN_H
#define LF_QUERY_RUN_H

#include "query_ast.h"

enum { KEY_TEXT_BYTES = 1024 };   /* of a text that orders or groups rows */

typedef struct q_run {
    lf_query *q;
    const lf_snapshot *s;
    q_eval e;
    lf_query_row_fn row;
    void *ctx;
    lf_error *err;
    char *store;                  /* texts that outlive their row: sort keys, group keys */
    size_t store_len, store_cap;
} q_run;

/* Keeps v's text (up to max bytes, cut at a character boundary) in the
 * store at *at and sets v->str NULL: read it back as store + *at, since
 * the store moves as it grows. 0, or -1 out of memory. */
int q_keep_text(q_run *r, lf_qvalue *v, size_t max, size_t *at);
/* Whether object v is of the from classes, passes where and is reachable
 * (one that is not is counted in q->unreachable_matches). */
int q_chosen(q_run *r, uint32_t v);
/* v's row to the caller: its return (nonzero stops), -1 on a damaged record. */
int q_object_row(q_run *r, uint32_t v);
/* An aggregate query's pass and rows. */
int q_groups_run(q_run *r);
/* After a pass that chose no object: a note for each text the where
 * clause compares a field with that the field never holds on the from
 * objects (query_literals.c). 0, or -1 on a damaged record. */
int q_literal_notes(q_run *r);

#endif
