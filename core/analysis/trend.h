/* trend.h - per-class growth over a series of snapshots: least-squares slope
 * of the live instance count against the workload, its fit, monotonicity. */
#ifndef LF_TREND_H
#define LF_TREND_H

#include "../model/snapshot.h"
#include "grouping.h"
#include "../model/strtab.h"
#include "trend_holders.h"

typedef struct lf_trend {
    lf_strtab names;          /* class names */
    uint32_t series;          /* snapshots added */
    uint32_t classes;         /* rows: one per name (string index) */
    uint64_t *count;          /* [class * capacity + snapshot] live instances */
    uint32_t capacity;        /* snapshots the table has room for */
    lf_trend_holders holders; /* the same counts by (class, holder) */
} lf_trend;

int lf_trend_init(lf_trend *t, uint32_t snapshots, lf_error *err);
/* Threads each snapshot's holder table may use (default one). */
void lf_trend_use_threads(lf_trend *t, unsigned threads);
/* Adds the next snapshot's live instance counts per class (it must be analysed). */
int lf_trend_add(lf_trend *t, const lf_snapshot *s, lf_error *err);
/* The same by any grouping (rows are groups matched by name). */
int lf_trend_add_grouped(lf_trend *t, const lf_snapshot *s, const lf_grouping *g, lf_error *err);
void lf_trend_free(lf_trend *t);

typedef struct lf_trend_fit {
    double slope;             /* instances per unit of workload */
    double r2;                /* 1 when the counts lie on a line; 1 for a flat line too */
    int monotonic;            /* never decreased */
} lf_trend_fit;

lf_trend_fit lf_trend_fit_class(const lf_trend *t, uint32_t cls, const double *workload);
lf_trend_fit lf_trend_fit_counts(const uint64_t *y, uint32_t n, const double *workload);

/* What growth is flagged: monotonic, r2 >= min_r2, slope > min_slope and at
 * least min_growth more in the last snapshot than in the first. */
typedef struct lf_trend_rule {
    uint64_t min_growth;
    double min_r2, min_slope;
    double min_share;         /* of the class's gain the growing holders must carry */
    /* Growth findings only (suspects.h): below this share of the largest
     * finding's bytes per unit, a finding is minor; 0: none is */
    double minor_share;
} lf_trend_rule;

int lf_trend_grows(const uint64_t *y, uint32_t n, const lf_trend_fit *fit, const lf_trend_rule *rule);

/* What a class's counts say, for people (trend's `verdict` column). */
typedef enum lf_trend_verdict {
    LF_TREND_GROWS,        /* flagged: grows by the rule, under one holder */
    LF_TREND_UNEVEN,       /* the same but for r2: below min_r2, for the class
                            * or its holder ("grows, uneven"); not flagged */
    LF_TREND_WARMUP,       /* grows, but no single holder carries the growth */
    LF_TREND_SMALL,        /* never decreased, gained too little to flag */
    LF_TREND_FLUCTUATES,   /* went up and down */
    LF_TREND_SHRINKS,      /* never increased */
} lf_trend_verdict;

const char *lf_trend_verdict_name(lf_trend_verdict v);

/* The verdict on class cls and the holder that explains it (row in
 * t->holders, or -1): the steepest holder that grows by the rule, else by the
 * rule without its r2 test (LF_TREND_UNEVEN), else the one that gained most. */
lf_trend_verdict lf_trend_judge(const lf_trend *t, uint32_t cls, const double *workload,
                                const lf_trend_rule *rule, lf_trend_fit *fit, int64_t *holder);

/* The holder that explains cls's growth: one whose counts grow by the rule
 * and whose gain (first to last) is at least min_share of the class's
 * (*grows = 1), the steepest such; else the one that gained the most
 * (*grows = 0). Its row in t->holders, or -1 when none gained anything. */
int64_t lf_trend_holder_of(const lf_trend *t, uint32_t cls, const double *workload,
                           const lf_trend_rule *rule, int *grows);

/* How many of cls's holders grow by the rule, as the holder of verdict
 * was chosen (without its r2 test for LF_TREND_UNEVEN): a class's slope may
 * be the sum of several holders', where trend's row names one. */
uint32_t lf_trend_growing_holders(const lf_trend *t, uint32_t cls, const double *workload,
                                  const lf_trend_rule *rule, lf_trend_verdict verdict);

#endif
