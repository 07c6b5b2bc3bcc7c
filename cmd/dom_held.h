/* dom_held.h - for top owners no root names: the other top owners whose
 * objects hold them (dom_roots.h names their roots). One pass over the
 * strong edges per set of owners asked for, memory for those owners only:
 * a listing asks for the owners it shows, not for every top owner of the
 * heap. */
#ifndef LF_DOM_HELD_H
#define LF_DOM_HELD_H

#include <stddef.h>
#include <stdint.h>

#include <Judy.h>

#include "../core/model/snapshot.h"

enum { DOM_HELD_MAX = 4 };

typedef struct dom_held {
    Pvoid_t index;                       /* JudyL: owner -> row + 1 */
    uint32_t (*holder)[DOM_HELD_MAX];    /* by row, in the order the edges name them */
    uint32_t *count;                     /* by row; past DOM_HELD_MAX counted, not kept */
    size_t rows, cap, count_cap;
    Pvoid_t top_memo;                    /* JudyL: node -> its top owner, some nodes walked */
} dom_held;

void dom_held_init(dom_held *h);
/* Whether owner's holders have been looked for. */
int dom_held_known(const dom_held *h, uint32_t owner);
/* Looks for the holders of the top owners in owners[0 .. count) (idom: the
 * super-root) not known yet, in one pass over the edges. 0 or -1 (memory). */
int dom_held_find(dom_held *h, const lf_snapshot *s, const uint32_t *owners, size_t count);
/* How many top owners hold owner; the first DOM_HELD_MAX of them into
 * *holders (NULL when none are known). */
size_t dom_held_get(const dom_held *h, uint32_t owner, const uint32_t **holders);
void dom_held_free(dom_held *h);

#endif
