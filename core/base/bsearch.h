/* bsearch.h - the one binary search the readers share. */
#ifndef LF_BSEARCH_H
#define LF_BSEARCH_H

#include <stdint.h>

/* The first index i in [0, count) of the ascending array a with a[i] >= key;
 * count when there is none. */
static inline uint64_t lf_lower_bound_u64(const uint64_t *a, uint64_t count, uint64_t key)
{
    uint64_t lo = 0, hi = count;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#endif
