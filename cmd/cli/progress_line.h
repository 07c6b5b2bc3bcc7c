/* progress_line.h - draws the library's progress reports (core/base/progress.h) as
 * one line on stderr: "leakfind: reading heap.hprof (pass 1 of 3)  1.2 GiB of
 * 4.0 GiB (30%)" or "leakfind: computing dominators (pass 2 of 5)  12.3M of
 * 30.0M objects (41%)", redrawn in place. */
#ifndef LF_PROGRESS_LINE_H
#define LF_PROGRESS_LINE_H

#include <stdatomic.h>
#include <stdint.h>

#include "../../core/base/progress.h"

typedef struct progress_line {
    lf_progress progress;       /* what the library is given */
    char what[256];             /* "reading heap.hprof" */
    const char *unit;           /* NULL: bytes; else what is counted ("objects") */
    atomic_flag drawing;        /* one thread draws; the others skip, but a
                                 * stage's start or end waits its turn */
    int64_t last_ns;            /* when the line was last drawn */
} progress_line;

/* what: printf-style, the work ("reading heap.hprof"). The units are
 * bytes; set unit after for counts ("12.3M of 30.0M objects"). */
void progress_line_init(progress_line *p, const char *what_fmt, const char *arg);

#endif
