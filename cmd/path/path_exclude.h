/* path_exclude.h - `path --exclude CLASS.FIELD`: which (from, to) steps the
 * search must not take.
 *
 * A step from -> to is excluded when from's class and every label of the
 * edges from -> to match one --exclude. Deciding that per step scanned
 * from's edges (and, on a JVM dump, decoded their labels from the first on)
 * for every step the search looked at: quadratic through a big array. The
 * excluded steps are found once, in one pass over the edges of the named
 * classes' objects, and looked up by binary search. */
#ifndef LF_PATH_EXCLUDE_H
#define LF_PATH_EXCLUDE_H

#include <stdint.h>

#include "../../core/model/snapshot.h"

typedef struct path_exclusions {
    const lf_snapshot *s;
    uint32_t *class_named;  /* class space: bit i set when --exclude i names the class */
    uint64_t *step;         /* sorted from << 32 | to */
    uint64_t step_count;
    uint32_t seen;          /* bit i set when some edge carries --exclude i's field */
} path_exclusions;

/* EXIT_OK (with a warning for a spec whose field no edge of its classes
 * carries: it excludes nothing, a misspelt field most likely); or, after
 * the message, EXIT_USAGE (a class name several
 * classes end with, class_match.h) or EXIT_SYSTEM (memory). At most 32 specs. */
int path_exclusions_build(path_exclusions *x, const lf_snapshot *s, const char *const *spec,
                          unsigned spec_count);
/* lf_edge_filter: 1 to follow from -> to. */
int path_exclusions_follow(void *ctx, uint32_t from, uint32_t to);
void path_exclusions_free(path_exclusions *x);

#endif
