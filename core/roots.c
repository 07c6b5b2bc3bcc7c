/* roots.c - per-root and per-kind retained sizes. A root's object is always a
 * child of the super-root in the dominator tree, so its retained size is what
 * that root alone keeps alive. */
#include "roots.h"

#include <stdlib.h>
#include <string.h>

static const lf_snapshot *sorting;

static int by_kind_then_node(const void *a, const void *b)
{
    const lf_root *x = &sorting->root[*(const uint32_t *)a], *y = &sorting->root[*(const uint32_t *)b];
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

static int by_retained(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint64_t x = sorting->retained[sorting->root[i].node], y = sorting->retained[sorting->root[j].node];
    if (x != y)
        return x > y ? -1 : 1;
    return i < j ? -1 : i > j;
}

static int str_cmp(lf_str a, lf_str b)
{
    int c = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int by_total(const void *a, const void *b)
{
    const lf_root_kind_total *x = a, *y = b;
    if (x->retained != y->retained)
        return x->retained > y->retained ? -1 : 1;
    return str_cmp(lf_snapshot_string(sorting, x->kind), lf_snapshot_string(sorting, y->kind));
}

int lf_roots_by_retained(const lf_snapshot *s, uint32_t **order, lf_error *err)
{
    uint32_t *o = malloc(((size_t)s->root_count + 1) * sizeof *o);
    if (!o)
        return lf_fail_nomem(err, "sorting roots");
    for (uint32_t r = 0; r < s->root_count; r++)
        o[r] = r;
    sorting = s;
    qsort(o, s->root_count, sizeof *o, by_retained);
    *order = o;
    return 0;
}

int64_t lf_root_kind_totals(const lf_snapshot *s, lf_root_kind_total **totals, lf_error *err)
{
    uint32_t *o = malloc(((size_t)s->root_count + 1) * sizeof *o);
    lf_root_kind_total *t = malloc(((size_t)s->root_count + 1) * sizeof *t);
    if (!o || !t) {
        free(o);
        free(t);
        return lf_fail_nomem(err, "root totals");
    }
    for (uint32_t r = 0; r < s->root_count; r++)
        o[r] = r;
    sorting = s;
    qsort(o, s->root_count, sizeof *o, by_kind_then_node);
    int64_t kinds = 0;
    for (uint32_t i = 0; i < s->root_count; i++) {
        const lf_root *r = &s->root[o[i]];
        if (i == 0 || r->kind != s->root[o[i - 1]].kind)
            t[kinds++] = (lf_root_kind_total){r->kind, 0, 0, 0};
        lf_root_kind_total *k = &t[kinds - 1];
        k->roots++;
        if (i == 0 || r->kind != s->root[o[i - 1]].kind || r->node != s->root[o[i - 1]].node) {
            k->objects++; /* an object named twice by one kind counts once */
            k->retained += s->retained[r->node];
        }
    }
    free(o);
    qsort(t, (size_t)kinds, sizeof *t, by_total);
    *totals = t;
    return kinds;
}
