/* cmd_roots.c - `leakfind roots`: what each GC root keeps alive. */
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/root_reach.h"
#include "../core/analysis/roots.h"
#include "../core/analysis/roots_shared.h"
#include "cli/cli.h"
#include "commands.h"

static const char roots_usage[] =
    "usage: leakfind roots SNAPSHOT [options]\n"
    "\n"
    "One row per GC root: its object, the bytes that root alone keeps alive\n"
    "(the retained size of its object, which only the super-root dominates) and\n"
    "their share of the reachable heap, its kind (static field, thread, JNI\n"
    "global, system class, ...), the object's class and the root's name; last,\n"
    "reachable: the bytes its object reaches, shared ones included (OCaml's\n"
    "Obj.reachable_words). One walk per row: they stop after visiting four\n"
    "times the heap's objects, leaving the later rows' reachable empty (said on\n"
    "stderr; --all-reachable walks every row). roots: the root entries the\n"
    "row stands for (one object that 7 frames report as a local is one row\n"
    "of 7). Rows of kind 'several roots' are the objects that no root keeps\n"
    "alive alone but several do together (the top of the dominator tree\n"
    "under no root's object: a container every request references); their\n"
    "retained size is theirs alone, and their name the roots of the objects\n"
    "that hold them, as dominators' root column names them ('2 roots: static\n"
    "field App, static field Current'; 'leakfind path' shows the paths).\n"
    "Largest first. With --by-kind: one row per kind of root instead, with the\n"
    "number of roots, the distinct objects they name and the sum of what each\n"
    "keeps alive alone (an object named by two kinds counts in both); then\n"
    "what the kind keeps alive as a whole: only_objects and only, the objects\n"
    "(and their bytes) that roots of this kind reach and roots of no other kind\n"
    "do, sharing between roots of the kind included. A last row, '(several\n"
    "kinds)', has what roots of two or more kinds reach: the only column and\n"
    "it add up to the reachable heap. 'How much do finalisers keep alive?' is\n"
    "the finaliser row's only_pct.\n"
    "\n"
    "A V8 snapshot's one root, (root), is listed as the real roots below its\n"
    "synthetic levels: each retaining edge from (Global handles), (Stack roots),\n"
    "(Strong roots), an embedder's roots, ... is a row of that kind named by the\n"
    "edge, and the global objects under (root) are of kind 'global object'.\n"
    "What several roots hold together is a 'several roots' row there too.\n";

typedef struct roots_state {
    uint64_t top;
    int by_kind;
    int all_reachable;
} roots_state;

static const cli_option roots_options[] = {
    {"top", 0, "N", CLI_COUNT, CLI_AT(roots_state, top),
     .help = "at most N rows (default 50; 0 = all)"},
    {"by-kind", 0, NULL, CLI_FLAG, CLI_AT(roots_state, by_kind), .help = "totals per kind of root"},
    {"all-reachable", 0, NULL, CLI_FLAG, CLI_AT(roots_state, all_reachable),
     .help = "no limit on the walks that fill reachable"},
    {0},
};

static const cli_spec roots_spec = {roots_usage, roots_options, 17, NULL};

/* reachable of the rows shown: bytes[i] for rows[i], UINT64_MAX past the
 * walks' budget (said once). */
static uint64_t *reachable_of(const cli_context *ctx, const lf_snapshot *s, const lf_root_row *rows, uint64_t shown,
                              int all, lf_error *err)
{
    uint32_t *nodes = malloc((shown + 1) * sizeof *nodes);
    uint64_t *bytes = malloc((shown + 1) * sizeof *bytes);
    int64_t done = -1;
    if (nodes && bytes) {
        for (uint64_t i = 0; i < shown; i++)
            nodes[i] = rows[i].node;
        done = lf_reachable_bytes(s, nodes, shown, all ? 0 : 4 * (uint64_t)s->object_count, bytes, err);
    } else {
        lf_fail_nomem(err, "reachable bytes");
    }
    free(nodes);
    if (done < 0) {
        free(bytes);
        return NULL;
    }
    if ((uint64_t)done < shown && !ctx->quiet)
        cli_message("note", "reachable: the first %lld of %llu rows; the walks stop after four times the heap's "
                    "objects (--all-reachable walks every row)", (long long)done, (unsigned long long)shown);
    return bytes;
}

/* The rows as shown: with the objects several roots keep alive together,
 * largest first, repeats folded (repeats[i]: the root entries row i is). */
static int64_t rows_to_show(const lf_snapshot *s, lf_root_row **rows, uint64_t count, uint32_t **repeats,
                            lf_error *err)
{
    int64_t all = lf_roots_add_shared(s, rows, count, 1, err);
    return all < 0 ? -1 : lf_roots_folded(s, *rows, (uint64_t)all, repeats, err);
}

/* The roots behind the 'several roots' rows shown: shared[i] for rows[i]
 * (zero for the others). NULL: no memory (err). */
static lf_shared_roots *shared_roots_of(const lf_snapshot *s, const lf_root_row *rows, uint64_t count, uint64_t shown,
                                        lf_error *err)
{
    lf_shared_roots *shared = malloc((shown + 1) * sizeof *shared);
    if (!shared) {
        lf_fail_nomem(err, "roots");
        return NULL;
    }
    if (lf_roots_shared_holders(s, rows, count, shown, shared, err)) {
        free(shared);
        return NULL;
    }
    return shared;
}

