/* series.c - see series.h. */
#include "series.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int series_args(cli_context *ctx, char **pos, int npos, series_workload *w, char **series)
{
    int rc = series_check_workload(ctx, w, npos);
    if (rc)
        return rc;
    double first = w->value[0];
    for (int i = 0; i < npos; i++) {
        int arg = i == npos - 1 ? 0 : i + 1;
        series[i] = pos[arg];
        /* in place: value[i + 1] is still argument i + 1's when read */
        w->value[i] = !w->given ? i + 1 : arg == 0 ? first : w->value[arg];
    }
    return 0;
}

int series_read(cli_context *ctx, char **series, int n, series_add_fn add, void *state, lf_snapshot *last)
{
    lf_source_format first_format = LF_FORMAT_UNKNOWN;
    for (int i = 0; i < n; i++) {
        lf_snapshot s;
        int rc = cli_open_analyzed(ctx, series[i], &s);
        if (rc)
            return rc;
        if (i == 0)
            first_format = s.source_format;
        lf_error err;
        if (s.source_format != first_format) {
            cli_message("error", "'%s' is not of the same format as '%s': they cannot be compared", series[i],
                        series[0]);
            rc = EXIT_USAGE;
        } else if (n > 1) {
            char stage[64];
            snprintf(stage, sizeof stage, "counting by holder (%d of %d)", i + 1, n);
            cli_progress(ctx, stage);
            int added = add(state, &s, (uint32_t)i, &err);
            rc = added < 0 ? cli_input_error(series[i], &err) : added;
            cli_progress_done(ctx);
        }
        if (rc || i < n - 1)
            lf_snapshot_free(&s);
        else
            *last = s;
        if (rc)
            return rc;
    }
    return 0;
}
