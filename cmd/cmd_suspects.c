/* cmd_suspects.c - `leakfind suspects`: the findings worth a person's time
 * (DESIGN 11, core/analysis/suspects.h). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/suspects.h"
#include "../core/base/appendf.h"
#include "cli/cli.h"
#include "cli/out_table.h"
#include "cli/series.h"
#include "cli/trace_rows.h"
#include "cli/trace_window.h"
#include "suspects/suspects_text.h"
#include "suspects/trace_text.h"
#include "commands.h"

static const char suspects_usage[] =
    "usage: leakfind suspects SNAPSHOT [BEFORE...] [options]\n"
    "       leakfind suspects TRACE [options]\n"
    "\n"
    "The few findings worth a look, most important first, each with its\n"
    "evidence. In SNAPSHOT: an object (kind object) or the top owners of one\n"
    "class (kind class) that retain at least --threshold of the reachable heap;\n"
    "its accumulation point (walking down the dominator tree while one child\n"
    "holds at least 80% of its parent: where the memory spreads into many\n"
    "children), what accumulates there (the children's class that retains the\n"
    "most: accumulated_count, accumulated_class, accumulated_bytes) and the\n"
    "shortest path from a GC root to it. A child of the accumulation point that\n"
    "alone retains the threshold is a finding of its own. V8's global object,\n"
    "the script's scope, is no finding itself: what it holds is.\n"
    "\n"
    "Given earlier snapshots of the same process, in any order (see Order\n"
    "below; SNAPSHOT is then the newest of all), the classes that grow with\n"
    "the workload under one holder (as `trend` flags them; warm-up is not\n"
    "flagged) come first (kind growth), fastest first: the holder (id,\n"
    "retained), the class that leaks there (its objects under the holder:\n"
    "instances; counts per snapshot, oldest first; rate, objects per unit of\n"
    "workload), every class growing there (grows) and the bytes the holder\n"
    "gains per unit (bytes_rate). The size findings follow, but for an object\n"
    "that is a growth finding's holder or piles up where one does: the same\n"
    "leak, told once.\n"
    "\n"
    "A Memtrace trace (docs/MEMTRACE.md): the allocation sites that accumulate\n"
    "(kind accumulating): their sampled blocks live at the end are 8 samples or\n"
    "more, allocated in at least 6 of the run's 10 tenths, and their cumulative\n"
    "samples per tenth fit a straight line (fit: R^2 of at least 0.9); ranked by\n"
    "the bytes they stand for (est_bytes) times the fit, each with its\n"
    "backtrace (innermost first; on a terminal, its callers: called by).\n";

typedef struct suspects_state {
    double threshold;         /* share, 0 < t <= 1 */
    uint64_t top, min_growth;
    double minor;             /* percent of the largest growth's bytes per unit */
    series_workload workload; /* in argument order until put in series order */
    int exit_code;
} suspects_state;

static const cli_option suspects_options[] = {
    {"threshold", 0, "PCT", CLI_PERCENT, CLI_AT(suspects_state, threshold),
     .help = "share of the reachable heap a size finding retains\n"
             "(default 10)"},
    {"top", 0, "N", CLI_COUNT, CLI_AT(suspects_state, top),
     .help = "at most N findings (default 10; 0 = all)"},
    SERIES_WORKLOAD_OPTION(suspects_state, workload,
                           "work done at each snapshot, in the order of the\n"
                           "arguments, e.g. 300,100,200: it orders the series\n"
                           "(default: 1, 2, ... in the order taken)"),
    {"min-growth", 0, "N", CLI_COUNT, CLI_AT(suspects_state, min_growth),
     .help = "objects a growth finding gains, first snapshot to last\n"
             "(default 10; the rest of trend's rule applies as is)"},
    {"minor", 0, "PCT", CLI_REAL, CLI_AT(suspects_state, minor),
     .help = "a growth finding whose bytes per unit are under PCT of\n"
             "the largest one's, or whose rate reads 0.00, is minor:\n"
             "named in a note, not listed (default 1; 0: list all\n"
             "but those of rate 0.00)",
     .lo = 0, .hi = 100},
    {"exit-code", 0, NULL, CLI_FLAG, CLI_AT(suspects_state, exit_code),
     .help = "exit 1 when there is a growth finding, or, for one\n"
             "snapshot alone, any finding"},
    {0},
};

