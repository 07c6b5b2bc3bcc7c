/* cmd_classes.c - `leakfind classes`: the class histogram. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/analysis.h"
#include "../core/analysis/class_fold.h"
#include "../core/analysis/loaders.h"
#include "cli/cli.h"
#include "commands.h"

static const char classes_usage[] =
    "usage: leakfind classes SNAPSHOT [options]\n"
    "\n"
    "One row per class: instance count, shallow bytes, retained bytes (the sum\n"
    "over instances that no other instance of the class dominates, so nothing is\n"
    "counted twice) and retained as % of the reachable heap. Largest retained first.\n"
    "Java: loader names the loader that defined the class, its class and id,\n"
    "or (bootstrap); empty where the dump has no loaders (V8, text graphs). A\n"
    "class of one name that several loaders define is one row, its loader\n"
    "'500 loaders' (--each-loader: a row per loader, as the JVM's histogram).\n";

typedef enum sort_key { SORT_RETAINED, SORT_SHALLOW, SORT_COUNT, SORT_CLASS } sort_key;

typedef struct classes_options_state {
    uint64_t top;
    int sort;      /* a sort_key, as CLI_ENUM stores it */
    int by_loader;
    int each_loader;
} classes_options_state;

/* in the order of sort_key */
static const char *const sort_names[] = {"retained", "shallow", "count", "class", NULL};

static const cli_option classes_options[] = {
    {"top", 0, "N", CLI_COUNT, CLI_AT(classes_options_state, top),
     .help = "at most N rows (default 50; 0 = all)"},
    {"sort", 0, "KEY", CLI_ENUM, CLI_AT(classes_options_state, sort),
     .help = "retained (default), shallow, count or class (the name)", .names = sort_names},
    {"by-loader", 0, NULL, CLI_FLAG, CLI_AT(classes_options_state, by_loader),
     .help = "one row per class loader instead: the instances of the\n"
             "classes it defined (count, shallow, retained), the loader,\n"
             "and how many classes it defined (classes); loaders of one\n"
             "class defining classes of the same names are one row,\n"
             "'500 x java.net.URLClassLoader' (not with --each-loader)"},
    {"each-loader", 0, NULL, CLI_FLAG, CLI_AT(classes_options_state, each_loader),
     .help = "no rows standing for several loaders"},
    {0},
};

static const cli_spec classes_spec = {classes_usage, classes_options, 17, NULL};

static const lf_class_totals *sort_totals;
static const lf_snapshot *sort_snapshot;
static sort_key sort_by;

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
    return a == b ? 0 : a > b ? -1 : 1;
}

static const lf_loader_groups *sort_loaders; /* --by-loader: rows are its groups */

static lf_str row_name(uint32_t row)
{
    if (!sort_loaders)
        return lf_snapshot_class_name(sort_snapshot, row);
    uint32_t loader = sort_loaders->loader[row];
    if (loader == LF_NODE_NONE)
        return (lf_str){"(bootstrap)", 11};
    return lf_snapshot_object_label(sort_snapshot, loader);
}

static int cmp_name(uint32_t x, uint32_t y)
{
    lf_str a = row_name(x), b = row_name(y);
    size_t n = a.len < b.len ? a.len : b.len;
    int c = memcmp(a.ptr, b.ptr, n);
    if (c)
        return c;
    return a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}

/* Total order: the chosen key, then retained, shallow, count, name, class index. */
static int by_key(const void *pa, const void *pb)
{
    uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
    const lf_class_totals *t = sort_totals;
    int c = 0;
    if (sort_by == SORT_SHALLOW)
        c = cmp_u64_desc(t->shallow[x], t->shallow[y]);
    else if (sort_by == SORT_COUNT)
        c = cmp_u64_desc(t->count[x], t->count[y]);
    else if (sort_by == SORT_CLASS)
        c = cmp_name(x, y);
    if (!c)
        c = cmp_u64_desc(t->retained[x], t->retained[y]);
    if (!c)
        c = cmp_u64_desc(t->shallow[x], t->shallow[y]);
    if (!c)
        c = cmp_u64_desc(t->count[x], t->count[y]);
    if (!c)
        c = cmp_name(x, y);
    if (!c)
        c = x < y ? -1 : x > y;
    return c;
}

