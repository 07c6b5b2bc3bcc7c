/* cmd_report.c - `leakfind report`: one self-contained HTML page (DESIGN 11)
 * with the dump's dominator tree as a zoomable icicle, its class and root
 * tables and, over a series of snapshots, the memory evolution and growth. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/analysis/caller_tree.h"
#include "../core/analysis/suspects.h"
#include "../core/memtrace/mt_suspects.h"
#include "../core/base/outfile.h"
#include "cli/cli.h"
#include "cli/series.h"
#include "cli/trace_window.h"
#include "commands.h"
#include "report/report.h"

static const char report_usage[] =
    "usage: leakfind report SNAPSHOT [BEFORE...] -o REPORT.html [options]\n"
    "       leakfind report TRACE -o REPORT.html [options]\n"
    "\n"
    "Writes one self-contained HTML file (no network, no external files: it opens\n"
    "from disk in any browser) about SNAPSHOT: the top of its dominator tree as a\n"
    "zoomable icicle (click a box to zoom in, the path above it to zoom out), the\n"
    "classes (click a column to sort), the root kinds and the unreachable objects.\n"
    "With earlier snapshots of the same process (in any order; see Order), also\n"
    "the memory evolution of the largest and growing classes and, from 3\n"
    "snapshots, the growth table of `leakfind trend`. First, the leak suspects\n"
    "(as `leakfind suspects` finds them: growth over the series, then what\n"
    "retains --threshold of the heap), each expandable to its accumulation point\n"
    "and its path from a GC root. The file's size is bounded\n"
    "by --nodes and --classes, whatever the dump's. REPORT is written to a\n"
    "temporary file renamed into place when complete; '-' is standard output.\n"
    "A Memtrace trace (docs/MEMTRACE.md): its accumulating sites (as `suspects`),\n"
    "the live memory over time (every block, and the window's: live at the end,\n"
    "or what --live-at, --live-between, --allocated-between keep) and the\n"
    "window's allocation sites as an inverted icicle (as `sites --by caller`).\n";

/* Bounds on what the page carries, whatever is asked: tree rows are at most
 * about 400 bytes (labels cut at 160), class rows 350, so the file stays a
 * few MB (about 2 MB at most with the defaults, 11 MB with both at most). */
#define MAX_NODES 12000
#define MAX_CLASSES 5000
#define GROWTH_ROWS 100

typedef struct report_state {
    const char *output;
    uint64_t nodes, classes, suspects;
    double threshold;         /* share of the reachable heap, 0 < t <= 1 */
    series_workload workload;  /* in argument order until put in series order */
    lf_trend_rule rule;
    cli_trace_window window;
} report_state;

static const cli_option report_options[] = {
    {"output", 'o', "REPORT", CLI_STRING, CLI_AT(report_state, output),
     .help = "the file to write (required; '-': standard output)"},
    {"nodes", 0, "N", CLI_COUNT, CLI_AT(report_state, nodes), .min = 1, .max = MAX_NODES,
     .help = "dominator-tree objects in the page (default 3000):\n"
             "the largest from the top owners down; the children\n"
             "left out of each become boxes by class and one 'N\n"
             "more' box; a collection's members are boxes by class,\n"
             "as `dominators` shows them"},
    {"classes", 0, "N", CLI_COUNT, CLI_AT(report_state, classes), .max = MAX_CLASSES,
     .help = "rows of the class table (default 500, by retained)"},
    {"threshold", 0, "PCT", CLI_PERCENT, CLI_AT(report_state, threshold),
     .help = "share of the reachable heap a size suspect retains\n"
             "(default 10, as `suspects` takes it)"},
    {"suspects", 0, "N", CLI_COUNT, CLI_AT(report_state, suspects),
     .help = "at most N suspects (default 10; 0 = all)"},
    SERIES_WORKLOAD_OPTION(report_state, workload,
                           "the work done at each snapshot, in the order of the\n"
                           "arguments, e.g. 300,100,200: it orders the series\n"
                           "(default: 1, 2, ... in the order taken)"),
    /* four options, one text: listed on one line, the text below */
    SERIES_RULE_OPTIONS(report_state, rule, "", "", "",
                        "\nthe growth table's rule, as trend's (defaults 10,\n"
                        "0.9, 0, 0.5)"),
    CLI_TRACE_WINDOW_OPTIONS(report_state, window),
    {0},
};

