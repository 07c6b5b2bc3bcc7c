/* populate.c - pages mapped in ahead of their writer (populate.h). */
#include "populate.h"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* One huge page a step: the thread stays close to the writer's need. */
enum { AHEAD_STEP = 2u << 20 };

static uintptr_t page_mask(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (uintptr_t)page - 1 : 4095;
}

void lf_populate_range(void *p, size_t from, size_t to)
{
#ifdef MADV_POPULATE_WRITE
    uintptr_t mask = page_mask();
    uintptr_t start = ((uintptr_t)p + from + mask) & ~mask;
    uintptr_t end = ((uintptr_t)p + to) & ~mask;
    if (end > start)
        (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE); /* advice: failure costs time */
#else
    (void)p, (void)from, (void)to;
#endif
}

/* The next step's end from `mapped`: on a page boundary of the array's
 * memory (lf_populate_range leaves partial pages out), or the limit. */
static size_t step_end(const lf_pages_ahead *a, size_t mapped, size_t want)
{
    size_t to = want - mapped > AHEAD_STEP ? mapped + AHEAD_STEP : want;
    if (to == a->limit)
        return to;
    uintptr_t mask = page_mask();
    size_t aligned = (size_t)((((uintptr_t)a->base + to) & ~mask) - (uintptr_t)a->base);
    return aligned > mapped ? aligned : mapped;
}

static void *run_ahead(void *arg)
{
    lf_pages_ahead *a = arg;
    size_t mapped = 0;
    while (mapped < a->limit && !__atomic_load_n(&a->done, __ATOMIC_ACQUIRE)) {
        size_t written = __atomic_load_n(&a->written, __ATOMIC_RELAXED);
        size_t want = written < a->limit && a->limit - written > a->ahead ? written + a->ahead : a->limit;
        size_t to = mapped < want ? step_end(a, mapped, want) : mapped;
        if (to > mapped) {
            lf_populate_range(a->base, mapped, to);
            mapped = to;
            continue;
        }
        struct timespec pause = {0, 100000}; /* ahead enough: wait for the writer */
        nanosleep(&pause, NULL);
    }
    return NULL;
}

void lf_pages_ahead_start(lf_pages_ahead *a, void *base, size_t limit, size_t ahead)
{
    *a = (lf_pages_ahead){.base = base, .limit = base ? limit : 0, .ahead = ahead};
    a->running = a->limit > 0 && pthread_create(&a->thread, NULL, run_ahead, a) == 0;
}

void lf_pages_ahead_stop(lf_pages_ahead *a)
{
    __atomic_store_n(&a->done, 1, __ATOMIC_RELEASE);
    if (a->running)
        pthread_join(a->thread, NULL);
    a->running = 0;
}
