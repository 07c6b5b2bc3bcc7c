/* main.c - leakfind: dispatches to a command and checks stdout at exit. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "suggest.h"

static const command commands[] = {
    {"suspects", cmd_suspects, "leak suspects: what to look at first"},
    {"info", cmd_info, "what is in the dump"},
    {"classes", cmd_classes, "class histogram: count, shallow, retained"},
    {"dominators", cmd_dominators, "dominator tree: who owns the memory"},
    {"path", cmd_path, "shortest strong paths from GC roots"},
    {"sites", cmd_sites, "retained memory per allocation site"},
    {"roots", cmd_roots, "retained memory per GC root and root kind"},
    {"diff", cmd_diff, "what grew between two snapshots"},
    {"trend", cmd_trend, "growth per unit of workload over 3+ snapshots"},
    {"report", cmd_report, "one self-contained HTML page: tree, classes, growth"},
    {"convert", cmd_convert, "write leakfind's own snapshot format"},
    {"record", cmd_record, "snapshots of an unmodified OCaml program"},
};

static void usage(FILE *f)
{
    fputs("usage: leakfind COMMAND SNAPSHOT [options]\n\nCommands:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fputs("\nInputs: HPROF (Java, Android), V8 .heapsnapshot (Node.js, Chrome), either\n"
          "gzip-compressed, leakfind snapshots and text graphs (detected from the first bytes).\n"
          "Run 'leakfind COMMAND -h' for a command's options.\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        puts("leakfind 0.1");
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        int rc = commands[i].run(argc - 1, argv + 1);
        /* Data that never reached stdout is an error, not a success. */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            cli_message("error", "writing output: %s", strerror(errno ? errno : EIO));
            return EXIT_SYSTEM;
        }
        return rc;
    }
    const char *closest = NULL;
    size_t len = strlen(argv[1]), best = suggest_max_distance(len) + 1;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        size_t d = suggest_distance(argv[1], len, commands[i].name, strlen(commands[i].name), best - 1);
        if (d < best) {
            best = d;
            closest = commands[i].name;
        }
    }
    if (closest)
        cli_message("error", "unknown command '%s' (did you mean '%s'?)", argv[1], closest);
    else
        cli_message("error", "unknown command '%s'", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
