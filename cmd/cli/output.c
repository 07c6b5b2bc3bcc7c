/* output.c - table, TSV and JSON Lines writers. A table is buffered so its
 * columns can be aligned; TSV and JSON stream. */
#include "output.h"
#include "out_table.h"
#include "out_text.h"
#include "../../core/base/vec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* More columns than a sectioned table has (inspect: 10). */
enum { OUT_SECTION_MAX_COLUMNS = 32 };

typedef struct cell {
    size_t at;      /* table mode: the rendered cell, text.p[at .. at + len) */
    size_t len;
    size_t width;   /* display width (UTF-8 code points) */
    size_t pad;     /* of which the first are a tree's indent */
} cell;

struct out_writer {
    FILE *f;
    out_format format;
    const out_column *cols;
    int ncols;
    int col;             /* next column in the current row */
    unsigned indent;
    out_buf row;         /* TSV and JSON: the row being made, written whole at its end */
    out_buf keys;        /* JSON: each column's "name": */
    size_t *key_at;      /* column -> its key in keys, ncols + 1 entries */
    /* table mode */
    out_buf text;        /* the cells' texts, one after another */
    cell *cells;
    size_t cell_count, cell_cap;
    int section_col;     /* 1 + the column whose runs are tables of their own (out_table_sections); 0: none */
    size_t *gap;         /* rows a blank line goes before (out_table_gap), ascending */
    size_t gap_count, gap_cap;
    int share_col, share_other;  /* 1 + the columns of out_table_share; 0: none */
    const char *share_header;
};

/* Set when a writer dropped output for want of memory (out_lost_output). */
static int lost_output;
static int quiet;

void out_set_quiet(int q)
{
    quiet = q;
}

int out_lost_output(void)
{
    return lost_output;
}

/* s written through f by runs between the bytes that need escaping. */
void out_write_tsv_escaped(FILE *f, const char *s, size_t len)
{
    out_buf b = {0};
    out_buf_tsv(&b, s, len);
    lost_output |= b.failed;
    fwrite(b.p ? b.p : "", 1, b.len, f);
    out_buf_free(&b);
}

static void write_json_string(FILE *f, const char *s, size_t len, int html)
{
    out_buf b = {0};
    out_buf_json(&b, s, len, html);
    lost_output |= b.failed;
    fwrite(b.p ? b.p : "", 1, b.len, f);
    out_buf_free(&b);
}

void out_write_json_string(FILE *f, const char *s, size_t len)
{
    write_json_string(f, s, len, 0);
}

/* html: also <, > and & as \u escapes, so that the string cannot end or
 * open anything in an HTML page it is embedded in. */
void out_write_json_string_html(FILE *f, const char *s, size_t len)
{
    write_json_string(f, s, len, 1);
}

/* JSON: the "name": of each column, escaped once. */
static int make_keys(out_writer *w)
{
    w->key_at = malloc(((size_t)w->ncols + 1) * sizeof *w->key_at);
    if (!w->key_at)
        return -1;
    for (int i = 0; i < w->ncols; i++) {
        w->key_at[i] = w->keys.len;
        out_buf_json(&w->keys, w->cols[i].name, strlen(w->cols[i].name), 0);
        out_buf_put(&w->keys, ":", 1);
    }
    w->key_at[w->ncols] = w->keys.len;
    return w->keys.failed ? -1 : 0;
}

/* Rows go to the stream in blocks of about this many bytes: one stdio call
 * per row cost as much as making the row. Nothing else writes to the
 * stream between out_begin and out_end. */
enum { FLUSH_AT = 64 * 1024 };

/* The rows made so far go to the stream. */
static void flush_rows(out_writer *w)
{
    lost_output |= w->row.failed;
    if (w->row.len)
        fwrite(w->row.p, 1, w->row.len, w->f);
    w->row.len = 0;
    w->row.failed = 0;
}

static void row_done(out_writer *w)
{
    if (w->f && w->row.len >= FLUSH_AT)
        flush_rows(w);
}