static const cli_spec suspects_spec = {suspects_usage, suspects_options, 19, SERIES_ORDER_NOTE};

/* A series as `suspects` counts it (add_to_trend's state): the last
 * snapshot's size findings need no trend, and are found on a second thread
 * while the trend counts that snapshot; so is the reverse index the paths
 * will need (the count leaves that core idle for about a second on a
 * 30M-object dump, and the index took 0.4-1 s after it). */
typedef struct suspects_series {
    lf_trend *trend;
    uint32_t last;            /* the last snapshot's index */
    unsigned threads;
    double threshold;
    lf_suspects_work work;    /* sized when the thread found them */
} suspects_series;

typedef struct size_job {
    suspects_series *series;
    const lf_snapshot *s;
} size_job;

/* On failure nothing is kept: lf_suspects_finish finds them again and
 * says why. */
static void *find_size_findings(void *arg)
{
    size_job *job = arg;
    lf_error err;
    lf_suspects_work *w = &job->series->work;
    if (lf_suspects_size_step(job->s, job->series->threshold, w, &err)) {
        lf_suspect_list_free(&w->by_size);
        w->sized = 0;
    }
    lf_suspects_paths_step(job->s, w); /* none made: the paths make their own */
    return NULL;
}

static int add_to_trend(void *state, const lf_snapshot *s, uint32_t index, lf_error *err)
{
    suspects_series *series = state;
    if (index != series->last || series->threads < 2)
        return lf_trend_add(series->trend, s, err);
    size_job job = {series, s};
    pthread_t size_thread;
    int threaded = pthread_create(&size_thread, NULL, find_size_findings, &job) == 0;
    int rc = lf_trend_add(series->trend, s, err);
    if (threaded)
        pthread_join(size_thread, NULL);
    return rc;
}

static const char *kind_name(lf_suspect_kind k)
{
    return k == LF_SUSPECT_GROWTH ? "growth" : k == LF_SUSPECT_OBJECT ? "object" : "class";
}

static void write_class(out_writer *w, const lf_snapshot *s, uint32_t cls)
{
    if (cls == LF_NODE_NONE) {
        out_null(w);
        return;
    }
    lf_str name = lf_snapshot_class_name(s, cls);
    out_str(w, name.ptr, name.len);
}

static void write_node_id(out_writer *w, const lf_snapshot *s, uint32_t node)
{
    if (node == LF_NODE_NONE)
        out_null(w);
    else
        out_id(w, lf_snapshot_object_id(s, node), (s->flags & LF_SNAP_IDS_AT) != 0);
}

/* "LeakedSession +2.00, LeakedToken +1.00": objects per unit of workload. */
static size_t growth_text(const lf_trend *t, const lf_suspect *f, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (uint32_t k = 0; k < f->grows_count && lf_append_room(size, at); k++) {
        uint32_t c = f->grows[k].name;
        int len = (int)(t->names.offset[c + 1] - t->names.offset[c]);
        lf_appendf(buf, size, &at, "%s%.*s +%.2f", k ? ", " : "", len > 1000 ? 1000 : len,
                   t->names.bytes + t->names.offset[c], f->grows[k].rate);
    }
    return at;
}

