/* out_table_write.c - a table printed from its buffered cells, fitted to
 * the terminal (out_table.h): one table, or one per section; rows apart
 * where a gap was asked; two columns sharing one. */
#include "out_table.h"

#include "../../core/base/appendf.h"
#include "out_table_rows.h"
#include "out_table_trade.h"
#include "out_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_numeric(out_type t)
{
    return t == OUT_U64 || t == OUT_U64_SOMETIMES || t == OUT_I64 || t == OUT_PCT || t == OUT_REAL;
}


/* A shown column's fit and whether it is a number (right-aligned): numbers,
 * ids, lists of counts and short texts are never cut. */
static out_fit column_fit(const out_column *k, size_t width, out_rank rank, int *numeric)
{
    *numeric = is_numeric(k->type);
    int whole = *numeric || k->type == OUT_ID || k->type == OUT_LIST || width <= OUT_TABLE_SHORT;
    return (out_fit){width, whole, rank, 0, 0};
}

/* Each column as wide as its widest cell in rows [from, rows). */
static size_t *column_widths(const out_writer *w, size_t from, size_t rows)
{
    size_t *width = calloc((size_t)w->ncols, sizeof *width);
    for (size_t r = from; width && r < rows; r++)
        for (int c = 0; c < w->ncols; c++) {
            size_t cw = cell_at(w, r, c)->width;
            if (cw > width[c])
                width[c] = cw;
        }
    return width;
}

/* The columns a table shows, into col (their numbers, in order): all but
 * OUT_STR_SOMETIMES and OUT_U64_SOMETIMES columns empty in every row but
 * the header (row 0). */
static int shown_columns(const out_writer *w, size_t rows, int *col)
{
    int n = 0;
    for (int c = 0; c < w->ncols; c++) {
        int empty = w->cols[c].type == OUT_STR_SOMETIMES || w->cols[c].type == OUT_U64_SOMETIMES;
        for (size_t r = 1; empty && r < rows; r++)
            empty = cell_at(w, r, c)->width == 0;
        if (!empty)
            col[n++] = c;
    }
    return n;
}

/* Says which columns a table left out to fit the terminal: those marked
 * in left_out (by column); where (NULL: the one table) names the sections
 * that left them out ("the path table"). */
static void note_left_out(const out_writer *w, const int *left_out, size_t limit, const char *where)
{
    char names[512];
    size_t at = 0;
    names[0] = 0;
    for (int c = 0; c < w->ncols && lf_append_room(sizeof names, at); c++)
        if (left_out[c])
            lf_appendf(names, sizeof names, &at, "%s%s", at ? ", " : "", w->cols[c].name);
    if (at && !out_is_quiet())
        fprintf(stderr, "leakfind: note: left out%s%s to fit %zu columns: %s (--format tsv has every column)\n",
                where ? " of " : "", where ? where : "", limit, names);
}

/* note_left_out for the shown columns col[0..ncols) fitted as fit says. */
static void note_dropped(const out_writer *w, const int *col, const out_fit *fit, int ncols, size_t limit)
{
    int *left_out = calloc((size_t)w->ncols, sizeof *left_out);
    if (!left_out)
        return;
    for (int i = 0; i < ncols; i++)
        left_out[col[i]] = fit[i].dropped;
    note_left_out(w, left_out, limit, NULL);
    free(left_out);
}

/* Rows measured for reclaim_unused: a bound on its cost for long tables;
 * a later row wider than these is cut to the width they leave. */
enum { RECLAIM_ROWS = 10000, RECLAIM_ROUNDS = 4 };

/* The widest that the cells of shown column i come out, cut to its
 * width: the header (row 0; `instead` for instead_col) and rows [r0, r1). */
static size_t cut_width_used(const out_writer *w, size_t r0, size_t r1, int c, const out_fit *f,
                             int instead_col, const cell *instead, out_buf *scratch)
{
    size_t used = 0, end = r1 - r0 > RECLAIM_ROWS ? r0 + RECLAIM_ROWS : r1;
    for (size_t r = r0 - 1; r < end; r++) {
        const cell *x = r == r0 - 1 ? (c == instead_col ? instead : cell_at(w, 0, c)) : cell_at(w, r, c);
        scratch->len = 0;
        size_t shown = out_table_cut(scratch, w->text.p + x->at, x->len, x->width, x->pad, f->width, cell_cut(w, x, c));
        if (shown > used)
            used = shown;
    }
    return used;
}

static int by_width(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The narrowest width at which cell x comes out with no letter lost (no
 * ellipsis): a class cut to its packages' initials still reads whole.
 * Narrower cuts lose more, so the width is found by bisection. */
static size_t lossless_width(const out_writer *w, const cell *x, lf_cut_style style, out_buf *scratch)
{
    size_t lo = 1, hi = x->width;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        scratch->len = 0;
        out_table_cut(scratch, w->text.p + x->at, x->len, x->width, x->pad, mid, style);
        if (scratch->p && memmem(scratch->p, scratch->len, "\xe2\x80\xa6", 3))
            lo = mid + 1;
        else
            hi = mid;
    }
    return hi;
}

