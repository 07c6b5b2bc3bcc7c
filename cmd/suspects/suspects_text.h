/* suspects_text.h - `suspects` as a person reads it on a terminal (DESIGN
 * 15 of the contract): each finding a short paragraph, what leaks, where it
 * is held, how fast, the bytes per unit, the path, wrapped to the screen;
 * a table of eighteen columns fits no terminal. TSV and JSON keep the rows
 * (cmd_suspects.c). */
#ifndef LF_SUSPECTS_TEXT_H
#define LF_SUSPECTS_TEXT_H

#include <stdio.h>

#include "../../core/analysis/suspects.h"

typedef struct suspects_text {
    const lf_snapshot *s;       /* the newest snapshot, where the findings are */
    const lf_trend *t;          /* the series (NULL: one snapshot) */
    const char *unit;           /* "unit of workload", or "snapshot" when none was given */
    size_t width;               /* the screen's columns (0: 80) */
} suspects_text;

/* Every finding of list that is not minor, numbered from 1, a blank line
 * between them, to f. Returns 0, or -1 when out of memory. */
int suspects_write_text(FILE *f, const suspects_text *x, const lf_suspect_list *list);

#endif
