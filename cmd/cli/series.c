/* series.c - see series.h. */
#include "series.h"
#include "series_names.h"
#include "trace_window.h"

#include "../../core/base/appendf.h"
#include "../../core/base/file.h"
#include "../../core/input/clock_probe.h"
#include "../../core/input/estimate.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_parse_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return errno || end == s || *end || !isfinite(*out) ? -1 : 0;
}

int cli_parse_percent(const char *s, double *share)
{
    char num[64];
    size_t len = strlen(s);
    double pct;
    if (len == 0 || len >= sizeof num)
        return -1;
    memcpy(num, s, len + 1);
    if (num[len - 1] == '%')
        num[len - 1] = 0;
    if (cli_parse_real(num, &pct) || pct <= 0 || pct > 100)
        return -1;
    *share = pct / 100;
    return 0;
}

int series_parse_workload(cli_context *ctx, const char *arg, series_workload *w)
{
    w->given = 0;
    for (const char *p = arg; *p;) {
        char tok[64];
        size_t len = strcspn(p, ",");
        if (w->given == SERIES_MAX || len == 0 || len >= sizeof tok)
            return cli_usage_error(ctx, "--workload needs numbers separated by commas, not '%s'", arg);
        memcpy(tok, p, len);
        tok[len] = 0;
        if (cli_parse_real(tok, &w->value[w->given++]))
            return cli_usage_error(ctx, "--workload needs numbers separated by commas, not '%s'", arg);
        p += len + (p[len] == ',');
    }
    return 0;
}

int series_workload_option(cli_context *ctx, void *field, const char *arg)
{
    return series_parse_workload(ctx, arg, field);
}

int series_check_workload(cli_context *ctx, series_workload *w, int n)
{
    if (w->given == 0) {
        for (int i = 0; i < n; i++)
            w->value[i] = i + 1;
        return 0;
    }
    if (w->given != (unsigned)n)
        return cli_usage_error(ctx, "--workload gives %u numbers for %d snapshots", w->given, n);
    int varies = n == 1;
    for (int i = 1; i < n; i++)
        varies |= w->value[i] != w->value[0];
    return varies ? 0 : cli_usage_error(ctx, "the workload must differ between snapshots");
}

/* One argument of a series: where it was given, its workload and clock. */
typedef struct series_arg {
    int arg;                  /* index in pos[] */
    double workload;          /* as given; 0 when none was */
    lf_clock clock;
    lf_source_format format;  /* as the probe found it */
} series_arg;

static int by_arg(const void *a, const void *b)
{
    const series_arg *x = a, *y = b;
    return (x->arg > y->arg) - (x->arg < y->arg);
}

static int by_workload(const void *a, const void *b)
{
    const series_arg *x = a, *y = b;
    if (x->workload != y->workload)
        return x->workload < y->workload ? -1 : 1;
    return by_arg(a, b);
}

static int by_clock(const void *a, const void *b)
{
    const series_arg *x = a, *y = b;
    if (x->clock.value != y->clock.value)
        return x->clock.value < y->clock.value ? -1 : 1;
    return by_arg(a, b);
}

/* "'a', 'b', 'c'" for the arguments in order a[0..n), the first few. */
static void list_names(char **pos, const series_arg *a, int n, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n && lf_append_room(size, at); i++)
        if (i < 6 || i == n - 1)
            lf_appendf(buf, size, &at, "%s'%s'", i ? ", " : "", pos[a[i].arg]);
        else if (i == 6)
            lf_appendf(buf, size, &at, ", ...");
}

/* Why the clocks cannot order a (sorted by clock, n > 1): into why, or 0
 * when they can. A dump of a known format explains it best (a pipe is
 * not looked into). */
static int clocks_fail(char **pos, const series_arg *a, int n, char *why, size_t size)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            if (a[i].clock.kind != LF_CLOCK_NONE || (pass == 0 && a[i].format == LF_FORMAT_UNKNOWN))
                continue;
            if (a[i].format == LF_FORMAT_TEXT)
                snprintf(why, size, "text graphs do not say when they were taken");
            else if (a[i].format == LF_FORMAT_GCDUMP)
                snprintf(why, size, "dotnet-gcdump writes no time into its dumps");
            else
                snprintf(why, size, "'%s' does not say when it was taken", pos[a[i].arg]);
            return 1;
        }
    for (int i = 1; i < n; i++) {
        if (a[i].clock.kind != a[0].clock.kind) {
            snprintf(why, size, "'%s' and '%s' do not tell their times alike", pos[a[0].arg], pos[a[i].arg]);
            return 1;
        }
        if (a[i].clock.value == a[i - 1].clock.value) {
            snprintf(why, size, "'%s' and '%s' tell the same time", pos[a[i - 1].arg], pos[a[i].arg]);
            return 1;
        }
    }
    return 0;
}

