/* progress.c - stages of long work and their shared counters. */
#include "progress.h"

#include <stddef.h>

void lf_progress_begin(lf_progress_counter *c, const lf_progress *progress, const char *stage,
                       uint64_t total)
{
    c->progress = progress && progress->report ? progress : NULL;
    c->stage = stage;
    c->total = total;
    atomic_store_explicit(&c->done, 0, memory_order_relaxed);
    if (c->progress)
        c->progress->report(c->progress->ctx, stage, 0, total);
}

void lf_progress_add(lf_progress_counter *c, uint64_t n)
{
    if (!c || !c->progress)
        return;
    uint64_t done = atomic_fetch_add_explicit(&c->done, n, memory_order_relaxed) + n;
    c->progress->report(c->progress->ctx, c->stage, done > c->total ? c->total : done, c->total);
}

void lf_progress_reach(lf_progress_counter *c, uint64_t at)
{
    if (!c || !c->progress)
        return;
    uint64_t done = atomic_load_explicit(&c->done, memory_order_relaxed);
    if (at > done)
        lf_progress_add(c, at - done);
}
