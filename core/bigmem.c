/* bigmem.c - huge-page advice for the arrays that grow with the heap. */
#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { BIG_ARRAY_MIN = 4u << 20, PAGE = 4096 };

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

void *lf_big_malloc(size_t bytes)
{
    void *p = malloc(bytes);
    lf_big_advise(p, bytes);
    return p;
}

void *lf_big_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    /* calloc does not touch a fresh mapping, so the advice lands before the first fault. */
    void *p = calloc(count, size);
    lf_big_advise(p, count * size);
    return p;
}

void *lf_big_realloc(void *p, size_t bytes)
{
    void *q = realloc(p, bytes);
    lf_big_advise(q, bytes);
    return q;
}
