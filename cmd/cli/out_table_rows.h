/* out_table_rows.h - a fitted table's rows and header printed
 * (out_table_write.c fits them): cells aligned and cut to their columns,
 * and the header of a table too wide for the terminal on two lines where
 * its number columns' names are wider than their numbers (DESIGN 15). */
#ifndef LF_OUT_TABLE_ROWS_H
#define LF_OUT_TABLE_ROWS_H

#include "out_table.h"
#include "out_writer.h"

static inline const cell *cell_at(const out_writer *w, size_t r, int c)
{
    return &w->cells[r * (size_t)w->ncols + (size_t)c];
}

/* How cell x of column c is cut: as out_cut_next asked, else as its column. */
static inline lf_cut_style cell_cut(const out_writer *w, const cell *x, int c)
{
    return x->cut ? (lf_cut_style)(x->cut - 1) : w->cols[c].cut;
}

/* Row r of the table: its shown cells (col[0..ncols), fitted as fit says)
 * aligned, numbers (numeric[i]) to the right, and cut to their columns; in
 * place of its cell in column `instead_col` (-1: none), *instead. */
void out_table_row(out_writer *w, size_t r, const int *col, const out_fit *fit, const int *numeric, int ncols,
                   int instead_col, const cell *instead);

/* For a table wider than limit: split[i] where the header of shown column
 * i splits over two lines ("objects_per_unit": "objects" over "per_unit"),
 * or 0, and fit[i].width narrowed to match; only number columns whose
 * header is wider than their widest cell below it (widest[i]). A table
 * that fits keeps its one-line header (split all 0). */
void out_table_split_headers(const out_writer *w, const int *col, out_fit *fit, const int *numeric, int ncols,
                             const size_t *widest, size_t limit, size_t *split);

/* The header row (row 0), on two lines where out_table_split_headers split
 * it: the first halves above, the rest below; instead as out_table_row's
 * on the lower line. */
void out_table_header(out_writer *w, const int *col, const out_fit *fit, const int *numeric, int ncols,
                      const size_t *split, int instead_col, const cell *instead);

#endif