out_writer *out_begin_rows(const out_writer *like)
{
    if (!like || like->format == OUT_TABLE)
        return NULL;
    out_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    *w = (out_writer){.format = like->format, .cols = like->cols, .ncols = like->ncols};
    if (w->format == OUT_JSON && make_keys(w)) {
        out_end(w);
        return NULL;
    }
    return w;
}

void out_append_rows(out_writer *to, out_writer *from)
{
    flush_rows(to);
    lost_output |= from->row.failed;
    if (from->row.len)
        fwrite(from->row.p, 1, from->row.len, to->f);
    from->row.len = 0;
    from->row.failed = 0;
}

out_writer *out_begin(FILE *f, out_format format, const out_column *cols, int ncols)
{
    out_writer *w = calloc(1, sizeof *w);
    if (!w) {
        lost_output = 1;
        return NULL;
    }
    w->f = f;
    w->format = format;
    w->cols = cols;
    w->ncols = ncols;
    if (format == OUT_JSON && make_keys(w))
        lost_output = 1;
    if (format == OUT_TSV) {
        for (int i = 0; i < ncols; i++) {
            out_buf_put(&w->row, "\t", i ? 1 : 0);
            out_buf_put(&w->row, cols[i].name, strlen(cols[i].name));
        }
        out_buf_put(&w->row, "\n", 1);
    } else if (format == OUT_TABLE) {
        for (int i = 0; i < ncols; i++)
            out_cstr(w, cols[i].name);
        out_row_end(w);
    }
    return w;
}

static size_t display_width(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xc0) != 0x80;
    return n;
}

