/* out_table_rows.c - a fitted table's rows and header printed
 * (out_table_rows.h). */
#include "out_table_rows.h"

#include <stdlib.h>
#include <string.h>

/* n spaces onto b. */
static void put_spaces(out_buf *b, size_t n)
{
    static const char spaces[] = "                                ";
    for (; n > 0; n -= n < 32 ? n : 32)
        out_buf_put(b, spaces, n < 32 ? n : 32);
}

/* The cell shown in column i of a row: *instead in column instead_col. */
static const cell *shown_cell(const cell *row, const int *col, int i, int instead_col, const cell *instead)
{
    return col[i] == instead_col ? instead : &row[col[i]];
}

/* The width text column i of a row may take: its own, or, when every
 * shown cell right of it is empty, up to the table's right edge. A tree
 * row's "741 x j.u.c.ConcurrentHashMap$Node (entries)" reads whole over a
 * field column it leaves blank, where it read "741 x …Node (entries)";
 * a .gcdump's field column is blank in every row. */
static size_t room_of(const cell *row, const int *col, const out_fit *fit, int ncols, int i, int instead_col,
                      const cell *instead)
{
    size_t room = fit[i].width;
    for (int j = i + 1; j < ncols; j++) {
        if (fit[j].dropped)
            continue;
        if (shown_cell(row, col, j, instead_col, instead)->width != 0)
            return fit[i].width;
        room += 2 + fit[j].width;
    }
    return room;
}

/* One row of the table from its cells (row[c] for column c): the shown
 * ones aligned (numbers to the right, text to the left) and cut to their
 * columns; in place of the cell in column `instead_col` (-1: none),
 * *instead (a section's name, or nothing). trim: no blanks at its end (a
 * body row; its last text may then run over the empty cells right of it,
 * room_of). */
static void put_row(out_writer *w, const cell *row, const int *col, const out_fit *fit, const int *numeric,
                    int ncols, int instead_col, const cell *instead, int trim)
{
    int last = ncols - 1;
    while (last > 0 && fit[last].dropped)
        last--;
    for (int i = 0, first = 1; i < ncols; i++) {
        if (fit[i].dropped)
            continue;
        const cell *x = shown_cell(row, col, i, instead_col, instead);
        if (!first)
            out_buf_put(&w->row, "  ", 2);
        first = 0;
        if (numeric[i]) {
            put_spaces(&w->row, fit[i].width - x->width);
            out_buf_put(&w->row, w->text.p + x->at, x->len);
            continue;
        }
        size_t room = trim && x->width > fit[i].width ? room_of(row, col, fit, ncols, i, instead_col, instead)
                                                      : fit[i].width;
        size_t shown = out_table_cut(&w->row, w->text.p + x->at, x->len, x->width, x->pad, room,
                                     cell_cut(w, x, col[i]));
        if (room > fit[i].width)
            break; /* the cells right of it are empty */
        if (i < last)
            put_spaces(&w->row, fit[i].width - shown);
    }
    while (trim && w->row.len > 0 && w->row.p[w->row.len - 1] == ' ')
        w->row.len--;
    out_buf_put(&w->row, "\n", 1);
    out_row_done(w);
}

void out_table_row(out_writer *w, size_t r, const int *col, const out_fit *fit, const int *numeric, int ncols,
                   int instead_col, const cell *instead)
{
    /* trimmed: an empty last cell leaves no blanks at the row's end */
    put_row(w, &w->cells[r * (size_t)w->ncols], col, fit, numeric, ncols, instead_col, instead, 1);
}

/* Where a header splits over two lines ("objects_per_unit": "objects" above
 * "per_unit"): at the underscore that leaves the wider half narrowest; 0
 * when it has none. */
static size_t header_split_at(const char *text, size_t len)
{
    size_t best = 0, best_width = len;
    for (size_t i = 1; i + 1 < len; i++) {
        size_t wider = i > len - i - 1 ? i : len - i - 1;
        if (text[i] == '_' && wider < best_width) {
            best = i;
            best_width = wider;
        }
    }
    return best;
}

/* A number column whose header is wider than its numbers
 * ("objects_per_unit" over "300.00") takes its header on two lines, so
 * that the width goes to the names that answer (DESIGN 15). */
void out_table_split_headers(const out_writer *w, const int *col, out_fit *fit, const int *numeric, int ncols,
                             const size_t *widest, size_t limit, size_t *split)
{
    size_t total = 0;
    for (int i = 0; i < ncols; i++) {
        split[i] = 0;
        total += fit[i].width + (i > 0 ? 2 : 0);
    }
    if (limit == 0 || total <= limit)
        return;
    for (int i = 0; i < ncols; i++) {
        const cell *h = cell_at(w, 0, col[i]);
        size_t at = numeric[i] ? header_split_at(w->text.p + h->at, h->len) : 0;
        size_t half = at > h->len - at - 1 ? at : h->len - at - 1;
        size_t narrower = half > widest[i] ? half : widest[i];
        if (at && narrower < fit[i].width) {
            split[i] = at;
            fit[i].width = narrower;
        }
    }
}

void out_table_header(out_writer *w, const int *col, const out_fit *fit, const int *numeric, int ncols,
                      const size_t *split, int instead_col, const cell *instead)
{
    int any = 0;
    for (int i = 0; i < ncols; i++)
        any |= split[i] != 0 && !fit[i].dropped;
    if (!any) {
        out_table_row(w, 0, col, fit, numeric, ncols, instead_col, instead);
        return;
    }
    cell *top = calloc((size_t)w->ncols, sizeof *top), *bottom = calloc((size_t)w->ncols, sizeof *bottom);
    if (!top || !bottom) {
        free(top), free(bottom);
        out_lose_output();
        return;
    }
    memcpy(bottom, w->cells, (size_t)w->ncols * sizeof *bottom);
    for (int i = 0; i < ncols; i++) {
        const cell *h = cell_at(w, 0, col[i]);
        if (split[i]) {
            top[col[i]] = (cell){h->at, split[i], split[i], 0, 0};
            bottom[col[i]] = (cell){h->at + split[i] + 1, h->len - split[i] - 1, h->len - split[i] - 1, 0, 0};
        }
    }
    const cell blank = {0, 0, 0, 0, 0};
    put_row(w, top, col, fit, numeric, ncols, instead_col, &blank, 1);
    put_row(w, bottom, col, fit, numeric, ncols, instead_col, instead, 0);
    free(top), free(bottom);
}

