/* domview.h - what the default `dominators` tree shows at its top and in
 * place of the children it hides (issue 21.1). Library code: it computes,
 * cmd/cmd_dominators.c prints.
 *
 * The top level of the view:
 *  - V8 synthetic nodes are no owners: V8 makes up its root entry, "(GC
 *    roots)" and one node per kind of root ("(Strong roots)", "(Stack
 *    roots)", ...; heap-snapshot-generator.cc gives each node type
 *    "synthetic" and size 0), and an embedder may add more ("(Document DOM
 *    trees)"). Where they are top owners, their dominator-tree children take
 *    their place, level after level, and remember the lowest synthetic node
 *    above them (`via`), which names their root.
 *  - Grouping by class (Eclipse MAT's "group by class" of the dominator
 *    tree, kept to what would be lost): the top-level entries are ranked,
 *    largest retained first; an entry is visible alone when its rank is
 *    below --top and it retains at least --min. The entries not visible
 *    alone are gathered by class, and a class with at least two of them
 *    that together retain at least --min becomes one group row (their
 *    retained sizes add up: dominator-tree siblings share nothing). The
 *    entries visible alone stay rows of their own, whatever their class.
 *    Groups and those rows are then ranked together and the first --top
 *    of them shown (a group is one row, as an owner is); what is left goes
 *    to one summary row. */
#ifndef LF_DOMVIEW_H
#define LF_DOMVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "../model/snapshot.h"

/* The default view's bounds, `dominators` without --top and --min: at most
 * LF_VIEW_TOP children of a node one by one, each retaining at least
 * lf_view_min (0.1% of the reachable heap). The report's tree shows a
 * collection's members with the same bounds, so both count alike. */
enum { LF_VIEW_TOP = 10 };
uint64_t lf_view_min(const lf_snapshot *s);

/* Whether node is one of V8's synthetic nodes: a V8 snapshot's named node
 * of size 0 (the V8 reader names exactly its synthetic nodes). */
int lf_is_synthetic(const lf_snapshot *s, uint32_t node);

typedef struct lf_top_entry {
    uint32_t node;    /* node space */
    uint32_t via;     /* the synthetic node it hangs under, LF_NODE_NONE if none */
} lf_top_entry;

/* What a row standing for hidden objects says: how many, their bytes, and
 * the classes most of them have (by count, then class number). */
enum { LF_SUMMARY_CLASSES = 3 };
typedef struct lf_hidden_summary {
    uint64_t count, shallow, retained;
    uint32_t class_count;                       /* distinct classes */
    uint32_t cls[LF_SUMMARY_CLASSES];
    uint64_t cls_count[LF_SUMMARY_CLASSES];
} lf_hidden_summary;

/* One shown row of the top level: an object (count 0) or a group of
 * `count` objects of class cls, whose `kept` largest (all of them, or
 * --top) are entry[first .. first + kept) of the view. */
typedef struct lf_top_row {
    uint32_t node;    /* object rows: the entry's index in view.entry */
    uint32_t cls;     /* group rows: class space */
    uint32_t first, count, kept;
    uint64_t shallow, retained;   /* groups: of all count objects */
} lf_top_row;

/* The view holds what it shows, not the whole top level: the entries
 * visible alone, the members a group row can show, and the sums of the
 * rest. */
typedef struct lf_top_view {
    lf_top_entry *entry;   /* the rows' entries; a group's are contiguous, largest first */
    size_t entry_count;
    lf_top_row *row;       /* the shown rows, largest retained first */
    size_t row_count;
    lf_hidden_summary hidden; /* the top-level objects in no shown row: the summary row */
} lf_top_view;

/* Builds the top level from the super-root's children (collapse: 1 to skip
 * synthetic nodes; group: 1 to group by class with rank limit top, 0 = no
 * limit, and threshold min). Two passes over the top level in order, no
 * sort of it. Returns 0 or -1 (memory). */
int lf_top_view_build(const lf_snapshot *s, int collapse, int group, uint64_t top, uint64_t min,
                      lf_top_view *view);
void lf_top_view_free(lf_top_view *view);

/* Adds count objects of class cls to out's classes; called in ascending
 * class order, it keeps the smaller class number on ties. */
void lf_summary_add_class(lf_hidden_summary *out, uint32_t cls, uint64_t count);

/* Summarizes nodes[0 .. count). Returns 0 or -1 (memory). */
int lf_summarize_hidden(const lf_snapshot *s, const uint32_t *nodes, size_t count,
                        lf_hidden_summary *out);

#endif
