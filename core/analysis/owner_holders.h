/* owner_holders.h - for top owners (children of the super-root) no root
 * names: the other top owners whose objects hold them, so that the
 * dominators listing and the report can name those owners' roots instead.
 * One pass per set of owners asked for, memory for those owners only: a
 * listing asks for the owners it shows, not for every top owner of the
 * heap. The pass reads the edges into top owners no root names, listed by
 * the first (most are asked about level by level, a pass each), else
 * every strong edge. No recursion: a walk up the dominators is a loop. */
#ifndef LF_OWNER_HOLDERS_H
#define LF_OWNER_HOLDERS_H

#include <stddef.h>
#include <stdint.h>

#include <Judy.h>

#include "../model/snapshot.h"

typedef struct lf_holder_list {
    uint32_t *node;
    size_t len, cap;
} lf_holder_list;

typedef struct lf_owner_holders {
    Pvoid_t index;          /* JudyL: owner -> row + 1 */
    lf_holder_list *holder; /* by row, each holder once, in the order the edges name them */
    size_t rows, cap;
    Pvoid_t seen;           /* Judy1: row << 32 | holder, for "once" */
    Pvoid_t top_memo;       /* JudyL: node -> its top owner, some nodes walked */
    /* The strong edges into top owners no root names, by edge number
     * (owner_holders.c, into_list): a pass over them, not over every edge,
     * answers owners of that kind. unrooted: a bit per node, set for those
     * owners. into_state: 0 not made yet, 1 made, -1 not used (too many,
     * or no memory: every pass reads every edge). */
    struct lf_into_edge {
        uint32_t edge, target; /* the target beside it: a pass reads the list alone */
    } *into;
    size_t into_len, into_cap;
    uint64_t *unrooted;
    int into_state;
    /* 1: the top is lf_roots_at_top's (V8's synthetic levels included), for
     * `roots`' rows; 0: the super-root's children, as the listings name them */
    int root_levels;
} lf_owner_holders;

void lf_owner_holders_init(lf_owner_holders *h);
/* The same, with a V8 snapshot's objects below its synthetic levels as top
 * owners too (lf_roots_at_top): every pass then reads every edge. */
void lf_owner_holders_init_levels(lf_owner_holders *h);
/* Whether owner's holders have been looked for. */
int lf_owner_holders_known(const lf_owner_holders *h, uint32_t owner);
/* Looks for the holders of the top owners in owners[0 .. count) (idom: the
 * super-root) not known yet, in one pass over the edges. 0 or -1 (memory). */
int lf_owner_holders_find(lf_owner_holders *h, const lf_snapshot *s, const uint32_t *owners,
                          size_t count);
/* How many top owners hold owner, every one of them into *holders (NULL
 * when none are known): the count is a count, not a display's cap. */
size_t lf_owner_holders_get(const lf_owner_holders *h, uint32_t owner, const uint32_t **holders);
void lf_owner_holders_free(lf_owner_holders *h);

#endif
