/* out_writer.h - the writer's insides, shared by output.c (the cells as
 * they are made) and out_table_write.c (a table printed from them). Not
 * for commands: they use output.h. */
#ifndef LF_OUT_WRITER_H
#define LF_OUT_WRITER_H

#include "output.h"
#include "out_text.h"

/* More columns than a sectioned table has (inspect: 10). */
enum { OUT_SECTION_MAX_COLUMNS = 32 };

typedef struct cell {
    size_t at;      /* table mode: the rendered cell, text.p[at .. at + len) */
    size_t len;
    size_t width;   /* display width (UTF-8 code points) */
    size_t pad;     /* of which the first are a tree's indent */
    int cut;        /* 1 + the cut style out_cut_next asked for; 0: the column's */
} cell;

struct out_writer {
    FILE *f;
    out_format format;
    const out_column *cols;
    int ncols;
    int col;             /* next column in the current row */
    unsigned indent;
    int next_cut;        /* out_cut_next: 1 + the style for the next cell; 0: none */
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
    int pair_col;        /* 1 + the first of out_table_pair's two columns; 0: none */
    const char *share_header;
};

/* The rows printed so far go out when enough are buffered. */
void out_row_done(out_writer *w);
/* Some output was dropped for want of memory (out_lost_output). */
void out_lose_output(void);
/* -q: notes about left-out columns are not printed. */
int out_is_quiet(void);
/* Display columns of s: its UTF-8 code points. */
size_t out_display_width(const char *s, size_t len);
/* The table (out_end): its rows fitted to the terminal, by section when
 * out_table_sections asked. */
void out_write_table(out_writer *w);

#endif
