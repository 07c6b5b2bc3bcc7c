/* cmd_sites.c - `leakfind sites`: retained memory per allocation site (DESIGN 10). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/analysis.h"
#include "../core/analysis/caller_tree.h"
#include "../core/analysis/site_groups.h"
#include "../core/base/bigmem.h"
#include "../core/input/trace_open.h"
#include "cli/cli.h"
#include "cli/trace_rows.h"
#include "cli/trace_window.h"
#include "commands.h"
#include "sites/trace_sites.h"

static const char sites_usage[] =
    "usage: leakfind sites SNAPSHOT|TRACE [options]\n"
    "       leakfind sites TRACE.nettrace [--with DUMP] [options]\n"
    "\n"
    "One row per allocation site, where the dump recorded one (V8 with allocation\n"
    "tracking, OCaml with sampling, Android HPROF with allocation tracking): count,\n"
    "shallow bytes, retained bytes (objects of the site not below another object of\n"
    "the site in the dominator tree, so nothing is counted twice) and retained as %\n"
    "of the reachable heap. Objects allocated where nothing was recorded are one row,\n"
    "(no site). A sampled dump (OCaml) also gives est_count and est_bytes: the\n"
    "site's live objects and bytes estimated from the sample and its rate.\n"
    "A Memtrace trace (docs/MEMTRACE.md) gives its sampled blocks live at the end,\n"
    "or those the time filters below keep, each as a sampled object.\n"
    "\n"
    "On a .nettrace (dotnet-trace, .NET): one row per allocated type and site from\n"
    "the GC allocation ticks, a sample (about one per 100 KB allocated): ticks,\n"
    "est_bytes (the bytes the ticks stand for) and est_pct of all. --with DUMP (a\n"
    ".gcdump taken at the end) adds what the dump still holds of each type:\n"
    "live_count, live_shallow, live_retained.\n";

typedef enum sort_key { SORT_RETAINED, SORT_SHALLOW, SORT_COUNT, SORT_SITE, SORT_EST_BYTES,
                        SORT_DEFAULT } sort_key;

typedef struct sites_options_state {
    uint64_t stack, top;
    int sort;      /* a sort_key, as CLI_ENUM stores it */
    int by;        /* BY_SITE or BY_CALLER, as CLI_ENUM stores it */
    int timeline;  /* a trace: live bytes over time instead of sites */
    cli_trace_window window;
    const char *with;
} sites_options_state;

/* in the order of sort_key */
static const char *const sort_names[] = {"retained", "shallow", "count", "site", "est_bytes", NULL};

enum { BY_SITE, BY_CALLER };
static const char *const by_names[] = {"site", "caller", NULL};
#define STACK_DEFAULT UINT64_MAX

static const cli_option sites_options[] = {
    CLI_STACK_OPTION(sites_options_state, stack,
                     "a site is its N innermost frames (default 1; 0 = the whole\n"
                     "stack); --by caller: N levels (default 4)"),
    {"by", 0, "site|caller", CLI_ENUM, CLI_AT(sites_options_state, by),
     .help = "caller: the allocating frames, the callers of each under\n"
             "it, as the Memtrace viewer's icicle (rows with depth)", .names = by_names},
    {"top", 0, "N", CLI_COUNT, CLI_AT(sites_options_state, top),
     .help = "at most N rows (default 50; 0 = all)"},
    {"sort", 0, "KEY", CLI_ENUM, CLI_AT(sites_options_state, sort),
     .help = "retained (default), shallow, count, site or est_bytes\n"
             "(a Memtrace trace: est_bytes by default; a .nettrace:\n"
             "retained and shallow are est_bytes, count is ticks)",
     .names = sort_names},
    CLI_TRACE_WINDOW_OPTIONS(sites_options_state, window),
    {"timeline", 0, NULL, CLI_FLAG, CLI_AT(sites_options_state, timeline),
     .help = "trace: the live bytes over time instead, rows of time_s,\n"
             "live_bytes (every block) and kept_bytes (the filters')"},
    {"with", 0, "DUMP", CLI_STRING, CLI_AT(sites_options_state, with),
     .help = "on a .nettrace: join each type with what DUMP still holds of it"},
    {0},
};

static const cli_spec sites_spec = {sites_usage, sites_options, 26, NULL};

/* A group's row: its totals and, for a sampled dump, the estimates. */
typedef struct site_row {
    uint32_t group;
    uint64_t count, shallow, retained;
    double est_count, est_bytes;
    char *label;
} site_row;

static sort_key sort_by;

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
    return a == b ? 0 : a > b ? -1 : 1;
}

