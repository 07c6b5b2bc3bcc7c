/* dom_tree.h - the tree view of `leakfind dominators` (cmd_dominators.c has
 * the options and the flat view). */
#ifndef LF_DOM_TREE_H
#define LF_DOM_TREE_H

#include <stdint.h>

#include "../../core/model/snapshot.h"
#include "../cli/output.h"

typedef struct dom_tree_options {
    uint64_t depth;   /* levels below the start, 0 = all */
    uint64_t top;     /* rows per parent, 0 = no limit */
    uint64_t min;     /* bytes */
    int group;        /* top owners of one class as one row (domview.h), and
                       * what an array holds by class (collections.h) */
    uint32_t start;   /* LF_NODE_SUPER, or the --root node */
    int members;      /* list a top-level group's largest members under it */
} dom_tree_options;

/* The columns of every dominators listing; `hidden` and `group` are set on
 * the rows that stand for several objects (a summary, a group). */
extern const out_column dom_columns[];
enum { DOM_COLUMN_COUNT = 13, DOM_COLUMN_LOCATION = 11 };

/* Returns 0 or -1 (memory). */
int dom_show_tree(out_writer *w, const lf_snapshot *s, const dom_tree_options *o);

#endif