static const out_column suspect_columns[] = {
    {"rank", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"kind", OUT_STR, LF_CUT_END, OUT_NORMAL},
    {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
    {"retained_pct", OUT_PCT, LF_CUT_END, OUT_OPTIONAL},
    {"instances", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
    {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
    {"accumulation_id", OUT_ID, LF_CUT_END, OUT_OPTIONAL},
    {"accumulation_class", OUT_STR, LF_CUT_CLASS, OUT_OPTIONAL},
    {"accumulated_count", OUT_U64, LF_CUT_END, OUT_NORMAL},
    {"accumulated_class", OUT_STR, LF_CUT_CLASS, OUT_NORMAL},
    {"accumulated_bytes", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"rate", OUT_REAL, LF_CUT_END, OUT_NORMAL},
    {"counts", OUT_LIST, LF_CUT_END, OUT_OPTIONAL},
    {"path", OUT_STR, LF_CUT_PATH, OUT_KEY},
    {"grows", OUT_STR, LF_CUT_END, OUT_OPTIONAL},
    {"bytes_rate", OUT_REAL, LF_CUT_END, OUT_OPTIONAL},
    {"held_by", OUT_STR, LF_CUT_END, OUT_OPTIONAL},
};

/* One finding's row (see suspect_columns). */
static void write_finding(out_writer *w, const lf_snapshot *s, const lf_trend *t, const lf_suspect *f,
                          uint64_t rank)
{
    double heap = s->reachable_shallow ? (double)s->reachable_shallow : 1.0;
    out_u64(w, rank);
    out_cstr(w, kind_name(f->kind));
    out_bytes(w, f->retained);
    out_pct(w, 100.0 * (double)f->retained / heap);
    out_u64(w, f->instances);
    if (f->kind == LF_SUSPECT_GROWTH)
        out_str(w, t->names.bytes + t->names.offset[f->name], t->names.offset[f->name + 1] - t->names.offset[f->name]);
    else
        write_class(w, s, f->cls);
    write_node_id(w, s, f->node);
    int has_point = f->node != LF_NODE_NONE;
    write_node_id(w, s, has_point ? f->acc.point : LF_NODE_NONE);
    if (has_point) {
        lf_str name = lf_snapshot_object_label(s, f->acc.point);
        out_str(w, name.ptr, name.len);
    } else {
        out_null(w);
    }
    out_u64(w, f->acc.count);
    write_class(w, s, has_point ? f->acc.cls : LF_NODE_NONE);
    out_bytes(w, f->acc.bytes);
    if (f->kind == LF_SUSPECT_GROWTH) {
        out_real(w, f->rate, 2);
        out_u64_list(w, f->counts, t->series);
    } else {
        out_null(w);
        out_null(w);
    }
    char text[8192];
    size_t len = lf_suspect_path_text(s, f, text, sizeof text);
    if (len)
        out_str(w, text, len);
    else
        out_null(w);
    if (f->kind == LF_SUSPECT_GROWTH) {
        len = growth_text(t, f, text, sizeof text);
        out_str(w, text, len);
        out_real(w, f->bytes_rate, 2);
    } else {
        out_null(w);
        out_null(w);
    }
    if (f->kind == LF_SUSPECT_GROWTH && f->finaliser_held)
        out_cstr(w, "finaliser");
    else
        out_null(w);
    out_row_end(w);
}

/* The findings as rows (TSV, JSON) or, on a terminal, paragraphs
 * (suspects_text.h); minor ones are left to note_minor. 0 or an exit code. */
static int write_findings(const cli_context *ctx, const lf_snapshot *s, const lf_trend *t, const suspects_state *o,
                          const lf_suspect_list *list)
{
    if (ctx->format == OUT_TABLE) {
        size_t width = out_table_limit();
        suspects_text x = {s, t->series > 1 ? t : NULL, o->workload.given ? "unit of workload" : "snapshot",
                           width ? width : 80};
        if (suspects_write_text(stdout, &x, list) == 0)
            return 0;
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    out_writer *w = out_begin(stdout, ctx->format, suspect_columns,
                              (int)(sizeof suspect_columns / sizeof *suspect_columns));
    for (size_t k = 0, rank = 0; k < list->count; k++)
        if (!list->item[k].minor)
            write_finding(w, s, t, &list->item[k], ++rank);
    out_end(w);
    return 0;
}

/* The growth findings too small to chase, in one note: what, how fast, where. */
static void note_minor(const cli_context *ctx, const lf_snapshot *s, const lf_trend *t, const suspects_state *o,
                       const lf_suspect_list *list)
{
    char text[2048], path[1024];
    size_t at = 0, count = 0;
    for (size_t k = 0; k < list->count; k++) {
        const lf_suspect *f = &list->item[k];
        if (!f->minor)
            continue;
        if (count++ < 3 && at + 1 < sizeof text) {
            lf_str name = {t->names.bytes + t->names.offset[f->name],
                           t->names.offset[f->name + 1] - t->names.offset[f->name]};
            size_t len = lf_suspect_path_text(s, f, path, sizeof path);
            lf_appendf(text, sizeof text, &at, "%s%.*s %+.2f in %.*s", at ? "; " : "",
                       name.len > 300 ? 300 : (int)name.len, name.ptr, f->rate, len ? (int)len : 10,
                       len ? path : "(GC roots)");
        }
    }
    if (count && !ctx->quiet)
        cli_message("note", "%zu smaller growth%s left out (under %g%% of the largest's bytes per unit, or 0.00 per "
                    "unit): %s%s; --minor 0 lists them", count, count == 1 ? "" : "s", o->minor, text,
                    count > 3 ? "; ..." : "");
}

/* Growth findings (a series), then size findings, with their paths;
 * 0 or an exit code. */
static int find_all(cli_context *ctx, const char *path, const lf_snapshot *s, suspects_series *series,
                    const suspects_state *o, lf_suspect_list *list)
{
    const lf_trend_rule rule = {o->min_growth, 0.9, 0, 0.5, o->minor / 100};
    lf_error err;
    cli_progress(ctx, "finding suspects");
    int rc = lf_suspects_finish(s, series->trend, o->workload.value, &rule, o->threshold, o->top, &series->work,
                                list, &err);
    cli_progress_done(ctx);
    return rc ? cli_input_error(path, &err) : 0;
}

static int run(cli_context *ctx, char **series, int n, suspects_state *o)
{
    lf_trend t;
    lf_snapshot s;
    lf_error err;
    if (lf_trend_init(&t, (uint32_t)n, &err))
        return cli_input_error(series[n - 1], &err);
    lf_trend_use_threads(&t, ctx->threads);
    suspects_series counting = {.trend = &t, .last = (uint32_t)n - 1, .threads = ctx->threads,
                                .threshold = o->threshold};
    int rc = series_read_overlapping(ctx, series, n, add_to_trend, &counting, &s);
    if (rc) {
        lf_suspects_work_free(&counting.work);
        lf_trend_free(&t);
        return rc;
    }
    lf_suspect_list list = {0};
    if (!(rc = find_all(ctx, series[n - 1], &s, &counting, o, &list))) {
        size_t shown = 0, growth = 0;
        for (size_t k = 0; k < list.count; k++) {
            shown += !list.item[k].minor;
            growth += list.item[k].kind == LF_SUSPECT_GROWTH && !list.item[k].minor;
        }
        rc = write_findings(ctx, &s, &t, o, &list);
        note_minor(ctx, &s, &t, o, &list);
        const char *aside = lf_suspects_set_aside(&s);
        if (shown == 0 && !ctx->quiet)
            cli_message("note", "no finding: no object or class retains %g%% of the reachable heap%s%s%s%s",
                        o->threshold * 100, aside ? " (" : "", aside ? aside : "", aside ? ", aside)" : "",
                        n > 1 ? ", and nothing grows with the workload under one holder" : "");
        if (!rc && o->exit_code && (n > 1 ? growth > 0 : shown > 0))
            rc = EXIT_CONDITION;
    }
    lf_suspect_list_free(&list);
    lf_suspects_work_free(&counting.work);
    lf_snapshot_free(&s);
    lf_trend_free(&t);
    return rc;
}

/* The reading of a trace's suspects (a cli_trace_reading; arg is the
 * lf_mt_suspects). */
static int read_suspects(int fd, void *arg, lf_mt_trace *t, lf_error *err)
{
    const lf_mt_rules rules = LF_MT_RULES_DEFAULT;
    return lf_mt_suspects_read(fd, &rules, t, NULL, arg, err);
}

static int suspects_trace(cli_context *ctx, const char *path, const suspects_state *opt)
{
    lf_mt_trace t;
    lf_mt_suspects found;
    int rc = cli_read_trace(ctx, path, read_suspects, &found, &t);
    if (rc)
        return rc;
    static const out_column cols[] = {
        {"kind", OUT_STR, LF_CUT_END, OUT_NORMAL},
        {"est_bytes", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"blocks", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"samples", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"spread_pct", OUT_PCT, LF_CUT_END, OUT_OPTIONAL},
        {"fit", OUT_STR, LF_CUT_END, OUT_NORMAL},
        {"site", OUT_STR, LF_CUT_SITE, OUT_KEY},
        {"backtrace", OUT_STR, LF_CUT_SITE, OUT_OPTIONAL},
    };
    if (!found.suspects)
        cli_message("note", "no accumulating site in '%s': nothing live at the end was "
                    "allocated steadily through the run", path);
    if (ctx->format == OUT_TABLE) {
        size_t width = out_table_limit();
        rc = suspects_write_trace_text(stdout, &t, &found, opt->top, width ? width : 80) ? EXIT_SYSTEM : EXIT_OK;
        if (rc)
            cli_message("error", "out of memory");
        lf_mt_suspects_free(&found);
        lf_mt_trace_free(&t);
        return rc;
    }
    out_writer *w = out_begin(stdout, ctx->format, cols, 8);
    for (uint32_t i = 0; i < found.suspects && (!opt->top || i < opt->top); i++) {
        const lf_mt_suspect *s = &found.item[i];
        char site[512], fit[16], *bt = malloc(8192);
        if (!bt)
            break;
        lf_mt_frame_label(&t, lf_mt_site_frame(&t, s->site), site, sizeof site);
        trace_backtrace_text(&t, s->site, bt, 8192);
        snprintf(fit, sizeof fit, "%.3f", s->fit);
        out_cstr(w, "accumulating");
        out_bytes(w, (uint64_t)llround(s->est_bytes));
        out_u64(w, s->blocks);
        out_u64(w, s->samples);
        out_pct(w, 100 * s->spread);
        out_cstr(w, fit);
        out_cstr(w, site);
        out_cstr(w, bt);
        out_row_end(w);
        free(bt);
    }
    out_end(w);
    lf_mt_suspects_free(&found);
    lf_mt_trace_free(&t);
    return EXIT_OK;
}

int cmd_suspects(int argc, char **argv)
{
    cli_context ctx = {0};
    static suspects_state opt;
    memset(&opt, 0, sizeof opt);
    opt.threshold = 0.1;
    opt.top = 10;
    opt.min_growth = 10;
    opt.minor = 1;
    char **pos;
    int npos;
    int rc = cli_parse(&ctx, argc, argv, &suspects_spec, &opt, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    static char *series[SERIES_MAX];
    if (npos == 1 && cli_is_trace(pos[0])) {
        rc = suspects_trace(&ctx, pos[0], &opt);
        free(pos);
        return rc;
    }
    for (int i = 0; npos > 1 && i < npos && !rc; i++)
        if (cli_is_trace(pos[i]))
            rc = cli_usage_error(&ctx, "'%s' is a Memtrace trace: suspects reads one trace alone, or a snapshot and "
                                 "earlier ones", pos[i]);
    if (!rc && (npos < 1 || npos > SERIES_MAX))
        rc = cli_usage_error(&ctx, "suspects takes a snapshot and earlier ones (at most %d in all)", SERIES_MAX);
    if (!rc && !(rc = cli_check_stdin_once(&ctx, pos, npos)) &&
        !(rc = series_order(&ctx, pos, npos, &opt.workload, SERIES_NEWEST_FIRST, series)))
        rc = run(&ctx, series, npos, &opt);
    free(pos);
    return rc;
}
