/* caller_tree.c - the inverted icicle: allocating frames, then their callers. */
#include "caller_tree.h"

#include <stdlib.h>

#include "../base/vec.h"
#include "../memtrace/mt_index.h"
#include "../base/bigmem.h"

void lf_caller_tree_free(lf_caller_tree *t)
{
    lf_big_free(t->node);
    *t = (lf_caller_tree){0};
}

/* The child of `parent` for `frame`, made when new; LF_CALLER_NONE when out of memory. */
static uint32_t child_of(lf_caller_tree *t, size_t *cap, lf_mt_index *children, uint32_t parent,
                         uint32_t frame)
{
    uint64_t key = (uint64_t)parent << 32 | frame;
    uint32_t c = lf_mt_index_get(children, key);
    if (c != LF_MT_INDEX_NONE)
        return c;
    if (t->count == LF_CALLER_NONE - 1 ||
        lf_vec_reserve((void **)&t->node, cap, (size_t)t->count + 1, sizeof *t->node) ||
        lf_mt_index_put(children, key, t->count))
        return LF_CALLER_NONE;
    c = t->count++;
    lf_caller_node *p = &t->node[parent];
    t->node[c] = (lf_caller_node){frame, p->depth + 1, LF_CALLER_NONE, p->first_child, 0, 0, 0};
    p->first_child = c;
    return c;
}

int lf_caller_tree_make(const lf_snapshot *s, uint32_t depth, lf_caller_tree *t, lf_error *err)
{
    *t = (lf_caller_tree){0};
    size_t cap = 0;
    lf_mt_index children = {0};
    if (lf_vec_reserve((void **)&t->node, &cap, 1, sizeof *t->node))
        return lf_fail_nomem(err, "building the callers' tree");
    t->node[0] = (lf_caller_node){0, 0, LF_CALLER_NONE, LF_CALLER_NONE, 0, 0, 0};
    t->count = 1;
    const double rate = s->object_samples ? s->sample_rate : 0;
    for (uint32_t v = 0; v < s->object_count; v++) {
        uint32_t site = s->object_site[v];
        if (site == LF_SITE_NONE)
            continue;
        uint64_t shallow = lf_snapshot_shallow(s, v);
        double est = rate > 0 ? (double)s->object_samples[v] / rate * 8.0 : (double)shallow;
        uint32_t at = 0;
        for (uint32_t k = 0;; k++) {
            t->node[at].count++;
            t->node[at].shallow += shallow;
            t->node[at].est_bytes += est;
            if (k == depth || site == LF_SITE_NONE)
                break;
            at = child_of(t, &cap, &children, at, s->site[site].frame);
            if (at == LF_CALLER_NONE) {
                lf_mt_index_free(&children);
                lf_caller_tree_free(t);
                return lf_fail_nomem(err, "building the callers' tree");
            }
            site = s->site[site].caller;
        }
    }
    lf_mt_index_free(&children);
    return 0;
}
