/* cmd_path.c - `leakfind path`: why is it alive? The shortest strong path
 * from a GC root to each target, found backwards from the target. */
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/analysis.h"
#include "../core/analysis/merged_paths.h"
#include "../core/analysis/site_groups.h"
#include "../core/base/suggest.h"
#include "../graph/paths.h"
#include "cli/class_match.h"
#include "cli/cli.h"
#include "cli/which_object.h"
#include "cli/object_id.h"
#include "cli/path_rows.h"
#include "cli/string_preview.h"
#include "commands.h"
#include "path/path_exclude.h"

static const char path_usage[] =
    "usage: leakfind path SNAPSHOT TARGET... [options]\n"
    "       leakfind path SNAPSHOT --class NAME [options]\n"
    "       leakfind path SNAPSHOT --site PATTERN [options]\n"
    "\n"
    "For each target, the shortest path of strong references from a GC root:\n"
    "one row per hop from the root object (depth 0) to the target, with the\n"
    "field or [index] by which the previous object holds it, and for the root\n"
    "object the root's kind and name in column root. distance is the number of references\n"
    "from the root. Weak references are never followed: a target that only\n"
    "weak references reach is said so on stderr, with the path through them;\n"
    "an unreachable one too (exit 0 in both cases). A TARGET is an object id:\n"
    "0x7f3a1c08, @12345 (V8) or decimal. retained is shown when the snapshot\n"
    "holds its dominators (a converted .lfs), with --class or with --retained.\n";

#define MAX_EXCLUDES 32

typedef struct path_state {
    const char *class_name;
    const char *site_pattern;
    uint64_t top, stack;
    const char *exclude[MAX_EXCLUDES];
    unsigned exclude_count;
    int all, merge, retained, no_group;
} path_state;

/* --exclude, repeatable: each CL.FIELD is kept, up to MAX_EXCLUDES. */
static int on_exclude(cli_context *ctx, void *state, const char *arg)
{
    path_state *o = state;
    const char *dot = strrchr(arg, '.');
    if (!dot || dot == arg || !dot[1])
        return cli_usage_error(ctx, "--exclude needs CLASS.FIELD, not '%s'", arg);
    if (o->exclude_count == MAX_EXCLUDES)
        return cli_usage_error(ctx, "at most %d --exclude", MAX_EXCLUDES);
    o->exclude[o->exclude_count++] = arg;
    return 0;
}

static const cli_option path_options[] = {
    {"class", 0, "NAME", CLI_STRING, CLI_AT(path_state, class_name),
     .help = "the largest instances of class NAME by retained size:\n"
             "a full name, a simple one (after the last . or $:\n"
             "ArrayList, StageListener, Pipeline$StageListener)\n"
             "or a glob (*Listener, java.util.*); a simple name\n"
             "several classes end with is an error listing them"},
    {"site", 0, "PATTERN", CLI_STRING, CLI_AT(path_state, site_pattern),
     .help = "the largest objects by retained size allocated at a site\n"
             "whose innermost frame contains PATTERN, e.g. parse or\n"
             "parser.ml:88 (dumps with allocation sites: 'leakfind sites')"},
    CLI_STACK_OPTION(path_state, stack,
                     "with --site: match any of the N innermost frames\n"
                     "(default 1; 0 = the whole stack)"),
    {"top", 0, "N", CLI_COUNT, CLI_AT(path_state, top),
     .help = "how many objects with --class or --site (default 5; 0 = all)"},
    {"all", 0, NULL, CLI_FLAG, CLI_AT(path_state, all),
     .help = "up to 10 disjoint paths per target (no two pass through\n"
             "the same object), numbered in column path"},
    {"merge", 0, NULL, CLI_FLAG, CLI_AT(path_state, merge),
     .help = "the paths of all targets merged into one tree from the\n"
             "roots, with how many targets each hop leads to (count),\n"
             "like Eclipse MAT's \"merge shortest paths\"; the elements\n"
             "of an array and the entries of a collection are one row\n"
             "per class (no id), its bucket chains one hop"},
    {"no-group", 0, NULL, CLI_FLAG, CLI_AT(path_state, no_group),
     .help = "with --merge: every object a row of its own"},
    {"retained", 0, NULL, CLI_FLAG, CLI_AT(path_state, retained),
     .help = "compute the dominators to show every hop's retained\n"
             "size (slower: a path alone is one search)"},
    {"exclude", 0, "CL.FIELD", CLI_CUSTOM, 0, .custom = on_exclude,
     .help = "do not follow field FIELD of objects of class CL\n"
             "(CL named as for --class)\n"
             "(repeatable), as Eclipse MAT's path queries allow;\n"
             "a field no CL refers through is a warning"},
    {0},
};

