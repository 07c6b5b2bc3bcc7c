/* cmd_query.c - `leakfind query SNAPSHOT 'QUERY'`: questions to the heap
 * (issue 37; core/query/query.h, docs/QUERY.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hprof/hprof_values.h"
#include "../core/query/query.h"
#include "cli/cli.h"
#include "cli/query_class.h"
#include "cli/string_preview.h"
#include "commands.h"

static const char query_usage[] =
    "usage: leakfind query SNAPSHOT 'QUERY'\n"
    "\n"
    "Selects objects and aggregates them, in one pass over the snapshot:\n"
    "\n"
    "  [select [distinct] ITEMS] [from CLASSES [ALIAS]] [where CONDITION]\n"
    "  [group by VALUES] [order by VALUE [asc|desc]] [limit N]\n"
    "\n"
    "ITEMS: * (id, class, shallow, retained, value) or values, each with an\n"
    "optional 'as NAME'; with count(), sum(V), min(V), max(V), avg(V), one\n"
    "row per group. CLASSES: class names as --class takes them (Session,\n"
    "java.util.*, byte[]), 'instanceof NAME' for subclasses too (for a JDK\n"
    "interface such as java.util.Map, the JDK classes known to implement it),\n"
    "'*' or none for every object; only objects the roots reach, unless\n"
    "--keep-unreachable. An ALIAS names the object: from Session s ...\n"
    "s.state. A VALUE is a field (state, owner.name: JVM fields, V8\n"
    "properties), an element ([0], payload[3]; OCaml fields are [N]), an\n"
    "@attribute (@id @class @shallow @retained @length @text @root @owner),\n"
    "a number (-3, 0x7f3a, 64K, 1MiB), a 'string', null, true, false. A\n"
    "String field compares as its text, an enum as its name, a boxed number\n"
    "as the number. CONDITION: comparisons (= != < <= > >=, like 'glob*',\n"
    "is [not] null) joined by and, or, not, parentheses, and\n"
    "reachable('KIND') (reached from roots of that kind), rooted('KIND'),\n"
    "owned_by(CLASS) (a CLASS object is among its dominators).\n"
    "\n"
    "A class or a field the snapshot does not have is an error with the\n"
    "closest names, never an empty answer; a text that the where clause\n"
    "compares a field with and no object holds is a note, with the texts the\n"
    "field takes. Eclipse MAT's DISTINCT, OBJECTS, FROM OBJECTS 0x...,\n"
    "\"regular expressions\" and @usedHeapSize work; its methods and functions\n"
    "are errors that show how to write them here.\n"
    "\n"
    "  leakfind query heap.hprof \"select count() from Session where state = 'INVALID'\"\n"
    "  leakfind query heap.hprof \"from byte[] where not reachable('static field')\n"
    "                             order by @retained desc limit 20\"\n"
    "  leakfind query heap.hprof \"select tenant, count(), sum(@retained)\n"
    "                             from instanceof Session group by tenant\"\n"
    "\n"
    "The man page and docs/QUERY.md have the whole language.\n";

static const cli_option query_options[] = {
    {0},
};

static const cli_spec query_spec = {query_usage, query_options, 17, NULL};

/* A query error: the message, then the query with a caret under the place. */
static int query_error_at(const char *text, size_t at, const char *message)
{
    size_t len = strlen(text), line_start = 0, line = 1;
    for (size_t i = 0; i < at && i < len; i++)
        if (text[i] == '\n')
            line_start = i + 1, line++;
    size_t line_end = line_start;
    while (line_end < len && text[line_end] != '\n')
        line_end++;
    cli_message("error", "query: %s (line %zu, column %zu)", message, line, at - line_start + 1);
    fprintf(stderr, "  %.*s\n  %*s^\n", (int)(line_end - line_start), text + line_start, (int)(at - line_start), "");
    return EXIT_USAGE;
}

/* The library's query error (its reason, then its detail when it has one). */
static int query_error(const char *text, const lf_error *err)
{
    if (err->kind == LF_ERR_SYSTEM) {
        cli_message("error", "%s", err->reason);
        return EXIT_SYSTEM;
    }
    char message[QUERY_ERROR_TEXT_MAX];
    query_error_text(err, message, sizeof message);
    return query_error_at(text, (size_t)err->position, message);
}

typedef struct query_out {
    out_writer *w;
    const lf_snapshot *s;
    const lf_query *q;
    char *cell;
    size_t cell_cap;
} query_out;

