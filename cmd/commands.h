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
int cmd_record(int argc, char **argv);
int cmd_sites(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_suspects(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_strings(int argc, char **argv);

/* Text shared by every command's -h. */
#define GLOBAL_OPTIONS_HELP                                                              \
    "Global options:\n"                                                                  \
    "  --format table|tsv|json  output format (table on a terminal, else tsv)\n"         \
    "  -q, --quiet              no warnings\n"                                           \
    "  -v, --verbose            more detail (info: timings and peak memory)\n"          \
    "  --threads N              threads to read and analyse with (default: the cores)\n"       \
    "  --no-progress            no progress on stderr\n"                                 \
    "  --keep-unreachable       unreachable objects become roots\n"                      \
    "  --strict                 recoverable oddities in the input are errors\n"         \
    "  --partial                a dump cut off mid-write: analyse the part before\n"   \
    "                           the cut (HPROF, V8, gzip) and say what is missing\n"    \
    "  --strong soft|all        Java: soft references (or all Reference.referent\n"    \
    "                           fields, as Eclipse MAT counts) own their referents\n" \
    "  --cache                  keep the analysed dump in DUMP.leakfind-cache and\n"   \
    "                           reuse it while the dump is unchanged\n"               \
    "  --memory SIZE            RAM for the big arrays (512M, 8G; default: 3/4 of\n"  \
    "                           what is available); past it they spill to files\n"  \
    "                           in $TMPDIR (default /tmp), removed at exit\n"         \
    "  -h, --help               this help\n"

#endif
