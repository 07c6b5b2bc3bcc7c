/* caller_tree.h - the objects of a dump with allocation sites (DESIGN 10) as
 * the Memtrace viewer's inverted icicle draws them (issue 51): the
 * allocating frames at the top, under each the frames that called it, down
 * to `depth` frames, each node with the objects whose stacks pass through it
 * (count, shallow bytes and, for a sampled dump, the bytes they stand for). */
#ifndef LF_CALLER_TREE_H
#define LF_CALLER_TREE_H

#include "../model/snapshot.h"

#define LF_CALLER_NONE 0xffffffffu

typedef struct lf_caller_node {
    uint32_t frame;          /* frame space (node 0, the whole: none) */
    uint32_t depth;          /* 0: the root; 1: an allocating frame; 2: its callers... */
    uint32_t first_child, next_sibling; /* LF_CALLER_NONE: none */
    uint64_t count, shallow;
    double est_bytes;        /* sampled dumps: samples / rate words; else shallow */
} lf_caller_node;

typedef struct lf_caller_tree {
    lf_caller_node *node;    /* node 0: every object with a site */
    uint32_t count;
} lf_caller_tree;

/* depth: frames below the root (at least 1). Needs s->object_site. */
int lf_caller_tree_make(const lf_snapshot *s, uint32_t depth, lf_caller_tree *t, lf_error *err);
void lf_caller_tree_free(lf_caller_tree *t);

#endif
