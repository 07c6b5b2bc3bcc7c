/* topcursor.h - the top level of the dominator tree in the tree's order
 * (larger retained first, then smaller node number) without building it:
 * the super-root's children and, V8's synthetic nodes collapsed
 * (domview.h), each synthetic node's children, merged as they are read.
 * Every child list of the tree is sorted already, so the merge holds one
 * position per list, not the entries. */
#ifndef LF_TOPCURSOR_H
#define LF_TOPCURSOR_H

#include <stddef.h>
#include <stdint.h>

#include "domview.h"

typedef struct lf_top_list {
    uint32_t start, pos, end;  /* domtree_child space */
    uint32_t via;              /* the synthetic node owning the list, or LF_NODE_NONE */
} lf_top_list;

typedef struct lf_top_cursor {
    const lf_snapshot *s;
    int collapse;
    lf_top_list *list;         /* a heap by head entry: the next one in order first */
    size_t count, total;       /* lists in the heap; lists in all */
} lf_top_cursor;

/* Opens at the first entry (collapse: 1 to skip synthetic nodes). Returns 0
 * or -1 (memory). */
int lf_top_cursor_open(lf_top_cursor *c, const lf_snapshot *s, int collapse);
/* Back to the first entry. */
void lf_top_cursor_rewind(lf_top_cursor *c);
/* The next entry into e: 1, or 0 when there is none left. */
int lf_top_cursor_next(lf_top_cursor *c, lf_top_entry *e);
void lf_top_cursor_close(lf_top_cursor *c);

#endif
