/* cmd_convert.c - `leakfind convert`: write leakfind's own snapshot format. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/lfs/lfs.h"
#include "../core/base/outfile.h"
#include "cli/cli.h"
#include "commands.h"

static const char convert_usage[] =
    "usage: leakfind convert SNAPSHOT -o OUT [options]\n"
    "\n"
    "Writes the snapshot in leakfind's own format (docs/FORMAT.md) with its\n"
    "dominator tree and retained sizes, so every later command opens OUT at\n"
    "once, memory-mapped, without recomputing. OUT is written to a temporary\n"
    "file next to it and renamed into place when complete (a symlink's target\n"
    "is replaced, the link kept); an existing FIFO or device is written into;\n"
    "'-' is standard output. SNAPSHOT '-' is standard input.\n";

typedef struct convert_state {
    const char *output;
    int no_analysis;
} convert_state;

static const cli_option convert_options[] = {
    {"output", 'o', "OUT", CLI_STRING, CLI_AT(convert_state, output),
     .help = "the file to write ('-': standard output)"},
    {"no-analysis", 0, NULL, CLI_FLAG, CLI_AT(convert_state, no_analysis),
     .help = "store the graph only"},
    {0},
};

static const cli_spec convert_spec = {convert_usage, convert_options, 21, NULL};

int cmd_convert(int argc, char **argv)
{
    cli_context ctx = {0};
    convert_state opt = {NULL, 0};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, &convert_spec, &opt, &path);
    if (rc >= 0)
        return rc;
    if (!opt.output)
        return cli_usage_error(&ctx, "convert needs -o OUT");
    lf_outfile out;
    if ((rc = cli_open_output(opt.output, &out)))
        return rc;
    lf_snapshot s;
    if ((rc = cli_open(&ctx, path, &s))) {
        lf_outfile_abort(&out);
        return rc;
    }
    if (opt.no_analysis) {
        s.idom = NULL; /* a stored analysis is dropped too */
    } else if ((rc = cli_analyze(&ctx, path, &s))) {
        lf_outfile_abort(&out);
        return rc;
    }
    lf_error err;
    cli_progress(&ctx, "writing");
    rc = lf_lfs_write_fd(&s, out.fd, &err);
    if (rc)
        lf_outfile_abort(&out);
    else
        rc = lf_outfile_commit(&out, &err);
    cli_progress_done(&ctx);
    lf_snapshot_free(&s);
    if (rc)
        return cli_input_error(opt.output, &err);
    return EXIT_OK;
}
