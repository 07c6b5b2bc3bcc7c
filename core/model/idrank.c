/* idrank.c - id -> rank resolution and the id sort. */
#include "idrank.h"
#include "../base/bigmem.h"

#include <stdlib.h>
#include <string.h>

int lf_idrank_build(lf_idrank *r, const uint64_t *sorted, uint64_t count)
{
    memset(r, 0, sizeof *r);
    r->sorted = sorted;
    r->count = count;
    if (count == 0)
        return 0;
    r->base = sorted[0];
    uint64_t span = 0;
    for (uint64_t i = 1; i < count; i++)
        span |= sorted[i] - r->base;
    r->shift = span ? (unsigned)__builtin_ctzll(span) : 0;
    /* the last slot, not the slot count: ids spanning all 2^64 values would
     * wrap the count to 0 */
    uint64_t last_slot = (sorted[count - 1] - r->base) >> r->shift;
    if (last_slot / 64 >= count / 2 + 1024) /* over 32 bytes of index per id: too sparse */
        return 0;
    uint64_t words = last_slot / 64 + 1;
    r->words = lf_big_calloc(words, sizeof *r->words);
    if (!r->words)
        return -1;
    r->word_count = words;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t slot = (sorted[i] - r->base) >> r->shift;
        r->words[slot >> 6].bits |= 1ull << (slot & 63);
    }
    uint64_t rank = 0;
    for (uint64_t w = 0; w < words; w++) {
        r->words[w].rank = rank;
        rank += lf_popcount64(r->words[w].bits);
    }
    return 0;
}

void lf_idrank_free(lf_idrank *r)
{
    lf_big_free(r->words);
    r->words = NULL;
}

/* The sorts go back and forth between ids and a scratch array: after each
 * pass the two trade places, and the result is wherever the last pass
 * wrote. */
static inline void swap_buffers(uint64_t **src, uint64_t **dst)
{
    uint64_t *t = *src;
    *src = *dst;
    *dst = t;
}

static void keep_result(uint64_t *ids, const uint64_t *src, uint64_t count, uint64_t *scratch)
{
    if (src != ids)
        memcpy(ids, src, count * sizeof *ids);
    lf_big_free(scratch);
}

/* Natural merge sort for a few long runs: a dump lists its objects in address
 * order space by space (classes, then each heap region), so the ids come in a
 * handful of sorted runs and merging them is cheaper than a radix sort. */
#define MAX_RUNS 64

static int merge_sort_runs(uint64_t *ids, uint64_t count, uint64_t *start, unsigned runs)
{
    uint64_t *tmp = lf_big_malloc(count * sizeof *tmp);
    if (!tmp)
        return -1;
    uint64_t *src = ids, *dst = tmp;
    start[runs] = count;
    while (runs > 1) {
        unsigned out = 0;
        for (unsigned r = 0; r < runs; r += 2) {
            uint64_t a = start[r], a_end = start[r + 1];
            uint64_t b = a_end, b_end = r + 1 < runs ? start[r + 2] : a_end;
            uint64_t o = a;
            while (a < a_end && b < b_end)
                dst[o++] = src[a] <= src[b] ? src[a++] : src[b++];
            while (a < a_end)
                dst[o++] = src[a++];
            while (b < b_end)
                dst[o++] = src[b++];
            start[out++] = start[r];
        }
        start[out] = count;
        runs = out;
        swap_buffers(&src, &dst);
    }
    keep_result(ids, src, count, tmp);
    return 0;
}

static int radix_sort(uint64_t *ids, uint64_t count);

/* Runs this long are merged as they are; shorter ones (a dump's classes come
 * in no order) are gathered and radix-sorted into one run first. */
#define LONG_RUN 4096

/* The bounds of the long runs into head/end (the caller knows how many there
 * are and sized them), the short runs' elements copied into small. Returns
 * the number of long runs. */
static unsigned split_runs(const uint64_t *ids, uint64_t count, uint64_t *small,
                           const uint64_t **head, const uint64_t **end)
{
    unsigned runs = 0;
    uint64_t run_start = 0, s_at = 0;
    for (uint64_t i = 1; i <= count; i++) {
        if (i == count || ids[i - 1] > ids[i]) {
            uint64_t len = i - run_start;
            if (len >= LONG_RUN) {
                head[runs] = ids + run_start;
                end[runs++] = ids + i;
            } else {
                memcpy(small + s_at, ids + run_start, len * sizeof *ids);
                s_at += len;
            }
            run_start = i;
        }
    }
    return runs;
}

/* The usual dump: one long sorted run (the objects, in address order) and a
 * few short ones (the classes). The short ones are sorted in a small buffer,
 * the long run is moved to the end, and the two are merged from the front in
 * place: one pass, no second array. */
static int merge_one_long_run(uint64_t *ids, uint64_t count, uint64_t short_elems)
{
    uint64_t *small = lf_big_malloc((short_elems ? short_elems : 1) * sizeof *small);
    if (!small)
        return -1;
    const uint64_t *head[1], *end[1];
    split_runs(ids, count, small, head, end);
    uint64_t long_start = (uint64_t)(head[0] - ids), long_len = (uint64_t)(end[0] - head[0]);
    if (radix_sort(small, short_elems)) {
        lf_big_free(small);
        return -1;
    }
    memmove(ids + short_elems, ids + long_start, long_len * sizeof *ids);
    /* out position = i + j <= short_elems + j: the long run is never overrun */
    uint64_t i = 0, j = short_elems, o = 0;
    while (i < short_elems && j < count)
        ids[o++] = small[i] <= ids[j] ? small[i++] : ids[j++];
    while (i < short_elems)
        ids[o++] = small[i++];
    lf_big_free(small);
    return 0;
}


