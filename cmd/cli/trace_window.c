/* trace_window.c - the viewer's filters as options, and a trace opened through them. */
#include "trace_window.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/base/file.h"
#include "../../core/input/open.h"

/* "12", "12.5s", "40%": 0, or -1 when it is none of them. */
static int parse_time(const char *arg, cli_time *t)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (errno || end == arg || !(v >= 0) || isinf(v))
        return -1;
    t->percent = 0;
    if (*end == '%' && !end[1] && v <= 100)
        t->percent = 1;
    else if (*end && strcmp(end, "s") != 0)
        return -1;
    t->value = v;
    return 0;
}

/* "T1 T2" (or "T1,T2"): two times, the first not after the second when of one kind. */
static int parse_range(cli_context *ctx, const char *option, const char *arg, cli_time *r)
{
    char first[64];
    size_t cut = strcspn(arg, " ,");
    if (cut >= sizeof first || !arg[cut])
        return cli_usage_error(ctx, "%s wants two times, T1 T2 (seconds or N%%), not '%s'",
                               option, arg);
    memcpy(first, arg, cut);
    first[cut] = '\0';
    if (parse_time(first, &r[0]) || parse_time(arg + cut + 1, &r[1]))
        return cli_usage_error(ctx, "%s: '%s' is not two times (seconds, or N%% of the run)",
                               option, arg);
    if (r[0].percent == r[1].percent && r[0].value > r[1].value)
        return cli_usage_error(ctx, "%s: %s ends before it begins", option, arg);
    return 0;
}

int cli_trace_live_at(cli_context *ctx, void *field, const char *arg)
{
    cli_trace_window *w = field;
    if (parse_time(arg, &w->live_at))
        return cli_usage_error(ctx, "--live-at: '%s' is not a time (seconds, or N%% of the run)",
                               arg);
    w->live_at_set = 1;
    return 0;
}

int cli_trace_live_between(cli_context *ctx, void *field, const char *arg)
{
    cli_trace_window *w = field;
    w->live_between_set = 1;
    return parse_range(ctx, "--live-between", arg, w->live_between);
}

int cli_trace_allocated_between(cli_context *ctx, void *field, const char *arg)
{
    cli_trace_window *w = field;
    w->allocated_set = 1;
    return parse_range(ctx, "--allocated-between", arg, w->allocated);
}

/* The joined arguments live to the exit, as argv does: held here, so that
 * they stay reachable (LeakSanitizer counts a block no pointer reaches). */
static char *joined_args[16];
static size_t joined_count;

char **cli_trace_join_args(int argc, char **argv, int *out_argc)
{
    char **out = malloc(((size_t)argc + 1) * sizeof *out);
    if (!out)
        return NULL;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        out[n++] = argv[i];
        int two = strcmp(argv[i], "--live-between") == 0 ||
                  strcmp(argv[i], "--allocated-between") == 0;
        if (two && i + 2 < argc && !strchr(argv[i + 1], ',') && argv[i + 2][0] != '-' &&
            joined_count < sizeof joined_args / sizeof *joined_args) {
            size_t len = strlen(argv[i + 1]) + strlen(argv[i + 2]) + 2;
            char *joined = malloc(len);
            if (!joined) {
                free(out);
                return NULL;
            }
            snprintf(joined, len, "%s %s", argv[i + 1], argv[i + 2]);
            joined_args[joined_count++] = joined;
            out[n++] = joined;
            i += 2;
        }
    }
    out[n] = NULL;
    *out_argc = n;
    return out;
}

int cli_is_trace(const char *path)
{
    if (cli_is_stdin(path))
        return 0;
    int fd = lf_open_regular(path); /* a trace through a pipe reads as a dump, as pread fails there */
    if (fd < 0)
        return 0;
    int yes = lf_open_is_trace(fd);
    close(fd);
    return yes;
}

int cli_trace_window_given(const cli_trace_window *w)
{
    return w->live_at_set || w->live_between_set || w->allocated_set;
}

static uint64_t resolve(cli_time t, uint64_t end_us)
{
    double us = t.percent ? t.value / 100.0 * (double)end_us : t.value * 1e6;
    return us >= (double)LF_MT_END ? LF_MT_END : (uint64_t)llround(us);
}

/* w's filters in microseconds; the run's length known (end_us). No filter
 * but --allocated-between, or none at all: live at the end. */
static lf_mt_filter make_filter(const cli_trace_window *w, uint64_t end_us)
{
    lf_mt_filter f = {0};
    if (w->live_at_set) {
        f.live_at.set = 1;
        f.live_at.from_us = f.live_at.to_us = resolve(w->live_at, end_us);
    } else if (!w->live_between_set) {
        f.live_at.set = 1;
        f.live_at.from_us = f.live_at.to_us = LF_MT_END;
    }
    if (w->live_between_set)
        f.live_between = (lf_mt_range){1, resolve(w->live_between[0], end_us),
                                       resolve(w->live_between[1], end_us)};
    if (w->allocated_set)
        f.allocated_between = (lf_mt_range){1, resolve(w->allocated[0], end_us),
                                            resolve(w->allocated[1], end_us)};
    return f;
}

static int uses_percent(const cli_trace_window *w)
{
    return (w->live_at_set && w->live_at.percent) ||
           (w->live_between_set && (w->live_between[0].percent || w->live_between[1].percent)) ||
           (w->allocated_set && (w->allocated[0].percent || w->allocated[1].percent));
}

int cli_read_trace(cli_context *ctx, const char *path, cli_trace_reading *read, void *arg, lf_mt_trace *t)
{
    lf_error err;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        lf_fail_errno(&err, "cannot open", errno);
        return cli_input_error(path, &err);
    }
    cli_progress(ctx, "reading the trace");
    int rc = read(fd, arg, t, &err);
    cli_progress_done(ctx);
    close(fd);
    if (rc) {
        lf_mt_trace_free(t);
        return cli_input_error(path, &err);
    }
    return 0;
}

/* cli_open_trace's reading (a cli_trace_reading). */
typedef struct window_reading {
    const cli_trace_window *w;
    lf_mt_timeline *timeline;
    lf_snapshot *s;
} window_reading;

static int read_window(int fd, void *arg, lf_mt_trace *t, lf_error *err)
{
    const window_reading *r = arg;
    uint64_t end_us = 0;
    if (uses_percent(r->w)) { /* a first reading for the run's length */
        if (lf_mt_read_fd(fd, NULL, t, err))
            return -1;
        end_us = t->counts.end_us;
        lf_mt_trace_free(t);
    }
    lf_mt_filter f = make_filter(r->w, end_us);
    return lf_mt_snapshot(fd, &f, t, r->timeline, r->s, err);
}

int cli_open_trace(cli_context *ctx, const char *path, const cli_trace_window *w, lf_mt_trace *t,
                   lf_mt_timeline *timeline, lf_snapshot *s)
{
    window_reading r = {w, timeline, s};
    int rc = cli_read_trace(ctx, path, read_window, &r, t);
    if (!rc && (rc = cli_analyze(ctx, path, s)))
        lf_mt_trace_free(t);
    return rc;
}
