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
 * both take: a command's option table gives them these ids, and its
 * on_option hands every id to series_rule_option first, which reads the
 * rule's and ignores the others. 0 or a usage error. */
enum { SERIES_OPT_MIN_GROWTH = 1000, SERIES_OPT_MIN_R2, SERIES_OPT_MIN_SLOPE, SERIES_OPT_MIN_SHARE };
int series_rule_option(cli_context *ctx, int id, const char *arg, lf_trend_rule *rule);
/* The rule with no option given: 10 instances, r2 0.9, slope 0, share 0.5. */
#define SERIES_RULE_DEFAULT ((lf_trend_rule){10, 0.9, 0, 0.5})
/* --workload W1,W2,...: 0 or a usage error. */
int series_parse_workload(cli_context *ctx, const char *arg, series_workload *w);
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
