/* paragraph.h - a finding as a person reads it on a terminal: a numbered
 * headline, then labelled lines ("   held by   ..."), each wrapped to the
 * screen where it reads best. `suspects` writes its heap findings
 * (suspects_text.c) and its trace findings (trace_text.c) with it. */
#ifndef LF_PARAGRAPH_H
#define LF_PARAGRAPH_H

#include <stddef.h>
#include <stdio.h>

#include "../cli/out_text.h"

/* "   held by   ": where a finding's labelled lines start their text. */
#define PARA_LABEL_AT 3
#define PARA_TEXT_AT 13

/* What a wrapped text is, which decides where it may break: a path breaks
 * after its " / ", a backtrace after its " < "; any other text (a
 * headline, a list of classes) never at the blanks of a " / ", which are
 * inside a class name there (V8's "system / Context"). */
typedef enum para_kind { PARA_TEXT, PARA_PATH, PARA_FRAMES } para_kind;

/* text (len bytes), wrapped to width: its first line from column
 * first_at (where the caller left off), the others indented to rest_at. */
void para_wrapped(out_buf *b, const char *text, size_t len, size_t width, size_t first_at, size_t rest_at,
                  para_kind kind);

/* "   label     text" and its continuations, then a line break. */
void para_labelled(out_buf *b, const char *label, const char *text, size_t len, size_t width, para_kind kind);

/* "N. " before the nth finding shown (from 0), after a blank line from
 * the one before; returns the column its headline starts at. */
size_t para_number(out_buf *b, size_t nth);

/* The paragraphs made in b, to f; frees b. 0, or -1 when b ran out of
 * memory. */
int para_write(out_buf *b, FILE *f);

#endif