/* out_table_trade over the body rows [r0, r1) (the first RECLAIM_ROWS of
 * them) of the shown columns col[0..ncols), natural[] their widest cells.
 * Without memory for the widths the fitting stands as it is. */
static void trade_cut_widths(const out_writer *w, size_t r0, size_t r1, const int *col, out_fit *fit,
                             const int *numeric, int ncols, const size_t *natural)
{
    size_t rows = r1 - r0 > RECLAIM_ROWS ? RECLAIM_ROWS : r1 - r0;
    int cut = 0;
    for (int i = 0; i < ncols; i++)
        cut |= !fit[i].dropped && !fit[i].whole && !numeric[i] && fit[i].width < natural[i];
    if (!cut || rows == 0)
        return; /* nothing to trade: no limit, or every cell whole */
    out_cut_cells *cells = calloc((size_t)ncols + 1, sizeof *cells);
    size_t *width = calloc(rows * (size_t)ncols + 1, sizeof *width);
    if (!cells || !width) {
        free(cells), free(width);
        return;
    }
    out_buf scratch = {0};
    for (int i = 0; i < ncols; i++) {
        if (fit[i].dropped || fit[i].whole || numeric[i])
            continue;
        size_t *mine = width + (size_t)i * rows;
        for (size_t r = 0; r < rows; r++) {
            const cell *x = cell_at(w, r0 + r, col[i]);
            mine[r] = lossless_width(w, x, cell_cut(w, x, col[i]), &scratch);
        }
        qsort(mine, rows, sizeof *mine, by_width);
        cells[i] = (out_cut_cells){mine, rows};
    }
    out_table_trade(fit, numeric, ncols, natural, cells);
    free(cells), free(width), free(scratch.p);
}

/* The table's width: shown columns, two spaces between them. */
static size_t fitted_width(const out_fit *fit, int ncols)
{
    size_t total = 0;
    int shown = 0;
    for (int i = 0; i < ncols; i++)
        if (!fit[i].dropped)
            total += fit[i].width, shown++;
    return total + (shown > 0 ? 2 * (size_t)(shown - 1) : 0);
}

/* After the fitting, a narrowed column whose cells all come out shorter
 * than its width once cut (a path that lost its classes, a class its
 * packages) is narrowed to what they take, and what that frees goes to
 * the cut columns, key ones first, each given it only when a cut at the
 * wider width shows more (at 80 columns an entry's key "0xfd5bf9c8" had
 * left 18 columns empty while its class read "…sions$Session"; a class
 * one short of "j.u.c.ConcurrentHashMap$TreeNode" gets it). natural: each
 * column's widest cell. */
static void reclaim_unused(const out_writer *w, size_t r0, size_t r1, const int *col, out_fit *fit,
                           const int *numeric, int ncols, const size_t *natural, size_t limit, int instead_col,
                           const cell *instead)
{
    out_buf scratch = {0};
    if (limit == 0)
        return;
    for (int i = 0; i < ncols; i++)
        if (!fit[i].dropped && !numeric[i] && !fit[i].whole && fit[i].width < natural[i])
            fit[i].width = cut_width_used(w, r0, r1, col[i], &fit[i], instead_col, instead, &scratch);
    for (int round = 0, grown = 1; round < RECLAIM_ROUNDS && grown; round++) {
        grown = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < ncols; i++) {
                size_t used = fitted_width(fit, ncols), slack = limit > used ? limit - used : 0;
                if (slack == 0 || fit[i].dropped || numeric[i] || fit[i].whole || fit[i].width >= natural[i] ||
                    (fit[i].rank == OUT_KEY) != (pass == 0))
                    continue;
                out_fit wider = fit[i];
                wider.width = fit[i].width + slack < natural[i] ? fit[i].width + slack : natural[i];
                size_t shown = cut_width_used(w, r0, r1, col[i], &wider, instead_col, instead, &scratch);
                if (shown > fit[i].width) {
                    fit[i].width = shown;
                    grown = 1;
                }
            }
    }
    free(scratch.p);
}

void out_table_share(out_writer *w, int col, int other, const char *header)
{
    if (w && col >= 0 && other >= 0 && col < w->ncols && other < w->ncols && col != other) {
        w->share_col = col + 1;
        w->share_other = other + 1;
        w->share_header = header;
    }
}

void out_table_pair(out_writer *w, int col)
{
    if (w && col >= 0 && col + 1 < w->ncols)
        w->pair_col = col + 1;
}

