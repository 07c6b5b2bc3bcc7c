/* roots.h - what each GC root, and each kind of root, keeps alive. */
#ifndef LF_ROOTS_H
#define LF_ROOTS_H

#include "../model/snapshot.h"

/* One root as `roots` lists it. Most are the snapshot's roots as they are. A
 * V8 snapshot has one root, the synthetic (root), above synthetic levels
 * ((GC roots), (Global handles), (Stack roots), ..., an embedder's roots):
 * there each retaining edge from a synthetic node to a real object is a row,
 * of the kind its synthetic node names, named by the edge. */
typedef struct lf_root_row {
    uint32_t node;      /* node space: the object */
    uint32_t kind;      /* string index, or LF_ROOT_KIND_GLOBAL */
    uint32_t name;      /* string index, when edge is LF_ROOT_NO_EDGE */
    uint64_t edge;      /* edge space: the edge whose label names the row */
} lf_root_row;

/* A global object hanging off V8's (root) (V8's "user roots"). */
#define LF_ROOT_KIND_GLOBAL 0xffffffffu
/* No root: an object that several roots keep alive together (the dominator
 * tree's top level, under no single root), read "several roots". */
#define LF_ROOT_KIND_SHARED 0xfffffffeu
#define LF_ROOT_NO_EDGE UINT64_MAX

/* Whether node is one of V8's global objects (a real object a strong edge
 * of a synthetic root level reaches directly: Node's global, a page's
 * Window): the program's scope, whose properties are what JVM code keeps
 * in static fields. */
int lf_is_global_object(const lf_snapshot *s, uint32_t node);

/* The rows, in snapshot order (a V8 snapshot's levels breadth first).
 * *rows is malloc'd; returns the count, or -1 (memory). */
int64_t lf_root_rows(const lf_snapshot *s, lf_root_row **rows, lf_error *err);
lf_str lf_root_row_kind(const lf_snapshot *s, const lf_root_row *row);
/* The row's name into buf (an edge label, or the root's own name). */
lf_str lf_root_row_name(const lf_snapshot *s, const lf_root_row *row, char *buf, size_t size);

typedef struct lf_root_kind_total {
    uint32_t kind;          /* string index of the kind, or LF_ROOT_KIND_GLOBAL */
    uint64_t roots;         /* root entries of this kind */
    uint64_t objects;       /* distinct objects they name */
    uint64_t retained;      /* bytes those objects keep alive, each object once */
} lf_root_kind_total;

/* Totals per root kind over rows, largest retained first (ties by kind name).
 * Needs the analysis. Sorts rows. *totals is malloc'd; returns the count, or
 * -1 (memory). */
int64_t lf_root_kind_totals(const lf_snapshot *s, lf_root_row *rows, uint64_t count,
                            lf_root_kind_total **totals, lf_error *err);

/* Sorts rows by the retained size of their object, largest first, ties by
 * their order in rows. Returns 0 or -1 (memory). */
int lf_roots_by_retained(const lf_snapshot *s, lf_root_row *rows, uint64_t count, lf_error *err);

/* Sorts rows by retained size as lf_roots_by_retained, then folds the
 * rows that repeat one (object, kind, name) into the first: repeats[i] is
 * how many rows row i stands for (a .NET local that 7 frames report is one
 * row of 7). Returns the rows left, or -1 (memory); *repeats is malloc'd. */
int64_t lf_roots_folded(const lf_snapshot *s, lf_root_row *rows, uint64_t count, uint32_t **repeats,
                        lf_error *err);

/* Appends to *rows (count rows, malloc'd) a row of kind LF_ROOT_KIND_SHARED
 * for each object at the dominator tree's top that is no root's object and
 * keeps at least `least` bytes alive: what several roots hold together (the
 * DI container that every request's scope and the host reference). Returns
 * the new count, or -1 (memory). */
int64_t lf_roots_add_shared(const lf_snapshot *s, lf_root_row **rows, uint64_t count, uint64_t least,
                            lf_error *err);

/* Whether v is at the top of the dominator tree: below the super-root, or
 * (V8) below one of the synthetic levels only roots reach, (root) itself
 * included: an Express app's state, which the global object and a stack
 * frame both reach, is dominated by (root). */
int lf_roots_at_top(const lf_snapshot *s, uint32_t v);

#endif
