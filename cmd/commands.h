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
int cmd_threads(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_serve(int argc, char **argv);

#endif
