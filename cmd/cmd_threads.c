/* cmd_threads.c - `leakfind threads`: each thread with its stack, frame by
 * frame, and what each frame's locals keep alive (issue 37; MAT's thread
 * overview). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/threads.h"
#include "cli/cli.h"
#include "cli/string_preview.h"
#include "commands.h"

static const char threads_usage[] =
    "usage: leakfind threads SNAPSHOT [options]\n"
    "\n"
    "Each thread, largest retained first, then its frames that hold locals,\n"
    "innermost first, then under each frame its locals, largest retained\n"
    "first: depth (0 thread, 1 frame, 2 local), thread (its name), frame\n"
    "(frame N: Class.method (File.java:LINE), 0 innermost), id, class,\n"
    "shallow, retained and a string's value. A thread's retained is its\n"
    "object's (JVM) or its frames' (OCaml); a frame's, its locals', each local\n"
    "counted once per thread. JVM: HPROF dumps and .lfs files converted from\n"
    "them; OCaml: systhreads and domains of agent snapshots; .NET cores:\n"
    "managed threads by id (frame N: Type.Method). V8 dumps and .gcdump\n"
    "files keep no stacks. A table (on a terminal) is the same rows as a\n"
    "tree: each thread once, its frames under it, their locals under them.\n";

typedef struct threads_state {
    uint64_t top;
    uint64_t locals;
} threads_state;

static const cli_option threads_options[] = {
    {"top", 0, "N", CLI_COUNT, CLI_AT(threads_state, top),
     .help = "at most N threads (default 0 = all)"},
    {"locals", 0, "N", CLI_COUNT, CLI_AT(threads_state, locals),
     .help = "at most N locals under a frame (default 5; 0 = all)"},
    {0},
};

static const cli_spec threads_spec = {threads_usage, threads_options, 17, NULL};

static const out_column columns[] = {
    {"depth", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"thread", OUT_STR, LF_CUT_END, OUT_NORMAL},
    {"frame", OUT_STR, LF_CUT_PATH, OUT_KEY},
    {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
    {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
    {"shallow", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
    {"value", OUT_STR_SOMETIMES, LF_CUT_END, OUT_NORMAL},
};

static void write_thread_name(out_writer *w, const lf_snapshot *s, const lf_thread *t)
{
    lf_str name = lf_snapshot_string(s, t->name);
    out_str(w, name.ptr, t->name_len < name.len ? t->name_len : name.len);
}

static void write_object(out_writer *w, const lf_snapshot *s, uint32_t node)
{
    cli_write_id(w, s, node);
    lf_str cls = lf_snapshot_object_label(s, node);
    out_str(w, cls.ptr, cls.len);
    out_bytes(w, lf_snapshot_shallow(s, node));
    out_bytes(w, lf_snapshot_retained(s, node));
    cli_write_string_preview(w, s, node);
}

/* A table is for eyes: the threads' tree in one column (a thread and its
 * object's class, its frames under it, each frame's locals under the
 * frame), with id and sizes beside it. TSV and JSON rows repeat the thread
 * and the frame, so that each row stands alone for a script. */
