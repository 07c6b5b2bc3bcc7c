/* bigmem.c - the arrays that grow with the heap: huge-page advice in RAM,
 * file-backed mappings for results and past the budget. */
#include "bigmem.h"
#include "file.h"
#include "resident.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

enum { BIG_ARRAY_MIN = 4u << 20, PAGE = 4096, SPILL_MIN_CAP = 1u << 20 };
/* Arrays in RAM of RAM_ALIGNED_MIN or more start on a 2 MiB boundary and
 * take whole 2 MiB pages, advised: every page of them faults once per 2
 * MiB. As malloc placed them they faulted per 4 KiB where glibc put them on
 * its heap (its mmap threshold rises to the largest block freed, up to 32
 * MiB) and at their unaligned ends, and grew by copying into 4 KiB pages; a
 * fresh 4 KiB page costs 3-25 us on this project's virtual machines, where
 * zeroing 2 MiB takes about 0.2 ms (BENCHMARKS.md 1.3.1). An array of 256
 * KiB holds 2 MiB: a few arrays of that size live at once. They still come
 * from malloc (posix_memalign): free() and realloc() stay valid on them. */
enum { HUGE_PAGE = 2u << 20, RAM_ALIGNED_MIN = 256u << 10 };
/* Cleared arrays this big come from calloc, as fresh memory from glibc's
 * mmap that it need not clear: clearing an aligned block (which may have
 * been used before) is one more pass, and it faults every page in on the
 * allocating thread, where the threads that fill an array (the V8 edges'
 * kinds, 36 MB on the Express snapshot) fault theirs in parallel. */
enum { CALLOC_MIN = 8u << 20 };

/* One array in a file: its mapping (whole pages) and the file behind it,
 * kept open so the array can grow in place (ftruncate, mremap). A result
 * (lf_big_result_malloc) in the store, or a working array spilled. */
typedef struct file_block {
    void *addr;
    size_t mapped;
    int fd;
    int result;
} file_block;

/* Reader threads allocate too. Big allocations are few (doublings, one per
 * array), so one lock costs nothing measurable. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t budget = UINT64_MAX;
static char spill_dir[4096];
static size_t spill_min;          /* while spilling, smaller arrays stay in RAM */
static int spilling;
/* lf_big_plan found the working arrays past the budget: they stay in RAM up
 * to half of it and go to files past that (see should_spill). */
static int planned;
static lf_big_notice *notice;
static uint64_t ram_now, ram_peak, spilled_now, spilled_peak, spilled_blocks;
/* The result store: asked for (cmd/), and on for the input being read
 * once lf_big_plan found the directory fit for it. */
static int store_wanted, store_on;
static const char *store_off_reason = "not asked for";
static uint64_t store_now, store_peak;
/* Live spilled blocks: at most a few hundred (one per big array alive), so a
 * linear search at free and realloc is cheaper than any index. */
static file_block *blocks;
static size_t block_count, block_cap;

