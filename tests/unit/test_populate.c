/* test_populate.c - pages mapped in ahead of a writer: within the bound it
 * is given, never changing what the writer wrote. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../core/base/populate.h"
#include "test.h"
#include "tests.h"

enum { MIB = 1u << 20, ARRAY = 64 * MIB, AHEAD = 8 * MIB, WRITTEN = 4 * MIB };

/* Whether the kernel maps pages in on request (MADV_POPULATE_WRITE, Linux
 * 5.14): without it there is nothing to see, only the data to keep. */
static int kernel_populates(void)
{
#ifdef MADV_POPULATE_WRITE
    long page = sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    int ok = madvise(p, (size_t)page, MADV_POPULATE_WRITE) == 0;
    munmap(p, (size_t)page);
    return ok;
#else
    return 0;
#endif
}

static int resident(const uint8_t *p, size_t at)
{
    long page = sysconf(_SC_PAGESIZE);
    unsigned char in = 0;
    uintptr_t start = ((uintptr_t)p + at) & ~(uintptr_t)(page - 1);
    return mincore((void *)start, (size_t)page, &in) == 0 && (in & 1);
}

/* Waits up to a second for the page at `at` to be mapped in. */
static int becomes_resident(const uint8_t *p, size_t at)
{
    for (int i = 0; i < 1000 && !resident(p, at); i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    return resident(p, at);
}

void test_pages_ahead(void)
{
    /* 4 KiB pages (no huge-page advice): residency is exact per page */
    uint8_t *a = mmap(NULL, ARRAY, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(a != MAP_FAILED);
    if (a == MAP_FAILED)
        return;
    (void)madvise(a, ARRAY, MADV_NOHUGEPAGE);
    /* 4 MiB written before the thread is told of them: it maps those
     * pages again, which must leave them as they are */
    for (size_t i = 0; i < WRITTEN; i++)
        a[i] = (uint8_t)(i * 7 + 1);
    lf_pages_ahead ahead;
    lf_pages_ahead_start(&ahead, a, ARRAY, AHEAD);
    lf_pages_ahead_tell(&ahead, WRITTEN);
    if (kernel_populates()) {
        /* mapped up to what was written plus the bound, and no further,
         * however long it is given */
        CHECK(becomes_resident(a, WRITTEN + AHEAD - 1));
        struct timespec settle = {0, 200000000};
        nanosleep(&settle, NULL);
        CHECK(!resident(a, WRITTEN + AHEAD + 2 * MIB));
        CHECK(!resident(a, ARRAY - 1));
    }
    /* the writer goes on past what the thread mapped; then it stops */
    for (size_t i = WRITTEN; i < 2 * WRITTEN; i++)
        a[i] = (uint8_t)(i * 7 + 1);
    lf_pages_ahead_tell(&ahead, 2 * WRITTEN);
    lf_pages_ahead_stop(&ahead);
    size_t wrong = 0;
    for (size_t i = 0; i < 2 * WRITTEN; i++)
        wrong += a[i] != (uint8_t)(i * 7 + 1);
    CHECK_EQ_U64(wrong, 0);
    munmap(a, ARRAY);

    /* no array: no thread, and stopping is still fine */
    lf_pages_ahead_start(&ahead, NULL, ARRAY, AHEAD);
    CHECK(!ahead.running);
    lf_pages_ahead_stop(&ahead);
}
