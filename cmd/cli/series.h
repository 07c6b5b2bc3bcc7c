/* series.h - what the commands that read a series of snapshots share
 * (trend, suspects, report): the workload list, the argument order and
 * reading the snapshots one at a time.
 *
 * suspects and report take `SNAPSHOT [BEFORE...]`: the dump to look at
 * first, then earlier dumps of the same process, oldest first. The
 * analyses read a series oldest first; series_args puts the arguments in
 * that order, with the workload the user gave in argument order. */
#ifndef LF_SERIES_H
#define LF_SERIES_H

#include "../../core/analysis/trend.h"
#include "cli.h"

#include <math.h> /* INFINITY, for SERIES_RULE_OPTIONS */

#define SERIES_MAX 1000

typedef struct series_workload {
    double value[SERIES_MAX];
    unsigned given;           /* numbers the user gave, 0: none */
} series_workload;

/* A real number, finite. 0 or -1. */
int cli_parse_real(const char *s, double *out);
/* "10" or "10%": a share of 0 (excluded) to 1; 0 or -1. */
int cli_parse_percent(const char *s, double *share);
/* The trend rule's options (core/analysis/trend.h), which trend and report
 * both take: four rows of a command's option table (option_table.h), on
 * the lf_trend_rule `rule` of its state `type`, each with its -h text. */
#define SERIES_RULE_OPTIONS(type, rule, growth_help, r2_help, slope_help, share_help)        \
    {"min-growth", 0, "N", CLI_COUNT, CLI_AT(type, rule.min_growth), .help = growth_help},  \
    {"min-r2", 0, "R", CLI_REAL, CLI_AT(type, rule.min_r2), .help = r2_help, .lo = 0,       \
     .hi = 1},                                                                               \
    {"min-slope", 0, "S", CLI_REAL, CLI_AT(type, rule.min_slope), .help = slope_help,       \
     .lo = -INFINITY, .hi = INFINITY},                                                       \
    {"min-share", 0, "R", CLI_REAL, CLI_AT(type, rule.min_share), .help = share_help,       \
     .lo = 0, .hi = 1}
/* The rule with no option given: 10 instances, r2 0.9, slope 0, share 0.5. */
#define SERIES_RULE_DEFAULT ((lf_trend_rule){10, 0.9, 0, 0.5})
/* --workload W1,W2,...: 0 or a usage error. series_workload_option is
 * the CLI_CUSTOM reading of a row on a series_workload field. */
int series_parse_workload(cli_context *ctx, const char *arg, series_workload *w);
int series_workload_option(cli_context *ctx, void *field, const char *arg);
/* The --workload row of an option table, on the series_workload `field`. */
#define SERIES_WORKLOAD_OPTION(type, field, text)                                            \
    {"workload", 0, "LIST", CLI_CUSTOM, CLI_AT(type, field), .help = text,                 \
     .custom = series_workload_option}
/* The given workload is one number per snapshot and not all the same;
 * with none given, 1..n. 0 or a usage error. */
int series_check_workload(cli_context *ctx, series_workload *w, int n);
/* series[0..npos): pos[1], ..., pos[npos-1], pos[0], with the workload put
 * in that order; 0 or a usage error. */
int series_args(cli_context *ctx, char **pos, int npos, series_workload *w, char **series);

/* Adds snapshot `index` (0 first) of a series to what the command counts:
 * 0, -1 with err set, or an exit code after printing why. */
typedef int (*series_add_fn)(void *state, const lf_snapshot *s, uint32_t index, lf_error *err);

/* Opens and analyses series[0..n) oldest first, one in memory at a time,
 * passing each to add (when n > 1), refusing one of another format; the
 * last stays open in *last. 0 or an exit code (messages printed). */
int series_read(cli_context *ctx, char **series, int n, series_add_fn add, void *state, lf_snapshot *last);

#endif