static void table_cell(out_writer *w, const char *s, size_t len)
{
    if (w->cell_count == w->cell_cap) {
        size_t cap = w->cell_cap ? w->cell_cap * 2 : 256;
        cell *c = realloc(w->cells, cap * sizeof *c);
        if (!c) {
            lost_output = 1; /* the row comes out short: main reports memory */
            return;
        }
        w->cells = c;
        w->cell_cap = cap;
    }
    size_t pad = 2 * (size_t)w->indent;
    if (out_buf_reserve(&w->text, len + pad)) {
        lost_output = 1;
        return;
    }
    char *text = w->text.p + w->text.len;
    memset(text, ' ', pad);
    for (size_t i = 0; i < len; i++) /* a table is for eyes: control bytes become '?' */
        text[pad + i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
    w->cells[w->cell_count] = (cell){w->text.len, len + pad, pad + display_width(s, len), pad};
    w->text.len += len + pad;
    w->cell_count++;
    w->indent = 0;
}

static void begin_cell(out_writer *w)
{
    if (w->format == OUT_TSV && w->col > 0 && out_buf_reserve(&w->row, 1) == 0)
        w->row.p[w->row.len++] = '\t';
    if (w->format == OUT_JSON) {
        out_buf_put(&w->row, w->col == 0 ? "{" : ",", 1);
        if (w->key_at)
            out_buf_put(&w->row, w->keys.p + w->key_at[w->col], w->key_at[w->col + 1] - w->key_at[w->col]);
    }
}

static void emit(out_writer *w, const char *text, size_t len, int json_quoted)
{
    if (w->col >= w->ncols)
        return;
    if (w->format == OUT_TABLE) {
        table_cell(w, text, len);
    } else {
        begin_cell(w);
        if (w->format == OUT_TSV)
            out_buf_tsv(&w->row, text, len);
        else if (json_quoted)
            out_buf_json(&w->row, text, len, 0);
        else
            out_buf_put(&w->row, text, len);
    }
    w->col++;
}

/* emit for text that needs no escape (numbers, ids, null): no scan;
 * quoted: a string in JSON (an id). */
static void emit_safe(out_writer *w, const char *text, size_t len, int quoted)
{
    if (w->col >= w->ncols)
        return;
    if (w->format == OUT_TABLE) {
        table_cell(w, text, len);
    } else if (out_buf_reserve(&w->row, len + 3 + (w->key_at ? w->key_at[w->col + 1] - w->key_at[w->col] : 0)) == 0) {
        char *p;
        if (w->format == OUT_TSV) { /* the tab here: room was reserved (a full listing's most common call) */
            p = w->row.p + w->row.len;
            if (w->col > 0)
                *p++ = '\t';
        } else { /* JSON: "{" or "," and the column's "name": (reserved too) */
            p = w->row.p + w->row.len;
            *p++ = w->col == 0 ? '{' : ',';
            if (w->key_at) {
                size_t klen = w->key_at[w->col + 1] - w->key_at[w->col];
                memcpy(p, w->keys.p + w->key_at[w->col], klen);
                p += klen;
            }
        }
        quoted &= w->format == OUT_JSON;
        if (quoted)
            *p++ = '"';
        for (size_t i = 0; i < len; i++) /* short: a call to memcpy cost more */
            *p++ = text[i];
        if (quoted)
            *p++ = '"';
        w->row.len = (size_t)(p - w->row.p);
    }
    w->col++;
}

void out_str(out_writer *w, const char *s, size_t len)
{
    emit(w, s, len, 1);
}

void out_u64_list(out_writer *w, const uint64_t *v, size_t n)
{
    char buf[4096];
    size_t o = 0;
    const int json = w->format == OUT_JSON;
    if (json)
        buf[o++] = '[';
    for (size_t i = 0; i < n && o + 24 < sizeof buf; i++) {
        if (i)
            buf[o++] = ',';
        o += out_u64_text(buf + o, v[i]);
    }
    if (json)
        buf[o++] = ']';
    emit(w, buf, o, 0);
}

void out_cstr(out_writer *w, const char *s)
{
    emit(w, s, strlen(s), 1);
}

/* Table numbers get thousands separators; TSV and JSON plain digits. */
static void emit_number(out_writer *w, const char *digits, size_t len)
{
    if (w->format != OUT_TABLE) {
        emit_safe(w, digits, len, 0);
        return;
    }
    char buf[48];
    size_t o = 0, start = (digits[0] == '-' || digits[0] == '+') ? 1 : 0;
    for (size_t i = 0; i < len; i++) {
        buf[o++] = digits[i];
        size_t left = len - 1 - i;
        if (i >= start && left > 0 && left % 3 == 0)
            buf[o++] = ',';
    }
    emit(w, buf, o, 0);
}

void out_u64(out_writer *w, uint64_t v)
{
    char buf[24];
    emit_number(w, buf, out_u64_text(buf, v));
}

void out_i64(out_writer *w, int64_t v)
{
    char buf[24];
    size_t n = 0;
    /* a table shows growth with an explicit sign */
    if (v < 0)
        buf[n++] = '-';
    else if (v > 0 && w->format == OUT_TABLE)
        buf[n++] = '+';
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    n += out_u64_text(buf + n, mag);
    emit_number(w, buf, n);
}

/* "136.8 KiB": binary units, one decimal, bytes below 1 KiB. */
static void human_bytes(char *buf, size_t size, const char *sign, uint64_t v);

void out_format_bytes(char *buf, size_t size, uint64_t v)
{
    human_bytes(buf, size, "", v);
}

static void human_bytes(char *buf, size_t size, const char *sign, uint64_t v)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (v < 1024) {
        snprintf(buf, size, "%s%" PRIu64 " B", sign, v);
        return;
    }
    double x = (double)v / 1024.0;
    int u = 0;
    while (x >= 1024.0 && u < 5) {
        x /= 1024.0;
        u++;
    }
    snprintf(buf, size, "%s%.1f %s", sign, x, unit[u]);
}

void out_bytes(out_writer *w, uint64_t v)
{
    if (w->format != OUT_TABLE) {
        out_u64(w, v);
        return;
    }
    char buf[32];
    human_bytes(buf, sizeof buf, "", v);
    emit(w, buf, strlen(buf), 0);
}

void out_bytes_delta(out_writer *w, int64_t v)
{
    if (w->format != OUT_TABLE) {
        out_i64(w, v);
        return;
    }
    char buf[32];
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    human_bytes(buf, sizeof buf, v > 0 ? "+" : v < 0 ? "-" : "", mag);
    emit(w, buf, strlen(buf), 0);
}

void out_pct(out_writer *w, double v)
{
    char buf[40];
    size_t n = out_fixed2_text(buf, v);
    if (w->format == OUT_TABLE)
        buf[n++] = '%';
    emit_safe(w, buf, n, 0);
}