/* A few long runs (a bigger heap: one per space of the collector) and short
 * ones: the short ones sorted in a small buffer, then all runs merged in one
 * pass into a second array, copied back. Runs this few make a linear scan of
 * the run heads cheaper than a tree. */
#define FEW_RUNS 8

static int merge_few_runs(uint64_t *ids, uint64_t count, uint64_t short_elems)
{
    uint64_t *small = lf_big_malloc((short_elems ? short_elems : 1) * sizeof *small);
    uint64_t *out = lf_big_malloc(count * sizeof *out);
    if (!small || !out) {
        lf_big_free(small);
        lf_big_free(out);
        return -1;
    }
    const uint64_t *head[FEW_RUNS + 1], *end[FEW_RUNS + 1];
    unsigned runs = split_runs(ids, count, small, head, end);
    if (radix_sort(small, short_elems)) {
        lf_big_free(small);
        lf_big_free(out);
        return -1;
    }
    if (short_elems) {
        head[runs] = small;
        end[runs++] = small + short_elems;
    }
    for (uint64_t o = 0; o < count; o++) {
        unsigned best = 0;
        while (head[best] == end[best])
            best++;
        for (unsigned r = best + 1; r < runs; r++)
            if (head[r] < end[r] && *head[r] < *head[best])
                best = r;
        out[o] = *head[best]++;
    }
    memcpy(ids, out, count * sizeof *ids);
    lf_big_free(out);
    lf_big_free(small);
    return 0;
}

int lf_sort_u64(uint64_t *ids, uint64_t count)
{
    if (count < 2)
        return 0;
    /* Count the long runs and the elements of the short ones. */
    uint64_t long_runs = 0, short_elems = 0, run_start = 0;
    for (uint64_t i = 1; i <= count; i++) {
        if (i == count || ids[i - 1] > ids[i]) {
            if (i - run_start >= LONG_RUN)
                long_runs++;
            else
                short_elems += i - run_start;
            run_start = i;
        }
    }
    if (long_runs == 1 && short_elems == 0)
        return 0; /* already sorted */
    if (long_runs + 1 > MAX_RUNS)
        return radix_sort(ids, count);
    if (long_runs == 1)
        return merge_one_long_run(ids, count, short_elems);
    if (long_runs <= FEW_RUNS - 1)
        return merge_few_runs(ids, count, short_elems);
    /* Short runs first (sorted into one run), then the long runs in order. */
    uint64_t *out = lf_big_malloc(count * sizeof *out);
    if (!out)
        return -1;
    uint64_t start[MAX_RUNS + 1], s_at = 0, l_at = short_elems;
    unsigned runs = 0;
    if (short_elems)
        start[runs++] = 0;
    run_start = 0;
    for (uint64_t i = 1; i <= count; i++) {
        if (i == count || ids[i - 1] > ids[i]) {
            uint64_t len = i - run_start;
            if (len >= LONG_RUN) {
                start[runs++] = l_at;
                memcpy(out + l_at, ids + run_start, len * sizeof *ids);
                l_at += len;
            } else {
                memcpy(out + s_at, ids + run_start, len * sizeof *ids);
                s_at += len;
            }
            run_start = i;
        }
    }
    int rc = radix_sort(out, short_elems);
    if (rc == 0)
        rc = merge_sort_runs(out, count, start, runs);
    if (rc == 0)
        memcpy(ids, out, count * sizeof *ids);
    lf_big_free(out);
    return rc;
}

static int radix_sort(uint64_t *ids, uint64_t count)
{
    uint64_t differ = 0;
    for (uint64_t i = 1; i < count; i++)
        differ |= ids[i] ^ ids[0];
    if (count < 2)
        return 0;
    uint64_t *tmp = lf_big_malloc(count * sizeof *tmp);
    uint32_t *hist = malloc(65536 * sizeof *hist);
    if (!tmp || !hist) {
        lf_big_free(tmp);
        free(hist);
        return -1;
    }
    uint64_t *src = ids, *dst = tmp;
    for (unsigned pass = 0; pass < 4; pass++) {
        unsigned shift = pass * 16;
        if (((differ >> shift) & 0xffff) == 0)
            continue;
        memset(hist, 0, 65536 * sizeof *hist);
        for (uint64_t i = 0; i < count; i++)
            hist[(src[i] >> shift) & 0xffff]++;
        uint32_t sum = 0;
        for (unsigned d = 0; d < 65536; d++) {
            uint32_t c = hist[d];
            hist[d] = sum;
            sum += c;
        }
        for (uint64_t i = 0; i < count; i++)
            dst[hist[(src[i] >> shift) & 0xffff]++] = src[i];
        swap_buffers(&src, &dst);
    }
    keep_result(ids, src, count, tmp);
    free(hist);
    return 0;
}