/* Total order: the chosen key, then retained, shallow, count, label. */
static int by_key(const void *pa, const void *pb)
{
    const site_row *x = pa, *y = pb;
    int c = 0;
    if (sort_by == SORT_EST_BYTES)
        c = x->est_bytes == y->est_bytes ? 0 : x->est_bytes > y->est_bytes ? -1 : 1;
    else if (sort_by == SORT_SHALLOW)
        c = cmp_u64_desc(x->shallow, y->shallow);
    else if (sort_by == SORT_COUNT)
        c = cmp_u64_desc(x->count, y->count);
    else if (sort_by == SORT_SITE)
        c = strcmp(x->label, y->label);
    if (!c)
        c = cmp_u64_desc(x->retained, y->retained);
    if (!c)
        c = cmp_u64_desc(x->shallow, y->shallow);
    if (!c)
        c = cmp_u64_desc(x->count, y->count);
    if (!c)
        c = strcmp(x->label, y->label);
    if (!c)
        c = x->group < y->group ? -1 : x->group > y->group;
    return c;
}

/* The groups that have objects, as rows with labels; NULL when out of memory. */
static site_row *make_rows(const lf_snapshot *s, const lf_site_groups *g,
                           const uint32_t *group_of_node, const lf_class_totals *t,
                           uint32_t *listed)
{
    site_row *rows = calloc(g->count, sizeof *rows);
    double *est = s->object_samples ? calloc((size_t)g->count * 2, sizeof *est) : NULL;
    if (!rows || (s->object_samples && !est)) {
        free(rows);
        free(est);
        return NULL;
    }
    if (est) {
        lf_site_estimates(s, group_of_node, g->count, est, est + g->count);
        for (uint32_t k = 0; k < g->count; k++) {
            rows[k].est_count = est[k];
            rows[k].est_bytes = est[g->count + k];
        }
        free(est);
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < g->count; k++) {
        if (!t->count[k])
            continue;
        site_row r = rows[k];
        r.group = k;
        r.count = t->count[k];
        r.shallow = t->shallow[k];
        r.retained = t->retained[k];
        size_t len = lf_site_label(s, g->site_of[k], g->depth, NULL, 0);
        r.label = malloc(len + 1);
        if (!r.label) {
            for (uint32_t i = 0; i < n; i++)
                free(rows[i].label);
            free(rows);
            return NULL;
        }
        lf_site_label(s, g->site_of[k], g->depth, r.label, len + 1);
        rows[n++] = r;
    }
    *listed = n;
    return rows;
}

/* The columns of a sampled dump's table as a terminal narrows them: the
 * sampled objects' count and shallow bytes say less than the estimates,
 * so they give way first, with est_count; est_bytes, what the live
 * blocks are estimated to weigh, stays. The column the rows are sorted by
 * never goes: rows in an order no shown column explains read as unsorted. */
static void rank_sampled_columns(out_column *cols, sort_key sort)
{
    enum { COL_COUNT, COL_SHALLOW, COL_RETAINED, COL_PCT, COL_EST_COUNT, COL_EST_BYTES };
    cols[COL_COUNT].rank = cols[COL_SHALLOW].rank = cols[COL_EST_COUNT].rank = OUT_OPTIONAL;
    cols[COL_EST_BYTES].rank = OUT_NORMAL;
    if (sort == SORT_COUNT)
        cols[COL_COUNT].rank = OUT_NORMAL;
    else if (sort == SORT_SHALLOW)
        cols[COL_SHALLOW].rank = OUT_NORMAL;
}

