/* out_table_trade.h - after a table is fitted (out_table.h), width moved
 * from one cut text column to another where that cuts fewer of the cells
 * shown. The fitting sees only each column's widest cell: at 80 columns
 * `roots` on a V8 snapshot gave its name column 30 for the one name that
 * long and cut the root kind ("(Startup objec…") in most rows. */
#ifndef LF_OUT_TABLE_TRADE_H
#define LF_OUT_TABLE_TRADE_H

#include <stddef.h>

#include "out_table.h"

/* The body cells of one shown column, as the trade counts them. */
typedef struct out_cut_cells {
    const size_t *width;  /* their display widths, ascending; NULL: the column takes no part */
    size_t count;
} out_cut_cells;

/* Moves width between the shown, cut-able columns fit[0..ncols) (not
 * dropped, not whole, not numeric) while a move shows more cells whole
 * than twice the cells the donor then cuts (those it cut already too:
 * they lose more). A receiver grows to one of its cells' widths (at most
 * natural[], its widest), a donor shrinks by as much, never below its
 * minimum (OUT_TABLE_MIN_KEY or OUT_TABLE_MIN_TEXT); the table's width is
 * unchanged. A cell's width here is the narrowest it reads whole at (a
 * class with its packages' initials). */
void out_table_trade(out_fit *fit, const int *numeric, int ncols, const size_t *natural,
                     const out_cut_cells *cells);

#endif
