/* holders.h - how each object's immediate dominator holds it ("items",
 * "[3]", or for a top-level object its root), for output that names that
 * link for many objects: dominators listings, diff and trend --owners.
 *
 * One question alone scans the dominator's edges and, on a JVM dump, decodes
 * the labels of its edges up to the one found: as much work as the dominator
 * has edges, so naming every element of a large array that way is quadratic
 * (issue 19). Questions are therefore answered one by one only while their
 * total work stays under one pass over the graph; past that, one pass records
 * the holder of every object (5 bytes per object) and later questions read
 * it. Whatever is asked, the work is at most about three passes. */
#ifndef LF_HOLDERS_H
#define LF_HOLDERS_H

#include "../base/prefetch.h"
#include "../model/snapshot.h"

/* kind: an lf_edge_kind, or LF_HOLDER_ROOT (label: a root index). An object
 * with no edge from its dominator, or none with a label, has kind NONE. */
enum { LF_HOLDER_ROOT = 0xff };

typedef struct lf_holder {
    uint8_t kind;
    uint32_t label;
} lf_holder;

typedef struct lf_holders {
    const lf_snapshot *s;     /* analysed */
    uint64_t work, budget;    /* edges scanned or decoded one by one, and the limit */
    uint8_t *kind;            /* node -> holder kind, once the pass has run */
    uint32_t *label;          /* node -> holder label */
    int failed;               /* some answer lacks its label for want of memory */
    unsigned threads;         /* the table is made on up to two of them */
    int skip_links;           /* lf_holders_expect_signatures: the table leaves links out */
} lf_holders;

void lf_holders_init(lf_holders *h, const lf_snapshot *s);
/* The table may be made on two threads (default one): for a caller with
 * the other core idle meanwhile. */
void lf_holders_use_threads(lf_holders *h, unsigned threads);
/* Questions about most objects are coming (a full listing): the table is
 * made at the first, without first asking one by one. */
void lf_holders_expect_all(lf_holders *h);
/* The same for owner signatures (owners.c), which ask about every object
 * but a chain's link (an object of its dominator's class: it takes its
 * dominator's signature). The table leaves those out: on a JVM dump, whose
 * labels are decoded from the records, they are about half the objects
 * and most of the table's work. A link asked about after all (a row named
 * by one) is answered alone, as before the table, so every answer is the
 * same as with lf_holders_expect_all. */
void lf_holders_expect_signatures(lf_holders *h);
/* Whether every answer is now a read of the table (it was made, did not
 * run out of memory and left nothing out): then lf_holders_get may be
 * called from several threads at once. */
int lf_holders_ready(const lf_holders *h);
/* The holder of node, which must be reachable (its idom not LF_NODE_NONE). */
lf_holder lf_holders_get(lf_holders *h, uint32_t node);
/* Asks the caches for node's row of the table, when there is one: a walk
 * that knows its next node calls it a node ahead. */
LF_PREFETCH_HELPER void lf_holders_prefetch(const lf_holders *h, uint32_t node)
{
    if (h->kind) {
        __builtin_prefetch(&h->kind[node]);
        __builtin_prefetch(&h->label[node]);
    }
}
/* Whether some answer so far came without its label for want of memory:
 * output made of them is incomplete, an error for the caller to report. */
int lf_holders_failed(const lf_holders *h);
void lf_holders_free(lf_holders *h);

#endif
