/* diff.c - per-class deltas between two snapshots. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "vec.h"

int lf_diff_classes(const lf_snapshot *before, const lf_snapshot *after, lf_class_diff *d,
                    lf_error *err)
{
    memset(d, 0, sizeof *d);
    if (lf_strtab_init(&d->names))
        return lf_fail_nomem(err, "comparing snapshots");
    size_t cap = 0;
    const lf_snapshot *snap[2] = {before, after};
    for (int side = 0; side < 2; side++) {
        lf_class_totals t;
        if (lf_class_totals_compute(snap[side], &t, err)) {
            lf_class_diff_free(d);
            return -1;
        }
        for (uint32_t c = 0; c < snap[side]->class_count; c++) {
            /* live objects only: garbage waiting for a collection is not growth */
            uint64_t count = t.count[c] - t.unreachable_count[c];
            uint64_t shallow = t.shallow[c] - t.unreachable_shallow[c];
            if (count == 0)
                continue;
            lf_str name = lf_snapshot_class_name(snap[side], c);
            int64_t k = lf_strtab_intern(&d->names, name.ptr, name.len);
            if (k < 0 || lf_vec_reserve((void **)&d->row, &cap, (size_t)k + 1, sizeof *d->row)) {
                lf_class_totals_free(&t);
                lf_class_diff_free(d);
                return lf_fail_nomem(err, "comparing snapshots");
            }
            while (d->rows <= (uint32_t)k) { /* names are numbered in order: one new row */
                memset(&d->row[d->rows], 0, sizeof d->row[0]);
                d->row[d->rows].name = d->rows;
                d->rows++;
            }
            lf_class_delta *r = &d->row[k];
            /* same-named classes (several loaders) add up */
            r->count[side] += count;
            r->shallow[side] += shallow;
            r->retained[side] += t.retained[c];
        }
        lf_class_totals_free(&t);
    }
    for (uint32_t i = 0; i < d->rows; i++)
        d->shared_classes += d->row[i].count[0] && d->row[i].count[1];
    return 0;
}

void lf_class_diff_free(lf_class_diff *d)
{
    lf_strtab_free(&d->names);
    free(d->row);
    memset(d, 0, sizeof *d);
}