/* A class whose retained size is below its shallow size looks wrong: it is
 * its unreachable instances (garbage not collected yet), which count in
 * count and shallow (as the JVM's histogram) but retain nothing. Said once. */
static void note_retained_below_shallow(const cli_context *ctx, const lf_snapshot *s,
                                        const lf_class_totals *t, const uint32_t *order,
                                        uint32_t listed, uint64_t top)
{
    uint32_t below = 0, first = 0;
    for (uint32_t i = 0; i < listed && (top == 0 || i < top); i++) {
        uint32_t c = order[i];
        if (t->retained[c] < t->shallow[c] && t->unreachable_count[c]) {
            if (!below++)
                first = c;
        }
    }
    if (!below || ctx->quiet || !s->idom)
        return;
    lf_str name = lf_snapshot_class_name(s, first);
    char more[48] = "";
    if (below > 1)
        snprintf(more, sizeof more, " (and %u more class%s)", below - 1, below == 2 ? "" : "es");
    /* a .gcdump's unreachable objects are no garbage: the runtime reports
     * objects of its frozen heap (string literals, types) that no root holds */
    const char *why = s->source_format == LF_FORMAT_GCDUMP ? "reported, held by no root the runtime names"
                                                           : "garbage not collected yet";
    cli_message("note", "retained is below shallow for %.*s%s: count and shallow include unreachable "
                "instances (%llu %.*s: %s), retained only what is reachable",
                (int)name.len, name.ptr, more, (unsigned long long)t->unreachable_count[first],
                (int)name.len, name.ptr, why);
}

/* The loader column of a class row: empty (JSON null) without loaders,
 * "500 loaders" for a row standing for the classes of one name that 500
 * loaders define. */
static void put_loader(out_writer *w, const lf_snapshot *s, uint32_t cls, uint32_t members)
{
    if (!s->class_loader) {
        out_null(w);
        return;
    }
    char label[1024];
    size_t len = members > 1 ? (size_t)snprintf(label, sizeof label, "%u loaders", members)
                             : lf_loader_label(s, s->class_loader[cls], label, sizeof label);
    out_str(w, label, len);
}

/* A --by-loader row's loader: "500 x java.net.URLClassLoader" for loaders of
 * one class defining the same classes. */
static void put_group_loader(out_writer *w, const lf_snapshot *s, uint32_t loader, uint32_t members)
{
    char label[1024];
    size_t len;
    if (members > 1) {
        lf_str cls = lf_snapshot_object_label(s, loader);
        int n = snprintf(label, sizeof label, "%u x %.*s", members, (int)(cls.len > 900 ? 900 : cls.len), cls.ptr);
        len = n < 0 ? 0 : (size_t)n;
    } else {
        len = lf_loader_label(s, loader, label, sizeof label);
    }
    out_str(w, label, len);
}

