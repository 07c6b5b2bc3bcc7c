/* view_compare.c - /api/compare: what changed between two snapshots of the
 * series, per class matched by name (DevTools' Comparison, `leakfind
 * diff`), live objects only, largest growth first: in shallow bytes
 * (sort=bytes, the default) or in instances (sort=count). Each row names
 * its class in snapshot b, for the page's link to its instances.
 *
 * Arguments: a (default 0, the oldest), b (default the newest), by (class,
 * or owner: view_compare_owners.c), from, count, sort, filter, all=1 (the
 * classes that did not change too; `diff --all`). Runs serial:
 * lf_diff_classes sorts by id through a global when both snapshots have
 * stable ids. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/diff.h"
#include "../../core/input/open.h"
#include "serve_compare.h"

static int read_args(serve_site *site, const serve_request *rq, serve_compare_args *p, serve_fail *fail)
{
    memset(p, 0, sizeof *p);
    uint64_t a, b;
    if (serve_arg_count(rq, "a", 0, site->count - 1, &a, fail) ||
        serve_arg_count(rq, "b", site->count - 1, site->count - 1, &b, fail) ||
        serve_arg_page(rq, &p->from, &p->count, fail))
        return -1;
    const char *by = serve_arg_text(rq, "by"), *sort = serve_arg_text(rq, "sort"), *all = serve_arg_text(rq, "all");
    if (by && strcmp(by, "class") != 0 && strcmp(by, "owner") != 0)
        return serve_failf(fail, 400, "by is class or owner, not '%.40s'", by);
    if (sort && strcmp(sort, "bytes") != 0 && strcmp(sort, "count") != 0)
        return serve_failf(fail, 400, "sort is bytes or count, not '%.40s'", sort);
    p->index[0] = (uint32_t)a, p->index[1] = (uint32_t)b;
    p->snap[0] = &site->snap[a], p->snap[1] = &site->snap[b];
    if (p->snap[0]->s.source_format != p->snap[1]->s.source_format)
        return serve_failf(fail, 400, "a is a %s snapshot and b a %s one: they cannot be compared",
                           lf_format_name(p->snap[0]->s.source_format), lf_format_name(p->snap[1]->s.source_format));
    p->by_count = sort && strcmp(sort, "count") == 0;
    p->by_owner = by && strcmp(by, "owner") == 0;
    p->all = all && strcmp(all, "0") != 0;
    p->filter = serve_arg_text(rq, "filter");
    return 0;
}

static int64_t delta(const uint64_t *v)
{
    return (int64_t)(v[1] - v[0]);
}

static int cmp_growth(int64_t x, int64_t y)
{
    return x == y ? 0 : x > y ? -1 : 1;
}

typedef struct sort_ctx {
    const lf_class_diff *d;
    int by_count;
} sort_ctx;

/* As `diff` orders its rows, with bytes or count first: the growth, then
 * the other growth, the retained growth, the name. */
