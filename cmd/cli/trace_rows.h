/* trace_rows.h - what the commands that read a Memtrace trace print alike
 * (issue 51): a site's backtrace as text, the timeline's rows. */
#ifndef CLI_TRACE_ROWS_H
#define CLI_TRACE_ROWS_H

#include "../../core/memtrace/mt_suspects.h"
#include "output.h"

/* Site s's frames, innermost first, "A (a.ml:3) < B (b.ml:9)", into buf
 * (cut with "..." when it does not fit). */
void trace_backtrace_text(const lf_mt_trace *t, uint32_t s, char *buf, size_t size);

/* The timeline as rows: time_s, live_bytes (every block), kept_bytes (the
 * blocks the filters keep), both estimated from the samples. */
void trace_timeline_rows(const lf_mt_trace *t, const lf_mt_timeline *tl, out_format format);

#endif
