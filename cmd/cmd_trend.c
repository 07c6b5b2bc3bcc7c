/* cmd_trend.c - `leakfind trend`: what grows with the workload. */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/trend.h"
#include "cli/cli.h"
#include "cli/owner_growth.h"
#include "cli/series.h"
#include "commands.h"

static const char trend_usage[] =
    "usage: leakfind trend S1 S2 S3... [--workload W1,W2,W3...] [options]\n"
    "\n"
    "S1 S2 S3...: snapshots of one process, in any order (see Order below).\n"
    "Per class: the live instances in each snapshot (counts), their growth per\n"
    "unit of workload by least squares (slope), how well a line fits (r2, 0 to\n"
    "1), whether the count never decreased (monotonic), and whether the class\n"
    "is flagged as growing with the workload: monotonic, r2 at least --min-r2,\n"
    "slope above --min-slope and at least --min-growth more instances in the\n"
    "last snapshot than in the first; and the growth accumulates under\n"
    "holders (holder, holder_counts: the steepest, by bytes where counts tie):\n"
    "objects that existed in\n"
    "the first snapshot whose counts of the class's objects grow by the same\n"
    "tests, one of them or together carrying at least --min-share of the\n"
    "class's gain; holders: how many grow so (a table shows it only where\n"
    "more than one does). VM warm-up, a few objects under each of many\n"
    "holders, is not flagged. verdict: grows (flagged), 'grows, uneven' (all\n"
    "tests but r2 pass: never shrank, grew in bursts; not flagged), warm-up\n"
    "(no holder grows steadily), small, fluctuates or shrinks. Growing rows\n"
    "(grows, 'grows, uneven') first, then the rest, each by gain in\n"
    "instances first to last. Classes whose count never changed are left out.\n";

typedef struct trend_state {
    series_workload workload;
    uint64_t top, stack;
    lf_trend_rule rule;
    int exit_code, owners, by_site;
} trend_state;

static const cli_option trend_options[] = {
    SERIES_WORKLOAD_OPTION(trend_state, workload,
                           "the work done at each snapshot, e.g. 100,200,300\n"
                           "(requests, operations; default 1,2,...,N)"),
    SERIES_RULE_OPTIONS(trend_state, rule, "default 10 instances", "default 0.9",
                        "default 0 (instances per unit of workload)",
                        "default 0.5 (of the class's gain, under one holder)"),
    {"exit-code", 0, NULL, CLI_FLAG, CLI_AT(trend_state, exit_code),
     .help = "exit 1 when a class is flagged (not 'grows, uneven')"},
    {"top", 0, "N", CLI_COUNT, CLI_AT(trend_state, top), .help = "at most N rows (default 0 = all)"},
    {"owners", 0, NULL, CLI_FLAG, CLI_AT(trend_state, owners),
     .help = "what grew from the first snapshot to the last, by owner\n"
             "(as diff --owners), with objects per unit of workload"},
    {"by-site", 0, NULL, CLI_FLAG, CLI_AT(trend_state, by_site),
     .help = "per allocation site instead of per class (dumps taken with\n"
             "allocation tracking; see 'leakfind sites'); the class\n"
             "column is then named site"},
    CLI_STACK_OPTION(trend_state, stack,
                     "with --by-site: a site is its N innermost frames (default 1,\n"
                     "0 = the whole stack)"),
    {0},
};

static const cli_spec trend_spec = {trend_usage, trend_options, 20, SERIES_ORDER_NOTE};

/* --owners: the first and the last snapshot, compared by owner. */
static int trend_owners(cli_context *ctx, char **pos, int npos, const trend_state *opt)
{
    lf_snapshot s[2];
    int rc = cli_open_analyzed(ctx, pos[0], &s[0]);
    if (rc)
        return rc;
    if ((rc = cli_open_analyzed(ctx, pos[npos - 1], &s[1]))) {
        lf_snapshot_free(&s[0]);
        return rc;
    }
    int grew = 0;
    double span = opt->workload.value[npos - 1] - opt->workload.value[0];
    rc = show_owner_growth(ctx, s, opt->top, opt->rule.min_growth, 0, span > 0 ? span : 1, &grew);
    lf_snapshot_free(&s[0]);
    lf_snapshot_free(&s[1]);
    if (rc)
        return EXIT_SYSTEM;
    return opt->exit_code && grew ? EXIT_CONDITION : EXIT_OK;
}

