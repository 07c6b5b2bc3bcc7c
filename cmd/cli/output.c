/* output.c - table, TSV and JSON Lines writers. A table is buffered so its
 * columns can be aligned (printed by out_table_write.c); TSV and JSON stream. */
#include "output.h"
#include "out_table.h"
#include "out_text.h"
#include "out_writer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

void out_row_done(out_writer *w)
{
    if (w->f && w->row.len >= FLUSH_AT)
        flush_rows(w);
}

void out_lose_output(void)
{
    lost_output = 1;
}

int out_is_quiet(void)
{
    return quiet;
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

size_t out_display_width(const char *s, size_t len)
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
    w->cells[w->cell_count] = (cell){w->text.len, len + pad, pad + out_display_width(s, len), pad, w->next_cut};
    w->text.len += len + pad;
    w->cell_count++;
    w->indent = 0;
    w->next_cut = 0;
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

void out_cut_next(out_writer *w, lf_cut_style style)
{
    w->next_cut = 1 + (int)style;
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
        out_row_done(w);
    w->col = 0;
}

void out_end(out_writer *w)
{
    if (!w)
        return;
    if (w->format == OUT_TABLE && w->ncols > 0)
        out_write_table(w);
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