static const cli_spec report_spec = {report_usage, report_options, 23, SERIES_ORDER_NOTE};

static int add_to_series(void *state, const lf_snapshot *s, uint32_t index, lf_error *err)
{
    return report_series_add(state, s, index, err);
}

/* What the page is made from. */
typedef struct report_inputs {
    char **pos;
    int npos;
    const lf_snapshot *s;          /* the last snapshot, analysed */
    const report_series *series;   /* all of them (npos > 1) */
    const lf_suspect_list *suspects;
    unsigned threads;
} report_inputs;

/* The page's data: one JSON object. 0 or -1 (memory). */
static int write_data(FILE *f, const report_state *o, const report_inputs *in)
{
    char **pos = in->pos;
    int npos = in->npos;
    const lf_snapshot *s = in->s;
    fputs("{\"version\":1,\"snapshots\":[", f);
    for (int i = 0; i < npos; i++) {
        fputs(i ? "," : "", f);
        report_json_label(f, (lf_str){pos[i], strlen(pos[i])});
    }
    fputs("],\n\"info\":", f);
    lf_class_totals totals;
    lf_error err;
    if (lf_class_totals_compute(s, &totals, &err))
        return -1;
    int rc = report_write_info(f, s, &totals);
    fputs(",\n\"rootKinds\":", f);
    rc = rc ? rc : report_write_root_kinds(f, s);
    fputs(",\n\"strings\":", f);
    rc = rc ? rc : report_write_strings(f, s, in->threads, 20);
    fputs(",\n\"classes\":", f);
    rc = rc ? rc : report_write_classes(f, s, &totals, (uint32_t)o->classes);
    lf_class_totals_free(&totals);
    fputs(",\n\"tree\":", f);
    rc = rc ? rc : report_write_tree(f, s, (uint32_t)o->nodes);
    fputs(",\n\"series\":", f);
    if (npos > 1)
        rc = rc ? rc : report_write_series(f, in->series, &o->rule, GROWTH_ROWS);
    else
        fputs("null", f);
    fputs(",\n\"suspects\":", f);
    rc = rc ? rc : report_write_suspects(f, s, &in->series->trend, in->suspects, o->threshold);
    fputs("}", f);
    return rc;
}

/* The data gathered in memory, then the page written around it into out. */
static int write_report(cli_context *ctx, const report_state *o, const report_inputs *in, lf_outfile *out)
{
    char *data = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&data, &len);
    if (!mem)
        return -1;
    cli_progress(ctx, "writing the report");
    int rc = write_data(mem, o, in);
    if (fclose(mem) || rc) {
        free(data);
        return -1;
    }
    int fd = dup(out->fd);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f) {
        if (fd >= 0)
            close(fd);
        free(data);
        return -1;
    }
    rc = report_write_page(f, data, len);
    rc = fclose(f) || rc ? -1 : 0;
    cli_progress_done(ctx);
    free(data);
    return rc;
}


/* As `suspects` finds them: growth over the series, then size, at most
 * --suspects, with their paths; 0 or an exit code. */
static int find_suspects(cli_context *ctx, const report_state *o, const report_inputs *in, lf_suspect_list *list)
{
    lf_error err;
    cli_progress(ctx, "finding suspects");
    const lf_trend *t = in->npos > 1 ? &in->series->trend : NULL;
    int rc = lf_suspects_find(in->s, t, o->workload.value, &o->rule, o->threshold, o->suspects, list, &err);
    cli_progress_done(ctx);
    return rc ? cli_input_error(in->pos[in->npos - 1], &err) : 0;
}