static int by_growth(const void *pa, const void *pb, void *ctx)
{
    const sort_ctx *k = ctx;
    const lf_class_delta *x = &k->d->row[*(const uint32_t *)pa], *y = &k->d->row[*(const uint32_t *)pb];
    int count = cmp_growth(delta(x->count), delta(y->count));
    int bytes = cmp_growth(delta(x->shallow), delta(y->shallow));
    int c = k->by_count ? (count ? count : bytes) : (bytes ? bytes : count);
    c = c ? c : cmp_growth(delta(x->retained), delta(y->retained));
    if (c)
        return c;
    const lf_strtab *t = &k->d->names;
    size_t lx = t->offset[x->name + 1] - t->offset[x->name], ly = t->offset[y->name + 1] - t->offset[y->name];
    c = memcmp(t->bytes + t->offset[x->name], t->bytes + t->offset[y->name], lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

static lf_str row_name(const lf_class_diff *d, uint32_t row)
{
    const lf_strtab *t = &d->names;
    uint32_t name = d->row[row].name;
    return (lf_str){t->bytes + t->offset[name], t->offset[name + 1] - t->offset[name]};
}

/* row -> the class of snapshot b with its name (the one with the most
 * live instances when loaders make several), UINT32_MAX: none. */
static uint32_t *classes_in_b(const lf_class_diff *d, const serve_snapshot *b)
{
    uint32_t *cls = malloc(((size_t)d->rows + 1) * sizeof *cls);
    if (!cls)
        return NULL;
    for (uint32_t r = 0; r < d->rows; r++)
        cls[r] = UINT32_MAX;
    const lf_class_totals *t = &b->totals;
    for (uint32_t c = 0; c < b->s.class_count; c++) {
        if (t->count[c] == t->unreachable_count[c])
            continue;
        lf_str name = lf_snapshot_class_name(&b->s, c);
        /* lf_diff_groups numbers its rows as their names */
        int64_t k = lf_strtab_find(&d->names, name.ptr, name.len);
        uint32_t row = k >= 0 && (uint64_t)k < d->rows && d->row[k].name == (uint32_t)k ? (uint32_t)k : UINT32_MAX;
        if (row != UINT32_MAX && (cls[row] == UINT32_MAX || t->count[c] > t->count[cls[row]]))
            cls[row] = c;
    }
    return cls;
}

static void write_row(FILE *f, const lf_class_diff *d, uint32_t row, uint32_t cls)
{
    const lf_class_delta *r = &d->row[row];
    lf_str name = row_name(d, row);
    fputs("{\"label\":", f);
    serve_json_str(f, name.ptr, name.len);
    if (cls == UINT32_MAX)
        fputs(",\"cls\":null", f);
    else
        fprintf(f, ",\"cls\":%u", cls);
    fprintf(f, ",\"count\":[%llu,%llu],\"shallow\":[%llu,%llu],\"retained\":[%llu,%llu]}",
            (unsigned long long)r->count[0], (unsigned long long)r->count[1], (unsigned long long)r->shallow[0],
            (unsigned long long)r->shallow[1], (unsigned long long)r->retained[0], (unsigned long long)r->retained[1]);
}

/* The rows kept (changed, or all; matching the filter), in order, a page of them. */
static int write_rows(FILE *f, const lf_class_diff *d, const serve_compare_args *p)
{
    uint32_t *order = malloc(((size_t)d->rows + 1) * sizeof *order);
    uint32_t *cls = classes_in_b(d, p->snap[1]);
    if (!order || !cls) {
        free(order), free(cls);
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->rows; i++) {
        const lf_class_delta *r = &d->row[i];
        int changed = r->count[0] != r->count[1] || r->shallow[0] != r->shallow[1] || r->retained[0] != r->retained[1];
        if ((r->count[0] || r->count[1]) && (changed || p->all) && serve_matches(row_name(d, i), p->filter))
            order[n++] = i;
    }
    sort_ctx k = {d, p->by_count};
    qsort_r(order, n, sizeof *order, by_growth, &k);
    fprintf(f, "{\"a\":%u,\"b\":%u,\"by\":\"class\",\"sort\":\"%s\",\"from\":%llu,\"rows\":[", p->index[0],
            p->index[1], p->by_count ? "count" : "bytes", (unsigned long long)p->from);
    for (uint64_t i = p->from; i < n && i < p->from + p->count; i++) {
        fputs(i > p->from ? ",\n" : "\n", f);
        write_row(f, d, order[i], cls[order[i]]);
    }
    fprintf(f, "],\"total\":%u}\n", n);
    free(order), free(cls);
    return 0;
}

int serve_view_compare(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_compare_args p;
    if (read_args(site, rq, &p, fail))
        return -1;
    if (p.by_owner)
        return serve_compare_owners(out, &p, fail);
    lf_class_diff d;
    lf_error err;
    if (lf_diff_classes(&p.snap[0]->s, &p.snap[1]->s, &d, &err))
        return serve_failf(fail, 500, "comparing: %.400s", err.reason);
    int rc = write_rows(out, &d, &p);
    lf_class_diff_free(&d);
    return rc ? serve_failf(fail, 500, "out of memory") : 0;
}
