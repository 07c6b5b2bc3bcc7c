/* root_reach.h - what the roots of each kind keep alive together (issue 34):
 * the objects reachable from roots of one kind and from no root of another
 * kind. A root's retained size leaves out what it shares with other roots
 * of its kind, so summing retained per kind misses most of a heap that
 * several roots hold ("92% is retained by values with finalisers" cannot be
 * read from it); this can. */
#ifndef LF_ROOT_REACH_H
#define LF_ROOT_REACH_H

#include "roots.h"

typedef struct lf_kind_reach {
    uint64_t objects;   /* reachable from this kind's roots alone */
    uint64_t bytes;     /* their shallow bytes */
} lf_kind_reach;

/* For totals[0 .. kinds) (lf_root_kind_totals), reach[k] for each, and in
 * *shared what roots of two or more kinds reach. Strong references only; an
 * object that a root names belongs to that root's kind, whatever other
 * roots reference it (a class's statics are its "static field" roots).
 * Every reachable object is in exactly one of them. reach is the caller's,
 * kinds entries. Linear: an object is walked at most twice. Returns 0, or
 * -1 (memory, or more than 65,533 kinds). */
int lf_root_kind_reach(const lf_snapshot *s, const lf_root_row *rows, uint64_t count,
                       const lf_root_kind_total *totals, size_t kinds, lf_kind_reach *reach,
                       lf_kind_reach *shared, lf_error *err);

/* What each of nodes[0 .. n) reaches by strong references, itself included,
 * shared memory and all (what OCaml's Obj.reachable_words counts): one walk
 * per distinct node. The walks stop once they have visited `budget` objects
 * in all (0: no limit); bytes[i] of the nodes not reached by then is
 * UINT64_MAX. Returns how many got their bytes, or -1 (memory). */
int64_t lf_reachable_bytes(const lf_snapshot *s, const uint32_t *nodes, size_t n, uint64_t budget,
                           uint64_t *bytes, lf_error *err);

#endif
