/* site_table.c - interned frames and call-tree sites. */
#include "site_table.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../base/vec.h"
#include "../base/bigmem.h"

#define TABLE_MAX 0x7fffffffu

int lf_site_table_init(lf_site_table *t)
{
    memset(t, 0, sizeof *t);
    if (lf_site_table_frame(t, 0, 0, 0, 0) != 0 || lf_site_table_site(t, 0, 0) != 0) {
        lf_site_table_free(t);
        return -1;
    }
    return 0;
}

void lf_site_table_free(lf_site_table *t)
{
    lf_big_free(t->frame);
    lf_big_free(t->site);
    free(t->frame_slot);
    free(t->site_slot);
    memset(t, 0, sizeof *t);
}

/* Grows an open-addressing table of `count` entries to keep it under 3/4
 * full, re-placing every entry by its hash. */
static int grow_slots(uint32_t **slot, uint32_t *mask, uint32_t count, const void *items,
                      size_t item_size)
{
    if (*slot && (uint64_t)(count + 1) * 4 < ((uint64_t)*mask + 1) * 3)
        return 0;
    uint32_t size = *slot ? (*mask + 1) * 2 : 64;
    uint32_t *fresh = calloc(size, sizeof *fresh);
    if (!fresh)
        return -1;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t h = XXH3_64bits((const char *)items + (size_t)i * item_size, item_size);
        uint32_t at = (uint32_t)h & (size - 1);
        while (fresh[at])
            at = (at + 1) & (size - 1);
        fresh[at] = i + 1;
    }
    free(*slot);
    *slot = fresh;
    *mask = size - 1;
    return 0;
}

/* Finds `item` among items[0..*count), else appends it; its index or -1. */
static int64_t intern(void **items, uint32_t *count, uint32_t *cap, size_t item_size,
                      uint32_t **slot, uint32_t *mask, const void *item)
{
    if (*count >= TABLE_MAX || grow_slots(slot, mask, *count, *items, item_size))
        return -1;
    uint64_t h = XXH3_64bits(item, item_size);
    uint32_t at = (uint32_t)h & *mask;
    for (; (*slot)[at]; at = (at + 1) & *mask) {
        uint32_t i = (*slot)[at] - 1;
        if (memcmp((const char *)*items + (size_t)i * item_size, item, item_size) == 0)
            return i;
    }
    size_t cap_sz = *cap;
    if (lf_vec_reserve(items, &cap_sz, (size_t)*count + 1, item_size))
        return -1;
    *cap = (uint32_t)(cap_sz > TABLE_MAX ? TABLE_MAX : cap_sz);
    memcpy((char *)*items + (size_t)*count * item_size, item, item_size);
    (*slot)[at] = *count + 1;
    return (*count)++;
}

int64_t lf_site_table_frame(lf_site_table *t, uint32_t function, uint32_t file, uint32_t line,
                            uint32_t column)
{
    lf_frame f = {function, file, line, column};
    return intern((void **)&t->frame, &t->frame_count, &t->frame_cap, sizeof f, &t->frame_slot,
                  &t->frame_mask, &f);
}

int64_t lf_site_table_site(lf_site_table *t, uint32_t caller, uint32_t frame)
{
    if ((t->site_count && caller >= t->site_count) || (t->frame_count && frame >= t->frame_count))
        return -1;
    lf_site s = {frame, caller};
    return intern((void **)&t->site, &t->site_count, &t->site_cap, sizeof s, &t->site_slot,
                  &t->site_mask, &s);
}

int lf_site_table_give(lf_site_table *t, lf_snapshot *s)
{
    lf_frame *frame = t->frame;
    lf_site *site = t->site;
    if (!lf_snapshot_own(s, frame))
        return -1;
    t->frame = NULL;
    if (!lf_snapshot_own(s, site))
        return -1;
    t->site = NULL;
    s->frame = frame;
    s->site = site;
    s->frame_count = t->frame_count;
    s->site_count = t->site_count;
    lf_site_table_free(t);
    return 0;
}
