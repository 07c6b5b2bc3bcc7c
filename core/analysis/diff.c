/* diff.c - per-class deltas between two snapshots. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "../base/vec.h"
#include "../base/bigmem.h"

static const lf_snapshot *sorting;

static int by_id(const void *a, const void *b)
{
    uint64_t x = lf_snapshot_object_id(sorting, *(const uint32_t *)a);
    uint64_t y = lf_snapshot_object_id(sorting, *(const uint32_t *)b);
    return x < y ? -1 : x > y;
}

/* Live nodes sorted by object id; returns the count, or -1 (memory). */
static int64_t live_by_id(const lf_snapshot *s, uint32_t **out)
{
    uint32_t *v = malloc(((size_t)s->object_count + 1) * sizeof *v);
    if (!v)
        return -1;
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->object_count; i++)
        if (s->idom[i] != LF_NODE_NONE && lf_snapshot_counted(s, i))
            v[n++] = i;
    sorting = s;
    qsort(v, n, sizeof *v, by_id);
    *out = v;
    return n;
}

/* row_of: the side's group -> diff row (UINT32_MAX: none). */
static void count_one(lf_class_diff *d, const lf_snapshot *s, const uint32_t *group_of_node,
                      const uint32_t *row_of, uint32_t node, int created)
{
    uint32_t k = row_of[group_of_node[node]];
    if (k >= d->rows)
        return; /* every live object's group has a row */
    if (created) {
        d->row[k].created++;
        d->row[k].created_bytes += lf_snapshot_shallow(s, node);
    } else {
        d->row[k].deleted++;
        d->row[k].freed_bytes += lf_snapshot_shallow(s, node);
    }
}

/* New and deleted objects per class: a merge of both snapshots' live ids. */
static int match_ids(const lf_snapshot *before, const lf_snapshot *after,
                     const lf_grouping *const g[2], uint32_t *const row_of[2], lf_class_diff *d,
                     lf_error *err)
{
    uint32_t *a = NULL, *b = NULL;
    int64_t na = live_by_id(before, &a), nb = na < 0 ? -1 : live_by_id(after, &b);
    if (na < 0 || nb < 0) {
        free(a);
        free(b);
        return lf_fail_nomem(err, "matching objects by id");
    }
    int64_t i = 0, j = 0;
    while (i < na || j < nb) {
        uint64_t x = i < na ? lf_snapshot_object_id(before, a[i]) : UINT64_MAX;
        uint64_t y = j < nb ? lf_snapshot_object_id(after, b[j]) : UINT64_MAX;
        if (i < na && (j == nb || x < y))
            count_one(d, before, g[0]->of_node, row_of[0], a[i++], 0);
        else if (j < nb && (i == na || y < x))
            count_one(d, after, g[1]->of_node, row_of[1], b[j++], 1);
        else
            i++, j++;
    }
    free(a);
    free(b);
    d->by_id = 1;
    return 0;
}

/* Adds one side's live totals per group to the rows named like the group;
 * row_of[group] gets the row (UINT32_MAX: no live object). */
static int add_side(lf_class_diff *d, size_t *cap, const lf_snapshot *s, const lf_grouping *g,
                    int side, uint32_t *row_of, lf_error *err)
{
    lf_class_totals t;
    if (lf_group_totals_compute(s, g->of_node, g->count, &t, err))
        return -1;
    if (lf_grouping_rows_by_name(g, s, &t, &d->names, row_of)) {
        lf_class_totals_free(&t);
        return lf_fail_nomem(err, "comparing snapshots");
    }
    for (uint32_t c = 0; c < g->count; c++) {
        uint32_t k = row_of[c];
        if (k == UINT32_MAX)
            continue;
        if (lf_vec_reserve((void **)&d->row, cap, (size_t)k + 1, sizeof *d->row)) {
            lf_class_totals_free(&t);
            return lf_fail_nomem(err, "comparing snapshots");
        }
        while (d->rows <= k) { /* names are numbered in order: one new row */
            memset(&d->row[d->rows], 0, sizeof d->row[0]);
            d->row[d->rows].name = d->rows;
            d->rows++;
        }
        lf_class_delta *r = &d->row[k];
        /* same-named groups add up, live objects only */
        r->count[side] += t.count[c] - t.unreachable_count[c];
        r->shallow[side] += t.shallow[c] - t.unreachable_shallow[c];
        r->retained[side] += t.retained[c];
    }
    lf_class_totals_free(&t);
    return 0;
}

int lf_diff_groups(const lf_snapshot *before, const lf_grouping *group_before,
                   const lf_snapshot *after, const lf_grouping *group_after, lf_class_diff *d,
                   lf_error *err)
{
    memset(d, 0, sizeof *d);
    if (lf_strtab_init(&d->names))
        return lf_fail_nomem(err, "comparing snapshots");
    size_t cap = 0;
    const lf_snapshot *snap[2] = {before, after};
    const lf_grouping *const g[2] = {group_before, group_after};
    uint32_t *const row_of[2] = {malloc(((size_t)g[0]->count + 1) * sizeof(uint32_t)),
                                 malloc(((size_t)g[1]->count + 1) * sizeof(uint32_t))};
    int rc = row_of[0] && row_of[1] ? 0 : lf_fail_nomem(err, "comparing snapshots");
    for (int side = 0; side < 2 && !rc; side++)
        rc = add_side(d, &cap, snap[side], g[side], side, row_of[side], err);
    for (uint32_t i = 0; i < d->rows && !rc; i++)
        d->shared_classes += d->row[i].count[0] && d->row[i].count[1];
    if (!rc && (before->flags & LF_SNAP_IDS_STABLE) && (after->flags & LF_SNAP_IDS_STABLE))
        rc = match_ids(before, after, g, row_of, d, err);
    free(row_of[0]);
    free(row_of[1]);
    if (rc)
        lf_class_diff_free(d);
    return rc;
}

int lf_diff_classes(const lf_snapshot *before, const lf_snapshot *after, lf_class_diff *d,
                    lf_error *err)
{
    lf_grouping g[2];
    lf_grouping_by_class(before, &g[0]);
    lf_grouping_by_class(after, &g[1]);
    return lf_diff_groups(before, &g[0], after, &g[1], d, err);
}

void lf_class_diff_free(lf_class_diff *d)
{
    lf_strtab_free(&d->names);
    lf_big_free(d->row);
    memset(d, 0, sizeof *d);
}