static const out_column tree_columns[] = {
    {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
    {"shallow", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
    {"thread / frame / local", OUT_STR, LF_CUT_PATH, OUT_KEY},
    {"value", OUT_STR_SOMETIMES, LF_CUT_END, OUT_NORMAL},
};

typedef struct thread_out {
    out_writer *w;
    const lf_snapshot *s;
    int tree;  /* a table: tree_columns */
} thread_out;

/* One row of the tree: node's id and shallow size (none for a frame), the
 * retained size, text indented by depth and cut as cut says, a string's value. */
static void tree_row(const thread_out *o, uint32_t node, uint64_t retained, unsigned depth, const char *text,
                     size_t len, lf_cut_style cut)
{
    if (node != LF_NODE_NONE) {
        cli_write_id(o->w, o->s, node);
        out_bytes(o->w, lf_snapshot_shallow(o->s, node));
    } else {
        out_null(o->w);
        out_null(o->w);
    }
    out_bytes(o->w, retained);
    out_indent(o->w, depth);
    out_cut_next(o->w, cut);
    out_str(o->w, text, len);
    if (node != LF_NODE_NONE)
        cli_write_string_preview(o->w, o->s, node);
    out_row_end(o->w);
}

static void show_local(const thread_out *o, const lf_thread *t, const char *label, size_t len, uint32_t node)
{
    if (o->tree) {
        lf_str cls = lf_snapshot_object_label(o->s, node);
        tree_row(o, node, lf_snapshot_retained(o->s, node), 2, cls.ptr, cls.len, LF_CUT_CLASS);
        return;
    }
    out_u64(o->w, 2);
    write_thread_name(o->w, o->s, t);
    out_str(o->w, label, len);
    write_object(o->w, o->s, node);
    out_row_end(o->w);
}

static void show_frame(const thread_out *o, const lf_thread_set *set, const lf_thread *t, const lf_stack_frame *f,
                       uint64_t locals)
{
    char label[1024];
    size_t len = lf_thread_frame_label(o->s, f, label, sizeof label);
    if (o->tree) {
        tree_row(o, LF_NODE_NONE, f->retained, 1, label, len, LF_CUT_PATH);
    } else {
        out_u64(o->w, 1);
        write_thread_name(o->w, o->s, t);
        out_str(o->w, label, len);
        out_null(o->w);
        out_str(o->w, "", 0);
        out_null(o->w);
        out_bytes(o->w, f->retained);
        out_row_end(o->w);
    }
    for (uint32_t i = 0; i < f->local_count && (locals == 0 || i < locals); i++)
        show_local(o, t, label, len, set->local[f->first_local + i]);
}

/* A thread's own row: in the tree its name and, when it has one, its
 * object's class as a path's step has it ("main (java.lang.Thread)"). */
static void show_thread(const thread_out *o, const lf_thread *t)
{
    if (o->tree) {
        lf_str name = lf_snapshot_string(o->s, t->name);
        int name_len = (int)(t->name_len < name.len ? t->name_len : name.len);
        lf_str cls = t->node != LF_NODE_NONE ? lf_snapshot_object_label(o->s, t->node) : (lf_str){"", 0};
        char text[1024];
        int n = cls.len ? snprintf(text, sizeof text, "%.*s (%.*s)", name_len, name.ptr, (int)cls.len, cls.ptr)
                        : snprintf(text, sizeof text, "%.*s", name_len, name.ptr);
        size_t len = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
        tree_row(o, t->node, t->node != LF_NODE_NONE ? lf_snapshot_retained(o->s, t->node) : t->retained, 0, text,
                 len, LF_CUT_PATH);
        return;
    }
    out_u64(o->w, 0);
    write_thread_name(o->w, o->s, t);
    out_str(o->w, "", 0);
    if (t->node != LF_NODE_NONE) {
        write_object(o->w, o->s, t->node);
    } else {
        out_null(o->w);
        out_str(o->w, "", 0);
        out_null(o->w);
        out_bytes(o->w, t->retained);
    }
    out_row_end(o->w);
}

static void show_threads(const thread_out *o, const lf_thread_set *set, const threads_state *opt)
{
    for (uint32_t i = 0; i < set->count && (opt->top == 0 || i < opt->top); i++) {
        const lf_thread *t = &set->thread[i];
        /* in a table, a thread with frames stands apart from its neighbours */
        if (t->frame_count > 0 || (i > 0 && set->thread[i - 1].frame_count > 0))
            out_table_gap(o->w);
        show_thread(o, t);
        for (uint32_t f = 0; f < t->frame_count; f++)
            show_frame(o, set, t, &set->frame[t->first_frame + f], opt->locals);
    }
}

int cmd_threads(int argc, char **argv)
{
    cli_context ctx = {0};
    threads_state opt = {0, 5};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, &threads_spec, &opt, &path);
    if (rc >= 0)
        return rc;
    lf_snapshot s;
    if ((rc = cli_open_analyzed(&ctx, path, &s)))
        return rc;
    lf_thread_set set;
    lf_error err;
    if (lf_threads_find(&s, &set, &err)) {
        lf_snapshot_free(&s);
        return cli_input_error(path, &err);
    }
    if (set.count == 0 && (s.source_format == LF_FORMAT_V8 || s.source_format == LF_FORMAT_GCDUMP)) {
        cli_message("error", "'%s' keeps no threads: a %s records no stacks", path,
                    s.source_format == LF_FORMAT_V8 ? "V8 heap snapshot" : ".gcdump");
        lf_threads_free(&set);
        lf_snapshot_free(&s);
        return EXIT_USAGE;
    }
    const int tree = ctx.format == OUT_TABLE;
    out_writer *w = tree ? out_begin(stdout, ctx.format, tree_columns, (int)(sizeof tree_columns / sizeof tree_columns[0]))
                         : out_begin(stdout, ctx.format, columns, (int)(sizeof columns / sizeof columns[0]));
    show_threads(&(thread_out){w, &s, tree}, &set, &opt);
    out_end(w);
    lf_threads_free(&set);
    lf_snapshot_free(&s);
    return EXIT_OK;
}
