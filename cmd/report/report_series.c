/* report_series.c - the page's series sections: the live bytes of the
 * largest classes in each snapshot (the memory evolution chart) and the
 * trend's verdict per class (the growth table, as `trend` shows it). */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/base/vec.h"
#include "report.h"
#include "../../core/base/bigmem.h"

/* Series on the chart: more lines than this cannot be told apart. */
#define CHART_CLASSES 8

int report_series_init(report_series *r, uint32_t count, const double *workload, lf_error *err)
{
    memset(r, 0, sizeof *r);
    r->count = count;
    r->workload = workload;
    if (lf_strtab_init(&r->names))
        return lf_fail_nomem(err, "class names");
    return lf_trend_init(&r->trend, count, err);
}

void report_series_free(report_series *r)
{
    lf_trend_free(&r->trend);
    lf_strtab_free(&r->names);
    lf_big_free(r->bytes);
    memset(r, 0, sizeof *r);
}

/* Adds c's live bytes under its name (same-named classes of two loaders add up). */
static int add_bytes(report_series *r, lf_str name, uint32_t i, uint64_t bytes)
{
    int64_t row = lf_strtab_intern(&r->names, name.ptr, name.len);
    if (row < 0)
        return -1;
    size_t need = ((size_t)row + 1) * r->count, had = r->bytes_cap;
    if (need > had) {
        if (lf_vec_reserve((void **)&r->bytes, &r->bytes_cap, need, sizeof *r->bytes))
            return -1;
        memset(r->bytes + had, 0, (r->bytes_cap - had) * sizeof *r->bytes);
    }
    r->bytes[(size_t)row * r->count + i] += bytes;
    return 0;
}

int report_series_add(report_series *r, const lf_snapshot *s, uint32_t i, lf_error *err)
{
    if (lf_trend_add(&r->trend, s, err))
        return -1;
    lf_class_totals t; /* live bytes: no retained sizes */
    if (lf_group_counts_compute(s, s->object_class, s->class_count, &t, err))
        return -1;
    int rc = 0;
    for (uint32_t c = 0; c < s->class_count && !rc; c++)
        if (t.count[c] > t.unreachable_count[c])
            rc = add_bytes(r, lf_snapshot_class_name(s, c), i, t.shallow[c] - t.unreachable_shallow[c]);
    lf_class_totals_free(&t);
    return rc ? lf_fail_nomem(err, "live bytes per class") : 0;
}

typedef struct growth_row {
    uint32_t cls;             /* trend row */
    lf_trend_fit fit;
    lf_trend_verdict verdict;
    int growing;
    int64_t gain, holder;
    uint32_t holders;         /* holders that grow by the rule (the row names one) */
} growth_row;

/* Growing rows first, then by gain, as `trend` orders them. */
static int by_growth(const void *a, const void *b)
{
    const growth_row *x = a, *y = b;
    if (x->growing != y->growing)
        return x->growing ? -1 : 1;
    if (x->gain != y->gain)
        return x->gain > y->gain ? -1 : 1;
    return x->cls < y->cls ? -1 : x->cls > y->cls;
}

/* The trend's rows whose counts changed, judged and sorted; NULL: memory. */
static growth_row *judge(const report_series *r, const lf_trend_rule *rule, uint32_t *count)
{
    const lf_trend *t = &r->trend;
    growth_row *rows = malloc(((size_t)t->classes + 1) * sizeof *rows);
    uint32_t n = 0;
    for (uint32_t c = 0; rows && c < t->classes; c++) {
        const uint64_t *y = t->count + (size_t)c * t->capacity;
        int changes = 0;
        for (uint32_t i = 1; i < r->count; i++)
            changes |= y[i] != y[0];
        if (!changes)
            continue;
        growth_row *g = &rows[n++];
        g->cls = c;
        g->verdict = lf_trend_judge(t, c, r->workload, rule, &g->fit, &g->holder);
        g->growing = g->verdict == LF_TREND_GROWS || g->verdict == LF_TREND_UNEVEN;
        g->gain = (int64_t)y[r->count - 1] - (int64_t)y[0];
        g->holders = lf_trend_growing_holders(t, c, r->workload, rule, g->verdict);
    }
    if (rows)
        qsort(rows, n, sizeof *rows, by_growth);
    *count = n;
    return rows;
}

static void write_counts(FILE *f, const uint64_t *v, uint32_t n)
{
    putc('[', f);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
    putc(']', f);
}

