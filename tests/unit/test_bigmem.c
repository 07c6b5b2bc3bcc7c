/* test_bigmem.c - big arrays: spilling to files, the result store, giving memory back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/analysis/analysis.h"
#include "../../core/base/bigmem.h"
#include "../../core/base/file.h"
#include "../../core/base/resident.h"
#include "../../core/model/edge_batch.h"
#include "../../core/model/idrank.h"
#include "../../core/model/idset.h"
#include "../../core/lfs/lfs.h"
#include "../../core/writer/lfs_writer.h"
#include "../../core/model/strtab.h"
#include "../../core/textgraph/textgraph.h"
#include "test.h"
#include <xxhash.h>
#include "test_support.h"
#include "tests.h"

/* Whether the mapping holding p is flagged for huge pages ("hg" in smaps). */
static int mapping_has_huge_advice(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    int inside = 0, found = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        } else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            found = strstr(line, " hg") != NULL;
            break;
        }
    }
    fclose(f);
    return found;
}

/* Whether p lies in a mapping of a deleted file in dir (/proc/self/maps). */
static int in_deleted_file(const void *p, const char *dir)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)p >= lo && (uintptr_t)p < hi)
            found = strstr(line, dir) && strstr(line, "(deleted)") ? 1 : -1;
    }
    if (f)
        fclose(f);
    return found == 1;
}

void test_big_spill(void)
{
    char dir[] = "/tmp/lf-spill-test-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    lf_big_set_budget(1, dir); /* every array spills */
    uint32_t *a = lf_big_calloc(3000, sizeof *a);
    CHECK(a != NULL && in_deleted_file(a, dir));
    CHECK_EQ_U64(a[2999], 0); /* a fresh file reads as zeros */
    for (uint32_t i = 0; i < 3000; i++)
        a[i] = i * 7;
    uint32_t *b = lf_big_realloc(a, 300000 * sizeof *b); /* grows in its file */
    CHECK(b != NULL && in_deleted_file(b, dir));
    CHECK_EQ_U64(b[2999], 2999 * 7);
    b[299999] = 5;
    lf_big_usage u;
    lf_big_usage_get(&u);
    CHECK(u.spilling && u.spilled_blocks >= 1 && u.spilled_peak >= 300000 * sizeof *b);
    lf_big_free(b);
    CHECK(rmdir(dir) == 0); /* nothing was ever named in it */
    lf_big_set_budget(UINT64_MAX, NULL);
    void *ram = lf_big_malloc(100);
    CHECK(ram != NULL && !in_deleted_file(ram, dir));
    lf_big_free(ram);
}

/* A plan that finds the working arrays past the budget keeps those that fit
 * in half of it in RAM (they take no disk) and puts each that does not in
 * a file, a smaller one after it in RAM again. */
void test_big_planned_spill(void)
{
    char dir[] = "/tmp/lf-plan-test-XXXXXX";
    lf_error err;
    CHECK(mkdtemp(dir) != NULL);
    lf_big_set_budget(64u << 20, dir);
    CHECK(lf_big_plan(100u << 20, 0, 100u << 20, &err) == 0); /* over the budget: spilling planned */
    lf_big_usage u;
    lf_big_usage_get(&u);
    CHECK(u.spilling);
    char *a = lf_big_malloc(8u << 20), *b = lf_big_malloc(8u << 20);
    char *c = lf_big_malloc(24u << 20); /* 16 + 24 MiB: past half the budget */
    char *d = lf_big_calloc(8u << 20, 1);
    CHECK(a != NULL && !in_deleted_file(a, dir));
    CHECK(b != NULL && !in_deleted_file(b, dir));
    CHECK(c != NULL && in_deleted_file(c, dir));
    CHECK(d != NULL && !in_deleted_file(d, dir));
    lf_big_free(a);
    lf_big_free(b);
    lf_big_free(c);
    lf_big_free(d);
    CHECK(rmdir(dir) == 0);
    lf_big_set_budget(UINT64_MAX, NULL);
}

/* A planned spill asks the directory for what its files will write at the
 * peak, less the quarter of the budget credited to the arrays kept in RAM,
 * not for every array's whole size: working arrays no disk could hold pass
 * when little of them is written, and a written peak no disk could hold is
 * refused, with both sizes in the message. */
