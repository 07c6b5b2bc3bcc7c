/* cli.h - what every command shares: options, the analysis settings, messages,
 * exit codes (DESIGN section 4). */
#ifndef LF_CLI_H
#define LF_CLI_H

#include <stdint.h>

#include "../../core/model/edge_batch.h"
#include "../../core/analysis/holders.h"
#include "../../core/model/snapshot.h"
#include "option_table.h"
#include "output.h"

enum {
    EXIT_OK = 0,
    EXIT_CONDITION = 1,  /* a condition the user asked for (--exit-code) */
    EXIT_USAGE = 2,
    EXIT_INPUT = 3,
    EXIT_SYSTEM = 4,
};

typedef struct cli_context {
    const char *command;      /* "dominators" */
    out_format format;
    int quiet, verbose, progress, strict;
    int partial;              /* read a cut-off dump up to the cut */
    int cache;                /* --cache: analysed dumps kept in DUMP.leakfind-cache */
    unsigned threads;
    unsigned dom_flags;       /* LF_DOM_* */
    unsigned read_flags;      /* LF_HPROF_*: which references count as ownership */
    uint64_t memory;          /* --memory: bytes of big arrays kept in RAM; the rest spill */
    int help;                 /* -h given */
} cli_context;

/* Parses argv (argv[0] is the command name). Global options are understood
 * everywhere; the rest are read by spec's table (option_table.h) into state.
 * Positional arguments are returned in order. Returns -1 after printing
 * help (exit 0), a usage error is printed and EXIT_USAGE returned, 0 when
 * parsing succeeded. */
int cli_parse(cli_context *ctx, int argc, char **argv, const cli_spec *spec, void *state,
              char ***positional, int *npositional);

/* cli_parse for a command that takes exactly one SNAPSHOT, which *path then
 * names. Returns -1 to go on, else the exit code to return (EXIT_OK after -h). */
int cli_parse_one(cli_context *ctx, int argc, char **argv, const cli_spec *spec, void *state,
                  const char **path);