void lf_big_advise(void *p, size_t bytes)
{
    if (!p || bytes < BIG_ARRAY_MIN)
        return;
    /* The whole pages the block touches: for a block malloc mapped on its own
     * that is the entire mapping, which stays one VMA, so realloc can still
     * move it with mremap. Pages shared with neighbours only become eligible
     * for huge pages too; the advice changes no data. */
    uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + bytes + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
    (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice: failure only costs speed */
}

void lf_big_set_budget(uint64_t bytes, const char *dir)
{
    pthread_mutex_lock(&lock);
    budget = bytes;
    spilling = planned = 0; /* a new budget is planned anew */
    snprintf(spill_dir, sizeof spill_dir, "%s", dir ? dir : "");
    /* Tiny budgets (tests) spill every array, down to one byte. */
    spill_min = budget / 1024 < SPILL_MIN_CAP ? (size_t)(budget / 1024) : SPILL_MIN_CAP;
    pthread_mutex_unlock(&lock);
    lf_resident_set_cap(bytes);
}

void lf_big_on_spill(lf_big_notice *fn)
{
    notice = fn;
}

void lf_big_set_result_store(int wanted)
{
    pthread_mutex_lock(&lock);
    store_wanted = wanted;
    store_on = 0;
    store_off_reason = wanted ? "no input planned yet" : "not asked for";
    pthread_mutex_unlock(&lock);
}

void lf_big_usage_get(lf_big_usage *u)
{
    pthread_mutex_lock(&lock);
    *u = (lf_big_usage){ram_peak, spilled_peak, spilled_blocks, spilling, store_peak, store_on,
                        store_on ? NULL : store_off_reason};
    pthread_mutex_unlock(&lock);
}

void lf_big_size_text(char *buf, size_t size, uint64_t bytes)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double x = (double)bytes;
    int u = 0;
    while (x >= 1024.0 && u < 6) {
        x /= 1024.0;
        u++;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", x, unit[u]);
}

static size_t whole_pages(size_t bytes)
{
    return bytes ? (bytes + PAGE - 1) & ~(size_t)(PAGE - 1) : PAGE;
}

/* An empty file with no name in the spill directory, or -1 (errno set). */
static int unnamed_file(void)
{
    int fd = open(spill_dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
        return fd;
    /* a file system without O_TMPFILE: a name that lives only until unlink */
    char path[sizeof spill_dir + 32];
    snprintf(path, sizeof path, "%s/leakfind-spill-XXXXXX", spill_dir);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* Sizes the file to `bytes`, sparse: blocks are allocated only for pages
 * the kernel writes back, so an array that stays in the page cache costs no
 * disk and no discard when its file goes (blocks reserved up front made
 * every free a synchronous discard on this machine's disk: 15x slower). The
 * room is checked up front instead (lf_big_plan); a file system that fills
 * anyway faults the page being written (SIGBUS), which cmd/ reports. */
static int file_reserve(int fd, size_t bytes)
{
    return ftruncate(fd, (off_t)bytes);
}

/* Under the lock: whether an array of `bytes` goes to a file. Past the
 * budget without a plan (an input with no size, an estimate too low), the
 * array goes to a file too, and spilling is on once one was made. When the
 * plan knew the arrays would not fit, those that fit in half the budget
 * stay in RAM (taking no disk), each later one that does not goes to a
 * file, and the other half is left to the pages of the files (the budget
 * bounds the resident set too: core/base/resident.c). */
static int should_spill(size_t bytes)
{
    if (budget == UINT64_MAX || !spill_dir[0])
        return 0;
    if (planned)
        return bytes >= spill_min && ram_now + bytes > budget / 2;
    return spilling ? bytes >= spill_min : ram_now + bytes > budget;
}

/* Under the lock, after an array went to a file: whether that started
 * spilling, to be said (outside the lock) with what the arrays needed. */
static int spill_started(size_t bytes, uint64_t *need)
{
    if (spilling)
        return 0;
    spilling = 1;
    *need = ram_now + bytes;
    return 1;
}

static void say_started(int started, uint64_t need)
{
    if (started && notice)
        notice(need, budget, spill_dir);
}

static void count_ram(void *p, int sign)
{
    uint64_t n = p ? malloc_usable_size(p) : 0;
    if (sign > 0) {
        ram_now += n;
        if (ram_now > ram_peak)
            ram_peak = ram_now;
    } else {
        ram_now = ram_now > n ? ram_now - n : 0; /* a block freed with free() is not subtracted */
    }
}

static void count_file(int result, int64_t delta)
{
    uint64_t *now = result ? &store_now : &spilled_now, *peak = result ? &store_peak : &spilled_peak;
    *now += (uint64_t)delta;
    if (*now > *peak)
        *peak = *now;
}

/* Under the lock. NULL when the file cannot be made, sized or mapped: the
 * caller then tries RAM. */
static void *file_map(size_t bytes, int result)
{
    if (block_count == block_cap) {
        size_t cap = block_cap ? 2 * block_cap : 64;
        file_block *more = realloc(blocks, cap * sizeof *more);
        if (!more)
            return NULL;
        blocks = more;
        block_cap = cap;
    }
    size_t mapped = whole_pages(bytes);
    int fd = unnamed_file();
    if (fd < 0)
        return NULL;
    void *p = MAP_FAILED;
    if (file_reserve(fd, mapped) == 0)
        p = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return NULL;
    }
    lf_big_advise(p, mapped); /* file pages in 2 MiB folios where the file system has them */
    blocks[block_count++] = (file_block){p, mapped, fd, result};
    lf_resident_track(p, mapped);
    spilled_blocks += !result;
    count_file(result, (int64_t)mapped);
    return p;
}

static file_block *find_block(const void *p)
{
    for (size_t i = block_count; i-- > 0;) /* the newest are freed first */
        if (blocks[i].addr == p)
            return &blocks[i];
    return NULL;
}

/* Under the lock: whether a result of `bytes` goes to the store. */
static int should_store(size_t bytes)
{
    return store_on && bytes >= spill_min;
}

static uint64_t fail_at; /* lf_big_fail_from: calls left before failing, 0: off */

void lf_big_fail_from(uint64_t call)
{
    __atomic_store_n(&fail_at, call, __ATOMIC_RELAXED);
}

/* Whether this call is one lf_big_fail_from makes fail (1 stays 1: every
 * later call fails too). */
static int injected_failure(void)
{
    uint64_t left = __atomic_load_n(&fail_at, __ATOMIC_RELAXED);
    while (left > 1 && !__atomic_compare_exchange_n(&fail_at, &left, left - 1, 0, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED)) {
    }
    return left == 1;
}

/* An array in RAM of RAM_ALIGNED_MIN bytes or more; NULL when out of
 * memory. The advice lands before the first touch (the clearing, if asked:
 * memory from posix_memalign may have been used before). */
static void *ram_aligned(size_t bytes, int zeroed)
{
    size_t whole = (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    void *p;
    if (whole < bytes || posix_memalign(&p, HUGE_PAGE, whole) != 0)
        return NULL;
    (void)madvise(p, whole, MADV_HUGEPAGE); /* advice: failure only costs speed */
    if (zeroed)
        memset(p, 0, bytes);
    return p;
}

/* A block from malloc grown to RAM_ALIGNED_MIN or more: copied into an
 * aligned one (glibc's realloc would move it off the 2 MiB boundary). NULL,
 * p unchanged, when out of memory. */
static void *ram_grow(void *p, size_t bytes)
{
    size_t old = malloc_usable_size(p);
    void *q = ram_aligned(bytes, 0);
    if (q) {
        memcpy(q, p, old < bytes ? old : bytes);
        free(p);
    }
    return q;
}

/* A fresh spill file reads as zeros: lf_big_calloc needs no clearing. */
static void *big_alloc(size_t bytes, int zeroed, int result)
{
    if (injected_failure())
        return NULL;
    int started = 0;
    uint64_t need = 0;
    pthread_mutex_lock(&lock);
    void *p = result && should_store(bytes) ? file_map(bytes, 1) : NULL;
    if (!p && should_spill(bytes) && (p = file_map(bytes, 0)) != NULL)
        started = spill_started(bytes, &need);
    pthread_mutex_unlock(&lock);
    say_started(started, need);
    if (p)
        return p;
    if (bytes >= RAM_ALIGNED_MIN && (!zeroed || bytes < CALLOC_MIN))
        p = ram_aligned(bytes, zeroed);
    else
        p = zeroed ? calloc(bytes ? bytes : 1, 1) : malloc(bytes ? bytes : 1);
    lf_big_advise(p, bytes); /* calloc does not touch a fresh mapping: the advice lands before the first fault */
    pthread_mutex_lock(&lock);
    count_ram(p, 1);
    pthread_mutex_unlock(&lock);
    return p;
}

void *lf_big_malloc(size_t bytes)
{
    return big_alloc(bytes, 0, 0);
}

/* calloc does not touch a fresh mapping, so the advice lands before the first fault. */
void *lf_big_calloc(size_t count, size_t size)
{
    return size && count > SIZE_MAX / size ? NULL : big_alloc(count * size, 1, 0);
}

void *lf_big_result_malloc(size_t bytes)
{
    return big_alloc(bytes, 0, 1);
}

void *lf_big_result_calloc(size_t count, size_t size)
{
    return size && count > SIZE_MAX / size ? NULL : big_alloc(count * size, 1, 1);
}

/* Under the lock: a block in a file made smaller. Its tail leaves the
 * mapping and the file, so a result that shrinks (sizes narrowed in place)
 * gives its pages back at once; a failure only keeps them. */
static void *file_shrink(file_block *b, size_t mapped)
{
    if (mapped < b->mapped && ftruncate(b->fd, (off_t)mapped) == 0) {
        lf_resident_untrack(b->addr);
        munmap((char *)b->addr + mapped, b->mapped - mapped);
        lf_resident_track(b->addr, mapped);
        count_file(b->result, -(int64_t)(b->mapped - mapped));
        b->mapped = mapped;
    }
    return b->addr;
}

/* Under the lock: a block in a file resized; NULL (the block unchanged)
 * when the file system has no room. */
static void *file_resize(file_block *b, size_t bytes)
{
    size_t mapped = whole_pages(bytes);
    if (mapped <= b->mapped)
        return file_shrink(b, mapped);
    if (file_reserve(b->fd, mapped))
        return NULL;
    lf_resident_untrack(b->addr);
    void *q = mremap(b->addr, b->mapped, mapped, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) {
        lf_resident_track(b->addr, b->mapped);
        return NULL;
    }
    lf_resident_track(q, mapped);
    count_file(b->result, (int64_t)(mapped - b->mapped));
    b->addr = q;
    b->mapped = mapped;
    return q;
}

/* A block in RAM that grows past the budget (or a result big enough for
 * the store) moves to a file. */
static void *ram_to_file(void *p, size_t bytes, int result)
{
    size_t old = malloc_usable_size(p);
    void *q = file_map(bytes, result);
    if (!q)
        return NULL;
    memcpy(q, p, old < bytes ? old : bytes);
    count_ram(p, -1);
    free(p);
    return q;
}

static void *big_realloc(void *p, size_t bytes, int result)
{
    if (!p)
        return big_alloc(bytes, 0, result);
    if (injected_failure())
        return NULL;
    int started = 0;
    uint64_t need = 0;
    pthread_mutex_lock(&lock);
    file_block *b = find_block(p);
    void *q = NULL;
    if (b)
        q = file_resize(b, bytes);
    else if (result && should_store(bytes))
        q = ram_to_file(p, bytes, 1);
    if (!b && !q && should_spill(bytes) && (q = ram_to_file(p, bytes, 0)) != NULL)
        started = spill_started(bytes, &need);
    if (b || q) {
        pthread_mutex_unlock(&lock);
        say_started(started, need);
        return q;
    }
    count_ram(p, -1);
    pthread_mutex_unlock(&lock);
    if (bytes >= RAM_ALIGNED_MIN && bytes > malloc_usable_size(p))
        q = ram_grow(p, bytes);
    else /* a shrink stays in place */
        q = realloc(p, bytes ? bytes : 1);
    pthread_mutex_lock(&lock);
    count_ram(q ? q : p, 1);
    pthread_mutex_unlock(&lock);
    lf_big_advise(q, bytes);
    return q;
}

void *lf_big_realloc(void *p, size_t bytes)
{
    return big_realloc(p, bytes, 0);
}

void *lf_big_result_realloc(void *p, size_t bytes)
{
    return big_realloc(p, bytes, 1);
}

void lf_big_free(void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&lock);
    file_block *b = find_block(p);
    if (b) {
        lf_resident_untrack(b->addr);
        munmap(b->addr, b->mapped);
        close(b->fd);
        count_file(b->result, -(int64_t)b->mapped);
        *b = blocks[--block_count];
        pthread_mutex_unlock(&lock);
        return;
    }
    count_ram(p, -1);
    pthread_mutex_unlock(&lock);
    free(p);
}

/* Whether files can be made in the spill directory: one is made and closed. */
static int spill_dir_writable(lf_error *err)
{
    int fd = unnamed_file();
    if (fd < 0)
        return lf_fail(err, LF_ERR_SYSTEM, "cannot make spill files in '%s': %s", spill_dir,
                       strerror(errno));
    close(fd);
    return 0;
}

/* A run this small beside the budget keeps its results in RAM: files are
 * there so that the kernel can take the pages back under pressure, which
 * such a run does not make, and a file page's first write costs more than
 * an anonymous one's (the file system's folio, zeroed in its read path:
 * 80 ms of the 0.85 s CPU of the 1.7M-node Express snapshot, docs/MEMORY.md).
 * An estimate of 0 (a pipe) is not known to be small. */
enum { STORE_SMALL_SHARE = 16 };

/* What the run and the directory offer the result store: NULL when it
 * takes the results, else why not (a small run: see above). Files on a
 * file system in memory (tmpfs, ramfs) hold RAM as anonymous memory does,
 * and without swap they cannot leave it either; a directory without room
 * for them would fault mid-run. */
static const char *store_refusal(uint64_t work, uint64_t results, uint64_t room, int room_known)
{
    if (budget != UINT64_MAX && results > 0 && ram_now + work + results <= budget / STORE_SMALL_SHARE)
        return "the run is small beside the memory budget";
    if (!spill_dir[0])
        return "no directory for it";
    if (lf_dir_in_memory(spill_dir))
        return "the directory is in memory (tmpfs)";
    if (!room_known)
        return "the directory cannot take files";
    return room < results ? "too little room in the directory" : NULL;
}

/* The disk a planned spill takes at its peak: what files would hold with
 * every array in one, less what stays in RAM (the arrays that fit in half
 * the budget; half of that is credited, as an array in RAM may have pages
 * it never writes), and never less than the results the store takes. */
static uint64_t spill_disk_need(uint64_t results, uint64_t written)
{
    uint64_t in_ram = budget / 4;
    uint64_t spilled = written > in_ram ? written - in_ram : 0;
    uint64_t stored = store_on ? results : 0;
    return spilled > stored ? spilled : stored;
}

int lf_big_plan(uint64_t work, uint64_t results, uint64_t written, lf_error *err)
{
    pthread_mutex_lock(&lock);
    const int wanted = store_wanted && spill_dir[0];
    pthread_mutex_unlock(&lock);
    /* the directory, looked at once: whether it takes files, and its room */
    lf_error dir_err;
    struct statvfs fs;
    int room_known = 0;
    uint64_t room = 0;
    if (spill_dir[0] && (wanted || budget != UINT64_MAX) && spill_dir_writable(&dir_err) == 0 &&
        statvfs(spill_dir, &fs) == 0) {
        room_known = 1;
        room = (uint64_t)fs.f_bavail * fs.f_frsize;
    }
    pthread_mutex_lock(&lock);
    const char *refusal = wanted ? store_refusal(work, results, room, room_known) : "not asked for";
    pthread_mutex_unlock(&lock);
    pthread_mutex_lock(&lock);
    store_on = refusal == NULL;
    store_off_reason = refusal;
    const uint64_t in_ram = work + (store_on ? 0 : results);
    int fits = budget == UINT64_MAX || !spill_dir[0] || ram_now + in_ram <= budget;
    pthread_mutex_unlock(&lock);
    if (fits)
        return 0;
    /* also when spilling already started: this dump's arrays need the room too */
    if (!room_known && spill_dir_writable(err))
        return -1;
    if (!room_known)
        return lf_fail(err, LF_ERR_SYSTEM, "cannot see the free space in '%s': %s", spill_dir,
                       strerror(errno));
    pthread_mutex_lock(&lock);
    const uint64_t need = spill_disk_need(results, written);
    pthread_mutex_unlock(&lock);
    if (room < need) {
        char need_text[32], budget_text[32], room_text[32];
        lf_big_size_text(need_text, sizeof need_text, need);
        lf_big_size_text(budget_text, sizeof budget_text, budget);
        lf_big_size_text(room_text, sizeof room_text, room);
        lf_fail(err, LF_ERR_SYSTEM, "the dump needs more than the memory budget (%s), and about %s on disk",
                budget_text, need_text);
        snprintf(err->detail, sizeof err->detail, /* the reason is short: the directory may not be */
                 "'%.300s' has only %s free to spill to: give a bigger --memory or set TMPDIR to a directory with room",
                 spill_dir, room_text);
        return -1;
    }
    pthread_mutex_lock(&lock);
    int started = !spilling;
    spilling = planned = 1;
    pthread_mutex_unlock(&lock);
    if (started && notice)
        notice(in_ram, budget, spill_dir);
    return 0;
}
