/* progress.h - how far long work is, told to the caller, who may show it
 * (the library never prints). */
#ifndef LF_PROGRESS_H
#define LF_PROGRESS_H

#include <stdatomic.h>
#include <stdint.h>

/* report is called with done of total units (bytes of the dump) of stage
 * ("pass 1 of 3"), from whichever thread did the work, at most once per
 * LF_PROGRESS_STEP units per thread and once when a stage begins: it must be
 * thread-safe and cheap (rate-limit any drawing). */
typedef struct lf_progress {
    void (*report)(void *ctx, const char *stage, uint64_t done, uint64_t total);
    void *ctx;
} lf_progress;

/* Coarse on purpose: hot loops compare one counter per record against this. */
#define LF_PROGRESS_STEP ((uint64_t)64 << 20)

/* One stage that several threads advance together. */
typedef struct lf_progress_counter {
    const lf_progress *progress; /* NULL: nobody listens */
    const char *stage;
    uint64_t total;
    _Atomic uint64_t done;
} lf_progress_counter;

/* Starts a stage (reports 0 of total); progress may be NULL. */
void lf_progress_begin(lf_progress_counter *c, const lf_progress *progress, const char *stage,
                       uint64_t total);
/* Adds n units done and reports the sum. */
void lf_progress_add(lf_progress_counter *c, uint64_t n);

#endif
