/* vec.c - growing arrays. */
#include "vec.h"
#include "bigmem.h"

#include <stdlib.h>

int lf_vec_reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 64;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return -1;
        n *= 2;
    }
    void *q = lf_big_realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

int lf_vec_reserve_result(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    if (*p) /* growing a started array: as any other */
        return lf_vec_reserve(p, cap, need, elem);
    if (need > SIZE_MAX / elem)
        return -1;
    void *q = lf_big_result_realloc(NULL, need * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = need;
    return 0;
}