/* out_table_share done: the other column's cells moved into the empty
 * ones of col, the header renamed. Returns the column then shown in no
 * row (the other), or -1. */
static int share_cells(out_writer *w, size_t rows)
{
    if (!w->share_col)
        return -1;
    const int col = w->share_col - 1, other = w->share_other - 1;
    for (size_t r = 1; r < rows; r++) {
        cell *row = &w->cells[r * (size_t)w->ncols], *into = &row[col], *from = &row[other];
        if (into->len == 0 && from->len > 0)
            *into = *from;
        *from = (cell){0, 0, 0, 0, 0};
    }
    size_t n = strlen(w->share_header);
    if (out_buf_reserve(&w->text, n) == 0) {
        memcpy(w->text.p + w->text.len, w->share_header, n);
        w->cells[col] = (cell){w->text.len, n, out_display_width(w->share_header, n), 0, 0};
        w->text.len += n;
    }
    return other;
}

/* A table's rows, fitted to the terminal (out_table.h), as one table. */
static void write_plain(out_writer *w)
{
    size_t rows = w->cell_count / (size_t)w->ncols, limit = out_table_limit();
    const int gone = share_cells(w, rows);
    size_t *all_width = column_widths(w, 0, rows), *body_width = column_widths(w, 1, rows);
    out_fit *fit = calloc((size_t)w->ncols, sizeof *fit);
    int *col = calloc((size_t)w->ncols, sizeof *col), *numeric = calloc((size_t)w->ncols, sizeof *numeric);
    size_t *split = calloc((size_t)w->ncols, sizeof *split), *widest = calloc((size_t)w->ncols, sizeof *widest);
    if (!all_width || !body_width || !fit || !col || !numeric || !split || !widest) {
        free(all_width), free(body_width), free(fit), free(col), free(numeric), free(split), free(widest);
        out_lose_output();
        return;
    }
    int ncols = shown_columns(w, rows, col);
    for (int i = 0; i < ncols; i++)
        if (col[i] == gone) { /* shown in the shared column */
            memmove(col + i, col + i + 1, (size_t)(ncols - i - 1) * sizeof *col);
            ncols--;
            break;
        }
    for (int i = 0; i < ncols; i++) {
        out_rank rank = w->cols[col[i]].rank;
        if (col[i] == w->share_col - 1 && w->cols[w->share_other - 1].rank == OUT_KEY)
            rank = OUT_KEY; /* the shared column answers as the other did */
        fit[i] = column_fit(&w->cols[col[i]], all_width[col[i]], rank, &numeric[i]);
        fit[i].with_next = w->pair_col == col[i] + 1 && i + 1 < ncols && col[i + 1] == col[i] + 1;
        widest[i] = body_width[col[i]];
    }
    out_table_split_headers(w, col, fit, numeric, ncols, widest, limit, split);
    size_t *natural = calloc((size_t)ncols + 1, sizeof *natural);
    for (int i = 0; natural && i < ncols; i++)
        natural[i] = fit[i].width;
    out_table_fit(fit, ncols, limit);
    if (natural && rows > 1) {
        trade_cut_widths(w, 1, rows, col, fit, numeric, ncols, natural);
        reclaim_unused(w, 1, rows, col, fit, numeric, ncols, natural, limit, -1, NULL);
    }
    free(natural);
    for (size_t r = 0, g = 0; r < rows; r++) {
        for (; g < w->gap_count && w->gap[g] < r; g++)
            ;
        if (g < w->gap_count && w->gap[g] == r)
            out_buf_put(&w->row, "\n", 1);
        if (r == 0)
            out_table_header(w, col, fit, numeric, ncols, split, -1, NULL);
        else
            out_table_row(w, r, col, fit, numeric, ncols, -1, NULL);
    }
    note_dropped(w, col, fit, ncols, limit);
    free(all_width), free(body_width), free(fit), free(col), free(numeric), free(split), free(widest);
}

void out_table_gap(out_writer *w)
{
    if (!w || w->format != OUT_TABLE || w->ncols == 0)
        return;
    size_t row = w->cell_count / (size_t)w->ncols;
    if (row <= 1 || (w->gap_count && w->gap[w->gap_count - 1] == row))
        return; /* none after the header, one per place */
    if (w->gap_count == w->gap_cap) { /* malloc's, as out_end frees it: never a spilled array */
        size_t cap = w->gap_cap ? 2 * w->gap_cap : 16;
        size_t *more = realloc(w->gap, cap * sizeof *more);
        if (!more) {
            out_lose_output();
            return;
        }
        w->gap = more;
        w->gap_cap = cap;
    }
    w->gap[w->gap_count++] = row;
}

void out_table_sections(out_writer *w, int col)
{
    if (w && col >= 0 && col < w->ncols)
        w->section_col = col + 1;
}

