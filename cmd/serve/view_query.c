/* view_query.c - /api/query: `leakfind query`'s language (docs/QUERY.md,
 * core/query/query.h; MAT's OQL) against one snapshot, a page of its rows.
 * A mistake in the query is a 400 whose "at" is the byte offset the CLI
 * puts its caret under, so the page can point at it: a syntax error, a
 * field or root kind the snapshot lacks, a class it does not have (with
 * the closest names), in the CLI's words (cmd/cli/query_class.h).
 *
 * Arguments: snap, q (the query), from, count. Cells: numbers, strings,
 * booleans, null; an object as its id ("0x1f", "@12"). Runs serial, as
 * the lead's table planned for queries: one pass over the whole heap at a
 * time. */
#include <stdlib.h>
#include <string.h>

#include "../../core/hprof/hprof_values.h"
#include "../../core/query/query.h"
#include "../cli/query_class.h"
#include "../report/report.h"
#include "serve.h"

enum { TEXT_CHARS = 200, PREVIEW_CHARS = 40 };

static int fail_at(serve_fail *fail, size_t at, const char *message)
{
    serve_failf(fail, 400, "query: %s", message);
    fail->at = (long)at;
    return -1;
}

/* The library's error in the query: its reason and detail, at its offset. */
static int query_error(const lf_error *err, serve_fail *fail)
{
    if (err->kind == LF_ERR_SYSTEM)
        return serve_failf(fail, 500, "%s", err->reason);
    char message[QUERY_ERROR_TEXT_MAX];
    query_error_text(err, message, sizeof message);
    return fail_at(fail, (size_t)err->position, message);
}

typedef struct page {
    FILE *f;
    const lf_snapshot *s;
    const lf_query *q;
    uint64_t from, count, total;
} page;

/* A text cell: at most max characters, then how many more it had. */
static void write_text(FILE *f, const lf_qvalue *v, uint64_t max)
{
    uint64_t more;
    size_t keep = lf_qvalue_cut(v, max, &more);
    if (!more) {
        serve_json_str(f, v->str, keep);
        return;
    }
    char *text = malloc(keep + 48);
    if (!text) {
        serve_json_str(f, v->str, keep);
        return;
    }
    memcpy(text, v->str, keep);
    int n = snprintf(text + keep, 48, " [... %llu more chars]", (unsigned long long)more);
    serve_json_str(f, text, keep + (size_t)(n > 0 ? n : 0));
    free(text);
}

static void write_cell(FILE *f, const lf_snapshot *s, const lf_qvalue *v, lf_qflavor flavor)
{
    switch (v->type) {
    case LF_QV_NULL: fputs("null", f); break;
    case LF_QV_INT: fprintf(f, "%lld", (long long)v->i); break;
    case LF_QV_REAL: report_json_real(f, v->d); break;
    case LF_QV_BOOL: fputs(v->i ? "true" : "false", f); break;
    case LF_QV_STR: write_text(f, v, flavor == LF_QF_PREVIEW ? PREVIEW_CHARS : TEXT_CHARS); break;
    default: report_json_id(f, s, v->node); break;
    }
}

/* Every row is counted; the page's are written. */
static int write_row(void *ctx, const lf_qvalue *cell, size_t n)
{
    page *p = ctx;
    uint64_t at = p->total++;
    if (at < p->from || at >= p->from + p->count)
        return 0;
    fputs(at > p->from ? ",\n[" : "\n[", p->f);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? "," : "", p->f);
        write_cell(p->f, p->s, &cell[i], lf_query_column(p->q, i).flavor);
    }
    fputs("]", p->f);
    return 0;
}

static void write_columns(FILE *f, const lf_query *q)
{
    fputs("{\"columns\":[", f);
    for (size_t i = 0; i < lf_query_column_count(q); i++) {
        lf_qcolumn c = lf_query_column(q, i);
        fputs(i ? "," : "", f);
        serve_json_str(f, c.name, c.len);
    }
    fputs("]", f);
}

/* What the CLI says on stderr: the library's notes (the prepare's and the
 * run's), values not kept. */
static void write_notes(FILE *f, const lf_query *q, const lf_snapshot *s)
{
    fputs(",\"notes\":[", f);
    size_t n = lf_query_note_count(q);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? "," : "", f);
        serve_json_cstr(f, lf_query_note(q, i));
    }
    if (lf_query_uses_fields(q) && s->source_format == LF_FORMAT_HPROF && !lf_hprof_lazy(s)) {
        fputs(n ? "," : "", f);
        serve_json_cstr(f, "this file keeps references, not the dump's values: strings show as their ids "
                           "(query the .hprof itself)");
    }
    fputs("]", f);
}

static int run(lf_query *q, const serve_snapshot *snap, uint64_t from, uint64_t count, FILE *out, serve_fail *fail)
{
    const lf_snapshot *s = &snap->s;
    lf_error err = {0};
    char why[2048];
    size_t at;
    int resolved = query_resolve_classes(q, s, why, sizeof why, &at);
    if (resolved)
        return resolved < 0 ? serve_failf(fail, 500, "out of memory") : fail_at(fail, at, why);
    if (lf_query_prepare(q, s, &err))
        return query_error(&err, fail);
    write_columns(out, q);
    fprintf(out, ",\"from\":%llu,\"rows\":[", (unsigned long long)from);
    page p = {out, s, q, from, count, 0};
    if (lf_query_run(q, s, write_row, &p, &err))
        return serve_failf(fail, 500, "%.200s: %.280s", snap->path, err.reason);
    fprintf(out, "],\"total\":%llu,\"unreachable\":%llu", (unsigned long long)p.total,
            (unsigned long long)lf_query_unreachable_matches(q));
    write_notes(out, q, s); /* after the run: it notes a text no object has */
    fputs("}\n", out);
    return 0;
}

int serve_view_query(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint64_t from, count;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_page(rq, &from, &count, fail))
        return -1;
    const char *text = serve_arg_text(rq, "q");
    if (!text || !*text)
        return serve_failf(fail, 400, "q: a query is needed (select ... from ... where ...)");
    lf_query *q;
    lf_error err = {0};
    if (lf_query_parse(text, strlen(text), &q, &err))
        return query_error(&err, fail);
    int rc = run(q, snap, from, count, out, fail);
    lf_query_free(q);
    return rc;
}
