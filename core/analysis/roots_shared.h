/* roots_shared.h - the roots behind a `roots` row of kind 'several roots':
 * an object no root names that several keep alive together is held by
 * objects in the trees of other rows' objects (that is why none of them
 * dominates it); their roots are its roots ("2 roots: static field
 * Registry.INSTANCE, thread main"). A holder that is itself such an object
 * is looked through to its own holders, level by level. The row's name
 * column was empty. */
#ifndef LF_ROOTS_SHARED_H
#define LF_ROOTS_SHARED_H

#include "roots.h"

enum { LF_SHARED_LISTED = 3 };

typedef struct lf_shared_roots {
    uint64_t count;                    /* distinct roots (kind and name) that hold it */
    uint32_t listed[LF_SHARED_LISTED]; /* row indices: the first distinct ones, in edge order */
    uint32_t listed_count;
    int partial;                       /* some holders not followed (levels): count is a floor */
} lf_shared_roots;

/* For each of the first n rows (those shown) of kind LF_ROOT_KIND_SHARED,
 * out[i]: the roots of rows[0 .. count) that hold it (the other rows'
 * out[i] are zero). One pass over the edges per level of holders, for all
 * of them together.
 * Needs the analysis. Returns 0, or -1 (memory). */
int lf_roots_shared_holders(const lf_snapshot *s, const lf_root_row *rows, uint64_t count, size_t n,
                            lf_shared_roots *out, lf_error *err);

/* "2 roots: (Global handles) [1], (Stack roots) [3]"; "13+ roots: ..." when
 * partial; one root's text alone; "" for none. Into buf (terminated); its
 * length. */
size_t lf_shared_roots_text(const lf_snapshot *s, const lf_root_row *rows, const lf_shared_roots *r, char *buf,
                            size_t size);

/* A row as one text: its kind and name ("static field X.y", "(Stack roots)
 * 35", "global object"); a name that starts with its kind is not prefixed
 * twice. Into buf (terminated); its length. */
size_t lf_root_row_text(const lf_snapshot *s, const lf_root_row *row, char *buf, size_t size);

#endif