typedef struct trend_row {
    uint32_t cls;
    lf_trend_fit fit;
    lf_trend_verdict verdict;
    int flagged;
    int growing;              /* grows, evenly (flagged) or not */
    int64_t gain;             /* instances, last snapshot minus first */
    int64_t holder;           /* row in t.holders, or -1 */
    uint32_t holders;         /* holders that grow by the rule (the row names one) */
} trend_row;

static const lf_trend *sorting;

/* The growing classes (flagged or uneven) first, largest gain first, so an
 * 8-fold burst is not listed under small steady leaks; then the rest by
 * gain; ties by flag, slope and name. */
static int by_growth(const void *a, const void *b)
{
    const trend_row *x = a, *y = b;
    if (x->growing != y->growing)
        return x->growing ? -1 : 1;
    if (x->gain != y->gain)
        return x->gain > y->gain ? -1 : 1;
    if (x->flagged != y->flagged)
        return x->flagged ? -1 : 1;
    if (x->fit.slope != y->fit.slope)
        return x->fit.slope > y->fit.slope ? -1 : 1;
    const lf_strtab *t = &sorting->names;
    size_t lx = t->offset[x->cls + 1] - t->offset[x->cls], ly = t->offset[y->cls + 1] - t->offset[y->cls];
    int c = memcmp(t->bytes + t->offset[x->cls], t->bytes + t->offset[y->cls], lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

typedef struct trend_adding {
    const trend_state *opt;
    lf_trend *t;
    char **pos;
} trend_adding;

static int add_grouped(void *state, const lf_snapshot *s, uint32_t index, lf_error *err)
{
    trend_adding *a = state;
    lf_grouping g;
    int rc = cli_make_grouping(a->pos[index], s, a->opt->by_site, (uint32_t)a->opt->stack, &g);
    if (!rc && lf_trend_add_grouped(a->t, s, &g, err))
        rc = -1;
    lf_grouping_free(&g);
    return rc;
}

/* Adds each snapshot's counts to t, one snapshot in memory at a time;
 * 0 or an exit code. */
static int add_series(cli_context *ctx, char **pos, int npos, const trend_state *opt, lf_trend *t)
{
    trend_adding adding = {opt, t, pos};
    lf_snapshot last;
    /* by site, an add may say a dump has no sites: in order, one at a time */
    int rc = opt->by_site ? series_read(ctx, pos, npos, add_grouped, &adding, &last)
                          : series_read_overlapping(ctx, pos, npos, add_grouped, &adding, &last);
    if (rc)
        return rc;
    lf_snapshot_free(&last);
    /* groups alive in the first and in the last snapshot: few shared means
     * the snapshots are probably of different programs */
    uint32_t first_live = 0, shared = 0;
    for (uint32_t c = 0; c < t->classes; c++) {
        const uint64_t *y = t->count + (size_t)c * t->capacity;
        first_live += y[0] || y[npos - 1];
        shared += y[0] && y[npos - 1];
    }
    if (!ctx->quiet && first_live > 0 && shared * 2 < first_live)
        cli_message("warning", "only %u of %u %s occur in both the first and the last snapshot: "
                    "are they of the same program?", shared, first_live,
                    opt->by_site ? "sites" : "classes");
    return 0;
}

/* The rows whose counts changed, each fitted, judged and flagged, growing
 * ones first; NULL when out of memory. */
static trend_row *flag_rows(const lf_trend *t, int npos, const trend_state *opt, uint32_t *rows_out,
                            uint32_t *flagged_out, uint32_t *uneven_out)
{
    trend_row *rows = malloc(((size_t)t->classes + 1) * sizeof *rows);
    if (!rows)
        return NULL;
    const lf_trend_rule rule = opt->rule;
    uint32_t n = 0, flagged = 0;
    for (uint32_t c = 0; c < t->classes; c++) {
        const uint64_t *y = t->count + (size_t)c * t->capacity;
        int changes = 0;
        for (int i = 1; i < npos; i++)
            changes |= y[i] != y[0];
        if (!changes)
            continue;
        trend_row *r = &rows[n++];
        r->cls = c;
        /* the class grows, and the growth piles up under one holder (not
         * warm-up: a few new objects under each of many holders) */
        r->verdict = lf_trend_judge(t, c, opt->workload.value, &rule, &r->fit, &r->holder);
        r->flagged = r->verdict == LF_TREND_GROWS;
        r->growing = r->flagged || r->verdict == LF_TREND_UNEVEN;
        r->gain = (int64_t)y[npos - 1] - (int64_t)y[0];
        r->holders = lf_trend_growing_holders(t, c, opt->workload.value, &rule, r->verdict);
        flagged += (uint32_t)r->flagged;
        *uneven_out += r->verdict == LF_TREND_UNEVEN;
    }
    sorting = t;
    qsort(rows, n, sizeof *rows, by_growth);
    *rows_out = n;
    *flagged_out = flagged;
    return rows;
}

/* A row's slope is its class's, which several holders may share: say so
 * once, as the row names one of them. */
static void note_shared_growth(const lf_trend *t, const trend_row *r, uint32_t classes)
{
    const lf_strtab *names = &t->names;
    int len = (int)(names->offset[r->cls + 1] - names->offset[r->cls]);
    if (classes == 1)
        cli_message("note", "%.*s grows under %u holders; its row names the steepest, trend --owners lists "
                    "each", len > 200 ? 200 : len, names->bytes + names->offset[r->cls], r->holders);
    else
        cli_message("note", "%u classes grow under several holders (column holders); their rows name the "
                    "steepest, trend --owners lists each", classes);
}

static void print_rows(const cli_context *ctx, const lf_trend *t, int npos, const trend_state *opt,
                       const trend_row *rows, uint32_t n)
{
    static const out_column columns[] = {
        {"slope", OUT_REAL, LF_CUT_END, OUT_NORMAL},
        {"r2", OUT_REAL, LF_CUT_END, OUT_SECONDARY},
        {"monotonic", OUT_BOOL, LF_CUT_END, OUT_OPTIONAL},
        {"flagged", OUT_BOOL, LF_CUT_END, OUT_OPTIONAL},
        {"counts", OUT_LIST, LF_CUT_END, OUT_SECONDARY},
        {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
        {"holder_counts", OUT_LIST, LF_CUT_END, OUT_OPTIONAL},
        {"holder", OUT_STR, LF_CUT_PATH, OUT_KEY},
        {"verdict", OUT_STR, LF_CUT_END, OUT_NORMAL},
        /* a table shows it only where the row's holder is one of several */
        {"holders", OUT_U64_SOMETIMES, LF_CUT_END, OUT_OPTIONAL},
    };
    out_column cols[10];
    memcpy(cols, columns, sizeof cols);
    if (opt->by_site) {
        cols[5].name = "site";
        cols[5].cut = LF_CUT_SITE; /* "fn (file:line)": its directories and column go first (site_cut.h) */
    }
    out_writer *w = out_begin(stdout, ctx->format, cols, 10);
    const int table = ctx->format == OUT_TABLE;
    uint32_t shared = 0, shared_row = 0;
    for (uint32_t k = 0; k < n && (opt->top == 0 || k < opt->top); k++) {
        const trend_row *r = &rows[k];
        out_real(w, r->fit.slope, 2);
        out_real(w, r->fit.r2, 3);
        out_bool(w, r->fit.monotonic);
        out_bool(w, r->flagged);
        char text[4096];
        out_u64_list(w, t->count + (size_t)r->cls * t->capacity, (size_t)npos);
        out_str(w, t->names.bytes + t->names.offset[r->cls], t->names.offset[r->cls + 1] - t->names.offset[r->cls]);
        if (r->holder < 0)
            out_null(w);
        else
            out_u64_list(w, t->holders.count + (size_t)r->holder * t->capacity, (size_t)npos);
        size_t o = r->holder < 0 ? 0 : lf_trend_holder_name(&t->holders, (size_t)r->holder, text, sizeof text);
        out_str(w, text, o);
        const char *verdict = lf_trend_verdict_name(r->verdict);
        out_str(w, verdict, strlen(verdict));
        if (table && r->holders < 2)
            out_null(w);
        else
            out_u64(w, r->holders);
        out_row_end(w);
        if (r->growing && r->holders > 1 && shared++ == 0)
            shared_row = k;
    }
    out_end(w);
    if (table && shared && !ctx->quiet)
        note_shared_growth(t, &rows[shared_row], shared);
}


int cmd_trend(int argc, char **argv)
{
    cli_context ctx = {0};
    static trend_state opt;
    memset(&opt, 0, sizeof opt);
    opt.rule = SERIES_RULE_DEFAULT;
    opt.stack = 1;
    char **pos;
    int npos;
    int rc = cli_parse(&ctx, argc, argv, &trend_spec, &opt, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (npos < 3 || npos > SERIES_MAX) {
        free(pos);
        if (npos == 2) /* no line through two points: what grew between them is a diff */
            return cli_usage_error(&ctx, "trend takes 3 or more snapshots (at most %d); for two, "
                                   "'leakfind diff BEFORE AFTER' says what grew", SERIES_MAX);
        return cli_usage_error(&ctx, "trend takes 3 or more snapshots (at most %d)", SERIES_MAX);
    }
    static char *series[SERIES_MAX];
    if ((rc = cli_check_stdin_once(&ctx, pos, npos)) ||
        (rc = series_order(&ctx, pos, npos, &opt.workload, SERIES_OLDEST_FIRST, series))) {
        free(pos);
        return rc;
    }
    memcpy(pos, series, (size_t)npos * sizeof *pos); /* oldest first from here on */
    if (opt.owners) {
        rc = trend_owners(&ctx, pos, npos, &opt);
        free(pos);
        return rc;
    }
    lf_trend t;
    lf_error err;
    if (lf_trend_init(&t, (uint32_t)npos, &err)) {
        free(pos);
        return cli_input_error(argv[0], &err);
    }
    lf_trend_use_threads(&t, ctx.threads);
    uint32_t n = 0, flagged = 0, uneven = 0;
    trend_row *rows = NULL;
    if (!(rc = add_series(&ctx, pos, npos, &opt, &t))) {
        if ((rows = flag_rows(&t, npos, &opt, &n, &flagged, &uneven))) {
            print_rows(&ctx, &t, npos, &opt, rows, n);
            rc = opt.exit_code && flagged ? EXIT_CONDITION : EXIT_OK;
            /* a CI gate that passes should not hide a burst of growth */
            if (opt.exit_code && uneven && !ctx.quiet) {
                const char *what = opt.by_site ? (uneven == 1 ? "site" : "sites")
                                               : (uneven == 1 ? "class" : "classes");
                cli_message("note", "%u %s grow%s unevenly (verdict 'grows, uneven', r2 below --min-r2 %.2f): "
                            "--exit-code counts only flagged rows; lower --min-r2 to count them",
                            uneven, what, uneven == 1 ? "s" : "", opt.rule.min_r2);
            }
        } else {
            cli_message("error", "out of memory");
            rc = EXIT_SYSTEM;
        }
    }
    free(rows);
    lf_trend_free(&t);
    free(pos);
    return rc;
}