void test_big_plan_disk_need(void)
{
    char dir[] = "/tmp/lf-plan-disk-XXXXXX";
    lf_error err;
    lf_big_usage u;
    CHECK(mkdtemp(dir) != NULL);
    lf_big_set_result_store(0);
    lf_big_set_budget(64u << 20, dir);
    CHECK(lf_big_plan(UINT64_MAX / 4, 0, 1u << 20, &err) == 0);
    lf_big_usage_get(&u);
    CHECK(u.spilling);
    lf_big_set_budget(64u << 20, dir);
    CHECK(lf_big_plan(UINT64_MAX / 4, 0, UINT64_MAX / 4, &err) == -1);
    char text[1024];
    lf_error_format(&err, text, sizeof text);
    CHECK(err.kind == LF_ERR_SYSTEM && strstr(text, "free to spill to") && strstr(text, "memory budget (64.0 MiB)"));
    lf_big_usage_get(&u);
    CHECK(!u.spilling);
    /* written within the credit: nothing asked of the disk */
    lf_big_set_budget(UINT64_MAX / 2, dir);
    CHECK(lf_big_plan(UINT64_MAX / 2, 0, UINT64_MAX / 8, &err) == 0);
    CHECK(rmdir(dir) == 0);
    lf_big_set_budget(UINT64_MAX, NULL);
}

static uint32_t pattern_at(size_t i)
{
    return (uint32_t)(i * 2654435761u) ^ 0x5a5a5a5au;
}

static size_t pattern_misses(const uint32_t *a, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += a[i] != pattern_at(i);
    return bad;
}

/* The length of the mapping p starts, from /proc/self/maps; 0 if none. */
static uint64_t mapping_bytes(const void *p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    uint64_t bytes = 0;
    while (f && !bytes && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)p == lo)
            bytes = hi - lo;
    }
    if (f)
        fclose(f);
    return bytes;
}

/* Results go to files in the directory once a plan finds it fit, working
 * arrays stay in RAM; a result that shrinks gives its file's tail back, one
 * that grows stays in its file, and a RAM result that grows big enough
 * moves there. Without the store, or with a directory in memory or without
 * room, results stay in RAM and the usage says why. */
void test_big_result_store(void)
{
    char dir[] = "/tmp/lf-store-test-XXXXXX";
    lf_error err;
    CHECK(mkdtemp(dir) != NULL);
    lf_big_set_budget(UINT64_MAX, dir); /* no budget: nothing spills */
    lf_big_set_result_store(1);
    CHECK(lf_big_plan(4u << 20, 4u << 20, 8u << 20, &err) == 0);
    const size_t n = (2u << 20) / sizeof(uint32_t); /* 2 MiB: past the 1 MiB a result needs */
    uint32_t *result = lf_big_result_calloc(n, sizeof *result);
    uint32_t *work = lf_big_malloc(n * sizeof *work);
    CHECK(result != NULL && in_deleted_file(result, dir));
    CHECK(work != NULL && !in_deleted_file(work, dir));
    CHECK_EQ_U64(result[n - 1], 0);
    for (size_t i = 0; result && i < n; i++)
        result[i] = pattern_at(i);
    lf_big_usage u;
    lf_big_usage_get(&u);
    CHECK(u.store_on && u.store_off == NULL && !u.spilling);
    CHECK_EQ_U64(u.store_peak, 2u << 20);
    uint32_t *shrunk = lf_big_realloc(result, n / 2 * sizeof *shrunk);
    CHECK(shrunk == result && mapping_bytes(shrunk) == (1u << 20));
    CHECK_EQ_U64(pattern_misses(shrunk, n / 2), 0);
    uint32_t *grown = lf_big_realloc(shrunk, 2 * n * sizeof *grown);
    CHECK(grown != NULL && in_deleted_file(grown, dir));
    CHECK_EQ_U64(pattern_misses(grown, n / 2), 0);
    CHECK_EQ_U64(grown[2 * n - 1], 0); /* the file's regrown tail reads as zeros again */
    uint32_t *small = lf_big_result_malloc(64 * sizeof *small);
    CHECK(small != NULL && !in_deleted_file(small, dir));
    for (size_t i = 0; small && i < 64; i++)
        small[i] = pattern_at(i);
    uint32_t *moved = lf_big_result_realloc(small, n * sizeof *moved);
    CHECK(moved != NULL && in_deleted_file(moved, dir));
    CHECK_EQ_U64(pattern_misses(moved, 64), 0);
    lf_big_free(moved);
    lf_big_free(grown);
    lf_big_free(work);
    CHECK(rmdir(dir) == 0); /* nothing was ever named in it */

    const char *const shm = "/dev/shm";
    lf_big_set_budget(UINT64_MAX, shm);
    if (lf_dir_in_memory(shm)) {
        CHECK(lf_big_plan(0, 4u << 20, 4u << 20, &err) == 0);
        lf_big_usage_get(&u);
        CHECK(!u.store_on && u.store_off && strstr(u.store_off, "in memory"));
    }
    lf_big_set_budget(UINT64_MAX, "/tmp");
    CHECK(lf_big_plan(0, UINT64_MAX / 2, UINT64_MAX / 2, &err) == 0); /* no disk holds that */
    lf_big_usage_get(&u);
    CHECK(!u.store_on && u.store_off && strstr(u.store_off, "room"));
    result = lf_big_result_malloc(n * sizeof *result);
    CHECK(result != NULL && !in_deleted_file(result, "/tmp"));
    lf_big_free(result);
    lf_big_set_result_store(0);
    CHECK(lf_big_plan(0, 4u << 20, 4u << 20, &err) == 0);
    lf_big_usage_get(&u);
    CHECK(!u.store_on && u.store_off && strstr(u.store_off, "not asked"));
    lf_big_set_budget(UINT64_MAX, NULL);
}

