/* option_value.c - an option's number read, or the usage error that says
 * what the option needs. The wording lives here once, so every command says
 * "--top needs a count, not 'x'" alike; each command wrote it out itself
 * before (issue 38). */
#include "cli.h"
#include "series.h" /* cli_parse_real, cli_parse_percent */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

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
