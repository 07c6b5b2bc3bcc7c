/* label_scratch.c - see label_scratch.h. */
#include "label_scratch.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"

int lf_labels_from_start(const lf_snapshot *s)
{
    return !(s->edge_kind && s->edge_label) && !s->lazy->edge_range;
}

int lf_label_scratch_decode(lf_label_scratch *x, const lf_snapshot *s, uint32_t node,
                            uint64_t count)
{
    if (count > x->cap) {
        uint8_t *k = lf_big_realloc(x->kind, count);
        if (k)
            x->kind = k;
        uint32_t *l = lf_big_realloc(x->label, count * sizeof *l);
        if (l)
            x->label = l;
        if (!k || !l)
            return -1;
        x->cap = count;
    }
    s->lazy->node_edges(s->lazy->ctx, s, node, lf_snapshot_edges_begin(s, node) + count, x->kind, x->label);
    return 0;
}

void lf_label_scratch_free(lf_label_scratch *x)
{
    lf_big_free(x->kind);
    lf_big_free(x->label);
    memset(x, 0, sizeof *x);
}
