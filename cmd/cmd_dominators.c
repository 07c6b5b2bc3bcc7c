/* cmd_dominators.c - `leakfind dominators`: who owns the memory. */
#include <stdlib.h>
#include <string.h>

#include "../core/model/idrank.h" /* lf_sort_u64 */
#include "cli.h"
#include "dom_tree.h"
#include "commands.h"

static const char dominators_help[] =
    "usage: leakfind dominators SNAPSHOT [options]\n"
    "\n"
    "The dominator tree: the top owners (objects only the synthetic super-root\n"
    "dominates), then the objects each one alone keeps alive, indented, largest\n"
    "retained first. Each row: depth, object id, its immediate dominator's id,\n"
    "shallow and retained bytes, retained % of the reachable heap, class, and the\n"
    "field or [index] by which the dominator holds it; for a top owner, the\n"
    "roots that hold it in column root.\n"
    "\n"
    "Options:\n"
    "  --depth D      levels to show below the start (default 3; 0 = all)\n"
    "  --top N        at most N rows per level, or N rows with --flat\n"
    "                 (default 10, --flat 50; 0 = no limit)\n"
    "  --min SIZE     hide objects retaining less: bytes (1024, 64K, 2MiB) or a\n"
    "                 percent of the heap (0.5%) (default 0.1%, --flat 0)\n"
    "  --flat         objects by retained size, not a tree\n"
    "  --root ID      start from this object (0x1f, @123 or decimal)\n"
    "  --no-group     do not group top owners of one class (--group: default)\n"
    "\n"
    "V8's synthetic root nodes ((GC roots), ...) are not rows; `field` names\n"
    "them. Children hidden by --top/--min are one row per parent ('... N more',\n"
    "count in `hidden`); small top owners of one class are one row ('N x Class',\n"
    "count in `group`).\n"
    "\n"
    "'dominators --flat --top 0 --min 0' lists every reachable object.\n"
    "\n" GLOBAL_OPTIONS_HELP;

enum { OPT_DEPTH, OPT_TOP, OPT_MIN, OPT_FLAT, OPT_ROOT, OPT_GROUP, OPT_NO_GROUP };
static const cli_option dominators_options[] = {
    {"depth", 0, 1, OPT_DEPTH},
    {"top", 0, 1, OPT_TOP},
    {"min", 0, 1, OPT_MIN},
    {"flat", 0, 0, OPT_FLAT},
    {"root", 0, 1, OPT_ROOT},
    {"group", 0, 0, OPT_GROUP},
    {"no-group", 0, 0, OPT_NO_GROUP},
    {NULL, 0, 0, 0},
};

typedef struct dominators_options_state {
    uint64_t depth, top;
    int top_set;
    const char *min;     /* parsed once the heap size is known */
    int flat;
    int root_set;
    uint64_t root_id;
    int group;
} dominators_options_state;

static int on_option(cli_context *ctx, void *state, int id, const char *arg)
{
    dominators_options_state *o = state;
    uint64_t probe;
    switch (id) {
    case OPT_DEPTH:
        if (cli_parse_count(arg, &o->depth))
            return cli_usage_error(ctx, "--depth needs a count, not '%s'", arg);
        break;
    case OPT_TOP:
        if (cli_parse_count(arg, &o->top))
            return cli_usage_error(ctx, "--top needs a count, not '%s'", arg);
        o->top_set = 1;
        break;
    case OPT_MIN:
        if (cli_parse_size(arg, 100, &probe))
            return cli_usage_error(ctx, "--min needs bytes (64K, 2MiB) or a percent (0.5%%), not '%s'", arg);
        o->min = arg;
        break;
    case OPT_FLAT:
        o->flat = 1;
        break;
    case OPT_GROUP:
    case OPT_NO_GROUP:
        o->group = id == OPT_GROUP;
        break;
    case OPT_ROOT:
        if (cli_parse_id(arg, &o->root_id))
            return cli_usage_error(ctx, "--root needs an object id (0x1f, @123, 123), not '%s'", arg);
        o->root_set = 1;
        break;
    }
    return 0;
}

/* A --flat row. holders: the field by which v's dominator holds it, or v's root */
static void write_row(out_writer *w, lf_holders *holders, uint32_t v, double heap)
{
    const lf_snapshot *s = holders->s;
    out_null(w);
    cli_write_id(w, s, v);
    cli_write_id(w, s, s->idom[v]); /* super-root: null */
    out_bytes(w, lf_snapshot_shallow(s, v));
    out_bytes(w, lf_snapshot_retained(s, v));
    out_pct(w, 100.0 * (double)lf_snapshot_retained(s, v) / heap);
    lf_str cls = lf_snapshot_object_label(s, v);
    out_str(w, cls.ptr, cls.len);
    lf_holder h = lf_holders_get(holders, v);
    cli_write_holder(w, s, h);
    out_null(w); /* hidden */
    out_null(w); /* group */
    cli_write_holder_root(w, s, h);
    out_row_end(w);
}

static const lf_snapshot *heap_snapshot;

