/* series.h - what the commands that read a series of snapshots share
 * (trend, suspects, report, diff): the workload list, the order the
 * snapshots were taken in and reading them one at a time.
 *
 * The analyses read a series oldest first. A series means the same in any
 * argument order (DESIGN 15): series_order sorts it by the workloads given,
 * else by the dumps' own clocks (core/input/clock_probe.h), else by the
 * numbers in their names (series_names.h); only where none says does the
 * argument order count, read as the command's
 * convention says: trend and diff take theirs oldest first, suspects and
 * report `SNAPSHOT [BEFORE...]` (the dump to look at, then earlier ones,
 * oldest first). */
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
/* The rule with no option given: 10 instances, r2 0.9, slope 0, share 0.5;
 * growth findings under 1% of the largest one's bytes per unit are minor. */
#define SERIES_RULE_DEFAULT ((lf_trend_rule){10, 0.9, 0, 0.5, 0.01})
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
/* The -h note of every command that reads a series: how it is ordered. */
#define SERIES_ORDER_NOTE                                                                          \
    "Order: the snapshots are put in the order they were taken, whatever the\n"                   \
    "order given: by --workload when given, else by the dumps' own clocks\n"                     \
    "(HPROF: the header's time; V8: its object ids, which only grow in one\n"                    \
    "process; .lfs: the time the agent or convert wrote). A note says when\n"                   \
    "that differs from the order given. Where the dumps say nothing (text\n"                     \
    "graphs; .gcdump files, in which dotnet-gcdump writes no time), by the\n"                   \
    "numbers in their names when they differ only there (heap.1, heap.2, ...),\n"              \
    "else as given; a note says which.\n"

typedef enum series_convention {
    SERIES_OLDEST_FIRST,    /* S1 S2 S3... */
    SERIES_NEWEST_FIRST,    /* SNAPSHOT, then BEFORE... oldest first */
} series_convention;
/* series[0..npos): the arguments pos[] oldest first, with the workload w
 * (given in argument order) put in that order and filled in (1, 2, ...)
 * when not given. By the workload when given (a warning when the dumps'
 * clocks say otherwise), else by the clocks, else by the convention with a
 * note that says so; a note too when the order taken is not the one the
 * convention reads. 0 or a usage error. */
int series_order(cli_context *ctx, char **pos, int npos, series_workload *w, series_convention convention,
                 char **series);

/* Adds snapshot `index` (0 first) of a series to what the command counts:
 * 0, -1 with err set, or an exit code after printing why. */
typedef int (*series_add_fn)(void *state, const lf_snapshot *s, uint32_t index, lf_error *err);

/* Opens and analyses series[0..n) oldest first, one in memory at a time,
 * passing each to add (when n > 1), refusing one of another format; the
 * last stays open in *last. 0 or an exit code (messages printed). */
int series_read(cli_context *ctx, char **series, int n, series_add_fn add, void *state, lf_snapshot *last);
/* The same, but a snapshot's add may run on a thread of its own while the
 * next snapshot is read, when both fit in half the memory budget (two
 * snapshots are then held at once): for an add that prints nothing and
 * touches only its state and the snapshot. */
int series_read_overlapping(cli_context *ctx, char **series, int n, series_add_fn add, void *state,
                            lf_snapshot *last);
/* Below this many bytes of dump, a series is read one snapshot at a time:
 * a thread costs more than it saves. */
#define SERIES_OVERLAP_MIN_BYTES (8u << 20)
/* The same keeping every one open, in all[0..n) (`serve`); on failure
 * none stays open. */
int series_read_all(cli_context *ctx, char **series, int n, series_add_fn add, void *state, lf_snapshot *all);

#endif
