/* owners.h - dominator-tree nodes named by their path from the GC roots, so
 * that the owners of memory can be matched across snapshots: root kind and
 * name, then class and field along the dominator chain, array indices and
 * addresses left out ("Object[] [] Listener" stands for every element). */
#ifndef LF_OWNERS_H
#define LF_OWNERS_H

#include <Judy.h>

#include "holders.h"
#include "../model/snapshot.h"

typedef struct lf_owner {
    uint64_t signature;       /* XXH3 of the parent's signature, class and field */
    uint64_t parent;          /* the parent's signature; 0 for a top owner */
    uint64_t retained[2];     /* bytes the nodes with this signature retain: [0] before, [1] after */
    uint64_t objects[2];      /* objects they retain (themselves included) */
    uint32_t node[2];         /* one such node in each snapshot, or LF_NODE_NONE */
    uint32_t depth;
    /* part of a collection (its structure, or what its entries hold): its
     * growth is the collection's, never shown as an owner of its own */
    uint8_t inside;
} lf_owner;

typedef struct lf_owner_table {
    lf_owner *owner;
    size_t count, cap;
    Pvoid_t index;            /* signature -> owner + 1 */
} lf_owner_table;

/* For the snapshot holders answers for: every reachable node's signature
 * (sig: indexed by node, object_count + 1 entries), the nodes in preorder of
 * the dominator tree (order: reachable_count + 1 entries; a node's dominator
 * comes before it) and, when depth is not NULL, each node's depth below the
 * super-root. It asks holders about every node, so later steps named through
 * the same holders read its table instead of scanning again. When chains is
 * not NULL, *chains becomes the Judy1 set of the chains' signatures (those of
 * the nodes whose signature is their dominator's; none for V8) that
 * lf_collections_begin and lf_collections_build take: found in the walk,
 * where the dominator's signature is at hand, instead of by a pass of their
 * own over every node. On failure *chains is NULL. */
int lf_owner_signatures(lf_holders *holders, uint64_t *sig, uint32_t *order, uint32_t *depth,
                        size_t *count, void **chains, lf_error *err);
/* Whether an edge's label is a slot number ("3131"): a V8 Map's or Set's
 * table holds its entries by internal edges so named, an index as an
 * element's is. */
int lf_label_is_slot(const char *text, size_t len);
/* One hop of an owner's path: "field (class)", or "root-kind name (class)" for
 * a top owner. Returns the length written. */
size_t lf_owner_step(lf_holders *holders, uint32_t node, char *buf, size_t size);
/* Adds snapshot `side` (0 before, 1 after; analysed) to the table. */
int lf_owners_add(lf_owner_table *t, const lf_snapshot *s, int side, lf_error *err);
void lf_owners_free(lf_owner_table *t);
const lf_owner *lf_owners_find(const lf_owner_table *t, uint64_t signature);
/* "static field Registry.INSTANCE (Registry) / listeners (java.util.ArrayList)":
 * the dominator chain of node, from its top owner, at most the last 12 hops;
 * holders answers for the snapshot of node. */
size_t lf_owner_path(lf_holders *holders, uint32_t node, char *buf, size_t size);
/* A path that reaches a class object by no field of its own (its loader is
 * not one whose statics are roots, and a thread or a loader holds the
 * class: "thread main / (class AuditLog) / EVENTS (java.util.ArrayList)")
 * is named as Java names the static, from the class on: "static field
 * AuditLog.EVENTS (java.util.ArrayList)" (issue 47). buf holds len bytes of
 * the path (room for size); returns the new length. */
size_t lf_path_from_static(char *buf, size_t len, size_t size);

#endif
