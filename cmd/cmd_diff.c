/* cmd_diff.c - `leakfind diff`: what grew between two snapshots. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/diff.h"
#include "../core/input/open.h"
#include "cli/cli.h"
#include "cli/owner_growth.h"
#include "cli/series.h"
#include "commands.h"

static const char diff_usage[] =
    "usage: leakfind diff BEFORE AFTER [options]\n"
    "\n"
    "BEFORE and AFTER may come in either order (see Order below).\n"
    "\n"
    "Per class (matched by name), or per allocation site with --by-site: live\n"
    "instances before and after, the change\n"
    "in instances, in shallow bytes and in retained bytes; largest growth in\n"
    "instances first. Classes that did not change are left out. When both\n"
    "snapshots have stable object ids (V8; leakfind files written so), also\n"
    "the objects new in AFTER and deleted since BEFORE, and their bytes; a\n"
    "class whose objects were replaced one for one (as many new as deleted,\n"
    "the same count and bytes: V8's native nodes) did not change, and a note\n"
    "says how many were left out.\n";

typedef struct diff_state {
    uint64_t min_count, min_bytes, top, stack;
    int exit_code, all, owners, by_site;
} diff_state;

static const cli_option diff_options[] = {
    {"min-count", 0, "N", CLI_COUNT, CLI_AT(diff_state, min_count),
     .help = "a class grew when it gained at least N instances (default 1)"},
    {"min-bytes", 0, "SIZE", CLI_SIZE, CLI_AT(diff_state, min_bytes),
     .help = "... and at least SIZE shallow bytes (default 0; 64K, 1MiB)",
     .what = "a size (4096, 64K, 1MiB)"},
    {"exit-code", 0, NULL, CLI_FLAG, CLI_AT(diff_state, exit_code),
     .help = "exit 1 when some class grew past both thresholds"},
    {"top", 0, "N", CLI_COUNT, CLI_AT(diff_state, top), .help = "at most N rows (default 0 = all)"},
    {"all", 0, NULL, CLI_FLAG, CLI_AT(diff_state, all),
     .help = "also the classes that did not change (or were replaced\none for one)"},
    {"owners", 0, NULL, CLI_FLAG, CLI_AT(diff_state, owners),
     .help = "what grew, by owner: dominator-tree nodes matched by their\n"
             "path from the roots (root, then class and field names,\n"
             "array indices and addresses left out); rows: objects and\n"
             "bytes retained before and after, the owner's class and\n"
             "path. An owner is left out when one of its children\n"
             "carries 90% of its growth (objects and bytes): the\n"
             "deepest owner says where the objects accumulate."},
    {"by-site", 0, NULL, CLI_FLAG, CLI_AT(diff_state, by_site),
     .help = "per allocation site instead of per class (dumps taken with\n"
             "allocation tracking; see 'leakfind sites'); last column: site"},
    CLI_STACK_OPTION(diff_state, stack,
                     "with --by-site: a site is its N innermost frames (default 1,\n"
                     "0 = the whole stack)"),
    {0},
};

static const cli_spec diff_spec = {diff_usage, diff_options, 19, SERIES_ORDER_NOTE};

static const lf_class_diff *sorting;

static int64_t delta(const uint64_t *v)
{
    return (int64_t)(v[1] - v[0]);
}

static int by_growth(const void *a, const void *b)
{
    const lf_class_delta *x = &sorting->row[*(const uint32_t *)a], *y = &sorting->row[*(const uint32_t *)b];
    int64_t dx = delta(x->count), dy = delta(y->count);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    dx = delta(x->shallow), dy = delta(y->shallow);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    dx = delta(x->retained), dy = delta(y->retained);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    const lf_strtab *t = &sorting->names;
    size_t lx = t->offset[x->name + 1] - t->offset[x->name], ly = t->offset[y->name + 1] - t->offset[y->name];
    int c = memcmp(t->bytes + t->offset[x->name], t->bytes + t->offset[y->name], lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

/* The per-class (or per-site) comparison of s[0] and s[1]; 0 or an exit code. */
static int diff_groups(const cli_context *ctx, const char *const path[2], const lf_snapshot s[2],
                       const diff_state *opt, lf_class_diff *d)
{
    lf_grouping g[2];
    int rc = cli_make_grouping(path[0], &s[0], opt->by_site, (uint32_t)opt->stack, &g[0]);
    if (rc)
        return rc;
    if ((rc = cli_make_grouping(path[1], &s[1], opt->by_site, (uint32_t)opt->stack, &g[1]))) {
        lf_grouping_free(&g[0]);
        return rc;
    }
    lf_error err;
    cli_progress(ctx, "comparing");
    if (lf_diff_groups(&s[0], &g[0], &s[1], &g[1], d, &err))
        rc = cli_input_error(path[1], &err);
    cli_progress_done(ctx);
    lf_grouping_free(&g[0]);
    lf_grouping_free(&g[1]);
    return rc;
}