static int same_text(const out_writer *w, const cell *a, const cell *b)
{
    return a->len == b->len && memcmp(w->text.p + a->at, w->text.p + b->at, a->len) == 0;
}

/* Rows [r0, r1) of one section as a table of their own: the section's name
 * above, where the header names its column; the columns no row of them
 * fills left out. Every column it had to leave out is marked in dropped. */
static int write_section(out_writer *w, size_t r0, size_t r1, size_t limit, int *dropped)
{
    const int sec = w->section_col - 1;
    out_fit fit[OUT_SECTION_MAX_COLUMNS] = {{0, 0, 0, 0, 0}};
    int col[OUT_SECTION_MAX_COLUMNS] = {0}, numeric[OUT_SECTION_MAX_COLUMNS] = {0}, ncols = 0;
    size_t widest[OUT_SECTION_MAX_COLUMNS] = {0}, split[OUT_SECTION_MAX_COLUMNS];
    for (int c = 0; c < w->ncols && ncols < OUT_SECTION_MAX_COLUMNS; c++) {
        size_t width = c == sec ? cell_at(w, r0, c)->width : 0;
        for (size_t r = r0; r < r1 && c != sec; r++)
            if (cell_at(w, r, c)->width > width)
                width = cell_at(w, r, c)->width;
        if (width == 0)
            continue; /* no row of the section fills it */
        widest[ncols] = width;
        if (c != sec && cell_at(w, 0, c)->width > width)
            width = cell_at(w, 0, c)->width;
        fit[ncols] = column_fit(&w->cols[c], width, c == sec ? OUT_NORMAL : w->cols[c].rank, &numeric[ncols]);
        col[ncols++] = c;
    }
    out_table_split_headers(w, col, fit, numeric, ncols, widest, limit, split);
    size_t natural[OUT_SECTION_MAX_COLUMNS];
    for (int i = 0; i < ncols; i++)
        natural[i] = fit[i].width;
    out_table_fit(fit, ncols, limit);
    trade_cut_widths(w, r0, r1, col, fit, numeric, ncols, natural);
    reclaim_unused(w, r0, r1, col, fit, numeric, ncols, natural, limit, sec, cell_at(w, r0, sec));
    const cell blank = {0, 0, 0, 0, 0};
    out_table_header(w, col, fit, numeric, ncols, split, sec, cell_at(w, r0, sec));
    for (size_t r = r0; r < r1; r++)
        out_table_row(w, r, col, fit, numeric, ncols, sec, &blank);
    int any = 0;
    for (int i = 0; i < ncols; i++) {
        dropped[col[i]] |= fit[i].dropped;
        any |= fit[i].dropped;
    }
    return any;
}

/* "the path table", "the path and field tables", "the object, path and
 * field tables": the sections named[0..n) (cells of w), into where. */
static void sections_text(const out_writer *w, const cell *const *named, int n, char *where, size_t size)
{
    size_t at = 0;
    where[0] = 0;
    for (int i = 0; i < n && lf_append_room(size, at); i++)
        lf_appendf(where, size, &at, "%s%.*s", i == 0 ? "the " : i == n - 1 ? " and " : ", ",
                   (int)named[i]->len, w->text.p + named[i]->at);
    lf_appendf(where, size, &at, n == 1 ? " table" : " tables");
}

/* Sections named in the note of the columns left out: inspect has 5. */
enum { OUT_SECTIONS_NAMED = 8 };

/* A table whose sections (runs of rows with one text in the section
 * column) are tables of their own, a blank line apart; the note of the
 * columns left out names the sections that left them out. */
static void write_sections(out_writer *w)
{
    size_t rows = w->cell_count / (size_t)w->ncols, limit = out_table_limit();
    int *dropped = calloc((size_t)w->ncols, sizeof *dropped);
    const int sec = w->section_col - 1;
    if (!dropped) {
        out_lose_output();
        return;
    }
    const cell *named[OUT_SECTIONS_NAMED];
    int n = 0;
    for (size_t r0 = 1, r1; r0 < rows; r0 = r1) {
        for (r1 = r0 + 1; r1 < rows && same_text(w, cell_at(w, r1, sec), cell_at(w, r0, sec));)
            r1++;
        if (r0 > 1)
            out_buf_put(&w->row, "\n", 1);
        if (write_section(w, r0, r1, limit, dropped) && n < OUT_SECTIONS_NAMED)
            named[n++] = cell_at(w, r0, sec);
    }
    char where[OUT_SECTIONS_NAMED * 48];
    if (n)
        sections_text(w, named, n, where, sizeof where);
    note_left_out(w, dropped, limit, n ? where : NULL);
    free(dropped);
}

void out_write_table(out_writer *w)
{
    if (w->section_col)
        write_sections(w);
    else
        write_plain(w);
}
