/* trend.c - per-class counts over a series and their least-squares fit. */
#include "trend.h"

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "finalizer_queue.h"
#include "../base/vec.h"

int lf_trend_init(lf_trend *t, uint32_t snapshots, lf_error *err)
{
    memset(t, 0, sizeof *t);
    t->capacity = snapshots;
    if (lf_strtab_init(&t->names))
        return lf_fail_nomem(err, "trend");
    return lf_trend_holders_init(&t->holders, snapshots, err);
}

void lf_trend_use_threads(lf_trend *t, unsigned threads)
{
    t->holders.threads = threads;
}

void lf_trend_free(lf_trend *t)
{
    lf_strtab_free(&t->names);
    free(t->count);
    lf_trend_holders_free(&t->holders);
    memset(t, 0, sizeof *t);
}

int lf_trend_add(lf_trend *t, const lf_snapshot *s, lf_error *err)
{
    lf_grouping g;
    lf_grouping_by_class(s, &g);
    return lf_trend_add_grouped(t, s, &g, err);
}

int lf_trend_add_grouped(lf_trend *t, const lf_snapshot *s, const lf_grouping *g, lf_error *err)
{
    lf_class_totals totals;
    if (t->series >= t->capacity)
        return lf_fail(err, LF_ERR_SYSTEM, "trend: more snapshots than announced");
    uint64_t *finalizer_only;
    if (lf_group_counts_compute(s, g->of_node, g->count, &totals, err)) /* no retained: counts */
        return -1;
    if (lf_finalizer_only(s, &finalizer_only, err)) {
        lf_class_totals_free(&totals);
        return -1;
    }
    /* .NET's finalizer queue holds garbage: never growth (finalizer_queue.h) */
    for (uint32_t v = 0; finalizer_only && v < s->object_count; v++)
        if (lf_bit_is_set(finalizer_only, v))
            totals.count[g->of_node[v]]--;
    /* the snapshot's groups by trend row, for the holders' counts */
    uint32_t *class_row = malloc(((size_t)g->count + 1) * sizeof *class_row);
    if (!class_row)
        goto nomem;
    if (lf_grouping_rows_by_name(g, s, &totals, &t->names, class_row))
        goto nomem;
    for (uint32_t c = 0; c < g->count; c++) {
        uint32_t k = class_row[c];
        if (k == UINT32_MAX)
            continue;
        if (k >= t->classes) { /* names are numbered in order: grow by rows */
            uint64_t *more = realloc(t->count, ((size_t)k + 1) * t->capacity * sizeof *more);
            if (!more)
                goto nomem;
            t->count = more;
            memset(t->count + (size_t)t->classes * t->capacity, 0,
                   ((size_t)k + 1 - t->classes) * t->capacity * sizeof *t->count);
            t->classes = (uint32_t)k + 1;
        }
        t->count[(size_t)k * t->capacity + t->series] += totals.count[c] - totals.unreachable_count[c];
    }
    lf_class_totals_free(&totals);
    int rc = lf_trend_holders_add(&t->holders, s, t->series, g->of_node, class_row, finalizer_only, err);
    free(class_row);
    free(finalizer_only);
    if (rc)
        return rc;
    t->series++;
    return 0;
nomem:
    free(class_row);
    free(finalizer_only);
    lf_class_totals_free(&totals);
    return lf_fail_nomem(err, "trend");
}

lf_trend_fit lf_trend_fit_class(const lf_trend *t, uint32_t cls, const double *workload)
{
    return lf_trend_fit_counts(t->count + (size_t)cls * t->capacity, t->series, workload);
}