void cli_message(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_usage_error(cli_context *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "leakfind: error: 'path': reason at offset N (0xN): detail"; returns the exit code. */
int cli_input_error(const char *path, const lf_error *err);

/* Progress on stderr when it is a terminal and not disabled. */
void cli_progress(const cli_context *ctx, const char *stage);
void cli_progress_done(const cli_context *ctx);

/* "-" (and "/dev/stdin"): the snapshot on standard input, which can be read
 * once; cli_check_stdin_once refuses a list naming it twice (usage error). */
int cli_is_stdin(const char *path);
int cli_check_stdin_once(cli_context *ctx, char **paths, int count);
/* Opens SNAPSHOT ("-": standard input; warning about dangling references), analyses it with the
 * context's settings. Each returns 0 or an exit code after printing why; on
 * failure the snapshot is freed. */
int cli_open(cli_context *ctx, const char *path, lf_snapshot *s);
/* Until exit, a fatal signal (interrupt, termination, file size limit)
 * first removes the temporary file an output is being written to. */
void cli_remove_temp_on_signals(void);
struct lf_outfile;
/* OUTPUT ("-": standard output) opened, or its temporary file created,
 * before the input is read, so that one that cannot be written fails
 * before the analysis. 0 or an exit code after printing why. */
int cli_open_output(const char *output, struct lf_outfile *out);
/* Warns that s was read from a cut-off dump (LF_SNAP_PARTIAL), and where. */
void cli_partial_warning(const char *path, const lf_snapshot *s);
int cli_analyze(cli_context *ctx, const char *path, lf_snapshot *s);
/* A .gcdump most of whose objects no root reaches: the warning that it was
 * cut short, before any answer (cli_open_analyzed says it; info too). */
void cli_cut_dump_warning(const cli_context *ctx, const char *path, const lf_snapshot *s);
int cli_open_analyzed(cli_context *ctx, const char *path, lf_snapshot *s);

/* "1234", "10K", "1.5MiB", "2%" -> bytes (percent of total). -1 when malformed. */
int cli_parse_size(const char *arg, uint64_t total, uint64_t *out);
int cli_parse_count(const char *arg, uint64_t *out);
/* "0x1f", "@123", "123" -> id */
int cli_parse_id(const char *arg, uint64_t *out);

/* An option's value, or the usage error that says what the option needs
 * (cli/option_value.c): what an option table's kinds read with, and what a
 * CLI_CUSTOM reading calls for a number of its own. Each returns 0 with
 * *out set, or EXIT_USAGE. name is the option's long form ("--top").
 * cli_count_option: "--top needs a count, not 'x'". */
int cli_count_option(cli_context *ctx, const char *name, const char *arg, uint64_t *out);
/* A count from min to max. The error says what (NULL: "a count from 1 to
 * 100", or "a count up to 100" when min is 0). */
int cli_count_option_in(cli_context *ctx, const char *name, const char *arg, uint64_t min,
                        uint64_t max, const char *what, uint64_t *out);
/* A finite number from min to max; -INFINITY and INFINITY: no bound, and
 * the error says only "a number". */
int cli_real_option(cli_context *ctx, const char *name, const char *arg, double min, double max,
                    double *out);
/* "10" or "10%": a share above 0 and at most 1 (cli_parse_percent). */
int cli_percent_option(cli_context *ctx, const char *name, const char *arg, double *share);
/* Bytes ("64K", "1MiB") at least min: "--memory needs what, not 'x'". */
int cli_size_option(cli_context *ctx, const char *name, const char *arg, uint64_t min,
                    const char *what, uint64_t *out);

/* diff and trend: objects grouped by class, or by allocation site (--by-site,
 * `stack` innermost frames). A snapshot without sites is bad input for
 * --by-site: the message is printed and EXIT_INPUT returned. */
#include "../../core/analysis/grouping.h"
int cli_make_grouping(const char *path, const lf_snapshot *s, int by_site, uint32_t stack,
                      lf_grouping *g);
/* --stack N, the frames that make a site (diff, trend, sites, path): the
 * option table's row on the uint64_t `field` of state `type`. */
#define CLI_STACK_OPTION(type, field, text)                                                  \
    {"stack", 0, "N", CLI_COUNT, CLI_AT(type, field), .help = text, .max = UINT32_MAX,     \
     .what = "a number of frames"}

void cli_write_id(out_writer *w, const lf_snapshot *s, uint32_t node);
/* The `location` cell (column col) of node: "onChange @ server.js:14:5", the
 * place where its function (a closure) was defined, line and
 * column 1-based; "(anonymous)" for a function without a name; null when the
 * snapshot has no place for it (docs/V8.md 1.2). */
void cli_write_place(out_writer *w, const lf_snapshot *s, uint32_t node, int col);
/* A hop's label ("next", "[3]") from a batch answer (edge_batch.h), after
 * prefix when the edge is weak; empty when there is no such edge. */
void cli_write_hop(out_writer *w, const lf_snapshot *s, lf_edge_answer a, const char *weak_prefix);
/* For commands with a field column: a note that the format names no fields
 * (LF_SNAP_NO_FIELD_NAMES), once, unless --quiet. blank_in_table: a table
 * leaves those fields blank (cli_write_holder), TSV and JSON say '?'. */
void cli_no_field_names_note(const cli_context *ctx, const char *path, const lf_snapshot *s, int blank_in_table);
/* How node's dominator holds it: the edge's label; empty for a top-level
 * node, whose root goes to the `root` column (cli_write_holder_root); '?'
 * for an edge of a format that names none. */
void cli_write_holder(out_writer *w, const lf_snapshot *s, lf_holder h, uint32_t node);
/* The `root` column: "static field X.y" for a node a root holds, else null. */
void cli_write_holder_root(out_writer *w, const lf_snapshot *s, lf_holder h);
/* Root r as "kind name": "static field X.y", "thread main". */
void cli_write_root(out_writer *w, const lf_snapshot *s, uint32_t r);

#endif
