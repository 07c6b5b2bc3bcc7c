/* out_table.h - fitting a table to the terminal (DESIGN 15 of the
 * contract): the columns that carry the answer keep their width, the rest
 * give way. Optional columns are left out first, last listed first, and
 * secondary ones next when a key column would be narrower than
 * OUT_TABLE_KEY_COMFORT or the table would not fit at all; then the text columns share what is left, a key column (a class, a holder, a
 * path) twice as wide as another, none narrower than its minimum. A cell
 * wider than its column is cut as its column says (name_cut.h: a class
 * name loses its packages' letters, a path its middle). Numbers, ids and
 * lists of counts are never cut; TSV and JSON never. */
#ifndef LF_OUT_TABLE_H
#define LF_OUT_TABLE_H

#include <stddef.h>

#include "output.h"
#include "out_text.h"

/* Text columns are not narrowed below this many characters, and one
 * that is no wider than OUT_TABLE_SHORT is never narrowed: a kind, a
 * verdict, a section name cut saves little and says nothing. */
#define OUT_TABLE_MIN_TEXT 8
#define OUT_TABLE_SHORT 14
/* Nor key columns (a class, a holder) below this. */
#define OUT_TABLE_MIN_KEY 16
/* Secondary columns are left out when key columns would be narrower. */
#define OUT_TABLE_KEY_COMFORT 28

/* The width a table may take: $COLUMNS when it is a positive number, else
 * the terminal's when standard output is one (80 when it does not say),
 * else 0: no limit (a table written to a file or a pipe is kept whole). */
size_t out_table_limit(void);

/* One shown column, as the fitting sees it. */
typedef struct out_fit {
    size_t width;     /* its widest cell, then the width given */
    int whole;        /* a number or an id: never narrowed */
    out_rank rank;
    int dropped;      /* set: left out to fit */
    int with_next;    /* of a pair with the next one, which outlasts it */
} out_fit;

/* Fits the columns col[0..ncols) into limit (0: no limit) with two spaces
 * between them, as above. */
void out_table_fit(out_fit *col, int ncols, size_t limit);

/* What limit leaves beyond the columns' widths given to those still
 * narrower than natural[] (their widest cells): first whole cells, the
 * fewest columns short first, then a column at a time, key columns first. */
void out_table_give_slack(out_fit *col, int ncols, const size_t *natural, size_t limit);

/* Appends text (len bytes, display width cell_width, the first pad of them
 * blanks that indent a tree) cut as style says to width display columns.
 * Returns the display width appended. */
size_t out_table_cut(out_buf *b, const char *text, size_t len, size_t cell_width, size_t pad, size_t width,
                     lf_cut_style style);

#endif