/* With workloads given, a warning where the clocks put two snapshots the
 * other way round (a is sorted by workload). */
static void check_against_clocks(const cli_context *ctx, char **pos, const series_arg *a, int n)
{
    series_arg by_time[SERIES_MAX];
    char why[512];
    memcpy(by_time, a, (size_t)n * sizeof *a);
    qsort(by_time, (size_t)n, sizeof *by_time, by_clock);
    if (ctx->quiet || clocks_fail(pos, by_time, n, why, sizeof why))
        return;
    for (int i = 1; i < n; i++)
        if (a[i].clock.value < a[i - 1].clock.value) {
            cli_message("warning", "--workload puts '%s' (%g) before '%s' (%g), but %s say it was taken after: "
                        "the workloads were followed; give them in the order of the files",
                        pos[a[i - 1].arg], a[i - 1].workload, pos[a[i].arg], a[i].workload,
                        lf_clock_source(a[i].format, a[i].clock.kind));
            return;
        }
}

/* a[0..n) in the order the convention reads the arguments. */
static void as_given(series_arg *a, int n, series_convention convention)
{
    series_arg newest = a[0];
    if (convention == SERIES_OLDEST_FIRST)
        return;
    memmove(a, a + 1, (size_t)(n - 1) * sizeof *a);
    a[n - 1] = newest;
}

/* Without clocks: a[0..n) (in argument order) sorted by the numbers in
 * their names when the names are one text around them (series_names.h),
 * with a note; 0 when they are not. */
static int order_by_names(const cli_context *ctx, char **pos, series_arg *a, int n, const char *why)
{
    uint64_t number[SERIES_MAX];
    char names[2048];
    if (!series_name_numbers(pos, n, number))
        return 0;
    for (int i = 0; i < n; i++) /* a clock of their own */
        a[i].clock = (lf_clock){LF_CLOCK_NONE, number[a[i].arg]};
    qsort(a, (size_t)n, sizeof *a, by_clock);
    list_names(pos, a, n, names, sizeof names);
    if (!ctx->quiet)
        cli_message("note", "%s: taken in the order of the numbers in their names, oldest first: %s; "
                    "--workload sets it", why, names);
    return 1;
}

/* Sorts a[0..n) oldest first when the clocks can (a note when that is not
 * the convention's order), else by the numbers in the names, else takes
 * the convention's order and says so. */
static void order_by_clocks(const cli_context *ctx, char **pos, series_arg *a, int n, series_convention convention)
{
    char why[512], names[2048];
    qsort(a, (size_t)n, sizeof *a, by_clock);
    if (clocks_fail(pos, a, n, why, sizeof why)) {
        qsort(a, (size_t)n, sizeof *a, by_arg);
        if (order_by_names(ctx, pos, a, n, why))
            return;
        as_given(a, n, convention);
        if (!ctx->quiet)
            cli_message("note", "%s: the snapshots are read in the order given (%s); --workload sets it", why,
                        convention == SERIES_OLDEST_FIRST ? "oldest first"
                                                          : "the first the newest, the others oldest first");
        return;
    }
    int same = 1;
    for (int i = 0; i < n; i++)
        same &= a[i].arg == (convention == SERIES_OLDEST_FIRST ? i : i == n - 1 ? 0 : i + 1);
    list_names(pos, a, n, names, sizeof names);
    if (!same && !ctx->quiet)
        cli_message("note", "taken in the order of %s, oldest first: %s", lf_clock_source(a[0].format, a[0].clock.kind),
                    names);
}

int series_order(cli_context *ctx, char **pos, int npos, series_workload *w, series_convention convention,
                 char **series)
{
    int rc = series_check_workload(ctx, w, npos);
    if (rc)
        return rc;
    static series_arg a[SERIES_MAX];
    int traces = 0; /* refused when read: no note on their order first */
    for (int i = 0; i < npos; i++) {
        a[i] = (series_arg){i, w->given ? w->value[i] : 0, {LF_CLOCK_NONE, 0}, LF_FORMAT_UNKNOWN};
        if (npos > 1)
            a[i].clock = lf_probe_clock(pos[i], &a[i].format);
        traces += cli_is_trace(pos[i]);
    }
    if (npos > 1 && w->given) {
        qsort(a, (size_t)npos, sizeof *a, by_workload);
        check_against_clocks(ctx, pos, a, npos);
    } else if (npos > 1 && traces == 0) {
        order_by_clocks(ctx, pos, a, npos, convention);
    }
    for (int i = 0; i < npos; i++) {
        series[i] = pos[a[i].arg];
        w->value[i] = w->given ? a[i].workload : i + 1;
    }
    return 0;
}

/* One snapshot's counting, on a thread of its own while the next snapshot
 * is read: the add touches only its state and the snapshot, and prints
 * nothing (series_read_overlapping). */
