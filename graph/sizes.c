/* sizes.c - the big table of 4-byte sizes: growing, sorting, searching. */
#include "sizes.h"

#include <stdlib.h>

uint64_t lf_sizes_big_bytes(const lf_sizes *sizes, uint32_t node)
{
    uint64_t lo = 0, hi = sizes->big_count;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        uint32_t at = sizes->big[mid].node;
        if (at == node)
            return sizes->big[mid].bytes;
        if (at < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return LF_SIZE_BIG;
}

int lf_size_table_add(lf_size_table *t, uint32_t node, uint64_t bytes)
{
    if (t->count == t->cap) {
        uint64_t cap = t->cap ? 2 * t->cap : 16;
        lf_size_big *grown = realloc(t->entry, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        t->entry = grown;
        t->cap = cap;
    }
    t->entry[t->count++] = (lf_size_big){node, 0, bytes};
    return 0;
}

static int by_node(const void *a, const void *b)
{
    uint32_t x = ((const lf_size_big *)a)->node, y = ((const lf_size_big *)b)->node;
    return x < y ? -1 : x > y;
}

void lf_size_table_sort(lf_size_table *t)
{
    for (uint64_t i = 1; i < t->count; i++)
        if (t->entry[i - 1].node > t->entry[i].node) {
            qsort(t->entry, (size_t)t->count, sizeof *t->entry, by_node);
            return;
        }
}

void lf_size_table_free(lf_size_table *t)
{
    free(t->entry);
    t->entry = NULL;
    t->count = t->cap = 0;
}
