/* cmd_dominators.c - `leakfind dominators`: who owns the memory. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "dominators/dom_flat.h"
#include "dominators/dom_tree.h"

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
    "  --no-group     do not group top owners of one class, nor what an array or\n"
    "                 a collection holds (--group: default)\n"
    "  --members      under each 'N x Class' group of top owners, its largest\n"
    "                 members (up to --top) and what they hold\n"
    "\n"
    "V8's synthetic root nodes ((GC roots), ...) are not rows; `field` names\n"
    "them. Children hidden by --top/--min are one row per parent ('... N more',\n"
    "count in `hidden`); small top owners of one class are one row ('N x Class',\n"
    "count in `group`; --members lists them). A child that retains 90% or more\n"
    "of its parent costs no depth (not along a chain of one class, at most 8\n"
    "levels on a path). Below an array (a list's elements, a map's table, a\n"
    "JavaScript Array), what it holds is grouped by class through the\n"
    "collection's entries and buckets ('300 x Session', '300 x\n"
    "java.util.HashMap$Node (entries)'); a class of one object is that object.\n"
    "\n"
    "'dominators --flat --top 0 --min 0' lists every reachable object.\n"
    "\n" GLOBAL_OPTIONS_HELP;

enum { OPT_DEPTH, OPT_TOP, OPT_MIN, OPT_FLAT, OPT_ROOT, OPT_GROUP, OPT_NO_GROUP, OPT_MEMBERS };
static const cli_option dominators_options[] = {
    {"depth", 0, 1, OPT_DEPTH},
    {"top", 0, 1, OPT_TOP},
    {"min", 0, 1, OPT_MIN},
    {"flat", 0, 0, OPT_FLAT},
    {"root", 0, 1, OPT_ROOT},
    {"group", 0, 0, OPT_GROUP},
    {"no-group", 0, 0, OPT_NO_GROUP},
    {"members", 0, 0, OPT_MEMBERS},
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
    int members;
} dominators_options_state;

static int on_option(cli_context *ctx, void *state, int id, const char *arg)
{
    dominators_options_state *o = state;
    uint64_t probe;
    switch (id) {
    case OPT_DEPTH:
        return cli_count_option(ctx, "--depth", arg, &o->depth);
    case OPT_TOP:
        o->top_set = 1;
        return cli_count_option(ctx, "--top", arg, &o->top);
    case OPT_MIN:
        if (cli_parse_size(arg, 100, &probe))
            return cli_usage_error(ctx, "--min needs bytes (64K, 2MiB) or a percent (0.5%%), not '%s'", arg);
        o->min = arg;
        break;
    case OPT_FLAT:
        o->flat = 1;
        break;
    case OPT_MEMBERS:
        o->members = 1;
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

int cmd_dominators(int argc, char **argv)
{
    cli_context ctx = {0};
    dominators_options_state opt = {3, 10, 0, NULL, 0, 0, 0, 1, 0};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, dominators_options, on_option, &opt, dominators_help, &path);
    if (rc >= 0)
        return rc;
    lf_snapshot s;
    if ((rc = cli_open_analyzed(&ctx, path, &s)) == EXIT_OK)
        cli_no_field_names_note(&ctx, path, &s);
    if (rc)
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
