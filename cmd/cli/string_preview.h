/* string_preview.h - a string object's text as the rows that show it
 * write it: escaped for one cell, cut with the count of what was left out
 * (`inspect` in full up to --max-string, a short preview in `dominators`,
 * `path` and the report; issue 37). */
#ifndef LF_STRING_PREVIEW_H
#define LF_STRING_PREVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/model/snapshot.h"
#include "output.h"

/* Characters of a string a preview shows. */
enum { CLI_PREVIEW_CHARS = 40 };

/* Text made safe for one cell: control characters as \n, \t, \xNN and the
 * backslash doubled; `cut` more characters the text had are said as
 * " [... N more chars]". NUL-terminated when room is left. */
size_t cli_escape_text(const char *in, size_t len, uint64_t cut, char *out, size_t size);

/* The preview cell of node: its first CLI_PREVIEW_CHARS characters,
 * escaped, when it is a string whose text the dump keeps (JVM, V8);
 * otherwise null. */
void cli_write_string_preview(out_writer *w, const lf_snapshot *s, uint32_t node);
/* The same cell's text into cell[0..*len) (size CLI_PREVIEW_CELL): 1, or
 * 0 when node has no text to show. */
enum { CLI_PREVIEW_CELL = 4 * (4 * CLI_PREVIEW_CHARS + 8) + 48 };
int cli_string_preview_text(const lf_snapshot *s, uint32_t node, char cell[CLI_PREVIEW_CELL], size_t *len);

#endif
