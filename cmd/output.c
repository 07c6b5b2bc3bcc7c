/* output.c - table, TSV and JSON Lines writers. A table is buffered so its
 * columns can be aligned; TSV and JSON stream. */
#include "output.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct cell {
    char *text;     /* table mode: the rendered cell */
    size_t width;   /* display width (UTF-8 code points) */
} cell;

struct out_writer {
    FILE *f;
    out_format format;
    const out_column *cols;
    int ncols;
    int col;             /* next column in the current row */
    unsigned indent;
    /* table mode */
    cell *cells;
    size_t cell_count, cell_cap;
};

void out_write_tsv_escaped(FILE *f, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        switch (c) {
        case '\t': fputs("\\t", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\\': fputs("\\\\", f); break;
        default: putc(c, f);
        }
    }
}

/* html: also <, > and & as \u escapes, so that the string cannot end or
 * open anything in an HTML page it is embedded in. */
static void write_json_string(FILE *f, const char *s, size_t len, int html)
{
    putc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            putc('\\', f);
            putc(c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c < 0x20 || c == 0x7f || (html && (c == '<' || c == '>' || c == '&'))) {
            fprintf(f, "\\u%04x", c);
        } else {
            putc(c, f);
        }
    }
    putc('"', f);
}

void out_write_json_string(FILE *f, const char *s, size_t len)
{
    write_json_string(f, s, len, 0);
}

void out_write_json_string_html(FILE *f, const char *s, size_t len)
{
    write_json_string(f, s, len, 1);
}

out_writer *out_begin(FILE *f, out_format format, const out_column *cols, int ncols)
{
    out_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = f;
    w->format = format;
    w->cols = cols;
    w->ncols = ncols;
    if (format == OUT_TSV) {
        for (int i = 0; i < ncols; i++)
            fprintf(f, "%s%s", i ? "\t" : "", cols[i].name);
        putc('\n', f);
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
        if (!c)
            return; /* the row comes out short; the caller's flush check reports memory */
        w->cells = c;
        w->cell_cap = cap;
    }
    size_t pad = 2 * (size_t)w->indent;
    char *text = malloc(len + pad + 1);
    if (!text)
        return;
    memset(text, ' ', pad);
    for (size_t i = 0; i < len; i++) /* a table is for eyes: control bytes become '?' */
        text[pad + i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
    text[pad + len] = '\0';
    w->cells[w->cell_count].text = text;
    w->cells[w->cell_count].width = pad + display_width(s, len);
    w->cell_count++;
    w->indent = 0;
}

static void begin_cell(out_writer *w)
{
    if (w->format == OUT_TSV && w->col > 0)
        putc('\t', w->f);
    if (w->format == OUT_JSON) {
        fputs(w->col == 0 ? "{" : ",", w->f);
        out_write_json_string(w->f, w->cols[w->col].name, strlen(w->cols[w->col].name));
        putc(':', w->f);
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
            out_write_tsv_escaped(w->f, text, len);
        else if (json_quoted)
            out_write_json_string(w->f, text, len);
        else
            fwrite(text, 1, len, w->f);
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
    for (size_t i = 0; i < n && o + 24 < sizeof buf; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%" PRIu64, i ? "," : "", v[i]);
    if (json)
        buf[o++] = ']';
    emit(w, buf, o, 0);
}

void out_cstr(out_writer *w, const char *s)
{
    emit(w, s, strlen(s), 1);
}

/* Table numbers get thousands separators; TSV and JSON plain digits. */
static void emit_number(out_writer *w, const char *digits)
{
    if (w->format != OUT_TABLE) {
        emit(w, digits, strlen(digits), 0);
        return;
    }
    char buf[48];
    size_t len = strlen(digits), o = 0, start = (digits[0] == '-' || digits[0] == '+') ? 1 : 0;
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
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    emit_number(w, buf);
}

void out_i64(out_writer *w, int64_t v)
{
    char buf[24];
    /* a table shows growth with an explicit sign */
    snprintf(buf, sizeof buf, w->format == OUT_TABLE && v > 0 ? "+%" PRId64 : "%" PRId64, v);
    emit_number(w, buf);
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
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%.2f", v);
    if (w->format == OUT_TABLE)
        snprintf(buf + n, sizeof buf - (size_t)n, "%%");
    emit(w, buf, strlen(buf), 0);
}

void out_real(out_writer *w, double v, int decimals)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    emit(w, buf, strlen(buf), 0);
}

void out_id(out_writer *w, uint64_t id, int at_style)
{
    char buf[24];
    if (at_style)
        snprintf(buf, sizeof buf, "@%" PRIu64, id);
    else
        snprintf(buf, sizeof buf, "0x%" PRIx64, id);
    emit(w, buf, strlen(buf), 1);
}

void out_bool(out_writer *w, int v)
{
    if (w->format == OUT_JSON)
        emit(w, v ? "true" : "false", v ? 4 : 5, 0);
    else
        emit(w, v ? "yes" : "no", v ? 3 : 2, 0);
}

void out_null(out_writer *w)
{
    if (w->format == OUT_JSON)
        emit(w, "null", 4, 0);
    else
        emit(w, "", 0, 0);
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
        fputs("}\n", w->f);
    else if (w->format == OUT_TSV)
        putc('\n', w->f);
    w->col = 0;
}

static int is_numeric(out_type t)
{
    return t == OUT_U64 || t == OUT_I64 || t == OUT_PCT || t == OUT_REAL;
}

void out_end(out_writer *w)
{
    if (!w)
        return;
    if (w->format == OUT_TABLE && w->ncols > 0) {
        size_t rows = w->cell_count / (size_t)w->ncols;
        size_t *width = calloc((size_t)w->ncols, sizeof *width);
        for (size_t r = 0; width && r < rows; r++)
            for (int c = 0; c < w->ncols; c++) {
                size_t cw = w->cells[r * (size_t)w->ncols + (size_t)c].width;
                if (cw > width[c])
                    width[c] = cw;
            }
        for (size_t r = 0; width && r < rows; r++) {
            for (int c = 0; c < w->ncols; c++) {
                const cell *x = &w->cells[r * (size_t)w->ncols + (size_t)c];
                size_t pad = width[c] - x->width;
                int last = c == w->ncols - 1;
                if (c > 0)
                    fputs("  ", w->f);
                if (is_numeric(w->cols[c].type)) {
                    fprintf(w->f, "%*s%s", (int)pad, "", x->text);
                } else {
                    fputs(x->text, w->f);
                    if (!last)
                        fprintf(w->f, "%*s", (int)pad, "");
                }
            }
            putc('\n', w->f);
        }
        free(width);
    }
    for (size_t i = 0; i < w->cell_count; i++)
        free(w->cells[i].text);
    free(w->cells);
    free(w);
}