/* Reads the snapshots and writes the page into out; 0 or an exit code. */
static int run(cli_context *ctx, const report_state *o, char **pos, int npos, lf_outfile *out)
{
    report_series series;
    lf_error err;
    if (report_series_init(&series, (uint32_t)npos, o->workload.value, &err))
        return cli_input_error(pos[npos - 1], &err);
    lf_snapshot last;
    lf_suspect_list suspects = {0};
    int rc = series_read_overlapping(ctx, pos, npos, add_to_series, &series, &last);
    if (!rc) {
        report_inputs in = {pos, npos, &last, &series, &suspects, ctx->threads};
        rc = find_suspects(ctx, o, &in, &suspects);
        if (!rc && write_report(ctx, o, &in, out)) {
            cli_message("error", "writing the report: %s", strerror(errno ? errno : ENOMEM));
            rc = EXIT_SYSTEM;
        }
        lf_suspect_list_free(&suspects);
        lf_snapshot_free(&last);
    }
    report_series_free(&series);
    return rc;
}

/* A trace's page into out; 0 or an exit code. */
static int run_trace(cli_context *ctx, const report_state *o, const char *path, lf_outfile *out)
{
    lf_error err;
    lf_mt_trace t;
    lf_mt_timeline tl;
    lf_snapshot window;
    int rc = cli_open_trace(ctx, path, &o->window, &t, &tl, &window);
    if (rc)
        return rc;
    lf_mt_trace_free(&t); /* read again for the suspects, which need every block live at the end */
    lf_mt_suspects found = {0};
    lf_caller_tree tree = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    const lf_mt_rules rules = LF_MT_RULES_DEFAULT;
    if (fd < 0)
        rc = lf_fail_errno(&err, "cannot open", errno);
    else
        rc = lf_mt_suspects_read(fd, &rules, &t, NULL, &found, &err);
    if (fd >= 0)
        close(fd);
    if (!rc && window.object_site)
        rc = lf_caller_tree_make(&window, 6, &tree, &err);
    if (rc) {
        rc = cli_input_error(path, &err);
    } else {
        int dup_fd = dup(out->fd);
        FILE *f = dup_fd < 0 ? NULL : fdopen(dup_fd, "w");
        if (!f || report_write_trace_page(f, path, &t, &tl, &found, o->suspects, &window, &tree) ||
            fclose(f)) {
            cli_message("error", "writing the report: %s", strerror(errno ? errno : ENOMEM));
            rc = EXIT_SYSTEM;
        }
    }
    lf_caller_tree_free(&tree);
    lf_mt_suspects_free(&found);
    lf_mt_trace_free(&t);
    lf_snapshot_free(&window);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    cli_context ctx = {0};
    static report_state opt;
    memset(&opt, 0, sizeof opt);
    opt.nodes = 3000;
    opt.classes = 500;
    opt.suspects = 10;
    opt.threshold = 0.1;
    opt.rule = SERIES_RULE_DEFAULT;
    char **pos;
    int npos;
    char **args = cli_trace_join_args(argc, argv, &argc);
    if (!args)
        return EXIT_SYSTEM;
    int rc = cli_parse(&ctx, argc, args, &report_spec, &opt, &pos, &npos);
    free(args);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    static char *series[SERIES_MAX];
    int trace = npos == 1 && cli_is_trace(pos[0]);
    if (!trace && cli_trace_window_given(&opt.window))
        rc = cli_usage_error(&ctx, "--live-at, --live-between and --allocated-between are for a "
                                   "Memtrace trace");
    else if (trace && !opt.output)
        rc = cli_usage_error(&ctx, "report needs -o REPORT.html (or -o - for standard output)");
    else if (trace)
        series[0] = pos[0];
    else if (npos < 1 || npos > SERIES_MAX)
        rc = cli_usage_error(&ctx, "report takes a snapshot and earlier ones (at most %d in all)", SERIES_MAX);
    else if (!opt.output)
        rc = cli_usage_error(&ctx, "report needs -o REPORT.html (or -o - for standard output)");
    else if (!(rc = cli_check_stdin_once(&ctx, pos, npos)))
        rc = series_order(&ctx, pos, npos, &opt.workload, SERIES_NEWEST_FIRST, series);
    lf_outfile out;
    if (!rc && !(rc = cli_open_output(opt.output, &out))) {
        rc = trace ? run_trace(&ctx, &opt, series[0], &out) : run(&ctx, &opt, series, npos, &out);
        lf_error err;
        if (rc)
            lf_outfile_abort(&out);
        else if (lf_outfile_commit(&out, &err))
            rc = cli_input_error(opt.output, &err);
    }
    free(pos);
    return rc;
}
