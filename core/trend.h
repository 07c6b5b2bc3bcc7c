/* trend.h - per-class growth over a series of snapshots: least-squares slope
 * of the live instance count against the workload, its fit, monotonicity. */
#ifndef LF_TREND_H
#define LF_TREND_H

#include "snapshot.h"
#include "strtab.h"

typedef struct lf_trend {
    lf_strtab names;          /* class names */
    uint32_t series;          /* snapshots added */
    uint32_t classes;         /* rows: one per name (string index) */
    uint64_t *count;          /* [class * capacity + snapshot] live instances */
    uint32_t capacity;        /* snapshots the table has room for */
} lf_trend;

int lf_trend_init(lf_trend *t, uint32_t snapshots, lf_error *err);
/* Adds the next snapshot's live instance counts per class (it must be analysed). */
int lf_trend_add(lf_trend *t, const lf_snapshot *s, lf_error *err);
void lf_trend_free(lf_trend *t);

typedef struct lf_trend_fit {
    double slope;             /* instances per unit of workload */
    double r2;                /* 1 when the counts lie on a line; 1 for a flat line too */
    int monotonic;            /* never decreased */
} lf_trend_fit;

lf_trend_fit lf_trend_fit_class(const lf_trend *t, uint32_t cls, const double *workload);

#endif
