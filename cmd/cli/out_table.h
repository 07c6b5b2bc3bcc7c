/* out_table.h - fitting a table to the terminal (issue 33 item 4): a long
 * cell (a class name, a "... 2,502 more: ..." summary, a root) no longer
 * pads its whole column past the screen; text columns are narrowed until
 * the table fits, and cells wider than their column are cut with an
 * ellipsis. Numbers and ids are never cut, TSV and JSON never. */
#ifndef LF_OUT_TABLE_H
#define LF_OUT_TABLE_H

#include <stddef.h>

#include "out_text.h"

/* Text columns are not narrowed below this many characters. */
#define OUT_TABLE_MIN_TEXT 8

/* The width a table may take: $COLUMNS when it is a positive number, else
 * the terminal's when standard output is one (80 when it does not say),
 * else 0: no limit (a table written to a file or a pipe is kept whole). */
size_t out_table_limit(void);

/* Narrows the widths of the columns that may be cut (whole[c] 0: text,
 * not numbers or ids) so that the
 * columns and the two spaces between them fit limit (0: no limit): every
 * text column wider than some cap is cut to it, the cap as large as fits
 * and at least OUT_TABLE_MIN_TEXT. */
void out_table_fit(size_t *width, const int *whole, int ncols, size_t limit);

/* Appends text (len bytes, display width cell_width) cut to width display
 * columns: its first width - 1 characters and an ellipsis when it is wider.
 * Returns the display width appended. */
size_t out_table_cut(out_buf *b, const char *text, size_t len, size_t cell_width, size_t width);

#endif
