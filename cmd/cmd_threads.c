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
    "files keep no stacks.\n";

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

static void show_frame(out_writer *w, const lf_snapshot *s, const lf_thread_set *set, const lf_thread *t,
                       const lf_stack_frame *f, uint64_t locals)
{
    char label[1024];
    size_t len = lf_thread_frame_label(s, f, label, sizeof label);
    out_u64(w, 1);
    write_thread_name(w, s, t);
    out_str(w, label, len);
    out_null(w);
    out_str(w, "", 0);
    out_null(w);
    out_bytes(w, f->retained);
    out_row_end(w);
    for (uint32_t i = 0; i < f->local_count && (locals == 0 || i < locals); i++) {
        out_u64(w, 2);
        write_thread_name(w, s, t);
        out_str(w, label, len);
        write_object(w, s, set->local[f->first_local + i]);
        out_row_end(w);
    }
}

static void show_threads(out_writer *w, const lf_snapshot *s, const lf_thread_set *set, const threads_state *o)
{
    for (uint32_t i = 0; i < set->count && (o->top == 0 || i < o->top); i++) {
        const lf_thread *t = &set->thread[i];
        out_u64(w, 0);
        write_thread_name(w, s, t);
        out_str(w, "", 0);
        if (t->node != LF_NODE_NONE) {
            write_object(w, s, t->node);
        } else {
            out_null(w);
            out_str(w, "", 0);
            out_null(w);
            out_bytes(w, t->retained);
        }
        out_row_end(w);
        for (uint32_t f = 0; f < t->frame_count; f++)
            show_frame(w, s, set, t, &set->frame[t->first_frame + f], o->locals);
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
    out_writer *w = out_begin(stdout, ctx.format, columns, (int)(sizeof columns / sizeof columns[0]));
    show_threads(w, &s, &set, &opt);
    out_end(w);
    lf_threads_free(&set);
    lf_snapshot_free(&s);
    return EXIT_OK;
}
