/* merged_paths.h - shortest paths from the GC roots merged into one tree
 * from the roots, each node with how many of the paths pass through it
 * (Eclipse MAT's "merge shortest paths to GC roots"): `leakfind path
 * --merge` and serve's /api/paths?cls=N both build it here and only write
 * it their own way.
 *
 * A tree node is (its parent in the tree, an object), found through a JudyL
 * keyed by both. Folded (issue 32), the elements of an array and what lies
 * below them in a collection (entries, keys, values) are one node per
 * (parent, class name) instead, in a JudyL of their own, and a chain's
 * links (an entry of its node's class) stay in that node: a map of 30,000
 * sessions is a few rows, not one per slot and bucket depth. A chain of
 * one class (a linked list: each node references the next) is one node too,
 * its first link, with the longest chain folded into it: 3,100 registrations
 * of one CancellationTokenSource are one row, not a tree 3,100 deep. */
#ifndef LF_MERGED_PATHS_H
#define LF_MERGED_PATHS_H

#include <stddef.h>
#include <stdint.h>

#include <Judy.h>

#include "../model/edge_batch.h"
#include "../model/snapshot.h"
#include "../../graph/paths.h"

#define LF_MERGE_NONE 0xffffffffu

typedef struct lf_merge_node {
    uint32_t object;    /* node space; folded: one object of the class it stands for */
    uint32_t parent;    /* tree space; LF_MERGE_NONE for a root object */
    uint32_t count;     /* the paths through it (until lf_merge_finish: ending in it) */
    uint32_t from;      /* node space: the object whose edge leads to object (path order) */
    uint32_t links;     /* the longest chain folded into it: objects of its class, each
                         * referenced by the one before (a linked list's nodes); 0: none */
    uint8_t weak, folded;
} lf_merge_node;

/* {0} is an empty tree. */
typedef struct lf_merge_tree {
    lf_merge_node *node;
    size_t count, cap;
    Pvoid_t index, folded_index; /* (parent + 1) << 32 | object, or | class name */
} lf_merge_tree;

/* Where a path's walk into the tree is: the node it is at, the chain it is
 * in (links after the node's first) and the object it came from last. */
typedef struct lf_merge_cursor {
    uint32_t at, run, last;
} lf_merge_cursor;
#define LF_MERGE_CURSOR_START ((lf_merge_cursor){LF_MERGE_NONE, 0, LF_MERGE_NONE})
/* The next object of a path into the tree: weak marks the nodes it makes
 * as reached through a weak reference, group folds arrays and collections
 * as above. The same steps from the same cursor always end in the same
 * node, so a path's walk may stop and go on later (merged_targets.c). 0 or
 * -1 (memory). */
int lf_merge_step(lf_merge_tree *t, const lf_snapshot *s, lf_merge_cursor *c, uint32_t object, int weak, int group);
/* One path counted: the one whose walk ends at c. */
void lf_merge_end(lf_merge_tree *t, const lf_merge_cursor *c);
/* One path, path[0] its root object, path[len - 1] its target, walked into
 * the tree and counted. 0 or -1 (memory). */
int lf_merge_add(lf_merge_tree *t, const lf_snapshot *s, const uint32_t *path, int64_t len, int weak, int group);
/* Every node's count from the paths that end in it to the paths through
 * it: once, after the last path, before the tree is read. */
void lf_merge_finish(lf_merge_tree *t);
/* Every target's shortest strong path, else its weak one, merged in the
 * order given, each found as lf_shortest_root_path finds it (the same
 * tree); note, when not NULL, hears in that order of each target without a
 * strong path (weak: 1 merged by its weak path, 0 no path at all). Once
 * the searches one at a time have queued as many nodes as the graph has
 * (leveled 0), from the start (leveled > 0) or never (< 0), the rest share
 * one breadth-first pass from the roots (graph/root_levels.h), so a list's
 * thousands of links cost what their paths do. ps: no node blocked. The
 * number of targets a path reached, or -1 (memory). */
typedef void lf_merge_note(void *ctx, uint32_t target, int weak);
int64_t lf_merge_targets(lf_merge_tree *t, const lf_snapshot *s, lf_path_search *ps, const uint32_t *target,
                         size_t count, lf_edge_filter filter, void *filter_ctx, int group, int leveled,
                         lf_merge_note *note, void *note_ctx);
/* The tree in preorder, no recursion: siblings most paths first, then by
 * object id. *order (the nodes) and *depth (each one's, 0 for a root
 * object) are t->count entries the caller frees. 0 or -1 (memory). */
int lf_merge_preorder(const lf_merge_tree *t, const lf_snapshot *s, uint32_t **order, uint32_t **depth);

/* How each node's parent holds it (a root object: kind LF_EDGE_KIND_NONE,
 * nothing found), asked at most batch questions at a time (edge_batch.h):
 * t->count entries the caller frees, or NULL (memory). */
lf_edge_answer *lf_merge_hops(const lf_merge_tree *t, const lf_snapshot *s, size_t batch);

void lf_merge_free(lf_merge_tree *t);

#endif