/* A run whose arrays take at most a sixteenth of the budget keeps its
 * results in RAM (the store's files are for pressure it does not make);
 * one past that, or whose size is not known (a pipe: 0), stores them. */
void test_big_store_small_run(void)
{
    char dir[] = "/tmp/lf-store-small-XXXXXX";
    lf_error err;
    lf_big_usage u;
    CHECK(mkdtemp(dir) != NULL);
    lf_big_set_budget(1024u << 20, dir); /* a sixteenth: 64 MiB */
    lf_big_set_result_store(1);
    CHECK(lf_big_plan(30u << 20, 30u << 20, 60u << 20, &err) == 0);
    lf_big_usage_get(&u);
    CHECK(!u.store_on && u.store_off && strstr(u.store_off, "small"));
    const size_t n = (2u << 20) / sizeof(uint32_t);
    uint32_t *result = lf_big_result_malloc(n * sizeof *result);
    CHECK(result != NULL && !in_deleted_file(result, dir));
    lf_big_free(result);
    CHECK(lf_big_plan(30u << 20, 35u << 20, 65u << 20, &err) == 0); /* 65 MiB: past it */
    lf_big_usage_get(&u);
    CHECK(u.store_on && u.store_off == NULL);
    result = lf_big_result_malloc(n * sizeof *result);
    CHECK(result != NULL && in_deleted_file(result, dir));
    lf_big_free(result);
    CHECK(lf_big_plan(0, 0, 0, &err) == 0); /* size unknown */
    lf_big_usage_get(&u);
    CHECK(u.store_on);
    lf_big_set_result_store(0);
    lf_big_set_budget(UINT64_MAX, NULL);
    CHECK(rmdir(dir) == 0);
}

/* RssFile of /proc/self/status, in bytes. */
static uint64_t rss_file_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "RssFile: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (uint64_t)kb << 10;
}

/* Dropping the pages of spilled arrays and mapped files takes them out of
 * RSS and loses nothing; arrays in RAM are never dropped. */
void test_resident_release(void)
{
    const size_t n = (16u << 20) / sizeof(uint32_t);
    uint32_t *ram = lf_big_malloc(n * sizeof *ram); /* no budget yet: RAM */
    char dir[] = "/tmp/lf-resident-test-XXXXXX";
    CHECK(ram != NULL && mkdtemp(dir) != NULL);
    lf_big_set_budget(1, dir);
    /* the keeper would drop these pages on its own at any moment (RSS is
     * over a 1-byte budget): only the explicit release below may */
    lf_resident_set_cap(UINT64_MAX);
    uint32_t *spilled = lf_big_malloc(n * sizeof *spilled);
    CHECK(spilled != NULL && in_deleted_file(spilled, dir));
    char path[64];
    snprintf(path, sizeof path, "%s/mapped", dir);
    FILE *out = fopen(path, "wb");
    CHECK(out != NULL);
    for (size_t i = 0; ram && spilled && out && i < n; i++) {
        ram[i] = spilled[i] = pattern_at(i);
        fwrite(&ram[i], sizeof ram[i], 1, out);
    }
    if (out)
        fclose(out);
    lf_mapped_file mapped;
    lf_error err;
    CHECK(lf_file_map(path, &mapped, &err) == 0);
    CHECK_EQ_U64(pattern_misses((const uint32_t *)mapped.data, n), 0);
    uint64_t before = rss_file_bytes(), releases = lf_resident_releases();
    lf_resident_release();
    uint64_t after = rss_file_bytes();
    CHECK(lf_resident_releases() > releases);
    CHECK(after + (28u << 20) <= before); /* the spilled array's and the file's 32 MiB left */
    CHECK_EQ_U64(pattern_misses(spilled, n), 0);
    CHECK_EQ_U64(pattern_misses((const uint32_t *)mapped.data, n), 0);
    CHECK_EQ_U64(pattern_misses(ram, n), 0);
    lf_file_unmap(&mapped);
    unlink(path);
    lf_big_free(spilled);
    lf_big_set_budget(UINT64_MAX, NULL);
    lf_big_free(ram);
    CHECK(rmdir(dir) == 0);
}