static void print_rows(const cli_context *ctx, const lf_snapshot *s, const lf_class_totals *t,
                       const lf_loader_groups *loaders, const lf_fold *fold, const uint32_t *order,
                       uint32_t listed, uint64_t top)
{
    static const out_column class_cols[] = {
        {"count", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"shallow", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained_pct", OUT_PCT, LF_CUT_END, OUT_NORMAL},
        {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
        {"loader", OUT_STR, LF_CUT_CLASS, OUT_SECONDARY},
    };
    static const out_column loader_cols[] = {
        {"count", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"shallow", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained_pct", OUT_PCT, LF_CUT_END, OUT_NORMAL},
        {"loader", OUT_STR, LF_CUT_CLASS, OUT_NORMAL},
        {"classes", OUT_U64, LF_CUT_END, OUT_NORMAL},
    };
    /* a table is for people: no empty loader column where there are none */
    const int loader_column = loaders || s->class_loader || ctx->format != OUT_TABLE;
    out_writer *w = out_begin(stdout, ctx->format, loaders ? loader_cols : class_cols, loader_column ? 6 : 5);
    double heap = s->reachable_shallow ? (double)s->reachable_shallow : 1.0;
    for (uint32_t i = 0; i < listed && (top == 0 || i < top); i++) {
        uint32_t c = order[i], members = fold->members ? fold->members[c] : 1;
        out_u64(w, t->count[c]);
        out_bytes(w, t->shallow[c]);
        out_bytes(w, t->retained[c]);
        out_pct(w, 100.0 * (double)t->retained[c] / heap);
        if (loaders) {
            put_group_loader(w, s, loaders->loader[c], members);
            out_u64(w, loaders->classes[c]);
        } else {
            lf_str name = lf_snapshot_class_name(s, c);
            out_str(w, name.ptr, name.len);
            if (loader_column)
                put_loader(w, s, c, members);
        }
        out_row_end(w);
    }
    out_end(w);
}

/* Totals per class, or per loader (loaders->count rows); 0 or an exit code. */
static int compute_totals(const char *path, const lf_snapshot *s, int by_loader, lf_loader_groups *loaders,
                          lf_class_totals *t, uint32_t *rows)
{
    lf_error err;
    if (by_loader) {
        if (!s->class_loader)
            return cli_usage_error(NULL, "--by-loader: '%s' has no class loaders (only Java heap dumps do)",
                                   path);
        if (lf_loader_groups_make(s, loaders, &err))
            return cli_input_error(path, &err);
        *rows = loaders->count;
        if (lf_group_totals_compute(s, loaders->of_node, loaders->count, t, &err))
            return cli_input_error(path, &err);
        return 0;
    }
    *rows = s->class_count;
    return lf_class_totals_compute(s, t, &err) ? cli_input_error(path, &err) : 0;
}

/* Rows standing for several loaders (class_fold.h); 0 or an exit code. */
static int fold_rows(const char *path, const lf_snapshot *s, const lf_loader_groups *loaders, lf_class_totals *t,
                     lf_fold *fold)
{
    lf_error err;
    if (!s->class_loader)
        return 0;
    if (loaders ? lf_fold_same_classes(s, loaders, t, fold, &err) : lf_fold_same_name(s, t, fold, &err))
        return cli_input_error(path, &err);
    return 0;
}

int cmd_classes(int argc, char **argv)
{
    cli_context ctx = {0};
    classes_options_state opt = {50, SORT_RETAINED, 0, 0};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, &classes_spec, &opt, &path);
    if (rc >= 0)
        return rc;
    lf_snapshot s;
    if ((rc = cli_open_analyzed(&ctx, path, &s)))
        return rc;
    lf_class_totals t;
    memset(&t, 0, sizeof t);
    lf_loader_groups loaders;
    memset(&loaders, 0, sizeof loaders);
    lf_fold fold = {NULL};
    uint32_t rows = 0;
    uint32_t *order = NULL;
    if ((rc = compute_totals(path, &s, opt.by_loader, &loaders, &t, &rows)))
        goto out;
    if (!opt.each_loader && (rc = fold_rows(path, &s, opt.by_loader ? &loaders : NULL, &t, &fold)))
        goto out;
    if (!(order = malloc(((size_t)rows + 1) * sizeof *order))) {
        cli_message("error", "out of memory");
        rc = EXIT_SYSTEM;
        goto out;
    }
    uint32_t listed = 0;
    for (uint32_t c = 0; c < rows; c++)
        if ((t.count[c] || (opt.by_loader && loaders.classes[c])) && (!fold.members || fold.members[c]))
            order[listed++] = c;
    sort_totals = &t;
    sort_snapshot = &s;
    sort_loaders = opt.by_loader ? &loaders : NULL;
    sort_by = opt.sort;
    qsort(order, listed, sizeof *order, by_key);
    if (!opt.by_loader)
        note_retained_below_shallow(&ctx, &s, &t, order, listed, opt.top);
    print_rows(&ctx, &s, &t, opt.by_loader ? &loaders : NULL, &fold, order, listed, opt.top);
    rc = EXIT_OK;
out:
    free(order);
    lf_fold_free(&fold);
    lf_class_totals_free(&t);
    lf_loader_groups_free(&loaders);
    lf_snapshot_free(&s);
    return rc;
}