/* "a comes after b" in the flat order: larger retained first, then node number. */
static int flat_after(uint32_t a, uint32_t b)
{
    uint64_t ra = lf_snapshot_retained(heap_snapshot, a), rb = lf_snapshot_retained(heap_snapshot, b);
    return ra < rb || (ra == rb && a > b);
}

static int flat_cmp(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a == b ? 0 : flat_after(a, b) ? 1 : -1;
}

/* Every row in the flat order. The rows whose retained size fits 32 bits
 * become packed keys (~retained, node) sorted by radix: qsort, whose
 * comparator reads retained[] at random, took 11% of a 30M-row listing. The
 * few larger rows go first, sorted by comparison. */
static int sort_all_rows(const lf_snapshot *s, uint32_t *rows, size_t count)
{
    uint64_t *keys = malloc((count ? count : 1) * sizeof *keys);
    if (!keys)
        return -1;
    size_t big = 0, small = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = lf_snapshot_retained(s, rows[i]);
        if (r > UINT32_MAX)
            rows[big++] = rows[i]; /* big <= i: not yet read */
        else
            keys[small++] = (uint64_t)(uint32_t)~(uint32_t)r << 32 | rows[i];
    }
    if (lf_sort_u64(keys, small)) {
        free(keys);
        return -1;
    }
    for (size_t j = 0; j < small; j++)
        rows[big + j] = (uint32_t)keys[j];
    free(keys);
    qsort(rows, big, sizeof *rows, flat_cmp);
    return 0;
}

static int show_flat(out_writer *w, const lf_snapshot *s, uint64_t top, uint64_t min, double heap)
{
    heap_snapshot = s;
    const int all = top == 0 || top >= s->reachable_count;
    size_t cap = all ? s->reachable_count : (size_t)top;
    uint32_t *keep = malloc((cap ? cap : 1) * sizeof *keep);
    if (!keep)
        return -1;
    size_t kept = 0;
    /* A heap whose root is the last kept row: O(n log top) for small --top.
     * Every row wanted: all of them, sorted once. */
    for (uint32_t v = 0; v < s->object_count; v++) {
        if (s->idom[v] == LF_NODE_NONE || lf_snapshot_retained(s, v) < min)
            continue;
        size_t i;
        if (all) {
            if (kept < cap) /* a stored reachable count that is wrong must not overrun keep */
                keep[kept++] = v;
        } else if (kept < cap) {
            i = kept++;
            while (i > 0 && flat_after(v, keep[(i - 1) / 2])) {
                keep[i] = keep[(i - 1) / 2];
                i = (i - 1) / 2;
            }
            keep[i] = v;
        } else if (cap > 0 && flat_after(keep[0], v)) {
            i = 0;
            for (;;) {
                size_t c = 2 * i + 1;
                if (c >= kept)
                    break;
                if (c + 1 < kept && flat_after(keep[c + 1], keep[c]))
                    c++;
                if (!flat_after(keep[c], v))
                    break;
                keep[i] = keep[c];
                i = c;
            }
            keep[i] = v;
        }
    }
    if (all ? sort_all_rows(s, keep, kept) : (qsort(keep, kept, sizeof *keep, flat_cmp), 0)) {
        free(keep);
        return -1;
    }
    lf_holders holders;
    lf_holders_init(&holders, s);
    for (size_t i = 0; i < kept; i++)
        write_row(w, &holders, keep[i], heap);
    int failed = lf_holders_failed(&holders) ? -1 : 0; /* a row without its field */
    lf_holders_free(&holders);
    free(keep);
    return failed;
}

int cmd_dominators(int argc, char **argv)
{
    cli_context ctx = {0};
    dominators_options_state opt = {3, 10, 0, NULL, 0, 0, 0, 1};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, dominators_options, on_option, &opt, dominators_help, &path);
    if (rc >= 0)
        return rc;
    lf_snapshot s;
    if ((rc = cli_open_analyzed(&ctx, path, &s)))
        return rc;
    uint64_t min = 0;
    const char *min_arg = opt.min ? opt.min : opt.flat ? "0" : "0.1%";
    cli_parse_size(min_arg, s.reachable_shallow, &min);
    if (opt.flat && !opt.top_set)
        opt.top = 50;
    uint32_t start = LF_NODE_SUPER;
    if (opt.root_set) {
        start = lf_snapshot_find_id(&s, opt.root_id);
        if (start == LF_NODE_NONE || s.idom[start] == LF_NODE_NONE) {
            cli_message("error", "'%s': %s 0x%llx", path,
                        start == LF_NODE_NONE ? "no object with id" : "unreachable object",
                        (unsigned long long)opt.root_id);
            lf_snapshot_free(&s);
            return EXIT_USAGE;
        }
    }
    double heap = s.reachable_shallow ? (double)s.reachable_shallow : 1.0;
    out_writer *w = out_begin(stdout, ctx.format, dom_columns, DOM_COLUMN_COUNT);
    dom_tree_options tree = {opt.depth, opt.top, min, opt.group, start};
    rc = opt.flat ? show_flat(w, &s, opt.top, min, heap) : dom_show_tree(w, &s, &tree);
    out_end(w);
    lf_snapshot_free(&s);
    if (rc) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    return EXIT_OK;
}
