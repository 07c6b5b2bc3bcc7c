/* trace_callers.h - who called a Memtrace site, from its backtrace's text:
 * what `suspects TRACE` shows under "called by" on a terminal. */
#ifndef CLI_TRACE_CALLERS_H
#define CLI_TRACE_CALLERS_H

#include <stddef.h>

/* Between a backtrace's frames, innermost first: "A (a.ml:3) < B (b.ml:9)". */
#define TRACE_FRAME_GAP " < "

/* The callers in buf, a backtrace as trace_backtrace_text writes it whose
 * first frame is the site's own (site): at most `most` of them, then "< …
 * N more", moved to the front of buf (size bytes); their length (0: the
 * site has none, or the backtrace is not the site's). */
size_t trace_callers_text(char *buf, size_t size, const char *site, size_t most);

#endif
