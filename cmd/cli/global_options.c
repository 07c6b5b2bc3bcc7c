/* global_options.c - the options every command takes, as one option table
 * on the cli_context (option_table.h): cli_parse reads them before a
 * command's own, and option_help.c lists them last in every -h. */
#include "cli.h"

#include <string.h>

#include "../../core/hprof/hprof.h"
#include "../../graph/dominators.h"

static int on_format(cli_context *ctx, void *field, const char *arg)
{
    static const out_format formats[] = {OUT_TABLE, OUT_TSV, OUT_JSON};
    static const char *const names[] = {"table", "tsv", "json"};
    for (int i = 0; i < 3; i++)
        if (strcmp(arg, names[i]) == 0) {
            *(out_format *)field = formats[i];
            return 0;
        }
    return cli_usage_error(ctx, "--format must be table, tsv or json, not '%s'", arg);
}

static int on_threads(cli_context *ctx, void *field, const char *arg)
{
    uint64_t n;
    if (cli_count_option_in(ctx, "--threads", arg, 1, 256, "a number from 1 to 256", &n))
        return EXIT_USAGE;
    *(unsigned *)field = (unsigned)n;
    return 0;
}

static int on_keep_unreachable(cli_context *ctx, void *field, const char *arg)
{
    (void)ctx, (void)arg;
    *(unsigned *)field |= LF_DOM_KEEP_UNREACHABLE;
    return 0;
}

static int on_strong(cli_context *ctx, void *field, const char *arg)
{
    if (strcmp(arg, "soft") == 0)
        *(unsigned *)field |= LF_HPROF_SOFT_STRONG;
    else if (strcmp(arg, "all") == 0)
        *(unsigned *)field |= LF_HPROF_ALL_STRONG;
    else
        return cli_usage_error(ctx, "--strong must be soft or all, not '%s'", arg);
    return 0;
}

/* In the order -h lists them. */
static const cli_option global_options[] = {
    {"format", 0, "table|tsv|json", CLI_CUSTOM, CLI_AT(cli_context, format), .custom = on_format,
     .help = "output format (table on a terminal, else tsv)"},
    {"quiet", 'q', NULL, CLI_FLAG, CLI_AT(cli_context, quiet), .help = "no warnings"},
    {"verbose", 'v', NULL, CLI_FLAG, CLI_AT(cli_context, verbose),
     .help = "more detail (info: timings and peak memory)"},
    {"threads", 0, "N", CLI_CUSTOM, CLI_AT(cli_context, threads), .custom = on_threads,
     .help = "threads to read and analyse with (default: the cores)"},
    {"no-progress", 0, NULL, CLI_FLAG_OFF, CLI_AT(cli_context, progress),
     .help = "no progress on stderr"},
    {"keep-unreachable", 0, NULL, CLI_CUSTOM, CLI_AT(cli_context, dom_flags),
     .custom = on_keep_unreachable, .help = "unreachable objects become roots"},
    {"strict", 0, NULL, CLI_FLAG, CLI_AT(cli_context, strict),
     .help = "recoverable oddities in the input are errors"},
    {"partial", 0, NULL, CLI_FLAG, CLI_AT(cli_context, partial),
     .help = "a dump cut off mid-write: analyse the part before\n"
             "the cut (HPROF, V8, gzip) and say what is missing"},
    {"strong", 0, "soft|all", CLI_CUSTOM, CLI_AT(cli_context, read_flags), .custom = on_strong,
     .help = "Java: soft references (or all Reference.referent\n"
             "fields, as Eclipse MAT counts) own their referents"},
    {"cache", 0, NULL, CLI_FLAG, CLI_AT(cli_context, cache),
     .help = "keep the analysed dump in DUMP.leakfind-cache and\n"
             "reuse it while the dump is unchanged"},
    {"memory", 0, "SIZE", CLI_SIZE, CLI_AT(cli_context, memory), .min = 1,
     .what = "a size (512M, 8G)",
     .help = "RAM for the big arrays (512M, 8G; default: 3/4 of\n"
             "what is available); past it they spill to files\n"
             "in $TMPDIR (default /tmp), removed at exit"},
    {"help", 'h', NULL, CLI_FLAG, CLI_AT(cli_context, help), .help = "this help"},
    {0},
};

const cli_spec cli_global_spec = {NULL, global_options, 27, NULL};