static int show_roots(const cli_context *ctx, out_writer *w, const lf_snapshot *s, lf_root_row **rows_,
                      uint64_t count_, const roots_state *o, double heap, lf_error *err)
{
    uint32_t *repeats = NULL;
    int64_t count = rows_to_show(s, rows_, count_, &repeats, err);
    if (count < 0) {
        free(repeats);
        return -1;
    }
    const lf_root_row *rows = *rows_;
    uint64_t shown = o->top == 0 || o->top > (uint64_t)count ? (uint64_t)count : o->top;
    uint64_t *reachable = reachable_of(ctx, s, rows, shown, o->all_reachable, err);
    lf_shared_roots *shared = reachable ? shared_roots_of(s, rows, (uint64_t)count, shown, err) : NULL;
    if (!shared) {
        free(reachable);
        free(repeats);
        return -1;
    }
    char buf[4096];
    for (uint64_t i = 0; i < shown; i++) {
        const lf_root_row *r = &rows[i];
        cli_write_id(w, s, r->node);
        out_bytes(w, lf_snapshot_shallow(s, r->node));
        out_bytes(w, lf_snapshot_retained(s, r->node));
        out_pct(w, 100.0 * (double)lf_snapshot_retained(s, r->node) / heap);
        lf_str kind = lf_root_row_kind(s, r), name = lf_root_row_name(s, r, buf, sizeof buf);
        if (r->kind == LF_ROOT_KIND_SHARED)
            name = (lf_str){buf, lf_shared_roots_text(s, rows, &shared[i], buf, sizeof buf)};
        lf_str cls = lf_snapshot_object_label(s, r->node);
        out_str(w, kind.ptr, kind.len);
        out_str(w, cls.ptr, cls.len);
        out_str(w, name.ptr, name.len);
        if (reachable[i] == UINT64_MAX)
            out_null(w);
        else
            out_bytes(w, reachable[i]);
        if (r->kind == LF_ROOT_KIND_SHARED)
            out_null(w);
        else
            out_u64(w, repeats[i]);
        out_row_end(w);
    }
    free(shared);
    free(reachable);
    free(repeats);
    return 0;
}

static void write_reach(out_writer *w, lf_kind_reach r, double heap)
{
    out_u64(w, r.objects);
    out_bytes(w, r.bytes);
    out_pct(w, 100.0 * (double)r.bytes / heap);
}

static int show_kinds(out_writer *w, const lf_snapshot *s, lf_root_row *rows, uint64_t count,
                      uint64_t top, double heap, lf_error *err)
{
    lf_root_kind_total *t;
    int64_t kinds = lf_root_kind_totals(s, rows, count, &t, err);
    if (kinds < 0)
        return -1;
    lf_kind_reach *reach = malloc(((size_t)kinds + 1) * sizeof *reach), shared;
    if (!reach || lf_root_kind_reach(s, rows, count, t, (size_t)kinds, reach, &shared, err)) {
        free(reach);
        free(t);
        return reach ? -1 : lf_fail_nomem(err, "root kinds");
    }
    for (int64_t i = 0; i < kinds && (top == 0 || (uint64_t)i < top); i++) {
        out_u64(w, t[i].roots);
        out_u64(w, t[i].objects);
        out_bytes(w, t[i].retained);
        out_pct(w, 100.0 * (double)t[i].retained / heap);
        write_reach(w, reach[i], heap);
        lf_root_row r = {0, t[i].kind, 0, 0};
        lf_str kind = lf_root_row_kind(s, &r);
        out_str(w, kind.ptr, kind.len);
        out_row_end(w);
    }
    if (shared.objects) {
        for (int c = 0; c < 4; c++)
            out_null(w);
        write_reach(w, shared, heap);
        out_cstr(w, "(several kinds)");
        out_row_end(w);
    }
    free(reach);
    free(t);
    return 0;
}

int cmd_roots(int argc, char **argv)
{
    cli_context ctx = {0};
    roots_state opt = {50, 0, 0};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, &roots_spec, &opt, &path);
    if (rc >= 0)
        return rc;
    lf_snapshot s;
    if ((rc = cli_open_analyzed(&ctx, path, &s)))
        return rc;
    static const out_column root_columns[] = {
        {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
        {"shallow", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained_pct", OUT_PCT, LF_CUT_END, OUT_SECONDARY},
        {"kind", OUT_STR, LF_CUT_END, OUT_NORMAL},
        {"class", OUT_STR, LF_CUT_CLASS, OUT_SECONDARY},
        {"name", OUT_STR, LF_CUT_PATH, OUT_KEY},
        {"reachable", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"roots", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    };
    static const out_column kind_columns[] = {
        {"roots", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"objects", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"retained_pct", OUT_PCT, LF_CUT_END, OUT_NORMAL},
        {"only_objects", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"only", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"only_pct", OUT_PCT, LF_CUT_END, OUT_NORMAL},
        {"kind", OUT_STR, LF_CUT_END, OUT_NORMAL},
    };
    double heap = s.reachable_shallow ? (double)s.reachable_shallow : 1.0;
    out_writer *w = opt.by_kind ? out_begin(stdout, ctx.format, kind_columns, 8)
                                : out_begin(stdout, ctx.format, root_columns, 9);
    lf_error err;
    lf_root_row *rows = NULL;
    int64_t count = lf_root_rows(&s, &rows, &err);
    rc = count < 0 ? -1
         : opt.by_kind ? show_kinds(w, &s, rows, (uint64_t)count, opt.top, heap, &err)
                       : show_roots(&ctx, w, &s, &rows, (uint64_t)count, &opt, heap, &err);
    free(rows);
    out_end(w);
    lf_snapshot_free(&s);
    return rc ? cli_input_error(path, &err) : EXIT_OK;
}