static int show_group_growth(const cli_context *ctx, const diff_state *opt, const lf_class_diff *d);

/* --exit-code's 1 says which growth it counted: two dumps of a process that
 * does not leak differ by a few objects (a .NET control: +3 DateTimeOffset),
 * and the default thresholds count any of them (README, diff). */
static void say_why_it_failed(const diff_state *opt, const lf_class_diff *d, uint32_t grew, uint32_t largest)
{
    const lf_class_delta *r = &d->row[largest];
    const lf_str name = {d->names.bytes + d->names.offset[r->name],
                         d->names.offset[r->name + 1] - d->names.offset[r->name]};
    cli_message("note", "exit 1: %u %s gained at least %" PRIu64 " instances and %" PRIu64 " bytes (%.*s: +%" PRId64
                ")%s", grew, grew == 1 ? (opt->by_site ? "site" : "class") : (opt->by_site ? "sites" : "classes"),
                opt->min_count, opt->min_bytes, (int)name.len, name.ptr, delta(r->count),
                opt->min_count <= 1 && opt->min_bytes == 0
                    ? "; any two dumps of a live process differ a little: for CI give --min-count and --min-bytes "
                      "from the work done between the dumps, or run trend over three or more"
                    : "");
}

int cmd_diff(int argc, char **argv)
{
    cli_context ctx = {0};
    diff_state opt = {1, 0, 0, 1, 0, 0, 0, 0};
    char **pos;
    int npos;
    int rc = cli_parse(&ctx, argc, argv, &diff_spec, &opt, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (npos != 2) {
        free(pos);
        return npos > 2 ? cli_usage_error(&ctx, "diff takes BEFORE and AFTER; for %d snapshots, 'leakfind trend' "
                                          "fits their growth and 'leakfind suspects NEWEST OLDER...' names what "
                                          "grows", npos)
                        : cli_usage_error(&ctx, "diff takes BEFORE and AFTER");
    }
    char *series[2];
    series_workload taken = {.given = 0};
    if ((rc = cli_check_stdin_once(&ctx, pos, npos)) ||
        (rc = series_order(&ctx, pos, npos, &taken, SERIES_OLDEST_FIRST, series))) {
        free(pos);
        return rc;
    }
    const char *path[2] = {series[0], series[1]};
    free(pos);
    lf_snapshot s[2];
    if ((rc = cli_open_analyzed(&ctx, path[0], &s[0])))
        return rc;
    if ((rc = cli_open_analyzed(&ctx, path[1], &s[1]))) {
        lf_snapshot_free(&s[0]);
        return rc;
    }
    lf_source_format f0 = s[0].source_format, f1 = s[1].source_format;
    if (f0 != f1) {
        cli_message("error", "'%s' is a %s snapshot and '%s' a %s one: they cannot be compared",
                    path[0], lf_format_name(f0), path[1], lf_format_name(f1));
        lf_snapshot_free(&s[0]);
        lf_snapshot_free(&s[1]);
        return EXIT_USAGE;
    }
    if (opt.owners) {
        int grew = 0;
        rc = show_owner_growth(&ctx, s, opt.top, opt.min_count, opt.min_bytes, 0, &grew);
        lf_snapshot_free(&s[0]);
        lf_snapshot_free(&s[1]);
        if (rc)
            return EXIT_SYSTEM;
        return opt.exit_code && grew ? EXIT_CONDITION : EXIT_OK;
    }
    lf_class_diff d;
    if ((rc = diff_groups(&ctx, path, s, &opt, &d))) {
        lf_snapshot_free(&s[0]);
        lf_snapshot_free(&s[1]);
        return rc;
    }
    rc = show_group_growth(&ctx, &opt, &d);
    lf_class_diff_free(&d);
    lf_snapshot_free(&s[0]);
    lf_snapshot_free(&s[1]);
    return rc;
}
/* Rows of what changed, largest growth first; EXIT_CONDITION when asked
 * (--exit-code) and some row grew past the thresholds. */
static int show_group_growth(const cli_context *ctx, const diff_state *opt, const lf_class_diff *d_)
{
    const lf_class_diff d = *d_;
    uint32_t live = 0;
    for (uint32_t i = 0; i < d.rows; i++)
        live += d.row[i].count[0] || d.row[i].count[1];
    if (!ctx->quiet && live > 0 && d.shared_classes * 2 < live)
        cli_message("warning", "only %u of %u %s occur in both snapshots: are they of the same program?",
                    d.shared_classes, live, opt->by_site ? "sites" : "classes");
    uint32_t *order = malloc((d.rows + 1) * sizeof *order);
    uint32_t n = 0, grew = 0, largest = 0;
    if (!order) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    uint32_t replaced = 0;
    for (uint32_t i = 0; i < d.rows; i++) {
        const lf_class_delta *r = &d.row[i];
        int same = r->count[0] == r->count[1] && r->shallow[0] == r->shallow[1] && r->retained[0] == r->retained[1];
        /* objects replaced one for one (V8's native nodes get new ids in
         * every snapshot): no growth, and a row each buried the answer */
        int one_for_one = same && r->created == r->deleted && r->created_bytes == r->freed_bytes;
        replaced += (r->count[0] || r->count[1]) && one_for_one && r->created && !opt->all;
        if ((r->count[0] || r->count[1]) && (!one_for_one || opt->all))
            order[n++] = i;
        if (delta(r->count) >= (int64_t)opt->min_count && delta(r->count) > 0 &&
            delta(r->shallow) >= (int64_t)opt->min_bytes) {
            if (grew++ == 0 || delta(r->count) > delta(d.row[largest].count))
                largest = i;
        }
    }
    sorting = &d;
    qsort(order, n, sizeof *order, by_growth);
    if (replaced && !ctx->quiet)
        cli_message("note", "%u %s whose objects were replaced one for one (as many new as deleted, the same "
                    "count and bytes) left out; --all lists them", replaced,
                    opt->by_site ? (replaced == 1 ? "site" : "sites") : (replaced == 1 ? "class" : "classes"));
    /* new/deleted: only when both snapshots say their ids are stable (V8,
     * leakfind files written so); empty otherwise, and a table leaves them
     * out */
    static const out_column columns[] = {
        {"count_before", OUT_U64, LF_CUT_END, OUT_SECONDARY},
        {"count_after", OUT_U64, LF_CUT_END, OUT_SECONDARY},
        {"count_delta", OUT_I64, LF_CUT_END, OUT_NORMAL},
        {"shallow_delta", OUT_I64, LF_CUT_END, OUT_NORMAL},
        {"retained_delta", OUT_I64, LF_CUT_END, OUT_NORMAL},
        {"new", OUT_U64_SOMETIMES, LF_CUT_END, OUT_OPTIONAL},
        {"deleted", OUT_U64_SOMETIMES, LF_CUT_END, OUT_OPTIONAL},
        {"new_bytes", OUT_U64_SOMETIMES, LF_CUT_END, OUT_OPTIONAL},
        {"freed_bytes", OUT_U64_SOMETIMES, LF_CUT_END, OUT_OPTIONAL},
        {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
    };
    out_column cols[10];
    memcpy(cols, columns, sizeof cols);
    if (d.by_id) { /* DevTools' Comparison view: # New and # Deleted stay before the counts */
        cols[0].rank = cols[1].rank = OUT_OPTIONAL;
        cols[5].rank = cols[6].rank = OUT_SECONDARY;
    }
    if (opt->by_site) {
        cols[9].name = "site";
        cols[9].cut = LF_CUT_SITE; /* "fn (file:line)": its directories and column go first (site_cut.h) */
    }
    out_writer *w = out_begin(stdout, ctx->format, cols, 10);
    out_table_pair(w, 0); /* count_before, count_after */
    for (uint32_t k = 0; k < n && (opt->top == 0 || k < opt->top); k++) {
        const lf_class_delta *r = &d.row[order[k]];
        out_u64(w, r->count[0]);
        out_u64(w, r->count[1]);
        out_i64(w, delta(r->count));
        out_bytes_delta(w, delta(r->shallow));
        out_bytes_delta(w, delta(r->retained));
        if (d.by_id) {
            out_u64(w, r->created);
            out_u64(w, r->deleted);
            out_bytes(w, r->created_bytes);
            out_bytes(w, r->freed_bytes);
        } else {
            for (int k2 = 0; k2 < 4; k2++)
                out_null(w);
        }
        out_str(w, d.names.bytes + d.names.offset[r->name],
                d.names.offset[r->name + 1] - d.names.offset[r->name]);
        out_row_end(w);
    }
    out_end(w);
    free(order);
    if (opt->exit_code && grew && !ctx->quiet)
        say_why_it_failed(opt, &d, grew, largest);
    return opt->exit_code && grew ? EXIT_CONDITION : EXIT_OK;
}
