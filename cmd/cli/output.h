/* output.h - rows of typed cells written as an aligned table, TSV with a
 * header line, or JSON Lines (DESIGN section 4). */
#ifndef LF_OUTPUT_H
#define LF_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../core/base/name_cut.h"

typedef enum out_format { OUT_TABLE, OUT_TSV, OUT_JSON } out_format;

typedef enum out_type {
    OUT_STR,   /* free text: escaped in TSV/JSON */
    OUT_U64,   /* a count or a size in bytes */
    OUT_I64,   /* a signed delta */
    OUT_PCT,   /* a percentage, two decimals */
    OUT_REAL,  /* a real number, as given by the caller's precision */
    OUT_ID,    /* an object id: "0x..." or "@N"; JSON string; may be null */
    OUT_BOOL,  /* yes/no; JSON true/false */
    /* Free text in a column that most inputs leave empty (V8's
     * `location`, a string's `value`): TSV and JSON always have it, a table shows it only when
     * some row has one, so a terminal does not give it width for nothing. */
    OUT_STR_SOMETIMES,
    /* A count that only some rows have (a path's chain length): a number,
     * shown in a table only when some row has one, as above. */
    OUT_U64_SOMETIMES,
    /* A list of counts (out_u64_list): text, but never cut in a table, where
     * "300,600…" would hide the answer. */
    OUT_LIST,
} out_type;

/* What a column is to a person reading a table on a terminal (DESIGN 15):
 * when the table is wider than the screen, optional columns go first (a
 * note names them), then the others narrow, the key ones last. */
typedef enum out_rank {
    OUT_NORMAL = 0,
    OUT_KEY,        /* the answer: a class, a holder, a path */
    OUT_OPTIONAL,   /* what another column says too, or detail: left out first */
    OUT_SECONDARY,  /* left out next, when the key columns would be narrow */
} out_rank;

typedef struct out_column {
    const char *name;
    out_type type;
    lf_cut_style cut;  /* how a text too long for its column is cut (name_cut.h) */
    out_rank rank;
} out_column;

/* -q: a table left out columns without saying so. */
void out_set_quiet(int quiet);

typedef struct out_writer out_writer;

out_writer *out_begin(FILE *f, out_format format, const out_column *cols, int ncols);
out_format out_writer_format(const out_writer *w);
void out_str(out_writer *w, const char *s, size_t len);
void out_cstr(out_writer *w, const char *s);
/* A list of counts: "10,20,30" in a table and TSV, [10,20,30] in JSON. */
void out_u64_list(out_writer *w, const uint64_t *v, size_t n);
void out_u64(out_writer *w, uint64_t v);
void out_i64(out_writer *w, int64_t v);
/* A size in bytes: plain bytes in TSV and JSON, "136.8 KiB" in a table. */
void out_bytes(out_writer *w, uint64_t v);
void out_bytes_delta(out_writer *w, int64_t v);
/* The table form alone: "136.8 KiB". */
void out_format_bytes(char *buf, size_t size, uint64_t v);
void out_pct(out_writer *w, double v);
void out_real(out_writer *w, double v, int decimals);
void out_id(out_writer *w, uint64_t id, int at_style);
void out_null(out_writer *w);
/* Nulls up to column col (0-based), for a row whose middle cells are empty. */
void out_skip_to(out_writer *w, int col);
void out_bool(out_writer *w, int v);
/* Table indentation for the next OUT_STR cell (tree views). */
void out_indent(out_writer *w, unsigned depth);
/* In a table, the next OUT_STR cell cut as style says in place of its
 * column's: a tree whose rows are of several kinds (`threads`: a frame is
 * cut as a path keeps its line, a local as a class keeps its simple name). */
void out_cut_next(out_writer *w, lf_cut_style style);
void out_row_end(out_writer *w);
/* A writer of rows like `like`'s that keeps them in memory, to make rows on
 * another thread (one writer per thread); out_append_rows hands them to
 * `like`'s stream in the order the caller chooses. NULL for a table (its
 * columns are aligned over every row) or without memory. Freed by out_end,
 * which then drops what was not appended. */
out_writer *out_begin_rows(const out_writer *like);
/* to's rows so far, then from's, to to's stream; from is emptied. */
void out_append_rows(out_writer *to, out_writer *from);
/* In a table (and only there), column other's cells shown in column col's
 * place on the rows where col's is empty, under `header` (a static text),
 * and other not shown on its own: two columns no row fills both of
 * (`dominators`: a top owner's root, another object's field) take the
 * width of one. TSV and JSON keep both. */
void out_table_share(out_writer *w, int col, int other, const char *header);
/* In a table (and only there), columns col and col + 1 are a pair: to
 * fit, col goes before col + 1 whatever their order (`diff`'s count before
 * goes first: the count after and the delta beside it say both). */
void out_table_pair(out_writer *w, int col);
/* In a table (and only there), a blank line before the next row: where
 * one answer ends and the next begins (`path`: each path), whatever
 * columns the table leaves out. None before the first row. */
void out_table_gap(out_writer *w);
/* A table (and only a table) printed as one table per section: each run
 * of rows with the same text in column col, with the columns that run
 * fills, under a header that names the section (`inspect`: its object,
 * path, fields and elements fill different columns, and one table of them
 * all was too wide at 80 columns to show a class). */
void out_table_sections(out_writer *w, int col);
/* Flushes (a table is aligned and printed here) and frees. */
void out_end(out_writer *w);
/* Whether some writer dropped output for want of memory: the command's
 * answer is then incomplete (cmd/main.c makes that exit 4). */
int out_lost_output(void);

/* Escaping helpers shared with commands that write their own shapes. */
void out_write_tsv_escaped(FILE *f, const char *s, size_t len);
void out_write_json_string(FILE *f, const char *s, size_t len);
/* The same safe inside an HTML page's <script> block: <, > and & escaped. */
void out_write_json_string_html(FILE *f, const char *s, size_t len);

#endif
