/* resident.c - the registry of droppable file mappings and the keeper that
 * drops their pages when RSS passes the budget. */
#include "resident.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Looking at RSS costs one read of /proc/self/statm: 100 times a second is
 * nothing. Pages still come in between looks and while the drop runs (up to
 * 1 GB over the mark was seen at 40 looks a second), so the keeper acts at
 * seven eighths of the budget. */
#define KEEPER_PERIOD_NS 10000000L
/* Below this much file-backed RSS there is nothing worth dropping: the
 * binary's and libraries' own pages are a few MB. */
#define FILE_RSS_FLOOR ((uint64_t)32 << 20)

typedef struct region {
    void *addr;
    size_t bytes;
} region;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static region *regions;
static size_t region_count, region_cap;
static uint64_t cap = UINT64_MAX; /* read by the keeper without the lock */
static int keeper_started;
static uint64_t releases;
static uint64_t peak_own; /* the most resident - file-backed the keeper saw */

void lf_resident_track(void *addr, size_t bytes)
{
    pthread_mutex_lock(&lock);
    if (region_count == region_cap) {
        size_t more_cap = region_cap ? 2 * region_cap : 64;
        region *more = realloc(regions, more_cap * sizeof *more);
        if (!more) {
            pthread_mutex_unlock(&lock);
            return;
        }
        regions = more;
        region_cap = more_cap;
    }
    regions[region_count++] = (region){addr, bytes};
    pthread_mutex_unlock(&lock);
}

void lf_resident_untrack(void *addr)
{
    pthread_mutex_lock(&lock);
    for (size_t i = region_count; i-- > 0;)
        if (regions[i].addr == addr) {
            regions[i] = regions[--region_count];
            break;
        }
    pthread_mutex_unlock(&lock);
}

void lf_resident_release(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < region_count; i++)
        (void)madvise(regions[i].addr, regions[i].bytes, MADV_DONTNEED); /* memory only */
    if (region_count)
        releases++;
    pthread_mutex_unlock(&lock);
}

uint64_t lf_resident_releases(void)
{
    pthread_mutex_lock(&lock);
    uint64_t n = releases;
    pthread_mutex_unlock(&lock);
    return n;
}

/* The resident and the file-backed resident bytes; 0 when unknown. */
static int read_rss(uint64_t *resident, uint64_t *file_backed)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long long size, res, shared;
    int ok = fscanf(f, "%llu %llu %llu", &size, &res, &shared) == 3;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    *resident = (uint64_t)res * (uint64_t)(page > 0 ? page : 4096);
    *file_backed = (uint64_t)shared * (uint64_t)(page > 0 ? page : 4096);
    return ok;
}

static void *keep(void *unused)
{
    (void)unused;
    const struct timespec period = {0, KEEPER_PERIOD_NS};
    for (;;) {
        nanosleep(&period, NULL);
        uint64_t limit = __atomic_load_n(&cap, __ATOMIC_RELAXED);
        uint64_t resident, file_backed;
        if (!read_rss(&resident, &file_backed))
            continue;
        uint64_t own = resident > file_backed ? resident - file_backed : 0;
        if (own > __atomic_load_n(&peak_own, __ATOMIC_RELAXED))
            __atomic_store_n(&peak_own, own, __ATOMIC_RELAXED);
        if (limit != UINT64_MAX && resident > limit - limit / 8 && file_backed > FILE_RSS_FLOOR)
            lf_resident_release();
    }
    return NULL;
}

uint64_t lf_resident_peak_own(void)
{
    return __atomic_load_n(&peak_own, __ATOMIC_RELAXED);
}

void lf_resident_set_cap(uint64_t bytes)
{
    __atomic_store_n(&cap, bytes, __ATOMIC_RELAXED);
    pthread_mutex_lock(&lock);
    int start = bytes != UINT64_MAX && !keeper_started;
    if (start)
        keeper_started = 1;
    pthread_mutex_unlock(&lock);
    pthread_t t;
    pthread_attr_t attr;
    if (start && pthread_attr_init(&attr) == 0) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        /* Born with every signal blocked, as it lives as long as the process:
         * a SIGINT for `serve`, which waits for it with sigwait, must never be
         * this thread's, whose default action ends the process with 130. */
        sigset_t all, before;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &before);
        int failed = pthread_create(&t, &attr, keep, NULL) != 0;
        pthread_sigmask(SIG_SETMASK, &before, NULL);
        if (failed) {
            pthread_mutex_lock(&lock);
            keeper_started = 0; /* no keeper: RSS is only what the kernel makes it */
            pthread_mutex_unlock(&lock);
        }
        pthread_attr_destroy(&attr);
    }
}
