/* finalizer_queue.c - .NET objects that only the finalizer queue keeps (see finalizer_queue.h). */
#include "finalizer_queue.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"

static int is_finalizer_root(const lf_snapshot *s, uint32_t r)
{
    lf_str k = lf_snapshot_string(s, s->root[r].kind);
    return k.len == 9 && memcmp(k.ptr, "finalizer", 9) == 0;
}

/* Marks in `live` what the roots that are no finalizer root reach. */
static int walk_other_roots(const lf_snapshot *s, uint64_t *live)
{
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    for (uint32_t r = 0; r < s->root_count; r++) {
        uint32_t v = s->root[r].node;
        if (is_finalizer_root(s, r) || v >= s->object_count || lf_bit_is_set(live, v))
            continue;
        if (lf_vec_reserve((void **)&stack, &cap, depth + 1, sizeof *stack))
            goto nomem;
        live[v >> 6] |= 1ull << (v & 63);
        stack[depth++] = v;
        while (depth > 0) {
            uint32_t u = stack[--depth];
            for (uint64_t e = lf_snapshot_edges_begin(s, u); e < lf_snapshot_edges_end(s, u); e++) {
                uint32_t t = s->edge_target[e], w = lf_edge_node(t);
                if (lf_edge_is_weak(t) || w >= s->object_count || lf_bit_is_set(live, w))
                    continue;
                if (lf_vec_reserve((void **)&stack, &cap, depth + 1, sizeof *stack))
                    goto nomem;
                live[w >> 6] |= 1ull << (w & 63);
                stack[depth++] = w;
            }
        }
    }
    lf_big_free(stack);
    return 0;
nomem:
    lf_big_free(stack);
    return -1;
}

int lf_finalizer_only(const lf_snapshot *s, uint64_t **only, lf_error *err)
{
    *only = NULL;
    uint32_t r = 0;
    while (r < s->root_count && !is_finalizer_root(s, r))
        r++;
    if (r == s->root_count)
        return 0;
    size_t words = ((size_t)s->object_count + 63) / 64 + 1;
    uint64_t *live = calloc(words, sizeof *live);
    if (!live || walk_other_roots(s, live)) {
        free(live);
        return lf_fail_nomem(err, "finalizer queue");
    }
    /* what is reachable (it has a dominator) but not from the other roots */
    for (uint32_t v = 0; v < s->object_count; v++) {
        int reachable = s->idom && s->idom[v] != LF_NODE_NONE;
        if (reachable && !lf_bit_is_set(live, v))
            live[v >> 6] |= 1ull << (v & 63);
        else
            live[v >> 6] &= ~(1ull << (v & 63));
    }
    *only = live;
    return 0;
}