static const cli_spec path_spec = {path_usage, path_options, 22, NULL};

#define MAX_DISJOINT 10

static const out_column columns[] = {
    {"target", OUT_ID, LF_CUT_END, OUT_OPTIONAL},
    {"path", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"distance", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"depth", OUT_U64, LF_CUT_END, OUT_SECONDARY},
    {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
    {"shallow", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
    {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
    {"field", OUT_STR, LF_CUT_PATH, OUT_KEY},
    {"root", OUT_STR, LF_CUT_PATH, OUT_KEY},
    {"location", OUT_STR_SOMETIMES, LF_CUT_END, OUT_NORMAL},
    {"value", OUT_STR_SOMETIMES, LF_CUT_END, OUT_NORMAL},
};

static const lf_snapshot *by_retained_snapshot;

static int by_retained(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint64_t rx = lf_snapshot_retained(by_retained_snapshot, x);
    uint64_t ry = lf_snapshot_retained(by_retained_snapshot, y);
    if (rx != ry)
        return rx > ry ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* --merge: the merged tree (core/analysis/merged_paths.h) as rows, in
 * preorder, each indented by its depth. */
static int merge_write(const lf_merge_tree *t, const lf_snapshot *s, const uint64_t *root_index,
                       out_format format)
{
    static const out_column merge_columns[] = {
        {"depth", OUT_U64, LF_CUT_END, OUT_SECONDARY},
        {"count", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
        {"shallow", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
        {"field", OUT_STR, LF_CUT_PATH, OUT_KEY},
        {"root", OUT_STR, LF_CUT_PATH, OUT_KEY},
        {"location", OUT_STR_SOMETIMES, LF_CUT_END, OUT_NORMAL},
        {"value", OUT_STR_SOMETIMES, LF_CUT_END, OUT_NORMAL},
        /* on a linked list the answer: never left out for a width */
        {"chain", OUT_U64_SOMETIMES, LF_CUT_END, OUT_NORMAL},
    };
    uint32_t *order, *depth;
    lf_edge_answer *hop = NULL;
    if (lf_merge_preorder(t, s, &order, &depth) || !(hop = lf_merge_hops(t, s, path_rows_batch(s)))) {
        free(order), free(depth);
        cli_message("error", "out of memory");
        return -1;
    }
    out_writer *w = out_begin(stdout, format, merge_columns, (int)(sizeof merge_columns / sizeof merge_columns[0]));
    out_table_share(w, 6, 7, "field / root"); /* a root only where a path begins, without a field */
    for (size_t k = 0; k < t->count; k++) {
        uint32_t at = order[k], d = depth[k];
        const lf_merge_node *m = &t->node[at];
        out_u64(w, d);
        out_u64(w, m->count);
        if (m->folded) { /* objects of one class: no one id or size */
            out_null(w);
            out_null(w);
            out_null(w);
        } else {
            cli_write_id(w, s, m->object);
            out_bytes(w, lf_snapshot_shallow(s, m->object));
            if (lf_snapshot_has_retained(s) && s->idom[m->object] != LF_NODE_NONE)
                out_bytes(w, lf_snapshot_retained(s, m->object));
            else
                out_null(w);
        }
        out_indent(w, d);
        lf_str label = m->folded ? lf_snapshot_class_name(s, s->object_class[m->object])
                                 : lf_snapshot_object_label(s, m->object);
        out_str(w, label.ptr, label.len);
        lf_edge_answer a = hop[at];
        if (m->folded && a.kind == LF_EDGE_KIND_ELEMENT)
            out_str(w, "[]", 2); /* every slot */
        else if (m->parent == LF_MERGE_NONE) {
            out_str(w, "", 0);
            path_write_root(w, s, root_index, m->object);
        } else {
            cli_write_hop(w, s, a, m->weak ? "(weak) " : "");
        }
        if (!m->folded) {
            cli_write_place(w, s, m->object, 8);
            cli_write_string_preview(w, s, m->object);
        } else {
            out_null(w);
            out_null(w);
        }
        if (m->links)
            out_u64(w, m->links);
        else
            out_null(w);
        out_row_end(w);
    }
    out_end(w);
    free(order), free(depth), free(hop);
    return 0;
}

/* Which sites have a frame among their `depth` innermost (0: all) whose
 * label contains pattern; NULL when out of memory. */
static uint8_t *match_sites(const lf_snapshot *s, const char *pattern, uint32_t depth)
{
    uint8_t *match = calloc((size_t)s->site_count + 1, 1);
    uint8_t *frame_match = calloc((size_t)s->frame_count + 1, 1);
    if (!match || !frame_match) {
        free(match);
        free(frame_match);
        return NULL;
    }
    char label[LF_GROUP_NAME_MAX];
    for (uint32_t f = 1; f < s->frame_count; f++) {
        lf_frame_label(s, f, label, sizeof label);
        frame_match[f] = strstr(label, pattern) != NULL;
    }
    for (uint32_t site = 1; site < s->site_count; site++) {
        uint32_t at = site;
        for (uint32_t i = 0; at && (!depth || i < depth) && !match[site]; i++, at = s->site[at].caller)
            match[site] = frame_match[s->site[at].frame];
    }
    free(frame_match);
    return match;
}

/* The reachable objects whose key (class, site) matches, largest retained
 * first, at most top of them (0: all). */
static int64_t largest_matching(const lf_snapshot *s, const uint8_t *match, const uint32_t *key_of_node,
                                uint64_t top, uint32_t *targets)
{
    int64_t count = 0;
    for (uint32_t v = 0; v < s->object_count; v++)
        if (s->idom[v] != LF_NODE_NONE && match[key_of_node[v]])
            targets[count++] = v;
    by_retained_snapshot = s;
    qsort(targets, (size_t)count, sizeof *targets, by_retained);
    if (top && (uint64_t)count > top)
        count = (int64_t)top;
    return count;
}

/* The function of a frame closest to pattern (a misspelt --site), into
 * near (empty when none is close). */
static void closest_function(const lf_snapshot *s, const char *pattern, char *near, size_t size)
{
    suggest_nearest n;
    suggest_nearest_init(&n, pattern, strlen(pattern), near, size);
    for (uint32_t f = 1; f < s->frame_count && n.bound > 0; f++) {
        lf_str name = lf_snapshot_string(s, s->frame[f].function);
        suggest_nearest_offer(&n, name.ptr, name.len);
    }
}

/* Why --site found nothing: a frame past --stack's matches (it is an outer
 * one), else the closest function (a misspelt name), else nothing. */
static void say_no_site(const lf_snapshot *s, const path_state *opt)
{
    char near[256] = "";
    uint8_t *outer = opt->stack ? match_sites(s, opt->site_pattern, 0) : NULL;
    int in_outer = 0;
    for (uint32_t site = 1; outer && site < s->site_count && !in_outer; site++)
        in_outer = outer[site];
    free(outer);
    if (!in_outer)
        closest_function(s, opt->site_pattern, near, sizeof near);
    cli_message("warning", "no reachable object allocated at a site matching '%s'%s%s%s", opt->site_pattern,
                in_outer ? " in its innermost frames (it matches outer ones: --stack 0 looks at the whole stack)"
                : near[0] ? " (did you mean '" : "",
                near, near[0] ? "'?)" : "");
}

/* The largest reachable objects allocated at a matching site (--site). */
static int64_t site_targets(const lf_snapshot *s, const path_state *opt, uint32_t *targets)
{
    uint8_t *match = match_sites(s, opt->site_pattern, (uint32_t)opt->stack);
    if (!match) {
        cli_message("error", "out of memory");
        return -EXIT_SYSTEM;
    }
    int64_t count = largest_matching(s, match, s->object_site, opt->top, targets);
    free(match);
    if (count == 0)
        say_no_site(s, opt);
    return count;
}

/* The largest reachable instances of the classes --class names
 * (class_match.h: an ambiguous simple name is an error, no class a warning
 * with the closest names). */
static int64_t class_targets(const lf_snapshot *s, const path_state *opt, uint32_t *targets)
{
    uint32_t classes;
    uint8_t *match;
    int rc = class_choose(s, "--class", opt->class_name, strlen(opt->class_name), &match, &classes);
    if (rc != EXIT_OK)
        return -rc;
    int64_t count = largest_matching(s, match, s->object_class, opt->top, targets);
    free(match);
    if (classes > 0 && count == 0)
        cli_message("warning", "no reachable instance of class '%s'", opt->class_name);
    return count;
}

/* The targets: ids given, or the largest reachable instances of a class, or
 * of a site. */
static int64_t find_targets(cli_context *ctx, const lf_snapshot *s, const path_state *opt,
                            char **ids, int nids, uint32_t *targets)
{
    int64_t count = 0;
    if (opt->site_pattern)
        return site_targets(s, opt, targets);
    if (opt->class_name)
        return class_targets(s, opt, targets);
    for (int i = 0; i < nids; i++) {
        uint32_t v;
        int rc = cli_find_object(ctx, s, ids[i], "a TARGET", "", &v);
        if (rc)
            return -rc;
        targets[count++] = v;
    }
    return count;
}

/* One search for every target, the paths written as rows or merged. */
typedef struct path_run {
    const lf_snapshot *s;
    const path_state *opt;
    lf_path_search ps;
    path_exclusions x;
    lf_edge_filter filter;
    uint32_t *hops;     /* the path found last, from its root */
    lf_merge_tree tree; /* --merge */
    path_rows rows;     /* otherwise */
} path_run;

static int out_of_memory(void)
{
    cli_message("error", "out of memory");
    return EXIT_SYSTEM;
}

/* Says that target has no strong path: weak, one through weak references
 * (shown), else none at all. */
static void say_no_strong_path(void *ctx, uint32_t target, int weak)
{
    const path_run *p = ctx;
    char id[32];
    snprintf(id, sizeof id, (p->s->flags & LF_SNAP_IDS_AT) ? "@%llu" : "0x%llx",
             (unsigned long long)lf_snapshot_object_id(p->s, target));
    if (!weak)
        cli_message("note", "%s is unreachable: no path of references from a GC root%s", id,
                    p->opt->exclude_count ? " (with the exclusions)" : "");
    else
        cli_message("note", "%s is reachable only through weak references: it is not kept alive (path below)", id);
}

/* The shortest strong path, else the shortest through weak references (*weak
 * set); 0 when nothing reaches the target, said on stderr like a weak one. */
static int64_t first_path(path_run *p, uint32_t target, int *weak)
{
    int64_t len = lf_shortest_root_path(&p->ps, target, 0, p->filter, &p->x, p->hops);
    *weak = 0;
    if (len == 0) {
        len = lf_shortest_root_path(&p->ps, target, LF_PATH_FOLLOW_WEAK, p->filter, &p->x, p->hops);
        *weak = len > 0;
        say_no_strong_path(p, target, *weak);
    }
    return len;
}

/* The rows of the path in hops; with --all, further paths each of which may
 * not pass through an earlier one. */
static int add_paths(path_run *p, uint32_t target, int64_t len, int weak)
{
    uint32_t blocked[MAX_DISJOINT * 64];
    unsigned nblocked = 0;
    int rc = EXIT_OK;
    for (unsigned number = 1; len > 0; number++) {
        if (path_rows_add(&p->rows, target, number, p->hops, len, weak)) {
            rc = out_of_memory();
            break;
        }
        if (!p->opt->all || number == MAX_DISJOINT || len == 1)
            break;
        /* later paths may start at the same root, but through other objects;
         * a root holding the target directly is used up */
        for (int64_t k = 0; k + 1 < len && nblocked < sizeof blocked / sizeof blocked[0]; k++) {
            p->ps.blocked[p->hops[k]] = len == 2 ? 2 : 1;
            blocked[nblocked++] = p->hops[k];
        }
        len = lf_shortest_root_path(&p->ps, target, weak ? LF_PATH_FOLLOW_WEAK : 0, p->filter, &p->x,
                                    p->hops);
    }
    for (unsigned k = 0; k < nblocked; k++)
        p->ps.blocked[blocked[k]] = 0;
    return rc;
}

static int show_target(path_run *p, uint32_t target)
{
    int weak;
    int64_t len = first_path(p, target, &weak);
    return add_paths(p, target, len, weak);
}

/* The search over the reverse graph from the targets, the exclusions, then
 * each target's paths and, last, the merged tree or the buffered rows. */
static int show_paths(cli_context *ctx, const lf_snapshot *s, const path_state *opt,
                      const lf_reverse *rev, const uint8_t *is_root, const uint64_t *root_index,
                      const uint32_t *targets, int64_t count, uint32_t *hops)
{
    path_run p = {.s = s, .opt = opt, .hops = hops};
    if (lf_path_search_init(&p.ps, rev, is_root))
        return out_of_memory();
    int built = path_exclusions_build(&p.x, s, opt->exclude, opt->exclude_count);
    if (built != EXIT_OK) {
        path_exclusions_free(&p.x);
        lf_path_search_free(&p.ps);
        return built;
    }
    p.filter = opt->exclude_count ? path_exclusions_follow : NULL;
    out_writer *w = opt->merge ? NULL : out_begin(stdout, ctx->format, columns, (int)(sizeof columns / sizeof columns[0]));
    out_table_share(w, 8, 9, "field / root"); /* a root only where a path begins, without a field */
    path_rows_init(&p.rows, w, s, root_index);
    int rc = EXIT_OK;
    if (opt->merge) {
        if (lf_merge_targets(&p.tree, s, &p.ps, targets, (size_t)count, p.filter, &p.x, !opt->no_group, 0,
                             say_no_strong_path, &p) < 0)
            rc = out_of_memory();
        else
            lf_merge_finish(&p.tree);
    }
    for (int64_t i = 0; i < count && rc == EXIT_OK && !opt->merge; i++)
        rc = show_target(&p, targets[i]);
    if (opt->merge && rc == EXIT_OK && merge_write(&p.tree, s, root_index, ctx->format))
        rc = EXIT_SYSTEM;
    if (!opt->merge && rc == EXIT_OK && path_rows_flush(&p.rows))
        rc = out_of_memory();
    path_rows_free(&p.rows);
    if (w)
        out_end(w);
    lf_merge_free(&p.tree);
    lf_path_search_free(&p.ps);
    path_exclusions_free(&p.x);
    return rc;
}

/* The positional arguments make sense together, and the snapshot opens with
 * what the query needs. pos[0] is the snapshot. */
static int open_for_paths(cli_context *ctx, const path_state *opt, char **pos, int npos, lf_snapshot *s)
{
    const int by_query = (opt->class_name != NULL) + (opt->site_pattern != NULL);
    if (npos == 1 && !by_query)
        return cli_which_object(ctx, pos[0], " (or --class NAME, or --site PATTERN)");
    if (npos < 1 || (npos < 2 && !by_query) || (npos > 1 && by_query) || by_query > 1)
        return cli_usage_error(ctx, "path takes SNAPSHOT and TARGET ids, or SNAPSHOT and --class NAME, "
                               "or SNAPSHOT and --site PATTERN");
    /* Only --class and --site need retained sizes: a path alone is one search. */
    int rc = by_query || opt->retained ? cli_open_analyzed(ctx, pos[0], s) : cli_open(ctx, pos[0], s);
    if (!rc && opt->site_pattern && !s->object_site) {
        cli_message("error", "'%s' has no allocation sites: --site needs a dump taken with "
                    "allocation tracking on (see docs/SITES.md)", pos[0]);
        lf_snapshot_free(s);
        rc = EXIT_INPUT;
    }
    if (!rc)
        cli_no_field_names_note(ctx, pos[0], s, 0);
    return rc;
}

int cmd_path(int argc, char **argv)
{
    cli_context ctx = {0};
    path_state opt = {NULL, NULL, 5, 1, {NULL}, 0, 0, 0, 0, 0};
    char **pos;
    int npos;
    int rc = cli_parse(&ctx, argc, argv, &path_spec, &opt, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    lf_snapshot s;
    if ((rc = open_for_paths(&ctx, &opt, pos, npos, &s))) {
        free(pos);
        return rc;
    }
    uint32_t *targets = malloc(((size_t)s.object_count + (size_t)npos + 1) * sizeof *targets);
    uint32_t *hops = malloc(((size_t)s.object_count + 1) * sizeof *hops);
    uint8_t *is_root = calloc((size_t)s.object_count / 8 + 1, 1);
    uint64_t *root_index = path_root_index(&s);
    lf_reverse rev = {0};
    lf_graph g = lf_snapshot_graph(&s);
    cli_progress(&ctx, "indexing references");
    int indexed = targets && hops && is_root && root_index && lf_reverse_build(&g, &rev) == 0;
    cli_progress_done(&ctx);
    int64_t count = indexed ? find_targets(&ctx, &s, &opt, pos + 1, npos - 1, targets) : 0;
    if (!indexed) {
        rc = out_of_memory();
    } else if (count < 0) {
        rc = (int)-count;
    } else {
        for (uint32_t r = 0; r < s.root_count; r++)
            is_root[s.root[r].node / 8] |= (uint8_t)(1u << (s.root[r].node % 8));
        rc = show_paths(&ctx, &s, &opt, &rev, is_root, root_index, targets, count, hops);
    }
    lf_reverse_free(&rev);
    free(targets);
    free(hops);
    free(is_root);
    free(root_index);
    free(pos);
    lf_snapshot_free(&s);
    return rc;
}
