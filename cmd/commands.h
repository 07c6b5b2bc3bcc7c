/* commands.h - the command table. */
#ifndef LF_COMMANDS_H
#define LF_COMMANDS_H

typedef int (*command_fn)(int argc, char **argv);

typedef struct command {
    const char *name;
    command_fn run;
    const char *summary;
} command;

int cmd_info(int argc, char **argv);
int cmd_classes(int argc, char **argv);
int cmd_dominators(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_roots(int argc, char **argv);
int cmd_path(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_trend(int argc, char **argv);

/* Text shared by every command's -h. */
#define GLOBAL_OPTIONS_HELP                                                              \
    "Global options:\n"                                                                  \
    "  --format table|tsv|json  output format (table on a terminal, else tsv)\n"         \
    "  -q, --quiet              no warnings\n"                                           \
    "  -v, --verbose            more detail (info: timings and peak memory)\n"          \
    "  --threads N              reader threads (default: the cores)\n"                          \
    "  --no-progress            no progress on stderr\n"                                 \
    "  --keep-unreachable       unreachable objects become roots\n"                      \
    "  --strict                 recoverable oddities in the input are errors\n"         \
    "  --strong soft|all        Java: soft references (or all Reference.referent\n"    \
    "                           fields, as Eclipse MAT counts) own their referents\n" \
    "  -h, --help               this help\n"

#endif