static lf_str trend_name(const lf_trend *t, uint32_t c)
{
    return (lf_str){t->names.bytes + t->names.offset[c], t->names.offset[c + 1] - t->names.offset[c]};
}

/* [class, counts, slope, r2, verdict, holder, holderCounts, holders] */
static void write_growth(FILE *f, const report_series *r, const growth_row *rows, uint32_t n, uint32_t max)
{
    const lf_trend *t = &r->trend;
    fputs("\"growth\":[", f);
    for (uint32_t k = 0; k < n && k < max; k++) {
        const growth_row *g = &rows[k];
        fputs(k ? ",\n[" : "\n[", f);
        report_json_label(f, trend_name(t, g->cls));
        putc(',', f);
        write_counts(f, t->count + (size_t)g->cls * t->capacity, r->count);
        putc(',', f);
        report_json_real(f, g->fit.slope);
        putc(',', f);
        report_json_real(f, g->fit.r2);
        fputs(",\"", f);
        fputs(lf_trend_verdict_name(g->verdict), f);
        fputs("\",", f);
        char text[4096];
        size_t len = g->holder < 0 ? 0 : lf_trend_holder_name(&t->holders, (size_t)g->holder, text, sizeof text);
        report_json_label(f, (lf_str){text, len < sizeof text ? len : sizeof text - 1});
        putc(',', f);
        if (g->holder < 0)
            fputs("null", f);
        else
            write_counts(f, t->holders.count + (size_t)g->holder * t->capacity, r->count);
        fprintf(f, ",%u]", g->holders);
    }
    putc(']', f);
}

static const report_series *sort_series;

static int by_last_bytes(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b, n = sort_series->count;
    uint64_t bx = sort_series->bytes[(size_t)x * n + n - 1], by = sort_series->bytes[(size_t)y * n + n - 1];
    if (bx != by)
        return bx > by ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The chart's classes: the growing ones first (the point of the chart),
 * then the largest in the last snapshot; rows in r->names. */
static uint32_t chart_classes(const report_series *r, const growth_row *rows, uint32_t n, uint32_t *pick)
{
    uint32_t picked = 0;
    for (uint32_t k = 0; k < n && picked < CHART_CLASSES && rows[k].growing; k++) {
        lf_str name = trend_name(&r->trend, rows[k].cls);
        int64_t row = lf_strtab_find(&r->names, name.ptr, name.len);
        if (row > 0)
            pick[picked++] = (uint32_t)row;
    }
    uint32_t names = r->names.count, *order = malloc(((size_t)names + 1) * sizeof *order);
    if (!order)
        return picked;
    for (uint32_t i = 1; i < names; i++) /* string 0 is the empty string */
        order[i - 1] = i;
    sort_series = r;
    qsort(order, names ? names - 1 : 0, sizeof *order, by_last_bytes);
    for (uint32_t i = 0; i + 1 < names && picked < CHART_CLASSES; i++) {
        uint32_t k = 0;
        while (k < picked && pick[k] != order[i])
            k++;
        if (k == picked)
            pick[picked++] = order[i];
    }
    free(order);
    return picked;
}

static void write_chart(FILE *f, const report_series *r, const growth_row *rows, uint32_t n)
{
    uint32_t pick[CHART_CLASSES];
    uint32_t picked = chart_classes(r, rows, n, pick);
    fputs("\"workload\":[", f);
    for (uint32_t i = 0; i < r->count; i++) {
        fputs(i ? "," : "", f);
        report_json_real(f, r->workload[i]);
    }
    fputs("],\"classes\":[", f);
    for (uint32_t k = 0; k < picked; k++) {
        const char *name = r->names.bytes + r->names.offset[pick[k]];
        size_t len = r->names.offset[pick[k] + 1] - r->names.offset[pick[k]];
        fputs(k ? ",\n{\"name\":" : "\n{\"name\":", f);
        report_json_label(f, (lf_str){name, len});
        fputs(",\"bytes\":", f);
        write_counts(f, r->bytes + (size_t)pick[k] * r->count, r->count);
        putc('}', f);
    }
    putc(']', f);
}

int report_write_series(FILE *f, const report_series *r, const lf_trend_rule *rule, uint32_t max_rows)
{
    uint32_t n = 0;
    growth_row *rows = judge(r, rule, &n);
    if (!rows)
        return -1;
    putc('{', f);
    write_chart(f, r, rows, n);
    putc(',', f);
    if (r->count >= 3)
        write_growth(f, r, rows, n, max_rows);
    else
        fputs("\"growth\":null", f);
    putc('}', f);
    free(rows);
    return 0;
}
