/* option_table.h - a command's options as one table: each row binds an
 * option to its field in the command's state, the kind of value it takes
 * and its line of -h, so an option is declared once (issue 38; git's
 * parse-options is the model). cli_parse (cli.h) reads argv through the
 * table; option_help.c writes the Options section of -h from it. */
#ifndef LF_OPTION_TABLE_H
#define LF_OPTION_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cli_context;

/* What an option's value is, and so how it is read and what its error says
 * (option_value.c words them). The field is at `offset` in the state. */
typedef enum cli_kind {
    CLI_FLAG,      /* int: set to 1; takes no value */
    CLI_FLAG_OFF,  /* int: set to 0 (--no-group against --group); no value */
    CLI_COUNT,     /* uint64_t from min to max (max 0: no bound); the error
                    * says `what` the option needs, or the range when NULL */
    CLI_SIZE,      /* uint64_t bytes, "64K", "1MiB", at least min; the error
                    * says "NAME needs `what`" */
    CLI_STRING,    /* const char *: the argument as typed */
    CLI_REAL,      /* double from lo to hi (-INFINITY and INFINITY: none) */
    CLI_PERCENT,   /* double: "10" or "10%", a share above 0 and at most 1 */
    CLI_ENUM,      /* int: the argument's index in names (NULL-ended);
                    * else "NAME must be a, b or c" */
    CLI_CUSTOM,    /* custom(ctx, field, arg): the command's own reading, for
                    * a value with checks of its own; offset 0 hands it the
                    * whole state, for an option that sets several fields */
} cli_kind;

/* 0, or the usage error printed (cli_usage_error) and EXIT_USAGE returned. */
typedef int (*cli_custom_fn)(struct cli_context *ctx, void *field, const char *arg);

/* One option. {0} ends the table. Rows with a value name it in arg_name
 * ("N", "SIZE"), which -h shows. A row gives the first six fields in order
 * and names the rest: {"top", 0, "N", CLI_COUNT, CLI_AT(state, top),
 * .help = "at most N rows"} (naming one keeps -Wextra quiet about the
 * others, which are 0).
 *
 * help is its text in -h, lines after the first without their indent;
 * NULL leaves the option out of -h (an alias another row's text names);
 * "" lists it before the next row on the same line, joined by ", " (the
 * next row's text is for both); a text that starts with '\n' starts under
 * the option instead of beside it. */
typedef struct cli_option {
    const char *long_name;    /* without "--" */
    char short_name;          /* 0 if none */
    const char *arg_name;     /* NULL: takes no value */
    cli_kind kind;
    size_t offset;            /* of the field in the state (CLI_AT) */
    const char *help;
    /* what one kind needs besides */
    uint64_t min, max;        /* CLI_COUNT, CLI_SIZE (min only) */
    const char *what;         /* CLI_COUNT, CLI_SIZE: what the error says it needs */
    double lo, hi;            /* CLI_REAL */
    const char *const *names; /* CLI_ENUM */
    cli_custom_fn custom;     /* CLI_CUSTOM */
} cli_option;

/* The offset of a field of a command's state, for a row. */
#define CLI_AT(type, field) offsetof(type, field)

/* A command's -h and options: usage, then "Options:" and the rows (from
 * `column` on, or two spaces past an option too long for it), then notes,
 * then the global options. */
typedef struct cli_spec {
    const char *usage;         /* the usage line and what the command does, each line ending '\n' */
    const cli_option *options; /* NULL: none of its own */
    int column;                /* where an option's help starts */
    const char *notes;         /* after the options, or NULL */
} cli_spec;

/* Stores arg in row o's field of state, by kind. 0, or the usage error
 * printed and EXIT_USAGE returned. */
int cli_option_read(struct cli_context *ctx, const cli_option *o, void *state, const char *arg);

/* The options every command takes, on the cli_context (global_options.c). */
extern const cli_spec cli_global_spec;

/* The whole -h text of a command (option_help.c). */
void cli_help_write(FILE *f, const cli_spec *spec);

#endif
