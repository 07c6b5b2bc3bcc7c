/* view_overview.c - the first view: what `leakfind report` puts at the top
 * of its page (suspects, totals, root kinds, the largest classes, duplicate
 * strings and, over a series, the growth), made once at start with the
 * report's own writers, so both say the same. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/suspects.h"
#include "../report/report.h"
#include "serve.h"
#include "serve_overview.h"

enum { OVERVIEW_CLASSES = 20, OVERVIEW_STRINGS = 10, OVERVIEW_GROWTH = 100 };

static void write_snapshot_list(FILE *f, const serve_site *site)
{
    fputs("[", f);
    for (uint32_t i = 0; i < site->count; i++) {
        const lf_snapshot *s = &site->snap[i].s;
        fprintf(f, "%s{\"index\":%u,\"path\":", i ? "," : "", i);
        serve_json_cstr(f, site->snap[i].path);
        fprintf(f, ",\"objects\":%u,\"reachable\":%llu,\"classes\":%u,\"workload\":", s->object_count,
                (unsigned long long)s->reachable_shallow, s->class_count);
        report_json_real(f, site->workload ? site->workload[i] : (double)(i + 1));
        fprintf(f, ",\"sites\":%s,\"fieldNames\":%s,\"idsAt\":%s}", s->object_site ? "true" : "false",
                s->flags & LF_SNAP_NO_FIELD_NAMES ? "false" : "true", s->flags & LF_SNAP_IDS_AT ? "true" : "false");
    }
    fputs("]", f);
}

static int write_overview(FILE *f, const serve_site *site, const serve_overview_inputs *in)
{
    const serve_snapshot *last = &site->snap[site->count - 1];
    const lf_snapshot *s = &last->s;
    fputs("{\"snapshots\":", f);
    write_snapshot_list(f, site);
    fputs(",\n\"info\":", f);
    int rc = report_write_info(f, s, &last->totals);
    fputs(",\n\"rootKinds\":", f);
    rc = rc ? rc : report_write_root_kinds(f, s);
    fputs(",\n\"strings\":", f);
    rc = rc ? rc : report_write_strings(f, s, in->threads, OVERVIEW_STRINGS);
    fputs(",\n\"classes\":", f);
    rc = rc ? rc : report_write_classes(f, s, &last->totals, OVERVIEW_CLASSES);
    fputs(",\n\"series\":", f);
    if (site->count > 1)
        rc = rc ? rc : report_write_series(f, in->series, in->rule, OVERVIEW_GROWTH);
    else
        fputs("null", f);
    fputs(",\n\"suspects\":", f);
    rc = rc ? rc : report_write_suspects(f, s, &in->series->trend, in->suspects, in->threshold);
    fputs("}\n", f);
    return rc;
}

int serve_site_overview(serve_site *site, const serve_overview_inputs *in, lf_error *err)
{
    size_t len = 0;
    FILE *f = open_memstream(&site->overview, &len);
    if (!f)
        return lf_fail_nomem(err, "the overview");
    int rc = write_overview(f, site, in);
    if (fclose(f) || rc) {
        free(site->overview);
        site->overview = NULL;
        return lf_fail_nomem(err, "the overview");
    }
    site->overview_len = len;
    return 0;
}

int serve_view_overview(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    (void)rq;
    if (!site->overview)
        return serve_failf(fail, 500, "no overview was made");
    fwrite(site->overview, 1, site->overview_len, out);
    return 0;
}
