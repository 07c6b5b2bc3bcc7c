/* idrank.c - id -> rank resolution and the id sort. */
#include "idrank.h"

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
    uint64_t slots = ((sorted[count - 1] - r->base) >> r->shift) + 1;
    uint64_t words = (slots + 63) / 64;
    if (words > count + 1024) /* over 8 bytes of bitmap per id: too sparse */
        return 0;
    r->bits = calloc(words, sizeof *r->bits);
    r->word_rank = malloc(words * sizeof *r->word_rank);
    if (!r->bits || !r->word_rank) {
        lf_idrank_free(r);
        return -1;
    }
    r->word_count = words;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t slot = (sorted[i] - r->base) >> r->shift;
        r->bits[slot >> 6] |= 1ull << (slot & 63);
    }
    uint32_t rank = 0;
    for (uint64_t w = 0; w < words; w++) {
        r->word_rank[w] = rank;
        rank += lf_popcount64(r->bits[w]);
    }
    return 0;
}

void lf_idrank_free(lf_idrank *r)
{
    free(r->bits);
    free(r->word_rank);
    r->bits = NULL;
    r->word_rank = NULL;
}

/* Merges the sorted runs a[0..mid) and a[mid..n) using a buffer the size of
 * the first run. */
static int merge_runs(uint64_t *a, uint64_t mid, uint64_t n)
{
    uint64_t *left = malloc(mid * sizeof *left);
    if (!left)
        return -1;
    memcpy(left, a, mid * sizeof *a);
    uint64_t i = 0, j = mid, o = 0;
    while (i < mid && j < n)
        a[o++] = left[i] <= a[j] ? left[i++] : a[j++];
    while (i < mid)
        a[o++] = left[i++];
    free(left);
    return 0;
}

int lf_sort_u64(uint64_t *ids, uint64_t count)
{
    uint64_t differ = 0, runs = 1, first_break = 0;
    for (uint64_t i = 1; i < count; i++) {
        if (ids[i - 1] > ids[i]) {
            if (runs++ == 1)
                first_break = i;
        }
        differ |= ids[i] ^ ids[0];
    }
    if (runs == 1 || count < 2)
        return 0;
    /* A HotSpot dump: its classes, then its objects in address order. */
    if (runs == 2 && first_break <= count / 2)
        return merge_runs(ids, first_break, count);
    uint64_t *tmp = malloc(count * sizeof *tmp);
    uint32_t *hist = malloc(65536 * sizeof *hist);
    if (!tmp || !hist) {
        free(tmp);
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
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != ids)
        memcpy(ids, src, count * sizeof *ids);
    free(tmp);
    free(hist);
    return 0;
}
