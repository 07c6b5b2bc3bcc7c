/* topcursor.c - see topcursor.h. */
#include "topcursor.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"

/* The tree's order (graph/domtree.c sorts each child list by it). */
static int before(const lf_snapshot *s, uint32_t a, uint32_t b)
{
    uint64_t ra = lf_snapshot_retained(s, a), rb = lf_snapshot_retained(s, b);
    return ra > rb || (ra == rb && a < b);
}

static uint32_t head(const lf_top_cursor *c, size_t i)
{
    return c->s->domtree_child[c->list[i].pos];
}

/* Moves list l past the synthetic nodes at its head. */
static void skip_synthetic(const lf_top_cursor *c, lf_top_list *l)
{
    while (c->collapse && l->pos < l->end && lf_is_synthetic(c->s, c->s->domtree_child[l->pos]))
        l->pos++;
}

static void sift_down(lf_top_cursor *c, size_t i)
{
    for (;;) {
        size_t m = i, a = 2 * i + 1, b = a + 1;
        if (a < c->count && before(c->s, head(c, a), head(c, m)))
            m = a;
        if (b < c->count && before(c->s, head(c, b), head(c, m)))
            m = b;
        if (m == i)
            return;
        lf_top_list t = c->list[i];
        c->list[i] = c->list[m];
        c->list[m] = t;
        i = m;
    }
}

static int add_list(lf_top_cursor *c, size_t *cap, uint32_t slot, uint32_t via)
{
    if (lf_vec_reserve((void **)&c->list, cap, c->total + 1, sizeof *c->list))
        return -1;
    const uint32_t *off = c->s->domtree_offset;
    c->list[c->total++] = (lf_top_list){off[slot], off[slot], off[slot + 1], via};
    return 0;
}

/* One list for the super-root, one per synthetic node reached from it
 * through synthetic nodes only (lists are the stack of those to scan). */
int lf_top_cursor_open(lf_top_cursor *c, const lf_snapshot *s, int collapse)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->collapse = collapse;
    size_t cap = 0;
    if (add_list(c, &cap, s->object_count, LF_NODE_NONE))
        return -1;
    for (size_t scan = 0; collapse && scan < c->total; scan++) {
        uint32_t from = c->list[scan].start, end = c->list[scan].end;
        for (uint32_t i = from; i < end; i++) {
            uint32_t child = s->domtree_child[i];
            if (lf_is_synthetic(s, child) && add_list(c, &cap, child, child)) {
                lf_top_cursor_close(c);
                return -1;
            }
        }
    }
    lf_top_cursor_rewind(c);
    return 0;
}

void lf_top_cursor_rewind(lf_top_cursor *c)
{
    size_t kept = 0;
    for (size_t i = 0; i < c->total; i++) {
        c->list[i].pos = c->list[i].start;
        skip_synthetic(c, &c->list[i]);
    }
    /* the empty lists go behind the heap, kept for the next rewind */
    for (size_t i = 0; i < c->total; i++)
        if (c->list[i].pos < c->list[i].end) {
            lf_top_list t = c->list[kept];
            c->list[kept++] = c->list[i];
            c->list[i] = t;
        }
    c->count = kept;
    for (size_t i = kept / 2; i-- > 0;)
        sift_down(c, i);
}

int lf_top_cursor_next(lf_top_cursor *c, lf_top_entry *e)
{
    if (c->count == 0)
        return 0;
    lf_top_list *l = &c->list[0];
    *e = (lf_top_entry){c->s->domtree_child[l->pos], l->via};
    l->pos++;
    skip_synthetic(c, l);
    if (l->pos == l->end) { /* exhausted: swapped behind the heap */
        lf_top_list t = c->list[0];
        c->list[0] = c->list[--c->count];
        c->list[c->count] = t;
    }
    sift_down(c, 0);
    return 1;
}

void lf_top_cursor_close(lf_top_cursor *c)
{
    lf_big_free(c->list);
    memset(c, 0, sizeof *c);
}
