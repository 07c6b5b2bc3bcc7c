/* populate.h - the pages of a fresh array mapped in before its writer gets
 * there, by another thread.
 *
 * On this project's virtual machines the first touch of a fresh page is a
 * large part of a run (bigmem.h, BENCHMARKS.md Part 2). Where one thread
 * fills a big array while the other core has nothing to do, that core can
 * take the faults: MADV_POPULATE_WRITE maps zeroed pages only where there
 * are none, so it is safe while the writer writes the same memory. Without
 * it (kernels before 5.14) these calls only cost a thread. */
#ifndef LF_POPULATE_H
#define LF_POPULATE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* Maps in the whole pages inside bytes [from, to) of p. */
void lf_populate_range(void *p, size_t from, size_t to);

/* A thread mapping in an array written front to back, never more than
 * `ahead` bytes past what the writer has told it it wrote, up to `limit`
 * bytes: a bound on what it maps that the writer never needs. */
typedef struct lf_pages_ahead {
    uint8_t *base;
    size_t limit, ahead;
    size_t written; /* told by the writer (relaxed atomics) */
    int done;
    int running;
    pthread_t thread;
} lf_pages_ahead;

/* Starts the thread; without one (it could not start) nothing is mapped
 * ahead and the writer takes its own faults, as before. */
void lf_pages_ahead_start(lf_pages_ahead *a, void *base, size_t limit, size_t ahead);

static inline void lf_pages_ahead_tell(lf_pages_ahead *a, size_t written)
{
    __atomic_store_n(&a->written, written, __ATOMIC_RELAXED);
}

/* Stops the thread and waits for it: the array may then move or go. */
void lf_pages_ahead_stop(lf_pages_ahead *a);

#endif