void out_real(out_writer *w, double v, int decimals)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%.*f", decimals, v);
    emit(w, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1, 0);
}

void out_id(out_writer *w, uint64_t id, int at_style)
{
    char buf[24];
    size_t n;
    if (at_style) {
        buf[0] = '@';
        n = 1 + out_u64_text(buf + 1, id);
    } else {
        buf[0] = '0', buf[1] = 'x';
        n = 2 + out_hex_text(buf + 2, id);
    }
    emit_safe(w, buf, n, 1);
}

void out_bool(out_writer *w, int v)
{
    if (w->format == OUT_JSON)
        emit(w, v ? "true" : "false", v ? 4 : 5, 0);
    else
        emit(w, v ? "yes" : "no", v ? 3 : 2, 0);
}

out_format out_writer_format(const out_writer *w)
{
    return w->format;
}

void out_null(out_writer *w)
{
    if (w->format == OUT_JSON)
        emit_safe(w, "null", 4, 0);
    else
        emit_safe(w, "", 0, 0);
}

void out_skip_to(out_writer *w, int col)
{
    while (w->col < col && w->col < w->ncols)
        out_null(w);
}

void out_indent(out_writer *w, unsigned depth)
{
    w->indent = depth;
}

void out_row_end(out_writer *w)
{
    while (w->col < w->ncols)
        out_null(w);
    if (w->format == OUT_JSON)
        out_buf_put(&w->row, "}\n", 2);
    else if (w->format == OUT_TSV)
        out_buf_put(&w->row, "\n", 1);
    if (w->format != OUT_TABLE)
        row_done(w);
    w->col = 0;
}

static int is_numeric(out_type t)
{
    return t == OUT_U64 || t == OUT_U64_SOMETIMES || t == OUT_I64 || t == OUT_PCT || t == OUT_REAL;
}

/* n spaces onto b. */
static void put_spaces(out_buf *b, size_t n)
{
    static const char spaces[] = "                                ";
    for (; n > 0; n -= n < 32 ? n : 32)
        out_buf_put(b, spaces, n < 32 ? n : 32);
}

/* Each column as wide as its widest cell. */
static size_t *column_widths(const out_writer *w, size_t rows)
{
    size_t *width = calloc((size_t)w->ncols, sizeof *width);
    for (size_t r = 0; width && r < rows; r++)
        for (int c = 0; c < w->ncols; c++) {
            size_t cw = w->cells[r * (size_t)w->ncols + (size_t)c].width;
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
            empty = w->cells[r * (size_t)w->ncols + (size_t)c].width == 0;
        if (!empty)
            col[n++] = c;
    }
    return n;
}

/* Says which columns a table left out to fit the terminal. */
static void note_dropped(const out_writer *w, const int *col, const out_fit *fit, int ncols, size_t limit)
{
    char names[512];
    size_t at = 0;
    names[0] = 0;
    for (int i = 0; i < ncols && at + 1 < sizeof names; i++)
        if (fit[i].dropped) {
            int n = snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "", w->cols[col[i]].name);
            at = n < 0 ? at : at + (size_t)n < sizeof names ? at + (size_t)n : sizeof names - 1;
        }
    if (at && !quiet)
        fprintf(stderr, "leakfind: note: left out to fit %zu columns: %s (--format tsv has every column)\n", limit,
                names);
}

/* One row of the table: its shown cells aligned (numbers to the right,
 * text to the left) and cut to their columns. */
/* In place of row r's cell in column `instead_col` (-1: none) it shows
 * *instead (a section's name, or nothing). */
static void table_row(out_writer *w, size_t r, const int *col, const out_fit *fit, const int *numeric, int ncols,
                      int instead_col, const cell *instead)
{
    int last = ncols - 1;
    while (last > 0 && fit[last].dropped)
        last--;
    for (int i = 0, first = 1; i < ncols; i++) {
        if (fit[i].dropped)
            continue;
        const cell *x = col[i] == instead_col ? instead : &w->cells[r * (size_t)w->ncols + (size_t)col[i]];
        if (!first)
            out_buf_put(&w->row, "  ", 2);
        first = 0;
        if (numeric[i]) {
            put_spaces(&w->row, fit[i].width - x->width);
            out_buf_put(&w->row, w->text.p + x->at, x->len);
            continue;
        }
        size_t shown = out_table_cut(&w->row, w->text.p + x->at, x->len, x->width, x->pad, fit[i].width,
                                     w->cols[col[i]].cut);
        if (i < last)
            put_spaces(&w->row, fit[i].width - shown);
    }
    out_buf_put(&w->row, "\n", 1);
    row_done(w);
}