/* The fewest decimals that give the number back. */
static void write_real(out_writer *w, double d)
{
    char buf[64];
    int decimals = 0;
    for (; decimals < 12; decimals++) {
        snprintf(buf, sizeof buf, "%.*f", decimals, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    out_real(w, d, decimals);
}

static void write_text(query_out *o, const lf_qvalue *v, uint64_t max_chars)
{
    uint64_t cut;
    size_t keep = lf_qvalue_cut(v, max_chars, &cut);
    size_t n = cli_escape_text(v->str, keep, cut, o->cell, o->cell_cap);
    out_str(o->w, o->cell, n);
}

static void write_cell(query_out *o, const lf_qvalue *v, lf_qflavor flavor)
{
    switch (v->type) {
    case LF_QV_NULL: out_null(o->w); break;
    case LF_QV_INT:
        if (v->i < 0)
            out_i64(o->w, v->i);
        else if (flavor == LF_QF_BYTES)
            out_bytes(o->w, (uint64_t)v->i);
        else
            out_u64(o->w, (uint64_t)v->i);
        break;
    case LF_QV_REAL: write_real(o->w, v->d); break;
    case LF_QV_BOOL: out_bool(o->w, (int)v->i); break;
    case LF_QV_STR: write_text(o, v, flavor == LF_QF_PREVIEW ? CLI_PREVIEW_CHARS : 200); break;
    default: cli_write_id(o->w, o->s, v->node); break;
    }
}

static int write_row(void *ctx, const lf_qvalue *cell, size_t n)
{
    query_out *o = ctx;
    for (size_t i = 0; i < n; i++)
        write_cell(o, &cell[i], lf_query_column(o->q, i).flavor);
    out_row_end(o->w);
    return 0;
}

static out_type column_type(lf_qflavor flavor)
{
    switch (flavor) {
    case LF_QF_BYTES: case LF_QF_COUNT: return OUT_U64;
    case LF_QF_ID: return OUT_ID;
    case LF_QF_REAL: return OUT_REAL;
    case LF_QF_PREVIEW: return OUT_STR_SOMETIMES;
    default: return OUT_STR;
    }
}

/* The query's class names (query_class.h), a mistake said over a caret. */
static int resolve_classes(lf_query *q, const lf_snapshot *s, const char *text)
{
    char why[2048];
    size_t at;
    int rc = query_resolve_classes(q, s, why, sizeof why, &at);
    if (rc < 0) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    return rc ? query_error_at(text, at, why) : EXIT_OK;
}

static int run_query(cli_context *ctx, lf_query *q, const lf_snapshot *s, const char *path, const char *text)
{
    lf_error err = {0};
    int rc = resolve_classes(q, s, text);
    if (rc)
        return rc;
    if (lf_query_prepare(q, s, &err))
        return query_error(text, &err);
    size_t noted = lf_query_note_count(q);
    for (size_t i = 0; i < noted; i++)
        cli_message("note", "%s", lf_query_note(q, i));
    if (lf_query_uses_fields(q) && s->source_format == LF_FORMAT_HPROF && !lf_hprof_lazy(s))
        cli_message("note", "'%s' keeps references, not the dump's values: strings show as their ids (query the "
                    ".hprof itself)", path);
    size_t n = lf_query_column_count(q);
    out_column cols[64];
    for (size_t i = 0; i < n && i < 64; i++) {
        lf_qcolumn c = lf_query_column(q, i);
        char *name = malloc(c.len + 1);
        if (!name) {
            for (size_t k = 0; k < i; k++)
                free((char *)cols[k].name);
            cli_message("error", "out of memory");
            return EXIT_SYSTEM;
        }
        memcpy(name, c.name, c.len);
        name[c.len] = 0;
        cols[i] = (out_column){name, column_type(c.flavor), LF_CUT_END, OUT_NORMAL};
    }
    query_out o = {out_begin(stdout, ctx->format, cols, (int)n), s, q, NULL, 4 * 4 * 200 + 64};
    o.cell = malloc(o.cell_cap);
    if (!o.cell)
        rc = EXIT_SYSTEM, cli_message("error", "out of memory");
    else if (lf_query_run(q, s, write_row, &o, &err))
        rc = cli_input_error(path, &err);
    for (size_t i = noted; rc == EXIT_OK && i < lf_query_note_count(q); i++)
        cli_message("note", "%s", lf_query_note(q, i));
    uint64_t garbage = lf_query_unreachable_matches(q);
    if (rc == EXIT_OK && garbage)
        cli_message("note", "left out %llu object%s that match%s but no root reaches (garbage not collected yet; "
                    "--keep-unreachable takes them)", (unsigned long long)garbage, garbage == 1 ? "" : "s",
                    garbage == 1 ? "es" : "");
    out_end(o.w);
    free(o.cell);
    for (size_t i = 0; i < n; i++)
        free((char *)cols[i].name);
    return rc;
}

int cmd_query(int argc, char **argv)
{
    cli_context ctx = {0};
    char **pos;
    int npos;
    int rc = cli_parse(&ctx, argc, argv, &query_spec, NULL, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (npos != 2) {
        free(pos);
        return cli_usage_error(&ctx, "query takes SNAPSHOT and one QUERY (in quotes)");
    }
    const char *path = pos[0], *text = pos[1];
    lf_query *q;
    lf_error err = {0};
    if (lf_query_parse(text, strlen(text), &q, &err)) {
        free(pos);
        return query_error(text, &err);
    }
    lf_snapshot s;
    if ((rc = cli_open_analyzed(&ctx, path, &s)) == EXIT_OK) {
        rc = run_query(&ctx, q, &s, path, text);
        lf_snapshot_free(&s);
    }
    lf_query_free(q);
    free(pos);
    return rc;
}
