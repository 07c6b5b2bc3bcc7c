/* sizes.h - byte sizes per node in 4 bytes each, with a side table for the
 * rare size of 4 GiB or more (a huge array, the top of the dominator tree of
 * a big heap). Shallow and retained sizes are kept this way: 8 bytes per
 * node would be 4 of them always zero.
 *
 * Index space: node. A narrow value below LF_SIZE_BIG is the size; the value
 * LF_SIZE_BIG says "look in the big table", which holds (node, bytes) pairs
 * sorted by node, one per node at most. A node marked big but missing from
 * the table (only a damaged file can say so) reads as LF_SIZE_BIG bytes. */
#ifndef LF_SIZES_H
#define LF_SIZES_H

#include <stddef.h>
#include <stdint.h>

#define LF_SIZE_BIG 0xffffffffu

/* 16 bytes, the layout .lfs files store (docs/FORMAT.md). */
typedef struct lf_size_big {
    uint32_t node;
    uint32_t reserved;   /* 0 */
    uint64_t bytes;      /* at least LF_SIZE_BIG */
} lf_size_big;

typedef struct lf_sizes {
    const uint32_t *narrow;      /* node -> bytes, or LF_SIZE_BIG; NULL: absent */
    const lf_size_big *big;      /* sorted by node, strictly */
    uint64_t big_count;
} lf_sizes;

/* The big table's entry for node, by binary search. */
uint64_t lf_sizes_big_bytes(const lf_sizes *sizes, uint32_t node);

static inline uint64_t lf_sizes_get(const lf_sizes *sizes, uint32_t node)
{
    uint32_t v = sizes->narrow[node];
    return v != LF_SIZE_BIG ? v : lf_sizes_big_bytes(sizes, node);
}

/* A big table being filled while the narrow array is written, in any node
 * order (from several threads only under the caller's lock). */
typedef struct lf_size_table {
    lf_size_big *entry;
    uint64_t count, cap;
} lf_size_table;

/* Grows the table by one entry; 0, or -1 when out of memory. */
int lf_size_table_add(lf_size_table *t, uint32_t node, uint64_t bytes);

/* Stores a node's size: narrow[node] = bytes, or LF_SIZE_BIG and an entry.
 * 0, or -1 when out of memory. */
static inline int lf_size_store(uint32_t *narrow, lf_size_table *t, uint32_t node, uint64_t bytes)
{
    if (bytes < LF_SIZE_BIG) {
        narrow[node] = (uint32_t)bytes;
        return 0;
    }
    narrow[node] = LF_SIZE_BIG;
    return lf_size_table_add(t, node, bytes);
}

/* Sorts the entries by node, so that the table can be searched. Each node
 * must have been stored once. */
void lf_size_table_sort(lf_size_table *t);
void lf_size_table_free(lf_size_table *t);

/* The sizes of narrow and t's (sorted) entries, which stay theirs. */
static inline lf_sizes lf_sizes_of(const uint32_t *narrow, const lf_size_table *t)
{
    return (lf_sizes){narrow, t->entry, t->count};
}

#endif
