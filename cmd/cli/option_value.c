/* option_value.c - an option's value read into its field by the kind its
 * table row gives (option_table.h), or the usage error that says what the
 * option needs. The wording lives here once, so every command says
 * "--top needs a count, not 'x'" alike; each command wrote it out itself
 * before (issue 38). */
#include "cli.h"
#include "series.h" /* cli_parse_real, cli_parse_percent */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int cli_count_option(cli_context *ctx, const char *name, const char *arg, uint64_t *out)
{
    return cli_count_option_in(ctx, name, arg, 0, UINT64_MAX, NULL, out);
}

int cli_count_option_in(cli_context *ctx, const char *name, const char *arg, uint64_t min,
                        uint64_t max, const char *what, uint64_t *out)
{
    if (!cli_parse_count(arg, out) && *out >= min && *out <= max)
        return 0;
    char range[64] = "a count";
    if (!what) {
        if (min > 0)
            snprintf(range, sizeof range, "a count from %" PRIu64 " to %" PRIu64, min, max);
        else if (max < UINT64_MAX)
            snprintf(range, sizeof range, "a count up to %" PRIu64, max);
        what = range;
    }
    return cli_usage_error(ctx, "%s needs %s, not '%s'", name, what, arg);
}

int cli_real_option(cli_context *ctx, const char *name, const char *arg, double min, double max,
                    double *out)
{
    /* cli_parse_real takes finite numbers only: no NaN slips past the range */
    if (!cli_parse_real(arg, out) && *out >= min && *out <= max)
        return 0;
    if (isinf(min) && isinf(max))
        return cli_usage_error(ctx, "%s needs a number, not '%s'", name, arg);
    return cli_usage_error(ctx, "%s needs a number from %g to %g, not '%s'", name, min, max, arg);
}

int cli_percent_option(cli_context *ctx, const char *name, const char *arg, double *share)
{
    if (!cli_parse_percent(arg, share))
        return 0;
    return cli_usage_error(ctx, "%s needs a percentage above 0 and at most 100, not '%s'", name, arg);
}

int cli_size_option(cli_context *ctx, const char *name, const char *arg, uint64_t min,
                    const char *what, uint64_t *out)
{
    if (!cli_parse_size(arg, 0, out) && *out >= min)
        return 0;
    return cli_usage_error(ctx, "%s needs %s, not '%s'", name, what, arg);
}

/* "--sort must be retained, shallow, count or class": the names, from the table. */
static int enum_option(cli_context *ctx, const char *name, const char *const *names,
                       const char *arg, int *out)
{
    int n = 0;
    for (; names[n]; n++)
        if (strcmp(arg, names[n]) == 0) {
            *out = n;
            return 0;
        }
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
    return cli_usage_error(ctx, "%s must be %s", name, list);
}

int cli_option_read(cli_context *ctx, const cli_option *o, void *state, const char *arg)
{
    char name[64]; /* as the errors name it: the long form, whichever was typed */
    snprintf(name, sizeof name, "--%s", o->long_name);
    void *field = (char *)state + o->offset;
    switch (o->kind) {
    case CLI_FLAG: *(int *)field = 1; return 0;
    case CLI_FLAG_OFF: *(int *)field = 0; return 0;
    case CLI_STRING: *(const char **)field = arg; return 0;
    case CLI_COUNT:
        return cli_count_option_in(ctx, name, arg, o->min, o->max ? o->max : UINT64_MAX, o->what,
                                   field);
    case CLI_SIZE: return cli_size_option(ctx, name, arg, o->min, o->what, field);
    case CLI_REAL: return cli_real_option(ctx, name, arg, o->lo, o->hi, field);
    case CLI_PERCENT: return cli_percent_option(ctx, name, arg, field);
    case CLI_ENUM: return enum_option(ctx, name, o->names, arg, field);
    case CLI_CUSTOM: return o->custom(ctx, field, arg);
    }
    return 0;
}
