/* progress.h - how far long work is, told to the caller, who may show it
 * (the library never prints). */
#ifndef LF_PROGRESS_H
#define LF_PROGRESS_H

#include <stdatomic.h>
#include <stdint.h>

/* report is called with done of total units (bytes of the dump when
 * reading, objects when analysing: the function taking the lf_progress says) of stage
 * ("pass 1 of 3"), from whichever thread did the work, about once per
 * LF_PROGRESS_STEP bytes of work per thread (or per ~1M objects), once when
 * a stage begins and once when it ends: it must be
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
/* Brings done up to at (no change if it is there already) and reports it:
 * for a single thread that knows where it is, or between the threads' work. */
void lf_progress_reach(lf_progress_counter *c, uint64_t at);

#endif