void out_table_share(out_writer *w, int col, int other, const char *header)
{
    if (w && col >= 0 && other >= 0 && col < w->ncols && other < w->ncols && col != other) {
        w->share_col = col + 1;
        w->share_other = other + 1;
        w->share_header = header;
    }
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
        cell *into = &w->cells[r * (size_t)w->ncols + (size_t)col];
        cell *from = &w->cells[r * (size_t)w->ncols + (size_t)other];
        if (into->len == 0 && from->len > 0)
            *into = *from;
        *from = (cell){0, 0, 0, 0};
    }
    size_t n = strlen(w->share_header);
    if (out_buf_reserve(&w->text, n) == 0) {
        memcpy(w->text.p + w->text.len, w->share_header, n);
        w->cells[col] = (cell){w->text.len, n, display_width(w->share_header, n), 0};
        w->text.len += n;
    }
    return other;
}

/* A table's rows, fitted to the terminal (out_table.h). */
static void write_table(out_writer *w)
{
    size_t rows = w->cell_count / (size_t)w->ncols, limit = out_table_limit();
    const int gone = share_cells(w, rows);
    size_t *all_width = column_widths(w, rows);
    out_fit *fit = calloc((size_t)w->ncols, sizeof *fit);
    int *col = calloc((size_t)w->ncols, sizeof *col), *numeric = calloc((size_t)w->ncols, sizeof *numeric);
    if (!all_width || !fit || !col || !numeric) {
        free(all_width), free(fit), free(col), free(numeric);
        lost_output = 1;
        return;
    }
    int ncols = shown_columns(w, rows, col);
    for (int i = 0; i < ncols; i++)
        if (col[i] == gone) { /* shown in the shared column */
            memmove(col + i, col + i + 1, (size_t)(ncols - i - 1) * sizeof *col);
            ncols--;
            break;
        }
    for (int i = 0; i < ncols; i++) { /* numbers and ids are never cut */
        const out_column *c = &w->cols[col[i]];
        numeric[i] = is_numeric(c->type);
        int whole = numeric[i] || c->type == OUT_ID || c->type == OUT_LIST || all_width[col[i]] <= OUT_TABLE_SHORT;
        out_rank rank = c->rank;
        if (col[i] == w->share_col - 1 && w->cols[w->share_other - 1].rank == OUT_KEY)
            rank = OUT_KEY; /* the shared column answers as the other did */
        fit[i] = (out_fit){all_width[col[i]], whole, rank, 0};
    }
    out_table_fit(fit, ncols, limit);
    for (size_t r = 0, g = 0; r < rows; r++) {
        for (; g < w->gap_count && w->gap[g] < r; g++)
            ;
        if (g < w->gap_count && w->gap[g] == r)
            out_buf_put(&w->row, "\n", 1);
        table_row(w, r, col, fit, numeric, ncols, -1, NULL);
    }
    note_dropped(w, col, fit, ncols, limit);
    free(all_width), free(fit), free(col), free(numeric);
}

void out_table_gap(out_writer *w)
{
    if (!w || w->format != OUT_TABLE || w->ncols == 0)
        return;
    size_t row = w->cell_count / (size_t)w->ncols;
    if (row <= 1 || (w->gap_count && w->gap[w->gap_count - 1] == row))
        return; /* none after the header, one per place */
    if (lf_vec_reserve((void **)&w->gap, &w->gap_cap, w->gap_count + 1, sizeof *w->gap)) {
        lost_output = 1;
        return;
    }
    w->gap[w->gap_count++] = row;
}

void out_table_sections(out_writer *w, int col)
{
    if (w && col >= 0 && col < w->ncols)
        w->section_col = col + 1;
}

