/* cmd_dominators.c - `leakfind dominators`: who owns the memory. */
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/domview.h"
#include "cli/cli.h"
#include "cli/object_id.h"
#include "commands.h"
#include "dominators/dom_flat.h"
#include "dominators/dom_tree.h"

static const char dominators_usage[] =
    "usage: leakfind dominators SNAPSHOT [options]\n"
    "\n"
    "The dominator tree: the top owners (objects only the synthetic super-root\n"
    "dominates), then the objects each one alone keeps alive, indented, largest\n"
    "retained first. Each row: depth, object id, its immediate dominator's id,\n"
    "shallow and retained bytes, retained % of the reachable heap, class, and the\n"
    "field or [index] by which the dominator holds it; for a top owner, the\n"
    "roots that hold it in column root.\n";

static const char dominators_notes[] =
    "V8's synthetic root nodes ((GC roots), ...) are not rows; `field` names\n"
    "them. Children hidden by --top/--min are one row per parent ('... N more',\n"
    "count in `hidden`); small top owners of one class are one row ('N x Class',\n"
    "count in `group`; --members lists them). A child that retains 90% or more\n"
    "of its parent costs no depth (not along a chain of one class, at most 8\n"
    "levels on a path). Below an array (a list's elements, a map's table, a\n"
    "JavaScript Array), a V8 object used as a dictionary or a JDK collection\n"
    "that holds its entries (TreeMap, LinkedHashMap), what it holds is grouped\n"
    "by class through the collection's entries and buckets ('300 x Session',\n"
    "'300 x java.util.HashMap$Node (entries)'); a class of one object is that\n"
    "object, and a member is a row of its own only where all of its class\n"
    "pass --top and --min or it retains twice the mean of the others of its\n"
    "class or more. The report's tree shows the same.\n"
    "\n"
    "'dominators --flat --top 0 --min 0' lists every reachable object.\n";

typedef struct dominators_options_state {
    uint64_t depth, top;
    int top_set;
    const char *min;     /* parsed once the heap size is known */
    int flat;
    int root_set;
    uint64_t root_id;
    const char *root_arg; /* as given: the closest ids are written alike */
    int group;
    int members;
} dominators_options_state;

/* --top's default depends on --flat: the state says whether it was given */
static int on_top(cli_context *ctx, void *state, const char *arg)
{
    dominators_options_state *o = state;
    o->top_set = 1;
    return cli_count_option(ctx, "--top", arg, &o->top);
}

/* checked now, read once the heap's size is known (a percent of it) */
static int on_min(cli_context *ctx, void *field, const char *arg)
{
    uint64_t probe;
    if (cli_parse_size(arg, 100, &probe))
        return cli_usage_error(ctx, "--min needs bytes (64K, 2MiB) or a percent (0.5%%), not '%s'", arg);
    *(const char **)field = arg;
    return 0;
}

static int on_root(cli_context *ctx, void *state, const char *arg)
{
    dominators_options_state *o = state;
    if (cli_parse_id(arg, &o->root_id))
        return cli_usage_error(ctx, "--root needs an object id (0x1f, @123, 123), not '%s'", arg);
    o->root_set = 1;
    o->root_arg = arg;
    return 0;
}

static const cli_option dominators_options[] = {
    {"depth", 0, "D", CLI_COUNT, CLI_AT(dominators_options_state, depth),
     .help = "levels to show below the start (default 3; 0 = all)"},
    {"top", 0, "N", CLI_CUSTOM, 0, .custom = on_top,
     .help = "at most N rows per level, or N rows with --flat\n"
             "(default 10, --flat 50; 0 = no limit)"},
    {"min", 0, "SIZE", CLI_CUSTOM, CLI_AT(dominators_options_state, min), .custom = on_min,
     .help = "hide objects retaining less: bytes (1024, 64K, 2MiB) or a\n"
             "percent of the heap (0.5%) (default 0.1%, --flat 0)"},
    {"flat", 0, NULL, CLI_FLAG, CLI_AT(dominators_options_state, flat),
     .help = "objects by retained size, not a tree"},
    {"root", 0, "ID", CLI_CUSTOM, 0, .custom = on_root,
     .help = "start from this object (0x1f, @123 or decimal)"},
    {"group", 0, NULL, CLI_FLAG, CLI_AT(dominators_options_state, group), .help = NULL},
    {"no-group", 0, NULL, CLI_FLAG_OFF, CLI_AT(dominators_options_state, group),
     .help = "do not group top owners of one class, nor what an array or\n"
             "a collection holds (--group: default)"},
    {"members", 0, NULL, CLI_FLAG, CLI_AT(dominators_options_state, members),
     .help = "under each 'N x Class' group of top owners, its largest\n"
             "members (up to --top) and what they hold"},
    {0},
};

static const cli_spec dominators_spec = {dominators_usage, dominators_options, 17,
                                         dominators_notes};

int cmd_dominators(int argc, char **argv)
{
    cli_context ctx = {0};
    dominators_options_state opt = {3, LF_VIEW_TOP, 0, NULL, 0, 0, 0, NULL, 1, 0};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, &dominators_spec, &opt, &path);
    if (rc >= 0)
        return rc;
    lf_snapshot s;
    if ((rc = cli_open_analyzed(&ctx, path, &s)) == EXIT_OK)
        cli_no_field_names_note(&ctx, path, &s, 1);
    if (rc)
        return rc;
    uint64_t min = 0;
    if (opt.min)
        cli_parse_size(opt.min, s.reachable_shallow, &min);
    else if (!opt.flat)
        min = lf_view_min(&s);
    if (opt.flat && !opt.top_set)
        opt.top = 50;
    uint32_t start = LF_NODE_SUPER;
    if (opt.root_set) {
        char prefix[1100];
        snprintf(prefix, sizeof prefix, "'%.1024s': ", path);
        if ((rc = cli_find_object(&ctx, &s, opt.root_arg, "--root", prefix, &start)) == EXIT_OK &&
            s.idom[start] == LF_NODE_NONE) {
            cli_message("error", "%sunreachable object %s", prefix, opt.root_arg);
            rc = EXIT_USAGE;
        }
        if (rc) {
            lf_snapshot_free(&s);
            return rc;
        }
    }
    double heap = s.reachable_shallow ? (double)s.reachable_shallow : 1.0;
    out_writer *w = out_begin(stdout, ctx.format, dom_columns, DOM_COLUMN_COUNT);
    out_table_share(w, 7, 10, "field / root"); /* a root only on a top owner, which has no field */
    dom_tree_options tree = {opt.depth, opt.top, min, opt.group, start, opt.members};
    rc = opt.flat ? dom_show_flat(w, &s, opt.top, min, heap, ctx.threads) : dom_show_tree(w, &s, &tree);
    out_end(w);
    lf_snapshot_free(&s);
    if (rc) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    return EXIT_OK;
}
