/* accumulation.h - where a finding's memory spreads out, and what piles up
 * there (suspects.h, DESIGN 11 and 13; docs/COLLECTIONS.md).
 *
 * From a node, walk down while one dominator-tree child retains at least
 * LF_SUSPECT_DESCEND of its parent: where that stops is the accumulation
 * point. A chain of one class (a linked list) stops the walk at its head;
 * its links are what accumulates there. Below any other point: its children
 * grouped by class, the class whose children retain the most, with their
 * count and bytes; a map's entries grouped by the class of what each holds
 * (its value), an array's elements likewise, as one group of every class
 * named by the class retaining most. A point that is a collection's backing
 * store is shown as the collection (the HashMap, not its HashMap$Node[]). */
#ifndef LF_ACCUMULATION_H
#define LF_ACCUMULATION_H

#include <stdint.h>

#include "../base/error.h"
#include "../model/snapshot.h"
#include "accumulation_memo.h"

/* A child holding at least this share of its parent's retained bytes is
 * where the memory goes on; below it, it has spread. */
#define LF_SUSPECT_DESCEND 0.8

/* What an accumulation counts. */
enum {
    LF_ACC_CHILDREN = 0, /* children of class cls */
    LF_ACC_ENTRIES = 1,  /* a map's entries, cls the class of what each holds
                          * (lf_entry_content) */
    LF_ACC_ELEMENTS = 2, /* an array's or a list's elements, of every class,
                          * cls the class retaining most */
};

typedef struct lf_accumulation {
    uint32_t point;     /* node: where the memory spreads out */
    uint32_t cls;       /* class space: the children's class retaining the most;
                         * LF_NODE_NONE when the point has no children */
    uint64_t count;     /* children of that class */
    uint64_t bytes;     /* what they retain together */
    uint8_t entries;    /* LF_ACC_*: what count counts */
    uint32_t others;    /* entries or elements: how many other classes they
                         * hold (a map or list of mixed values), 0 otherwise */
} lf_accumulation;

/* Where node's memory spreads out, and what accumulates there (memo: may
 * be NULL). */
int lf_accumulation_find(const lf_snapshot *s, lf_accumulation_memo *memo, uint32_t node, lf_accumulation *acc,
                         lf_error *err);

/* The steps of lf_accumulation_find, for a caller that looks at the point
 * on the way (suspects.c: a point's big children are findings of their
 * own). The point below node. */
uint32_t lf_accumulation_descend(const lf_snapshot *s, uint32_t node);
/* 1 and acc filled when acc->point heads a chain of its class, else 0. */
int lf_accumulation_chain(const lf_snapshot *s, lf_accumulation_memo *memo, lf_accumulation *acc);
/* What accumulates at acc->point: its chain, else its children retaining
 * less than apart (the others are findings of their own). 0 or -1 (memory). */
int lf_accumulation_spread(const lf_snapshot *s, lf_accumulation_memo *memo, lf_accumulation *acc, uint64_t apart);
/* acc->point as a person names it: a backing store or an entry is its
 * collection, up to node. */
void lf_accumulation_as_collection(const lf_snapshot *s, uint32_t node, lf_accumulation *acc);

#endif
