/* trace_text.h - a Memtrace trace's `suspects` as a person reads it on a
 * terminal: each accumulating site a short paragraph, as a heap's findings
 * are (suspects_text.h), so that the site's callers, which a table row had
 * no room for below 160 columns, are on the first screen. TSV and JSON keep
 * the rows (cmd_suspects.c). */
#ifndef LF_TRACE_TEXT_H
#define LF_TRACE_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "../../core/memtrace/mt_suspects.h"

/* At most `top` (0: all) of found's suspects, numbered from 1, a blank
 * line between them, wrapped to width columns, to f. Returns 0, or -1 when
 * out of memory. */
int suspects_write_trace_text(FILE *f, const lf_mt_trace *t, const lf_mt_suspects *found, uint64_t top,
                              size_t width);

#endif
