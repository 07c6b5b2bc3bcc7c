/* option_help.c - a command's -h written from its option table (issue 38),
 * so the Options section cannot drift from what the command parses. The man
 * page check and bash completion read this text: its layout (two spaces,
 * the option, its help from the table's column) is what they expect. */
#include "option_table.h"


static void indent(FILE *f, int n)
{
    for (int i = 0; i < n; i++)
        fputc(' ', f);
}

/* "-o, --output OUT", after ", " when rows are joined; its length. */
static int write_name(FILE *f, const cli_option *o, int joined)
{
    int n = joined ? fprintf(f, ", ") : 0;
    if (o->short_name)
        n += fprintf(f, "-%c, ", o->short_name);
    n += fprintf(f, "--%s", o->long_name);
    if (o->arg_name)
        n += fprintf(f, " %s", o->arg_name);
    return n;
}

/* The help text from column on, each of its lines after the first indented
 * to the column too. */
static void write_text(FILE *f, const char *text, int column)
{
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n')
            indent(f, column);
    }
    fputc('\n', f);
}

/* The Options section: each row's names, then its help from the column. */
static void write_options(FILE *f, const cli_spec *spec)
{
    int width = -1; /* of the option names on the line begun; -1: none begun */
    for (const cli_option *o = spec->options; o->long_name; o++) {
        if (!o->help)
            continue;
        if (width < 0) {
            fputs("  ", f);
            width = 2;
        }
        width += write_name(f, o, width > 2);
        if (!*o->help)
            continue; /* the next row's text is this one's too */
        if (o->help[0] != '\n')
            indent(f, width < spec->column ? spec->column - width : 2);
        write_text(f, o->help, spec->column);
        width = -1;
    }
}

void cli_help_write(FILE *f, const cli_spec *spec)
{
    fputs(spec->usage, f);
    if (spec->options) {
        fputs("\nOptions:\n", f);
        write_options(f, spec);
    }
    if (spec->notes) {
        fputc('\n', f);
        fputs(spec->notes, f);
    }
    fputs("\nGlobal options:\n", f);
    write_options(f, &cli_global_spec);
}