static void print_rows(const lf_snapshot *s, out_format format, const site_row *rows,
                       uint32_t listed, uint64_t top, sort_key sort)
{
    out_column cols[] = {
        {"count", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"shallow", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained_pct", OUT_PCT, LF_CUT_END, OUT_NORMAL},
        {"est_count", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"est_bytes", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"site", OUT_STR, LF_CUT_SITE, OUT_KEY},
    };
    static const out_column table_cols[] = {
        {"count", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"shallow", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained_pct", OUT_PCT, LF_CUT_END, OUT_NORMAL},
        {"site", OUT_STR, LF_CUT_SITE, OUT_KEY},
    };
    const int sampled = s->object_samples != NULL;
    const int with_estimates = sampled || format != OUT_TABLE;
    if (sampled)
        rank_sampled_columns(cols, sort);
    out_writer *w = with_estimates ? out_begin(stdout, format, cols, 7)
                                   : out_begin(stdout, format, table_cols, 5);
    double heap = s->reachable_shallow ? (double)s->reachable_shallow : 1.0;
    for (uint32_t i = 0; i < listed && (top == 0 || i < top); i++) {
        out_u64(w, rows[i].count);
        out_bytes(w, rows[i].shallow);
        out_bytes(w, rows[i].retained);
        out_pct(w, 100.0 * (double)rows[i].retained / heap);
        if (with_estimates && sampled && rows[i].group) {
            out_u64(w, (uint64_t)llround(rows[i].est_count));
            out_bytes(w, (uint64_t)llround(rows[i].est_bytes));
        } else if (with_estimates) {
            out_null(w);
            out_null(w);
        }
        out_cstr(w, rows[i].label);
        out_row_end(w);
    }
    out_end(w);
}

/* The snapshot, or the trace's window as one. With --timeline, the trace's
 * timeline is printed and *done set instead. */
static int open_input(cli_context *ctx, const char *path, const sites_options_state *opt,
                      lf_snapshot *s, int *done)
{
    if (cli_is_trace(path)) {
        lf_mt_trace t;
        lf_mt_timeline tl;
        int rc = cli_open_trace(ctx, path, &opt->window, &t, &tl, s);
        if (!rc && opt->timeline) {
            trace_timeline_rows(&t, &tl, ctx->format);
            lf_snapshot_free(s);
            *done = 1;
        }
        if (!rc)
            lf_mt_trace_free(&t);
        return rc;
    }
    if (cli_trace_window_given(&opt->window) || opt->timeline)
        return cli_usage_error(ctx, "--live-at, --live-between, --allocated-between and --timeline "
                                    "are for a Memtrace trace; '%s' is not one", path);
    return cli_open_analyzed(ctx, path, s);
}

static int by_est_bytes_desc(const void *pa, const void *pb)
{
    const lf_caller_node *const *a = pa, *const *b = pb;
    if ((*a)->est_bytes != (*b)->est_bytes)
        return (*a)->est_bytes > (*b)->est_bytes ? -1 : 1;
    return (*a)->frame < (*b)->frame ? -1 : (*a)->frame > (*b)->frame;
}

/* The tree's rows, depth first, each node's children largest first (at most
 * `top` of them, 0: all): an explicit stack, as deep as --stack. */
static int print_callers(const lf_snapshot *s, out_format format, const lf_caller_tree *t,
                         uint64_t top)
{
    static const out_column cols[] = {
        {"depth", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"count", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"shallow", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"est_bytes", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"frame", OUT_STR, LF_CUT_PATH, OUT_KEY},
    };
    const lf_caller_node **stack = malloc((size_t)t->count * sizeof *stack);
    const lf_caller_node **kids = malloc((size_t)t->count * sizeof *kids);
    if (!stack || !kids) {
        free(stack);
        free(kids);
        return -1;
    }
    out_writer *w = out_begin(stdout, format, cols, 5);
    size_t sp = 0;
    stack[sp++] = &t->node[0];
    while (sp) {
        const lf_caller_node *n = stack[--sp];
        if (n->depth) {
            char label[1024];
            lf_frame_label(s, n->frame, label, sizeof label);
            out_u64(w, n->depth);
            out_u64(w, n->count);
            out_bytes(w, n->shallow);
            out_bytes(w, (uint64_t)llround(n->est_bytes));
            out_indent(w, n->depth - 1);
            out_cstr(w, label);
            out_row_end(w);
        }
        size_t k = 0;
        for (uint32_t c = n->first_child; c != LF_CALLER_NONE; c = t->node[c].next_sibling)
            kids[k++] = &t->node[c];
        qsort(kids, k, sizeof *kids, by_est_bytes_desc);
        if (top && k > top)
            k = (size_t)top;
        while (k) /* the largest on top of the stack */
            stack[sp++] = kids[--k];
    }
    out_end(w);
    free(stack);
    free(kids);
    return 0;
}

static int sites_by_caller(const char *path, cli_context *ctx, const sites_options_state *opt,
                           lf_snapshot *s)
{
    lf_caller_tree t;
    lf_error err;
    uint32_t depth = opt->stack == STACK_DEFAULT ? 4 : opt->stack == 0 ? UINT32_MAX - 1
                                                                         : (uint32_t)opt->stack;
    int rc = lf_caller_tree_make(s, depth, &t, &err);
    if (!rc && print_callers(s, ctx->format, &t, opt->top))
        rc = lf_fail_nomem(&err, "listing the callers");
    lf_caller_tree_free(&t);
    lf_snapshot_free(s);
    return rc ? cli_input_error(path, &err) : EXIT_OK;
}

/* A .nettrace's sites: the exit code, or -1 when path is not a trace. */
static int sites_of_trace(cli_context *ctx, const char *path, const sites_options_state *opt)
{
    lf_nettrace t;
    lf_error err;
    cli_progress(ctx, "reading the trace");
    int rc = lf_trace_open(path, &t, &err);
    cli_progress_done(ctx);
    if (rc == 0)
        return -1;
    if (rc < 0)
        return cli_input_error(path, &err);
    if (opt->by == BY_CALLER || opt->timeline || cli_trace_window_given(&opt->window)) {
        lf_nettrace_free(&t);
        return cli_usage_error(ctx, "--by caller, --timeline and the time filters are for a Memtrace "
                                    "trace or a dump with sites; '%s' is a .nettrace", path);
    }
    trace_sort sort = opt->sort == SORT_COUNT ? TRACE_SORT_TICKS
                      : opt->sort == SORT_SITE ? TRACE_SORT_SITE
                                               : TRACE_SORT_BYTES;
    uint32_t stack = opt->stack == STACK_DEFAULT ? 1 : (uint32_t)opt->stack;
    rc = trace_sites_run(ctx, path, &t, stack, opt->top, sort, opt->with);
    lf_nettrace_free(&t);
    return rc;
}

int cmd_sites(int argc, char **argv)
{
    cli_context ctx = {0};
    sites_options_state opt = {STACK_DEFAULT, 50, SORT_DEFAULT, BY_SITE, 0, {0}, NULL};
    const char *path;
    char **args = cli_trace_join_args(argc, argv, &argc);
    if (!args)
        return EXIT_SYSTEM;
    int rc = cli_parse_one(&ctx, argc, args, &sites_spec, &opt, &path);
    free(args);
    if (rc >= 0)
        return rc;
    if ((rc = sites_of_trace(&ctx, path, &opt)) >= 0)
        return rc;
    if (opt.with)
        return cli_usage_error(&ctx, "--with joins a .nettrace's allocation sites with a dump; "
                               "'%s' is not a .nettrace", path);
    lf_snapshot s;
    int done = 0;
    if ((rc = open_input(&ctx, path, &opt, &s, &done)) || done)
        return rc;
    if (opt.sort == SORT_DEFAULT) /* a trace's sampled blocks are few: their estimate counts */
        opt.sort = s.source_format == LF_FORMAT_MEMTRACE ? SORT_EST_BYTES : SORT_RETAINED;
    if (!s.object_site && s.source_format == LF_FORMAT_MEMTRACE) {
        cli_message("note", "no sampled block of '%s' passes the filters", path);
        lf_snapshot_free(&s);
        return EXIT_OK;
    }
    if (opt.by == BY_CALLER && s.object_site)
        return sites_by_caller(path, &ctx, &opt, &s);
    if (opt.stack == STACK_DEFAULT)
        opt.stack = 1;
    if (!s.object_site) {
        if (s.format == LF_FORMAT_GCDUMP)
            cli_message("note", "'%s' is a .gcdump, which has no allocation sites: for .NET, record "
                        "the allocations with 'dotnet-trace collect -p PID --providers "
                        "Microsoft-Windows-DotNETRuntime:0x1:5 -o TRACE.nettrace', take the .gcdump "
                        "at the end, then run 'leakfind sites TRACE.nettrace --with %s' "
                        "(docs/DOTNET.md)", path, path);
        else
            cli_message("note", "'%s' has no allocation sites: take the dump with allocation "
                        "tracking on (see 'leakfind sites -h' and docs/SITES.md)", path);
        lf_snapshot_free(&s);
        return EXIT_OK;
    }
    lf_error err;
    lf_site_groups g;
    lf_class_totals t = {0};
    uint32_t *group_of_node = NULL, listed = 0;
    site_row *rows = NULL;
    cli_progress(&ctx, "grouping by allocation site");
    rc = lf_site_groups_make(&s, (uint32_t)opt.stack, &g, &err);
    if (!rc && !(group_of_node = lf_site_groups_of_nodes(&s, &g)))
        rc = lf_fail_nomem(&err, "grouping allocation sites");
    if (!rc)
        rc = lf_group_totals_compute(&s, group_of_node, g.count, &t, &err);
    if (!rc && !(rows = make_rows(&s, &g, group_of_node, &t, &listed)))
        rc = lf_fail_nomem(&err, "listing allocation sites");
    cli_progress_done(&ctx);
    if (!rc) {
        sort_by = opt.sort;
        qsort(rows, listed, sizeof *rows, by_key);
        if (s.object_samples && !ctx.quiet)
            /* at any width: a narrow table leaves shallow and est_count out */
            cli_message("note", "allocations were sampled (rate %g per word): the counts and sizes are the "
                        "sampled objects', the est_ columns estimates",
                        s.sample_rate);
        print_rows(&s, ctx.format, rows, listed, opt.top, (sort_key)opt.sort);
        for (uint32_t i = 0; i < listed; i++)
            free(rows[i].label);
    }
    free(rows);
    lf_big_free(group_of_node);
    lf_class_totals_free(&t);
    if (g.of_site)
        lf_site_groups_free(&g);
    lf_snapshot_free(&s);
    return rc ? cli_input_error(path, &err) : EXIT_OK;
}