/* Arrays in RAM of 256 KiB or more start on 2 MiB boundaries (one huge
 * page per 2 MiB): a small block that grows to that size moves to one with
 * its contents, a big one grows (moving) and shrinks (in place, except
 * under ASan, whose realloc always moves) keeping them, and
 * lf_big_calloc's reads as zeros. */
void test_big_ram_mappings(void)
{
    const uintptr_t huge = 2u << 20;
    const size_t n = (3u << 20) / 2 / sizeof(uint32_t); /* 1.5 MiB */
    uint32_t *small = lf_big_malloc(64 * sizeof *small);
    CHECK(small != NULL);
    for (size_t i = 0; small && i < 64; i++)
        small[i] = pattern_at(i);
    uint32_t *a = small ? lf_big_realloc(small, n * sizeof *a) : NULL;
    CHECK(a != NULL && (uintptr_t)a % huge == 0);
    CHECK_EQ_U64(a ? pattern_misses(a, 64) : 1, 0);
    for (size_t i = 0; a && i < n; i++)
        a[i] = pattern_at(i);
    uint32_t *grown = a ? lf_big_realloc(a, 4 * n * sizeof *grown) : NULL; /* 6 MiB */
    CHECK(grown != NULL && (uintptr_t)grown % huge == 0);
    if (grown) {
        CHECK_EQ_U64(pattern_misses(grown, n), 0);
        grown[4 * n - 1] = 9;
        if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
            CHECK_EQ_U64(mapping_has_huge_advice(grown + 3 * n), 1);
    }
    uint32_t *shrunk = grown ? lf_big_realloc(grown, n * sizeof *shrunk) : NULL;
#if defined(__SANITIZE_ADDRESS__)
    CHECK(shrunk != NULL); /* ASan's realloc always moves a block */
#else
    CHECK(shrunk != NULL && shrunk == grown); /* glibc shrinks in place */
#endif
    CHECK_EQ_U64(shrunk ? pattern_misses(shrunk, n) : 1, 0);
    lf_big_free(shrunk);
    uint64_t *zeroed = lf_big_calloc((1u << 20) / 8 + 1, 8); /* just past 1 MiB */
    CHECK(zeroed != NULL && (uintptr_t)zeroed % huge == 0);
    size_t nonzero = 0;
    for (size_t i = 0; zeroed && i < (1u << 20) / 8 + 1; i++)
        nonzero += zeroed[i] != 0;
    CHECK_EQ_U64(nonzero, 0);
    lf_big_free(zeroed);
}

void test_big_arrays(void)
{
    const size_t n = 48u << 20; /* above the threshold: advised */
    uint8_t *zeroed = lf_big_calloc(n / 8, 8);
    CHECK(zeroed != NULL);
    if (zeroed) {
        size_t nonzero = 0;
        for (size_t i = 0; i < n; i += 4096)
            nonzero += zeroed[i] != 0;
        CHECK_EQ_U64(nonzero, 0);
        /* where the kernel has transparent huge pages, the middle of the block carries the advice */
        if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
            CHECK_EQ_U64(mapping_has_huge_advice(zeroed + n / 2), 1);
        uint8_t *grown = lf_big_realloc(zeroed, 2 * n);
        CHECK(grown != NULL);
        if (grown) {
            grown[2 * n - 1] = 7;
            CHECK_EQ_U64(grown[n / 2], 0); /* contents kept */
            if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
                CHECK_EQ_U64(mapping_has_huge_advice(grown + n + n / 2), 1);
            lf_big_free(grown);
        } else {
            lf_big_free(zeroed);
        }
    }
    CHECK(lf_big_calloc(SIZE_MAX / 4, 8) == NULL); /* count * size overflows */
    void *small = lf_big_malloc(100);
    CHECK(small != NULL);
    lf_big_free(small);
}