lf_trend_fit lf_trend_fit_counts(const uint64_t *y, uint32_t n, const double *workload)
{
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

int lf_trend_grows(const uint64_t *y, uint32_t n, const lf_trend_fit *fit, const lf_trend_rule *rule)
{
    return fit->monotonic && fit->r2 >= rule->min_r2 && fit->slope > rule->min_slope &&
           y[n - 1] >= y[0] + rule->min_growth;
}

/* Whether row r, of count slope `slope`, is steeper than row `other` of
 * `other_slope`: two holders whose counts grow alike (the same numbers)
 * are told apart by their bytes, the one that piles up more memory first
 * (a map's key strings against a cache of short ones); then the first by
 * key stays. */
static int steeper(const lf_trend_holders *h, uint32_t n, const double *workload, double slope, size_t r,
                   double other_slope, size_t other)
{
    if (slope != other_slope)
        return slope > other_slope;
    lf_trend_fit mine = lf_trend_fit_counts(h->bytes + r * h->capacity, n, workload);
    lf_trend_fit theirs = lf_trend_fit_counts(h->bytes + other * h->capacity, n, workload);
    return mine.slope > theirs.slope;
}

int64_t lf_trend_holder_of(const lf_trend *t, uint32_t cls, const double *workload,
                           const lf_trend_rule *rule, int *grows)
{
    const lf_trend_holders *h = &t->holders;
    const uint32_t n = t->series;
    const uint64_t *total = t->count + (size_t)cls * t->capacity;
    /* the class's own gain, first to last, which one holder must carry a share of */
    double class_gain = n ? (double)total[n - 1] - (double)total[0] : 0;
    int64_t best = -1, steepest = -1;
    double best_slope = 0, steepest_slope = 0, growing_gain = 0;
    int64_t best_gain = 0;
    *grows = 0;
    if (cls >= h->classes || n == 0)
        return -1;
    PWord_t slot;
    Word_t holder = 0;
    JLF(slot, h->by_class[cls], holder);
    while (slot) {
        size_t r = *slot - 1;
        const uint64_t *y = h->count + r * h->capacity;
        lf_trend_fit fit = lf_trend_fit_counts(y, n, workload);
        int64_t gain = (int64_t)y[n - 1] - (int64_t)y[0];
        int line = lf_trend_grows(y, n, &fit, rule);
        int g = line && (double)gain >= rule->min_share * class_gain;
        if (line) {
            growing_gain += (double)gain;
            if (steepest < 0 || steeper(h, n, workload, fit.slope, r, steepest_slope, (size_t)steepest)) {
                steepest = (int64_t)r;
                steepest_slope = fit.slope;
            }
        }
        /* growing beats not; then the steeper (growing) or the larger gain */
        int better = g != *grows ? g > *grows
                   : g ? best < 0 || steeper(h, n, workload, fit.slope, r, best_slope, (size_t)best)
                       : gain > best_gain;
        if (better) {
            best = (int64_t)r;
            best_slope = fit.slope;
            best_gain = gain;
            *grows = g;
        }
        JLN(slot, h->by_class[cls], holder);
    }
    /* a class that leaks under a few holders at once (the byte[] of a map's
     * values and of a list's buffers), each growing in a line, grows: what
     * is left to warm-up is growth no holder carries steadily */
    if (!*grows && steepest >= 0 && class_gain > 0 && growing_gain >= rule->min_share * class_gain) {
        *grows = 1;
        return steepest;
    }
    return best;
}

uint32_t lf_trend_growing_holders(const lf_trend *t, uint32_t cls, const double *workload,
                                  const lf_trend_rule *rule, lf_trend_verdict verdict)
{
    const lf_trend_holders *h = &t->holders;
    lf_trend_rule holder_rule = *rule;
    if (verdict == LF_TREND_UNEVEN)
        holder_rule.min_r2 = 0;
    uint32_t growing = 0;
    if (cls >= h->classes || t->series == 0)
        return 0;
    PWord_t slot;
    Word_t holder = 0;
    JLF(slot, h->by_class[cls], holder);
    while (slot) {
        const uint64_t *y = h->count + (*slot - 1) * h->capacity;
        lf_trend_fit fit = lf_trend_fit_counts(y, t->series, workload);
        growing += (uint32_t)lf_trend_grows(y, t->series, &fit, &holder_rule);
        JLN(slot, h->by_class[cls], holder);
    }
    return growing;
}

const char *lf_trend_verdict_name(lf_trend_verdict v)
{
    static const char *const names[] = {"grows", "grows, uneven", "warm-up", "small", "fluctuates",
                                        "shrinks"};
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "?";
}

static int never_increased(const uint64_t *y, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (y[i] > y[i - 1])
            return 0;
    return 1;
}

lf_trend_verdict lf_trend_judge(const lf_trend *t, uint32_t cls, const double *workload,
                                const lf_trend_rule *rule, lf_trend_fit *fit, int64_t *holder)
{
    const uint64_t *y = t->count + (size_t)cls * t->capacity;
    const uint32_t n = t->series;
    int holder_grows;
    *fit = lf_trend_fit_class(t, cls, workload);
    *holder = lf_trend_holder_of(t, cls, workload, rule, &holder_grows);
    if (lf_trend_grows(y, n, fit, rule) && holder_grows)
        return LF_TREND_GROWS;
    /* r2 only says how straight the growth is: a class that never shrank
     * and grew 8-fold in bursts must not read like one that stayed put */
    lf_trend_rule any_fit = *rule;
    any_fit.min_r2 = 0;
    if (lf_trend_grows(y, n, fit, &any_fit)) {
        int64_t uneven_holder = lf_trend_holder_of(t, cls, workload, &any_fit, &holder_grows);
        if (holder_grows) {
            *holder = uneven_holder;
            return LF_TREND_UNEVEN;
        }
        return LF_TREND_WARMUP;
    }
    if (fit->monotonic)
        return LF_TREND_SMALL;
    return never_increased(y, n) ? LF_TREND_SHRINKS : LF_TREND_FLUCTUATES;
}
