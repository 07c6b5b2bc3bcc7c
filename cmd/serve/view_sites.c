/* view_sites.c - /api/sites: one level of the allocation call tree (the
 * Memtrace viewer's icicle, DESIGN 10): the callees of a site, each with
 * the objects allocated at it or below it, largest retained first, so the
 * page can draw a level and open the next on a click. site=0 (the
 * default) is the top: the outermost frames. A 404 on a dump without
 * allocation sites. The totals are computed once per snapshot
 * (serve_calltree.c). */
#include <stdlib.h>

#include "serve.h"

typedef struct sort_ctx {
    const serve_site_total *t;
} sort_ctx;

static int by_retained(const void *pa, const void *pb, void *ctx)
{
    const serve_site_total *t = ((const sort_ctx *)ctx)->t;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (t[a].retained != t[b].retained)
        return t[a].retained > t[b].retained ? -1 : 1;
    if (t[a].shallow != t[b].shallow)
        return t[a].shallow > t[b].shallow ? -1 : 1;
    if (t[a].count != t[b].count)
        return t[a].count > t[b].count ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* A site's callees that have objects at or below them (site space). */
static uint32_t live_callees(const serve_snapshot *snap, uint32_t site, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t i = snap->site_child_first[site]; i < snap->site_child_first[site + 1]; i++)
        if (snap->site_total[snap->site_child[i]].count) {
            if (out)
                out[n] = snap->site_child[i];
            n++;
        }
    return n;
}

static void write_row(FILE *f, const serve_snapshot *snap, uint32_t site)
{
    const lf_snapshot *s = &snap->s;
    const serve_site_total *t = &snap->site_total[site];
    uint32_t frame = s->site[site].frame;
    const lf_frame *fr = frame < s->frame_count ? &s->frame[frame] : NULL;
    lf_str fn = fr ? lf_snapshot_string(s, fr->function) : (lf_str){"", 0};
    lf_str file = fr ? lf_snapshot_string(s, fr->file) : (lf_str){"", 0};
    fprintf(f, "{\"site\":%u,\"function\":", site);
    serve_json_str(f, fn.ptr, fn.len);
    fputs(",\"file\":", f);
    serve_json_str(f, file.ptr, file.len);
    fprintf(f, ",\"line\":%u,\"column\":%u,\"count\":%llu,\"shallow\":%llu,\"retained\":%llu,\"children\":%u}",
            fr ? fr->line : 0, fr ? fr->column : 0, (unsigned long long)t->count, (unsigned long long)t->shallow,
            (unsigned long long)t->retained, live_callees(snap, site, NULL));
}

int serve_view_sites(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint64_t at;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_count(rq, "site", 0, UINT32_MAX, &at, fail) ||
        serve_need_sites(snap, fail))
        return -1;
    if (at >= snap->s.site_count)
        return serve_failf(fail, 404, "site: no site %llu (the snapshot has %u)", (unsigned long long)at,
                           snap->s.site_count);
    uint32_t parent = (uint32_t)at;
    uint32_t *row = malloc(((size_t)live_callees(snap, parent, NULL) + 1) * sizeof *row);
    if (!row)
        return serve_failf(fail, 500, "out of memory");
    uint32_t n = live_callees(snap, parent, row);
    sort_ctx k = {snap->site_total};
    qsort_r(row, n, sizeof *row, by_retained, &k);
    const serve_site_total *t = &snap->site_total[parent];
    /* site 0 stands for every reachable object: it retains them all */
    uint64_t retained = parent ? t->retained : snap->s.reachable_shallow;
    fprintf(out, "{\"site\":%u,\"count\":%llu,\"shallow\":%llu,\"retained\":%llu,\"rows\":[", parent,
            (unsigned long long)t->count, (unsigned long long)t->shallow, (unsigned long long)retained);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ",\n" : "\n", out);
        write_row(out, snap, row[i]);
    }
    fputs("]}\n", out);
    free(row);
    return 0;
}
