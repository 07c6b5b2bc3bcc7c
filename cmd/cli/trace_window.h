/* trace_window.h - the viewer's filters as options of the commands that read
 * a Memtrace trace (issue 51, docs/MEMTRACE.md): --live-at T, --live-between
 * T1 T2, --allocated-between T1 T2, times in seconds since the trace began
 * or N% of its run; and opening a trace through them as a snapshot. */
#ifndef CLI_TRACE_WINDOW_H
#define CLI_TRACE_WINDOW_H

#include "../../core/memtrace/mt_snapshot.h"
#include "cli.h"

typedef struct cli_time {
    double value;
    int percent;            /* value is a percentage of the run */
} cli_time;

typedef struct cli_trace_window {
    int live_at_set, live_between_set, allocated_set;
    cli_time live_at, live_between[2], allocated[2];
} cli_trace_window;

/* The three option rows for a state with a cli_trace_window `field`. */
#define CLI_TRACE_WINDOW_OPTIONS(type, field)                                                     \
    {"live-at", 0, "T", CLI_CUSTOM, CLI_AT(type, field), .custom = cli_trace_live_at,            \
     .help = "trace: blocks allocated by T and collected after it (or\n"                         \
             "never); T in seconds or N% of the run (default: the end)"},                        \
    {"live-between", 0, "T1 T2", CLI_CUSTOM, CLI_AT(type, field),                                \
     .custom = cli_trace_live_between, .help = "trace: blocks live at some moment from T1 to T2"}, \
    {"allocated-between", 0, "T1 T2", CLI_CUSTOM, CLI_AT(type, field),                           \
     .custom = cli_trace_allocated_between,                                                      \
     .help = "trace: blocks allocated from T1 to T2 (live at the end\n"                          \
             "unless --live-at or --live-between says otherwise)"}

int cli_trace_live_at(cli_context *ctx, void *field, const char *arg);
int cli_trace_live_between(cli_context *ctx, void *field, const char *arg);
int cli_trace_allocated_between(cli_context *ctx, void *field, const char *arg);

/* argv with "--live-between T1 T2" (and --allocated-between) joined into
 * "--live-between" "T1 T2", for the one-value option parser; a new array
 * (free it; its strings are argv's or joined ones that live to the exit). */
char **cli_trace_join_args(int argc, char **argv, int *out_argc);

/* Whether path (not "-") is a Memtrace trace. */
int cli_is_trace(const char *path);
/* Whether any of w's filters was given. */
int cli_trace_window_given(const cli_trace_window *w);

/* One reading of an open trace into t (and what else arg asks for): 0 or
 * -1 with err set. */
typedef int cli_trace_reading(int fd, void *arg, lf_mt_trace *t, lf_error *err);
/* Opens path and reads it with `read` under the "reading the trace"
 * progress line: 0, or the error printed and its exit code returned (t
 * freed then). */
int cli_read_trace(cli_context *ctx, const char *path, cli_trace_reading *read, void *arg, lf_mt_trace *t);

/* Reads the trace at path through w's filters into s (analyzed, as
 * cli_open_analyzed), t (its names and counts) and timeline (may be NULL).
 * 0, or the error printed and its exit code returned (t freed then). */
int cli_open_trace(cli_context *ctx, const char *path, const cli_trace_window *w, lf_mt_trace *t,
                   lf_mt_timeline *timeline, lf_snapshot *s);

#endif