typedef struct add_job {
    series_add_fn add;
    void *state;
    lf_snapshot s;
    uint32_t index;
    int added;                /* add's result */
    lf_error err;
    pthread_t thread;
    int pending;              /* it holds a snapshot */
    int threaded;             /* on its thread, to be joined */
} add_job;

static void *run_add(void *arg)
{
    add_job *j = arg;
    j->added = j->add(j->state, &j->s, j->index, &j->err);
    return NULL;
}

/* Waits for the job, frees its snapshot and says why its add failed: 0 or
 * an exit code. */
static int finish_add(add_job *j, char **series)
{
    if (!j->pending)
        return 0;
    if (j->threaded)
        pthread_join(j->thread, NULL);
    j->pending = j->threaded = 0;
    lf_snapshot_free(&j->s);
    return j->added < 0 ? cli_input_error(series[j->index], &j->err) : j->added;
}

/* Bytes the big arrays of the dump at path take at their peak, by the
 * estimate made before reading (0 when it cannot be known: a pipe). */
static uint64_t estimated_bytes(const char *path, uint64_t *file_bytes)
{
    struct stat st;
    int fd = strcmp(path, "-") == 0 ? -1 : lf_open_regular(path);
    *file_bytes = 0;
    if (fd < 0)
        return 0;
    lf_big_estimate e = lf_estimate_big_bytes(fd);
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        *file_bytes = (uint64_t)st.st_size;
    close(fd);
    return e.work + e.results;
}

/* Whether snapshot i's counting may run while i + 1 is read: two threads
 * allowed, the next dump big enough for a thread to pay, and the arrays of
 * both dumps within half the memory budget, so that holding two snapshots
 * at once never pushes a run into spilling. */
static int may_overlap(const cli_context *ctx, char **series, int i)
{
    uint64_t size_now, size_next;
    uint64_t now = estimated_bytes(series[i], &size_now), next = estimated_bytes(series[i + 1], &size_next);
    return ctx->threads > 1 && size_next >= SERIES_OVERLAP_MIN_BYTES && now && next &&
           now + next <= ctx->memory / 2;
}

/* keep_all: every snapshot stays open in out[i] (all freed on failure);
 * else only the last, in out[0]. overlap: an add may run on a thread while
 * the next snapshot is read (may_overlap). */
static int read_series(cli_context *ctx, char **series, int n, series_add_fn add, void *state, lf_snapshot *out,
                       int keep_all, int overlap)
{
    lf_source_format first_format = LF_FORMAT_UNKNOWN;
    int rc = 0, kept = 0;
    add_job job = {.add = add, .state = state};
    for (int i = 0; i < n && !rc; i++) {
        lf_snapshot s;
        int opened = cli_open_analyzed(ctx, series[i], &s); /* freed, and said why, when it fails */
        int counted = finish_add(&job, series);
        if (opened || counted) {
            if (!opened)
                lf_snapshot_free(&s);
            rc = counted ? counted : opened;
            break;
        }
        if (i == 0)
            first_format = s.source_format;
        lf_error err;
        if (s.source_format != first_format) {
            cli_message("error", "'%s' is not of the same format as '%s': they cannot be compared", series[i],
                        series[0]);
            rc = EXIT_USAGE;
        } else if (n > 1 && overlap && !keep_all && i < n - 1 && may_overlap(ctx, series, i)) {
            job.s = s; /* the job frees it */
            job.index = (uint32_t)i;
            job.pending = 1;
            job.threaded = pthread_create(&job.thread, NULL, run_add, &job) == 0;
            if (!job.threaded)
                run_add(&job); /* no thread to be had: counted here */
            continue;
        } else if (n > 1) {
            char stage[64];
            snprintf(stage, sizeof stage, "counting by holder (%d of %d)", i + 1, n);
            cli_progress(ctx, stage);
            int added = add(state, &s, (uint32_t)i, &err);
            rc = added < 0 ? cli_input_error(series[i], &err) : added;
            cli_progress_done(ctx);
        }
        if (rc || (!keep_all && i < n - 1))
            lf_snapshot_free(&s);
        else
            out[keep_all ? kept++ : 0] = s;
    }
    int counted = finish_add(&job, series);
    rc = rc ? rc : counted;
    for (int k = 0; rc && k < kept; k++)
        lf_snapshot_free(&out[k]);
    return rc;
}

int series_read(cli_context *ctx, char **series, int n, series_add_fn add, void *state, lf_snapshot *last)
{
    return read_series(ctx, series, n, add, state, last, 0, 0);
}

int series_read_overlapping(cli_context *ctx, char **series, int n, series_add_fn add, void *state,
                            lf_snapshot *last)
{
    return read_series(ctx, series, n, add, state, last, 0, 1);
}

int series_read_all(cli_context *ctx, char **series, int n, series_add_fn add, void *state, lf_snapshot *all)
{
    return read_series(ctx, series, n, add, state, all, 1, 0);
}
