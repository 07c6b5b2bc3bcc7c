/* trend.c - per-class counts over a series and their least-squares fit. */
#include "trend.h"

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "vec.h"

int lf_trend_init(lf_trend *t, uint32_t snapshots, lf_error *err)
{
    memset(t, 0, sizeof *t);
    t->capacity = snapshots;
    if (lf_strtab_init(&t->names))
        return lf_fail_nomem(err, "trend");
    return 0;
}

void lf_trend_free(lf_trend *t)
{
    lf_strtab_free(&t->names);
    free(t->count);
    memset(t, 0, sizeof *t);
}

int lf_trend_add(lf_trend *t, const lf_snapshot *s, lf_error *err)
{
    lf_class_totals totals;
    if (t->series >= t->capacity)
        return lf_fail(err, LF_ERR_SYSTEM, "trend: more snapshots than announced");
    if (lf_class_totals_compute(s, &totals, err))
        return -1;
    for (uint32_t c = 0; c < s->class_count; c++) {
        uint64_t live = totals.count[c] - totals.unreachable_count[c];
        if (live == 0)
            continue;
        lf_str name = lf_snapshot_class_name(s, c);
        int64_t k = lf_strtab_intern(&t->names, name.ptr, name.len);
        if (k < 0)
            goto nomem;
        if ((uint32_t)k >= t->classes) { /* names are numbered in order: grow by rows */
            uint64_t *more = realloc(t->count, ((size_t)k + 1) * t->capacity * sizeof *more);
            if (!more)
                goto nomem;
            t->count = more;
            memset(t->count + (size_t)t->classes * t->capacity, 0,
                   ((size_t)k + 1 - t->classes) * t->capacity * sizeof *t->count);
            t->classes = (uint32_t)k + 1;
        }
        t->count[(size_t)k * t->capacity + t->series] += live;
    }
    lf_class_totals_free(&totals);
    t->series++;
    return 0;
nomem:
    lf_class_totals_free(&totals);
    return lf_fail_nomem(err, "trend");
}

lf_trend_fit lf_trend_fit_class(const lf_trend *t, uint32_t cls, const double *workload)
{
    const uint64_t *y = t->count + (size_t)cls * t->capacity;
    const uint32_t n = t->series;
    double mx = 0, my = 0;
    for (uint32_t i = 0; i < n; i++) {
        mx += workload[i];
        my += (double)y[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0, sxy = 0, syy = 0;
    for (uint32_t i = 0; i < n; i++) {
        double dx = workload[i] - mx, dy = (double)y[i] - my;
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    lf_trend_fit f;
    f.slope = sxx > 0 ? sxy / sxx : 0;
    f.r2 = syy > 0 && sxx > 0 ? (sxy * sxy) / (sxx * syy) : 1;
    f.monotonic = 1;
    for (uint32_t i = 1; i < n; i++)
        if (y[i] < y[i - 1])
            f.monotonic = 0;
    return f;
}