static const cell *cell_at(const out_writer *w, size_t r, int c)
{
    return &w->cells[r * (size_t)w->ncols + (size_t)c];
}

static int same_text(const out_writer *w, const cell *a, const cell *b)
{
    return a->len == b->len && memcmp(w->text.p + a->at, w->text.p + b->at, a->len) == 0;
}

/* Rows [r0, r1) of one section as a table of their own: the section's name
 * above, where the header names its column; the columns no row of them
 * fills left out. Every column it had to leave out is marked in dropped. */
static void write_section(out_writer *w, size_t r0, size_t r1, size_t limit, int *dropped)
{
    const int sec = w->section_col - 1;
    out_fit fit[OUT_SECTION_MAX_COLUMNS];
    int col[OUT_SECTION_MAX_COLUMNS], numeric[OUT_SECTION_MAX_COLUMNS], ncols = 0;
    for (int c = 0; c < w->ncols && ncols < OUT_SECTION_MAX_COLUMNS; c++) {
        size_t width = c == sec ? cell_at(w, r0, c)->width : 0;
        for (size_t r = r0; r < r1 && c != sec; r++)
            if (cell_at(w, r, c)->width > width)
                width = cell_at(w, r, c)->width;
        if (width == 0)
            continue; /* no row of the section fills it */
        if (c != sec && cell_at(w, 0, c)->width > width)
            width = cell_at(w, 0, c)->width;
        const out_column *k = &w->cols[c];
        numeric[ncols] = is_numeric(k->type);
        int whole = numeric[ncols] || k->type == OUT_ID || k->type == OUT_LIST || width <= OUT_TABLE_SHORT;
        fit[ncols] = (out_fit){width, whole, c == sec ? OUT_NORMAL : k->rank, 0};
        col[ncols++] = c;
    }
    out_table_fit(fit, ncols, limit);
    const cell blank = {0, 0, 0, 0};
    table_row(w, 0, col, fit, numeric, ncols, sec, cell_at(w, r0, sec));
    for (size_t r = r0; r < r1; r++)
        table_row(w, r, col, fit, numeric, ncols, sec, &blank);
    for (int i = 0; i < ncols; i++)
        dropped[col[i]] |= fit[i].dropped;
}

/* A table whose sections (runs of rows with one text in the section
 * column) are tables of their own, a blank line apart. */
static void write_sections(out_writer *w)
{
    size_t rows = w->cell_count / (size_t)w->ncols, limit = out_table_limit();
    int *dropped = calloc((size_t)w->ncols, sizeof *dropped);
    const int sec = w->section_col - 1;
    if (!dropped) {
        lost_output = 1;
        return;
    }
    for (size_t r0 = 1, r1; r0 < rows; r0 = r1) {
        for (r1 = r0 + 1; r1 < rows && same_text(w, cell_at(w, r1, sec), cell_at(w, r0, sec));)
            r1++;
        if (r0 > 1)
            out_buf_put(&w->row, "\n", 1);
        write_section(w, r0, r1, limit, dropped);
    }
    char names[512];
    size_t at = 0;
    for (int c = 0; c < w->ncols && at + 1 < sizeof names; c++)
        if (dropped[c]) {
            int n = snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "", w->cols[c].name);
            at = n < 0 ? at : at + (size_t)n < sizeof names ? at + (size_t)n : sizeof names - 1;
        }
    if (at && !quiet)
        fprintf(stderr, "leakfind: note: left out to fit %zu columns: %.*s (--format tsv has every column)\n", limit,
                (int)at, names);
    free(dropped);
}

void out_end(out_writer *w)
{
    if (!w)
        return;
    if (w->format == OUT_TABLE && w->ncols > 0 && w->section_col)
        write_sections(w);
    else if (w->format == OUT_TABLE && w->ncols > 0)
        write_table(w);
    if (w->f)
        flush_rows(w);
    lost_output |= w->text.failed;
    out_buf_free(&w->row);
    out_buf_free(&w->keys);
    out_buf_free(&w->text);
    free(w->key_at);
    free(w->cells);
    free(w->gap);
    free(w);
}
