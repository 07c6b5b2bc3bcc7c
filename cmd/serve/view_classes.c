/* view_classes.c - /api/classes: the class histogram (MAT's histogram,
 * DevTools' Summary) with a filter, sorted by retained, shallow, count or
 * name, a page at a time, each class with its loader; /api/instances: a
 * class's objects, largest retained first, a page at a time. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/loaders.h"
#include "serve.h"

typedef struct sort_ctx {
    const serve_snapshot *snap;
    int key;   /* 0 retained, 1 shallow, 2 count, 3 class */
} sort_ctx;

static int cmp_desc(uint64_t a, uint64_t b)
{
    return a == b ? 0 : a > b ? -1 : 1;
}

static int by_key(const void *pa, const void *pb, void *ctx)
{
    const sort_ctx *k = ctx;
    const lf_class_totals *t = &k->snap->totals;
    uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
    int c = k->key == 1 ? cmp_desc(t->shallow[x], t->shallow[y]) : k->key == 2 ? cmp_desc(t->count[x], t->count[y]) : 0;
    if (!c && k->key == 3) {
        lf_str a = lf_snapshot_class_name(&k->snap->s, x), b = lf_snapshot_class_name(&k->snap->s, y);
        c = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
        c = c ? c : a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
    }
    if (!c)
        c = cmp_desc(t->retained[x], t->retained[y]);
    if (!c)
        c = cmp_desc(t->shallow[x], t->shallow[y]);
    return c ? c : x < y ? -1 : x > y;
}

static int sort_key(const char *sort, int *key, serve_fail *fail)
{
    static const char *const names[] = {"retained", "shallow", "count", "class"};
    *key = 0;
    for (int k = 0; sort && k < 4; k++)
        if (strcmp(sort, names[k]) == 0)
            return *key = k, 0;
    return sort ? serve_failf(fail, 400, "sort is retained, shallow, count or class, not '%.40s'", sort) : 0;
}

static void write_class_row(FILE *f, const serve_snapshot *snap, uint32_t c)
{
    const lf_snapshot *s = &snap->s;
    const lf_class_totals *t = &snap->totals;
    lf_str name = lf_snapshot_class_name(s, c);
    fprintf(f, "{\"cls\":%u,\"label\":", c);
    serve_json_str(f, name.ptr, name.len);
    fprintf(f, ",\"count\":%llu,\"shallow\":%llu,\"retained\":%llu", (unsigned long long)t->count[c],
            (unsigned long long)t->shallow[c], (unsigned long long)t->retained[c]);
    if (s->class_loader) {
        char label[1024];
        size_t n = lf_loader_label(s, s->class_loader[c], label, sizeof label);
        fputs(",\"loader\":", f);
        serve_json_str(f, label, n);
    }
    fputs("}", f);
}

int serve_view_classes(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint64_t from, count;
    int key;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_page(rq, &from, &count, fail) ||
        sort_key(serve_arg_text(rq, "sort"), &key, fail))
        return -1;
    const lf_snapshot *s = &snap->s;
    const char *filter = serve_arg_text(rq, "filter");
    uint32_t *order = malloc(((size_t)s->class_count + 1) * sizeof *order);
    if (!order)
        return serve_failf(fail, 500, "out of memory");
    uint32_t n = 0;
    for (uint32_t c = 0; c < s->class_count; c++)
        if (snap->totals.count[c] && serve_matches(lf_snapshot_class_name(s, c), filter))
            order[n++] = c;
    sort_ctx k = {snap, key};
    qsort_r(order, n, sizeof *order, by_key, &k);
    fprintf(out, "{\"from\":%llu,\"total\":%u,\"reachable\":%llu,\"rows\":[", (unsigned long long)from, n,
            (unsigned long long)s->reachable_shallow);
    for (uint64_t i = from; i < n && i < from + count; i++) {
        fputs(i > from ? ",\n" : "\n", out);
        write_class_row(out, snap, order[i]);
    }
    fputs("]}\n", out);
    free(order);
    return 0;
}

int serve_view_instances(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint64_t from, count;
    uint32_t cls;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_class(snap, rq, "cls", &cls, fail) ||
        serve_arg_page(rq, &from, &count, fail) ||
        serve_need_instances(snap, fail))
        return -1;
    const lf_snapshot *s = &snap->s;
    const uint32_t *inst = snap->instance + snap->instance_first[cls];
    uint32_t total = snap->instance_first[cls + 1] - snap->instance_first[cls];
    fprintf(out, "{\"class\":");
    write_class_row(out, snap, cls);
    fprintf(out, ",\"from\":%llu,\"total\":%u,\"rows\":[", (unsigned long long)from, total);
    for (uint64_t i = from; i < total && i < from + count; i++) {
        fputs(i > from ? ",\n{\"object\":" : "\n{\"object\":", out);
        serve_json_object(out, s, inst[i]);
        fprintf(out, ",\"reachable\":%s}", s->idom[inst[i]] != LF_NODE_NONE ? "true" : "false");
    }
    fputs("]}\n", out);
    return 0;
}
