/* strtab.c - interning string table (XXH3 hashes, open addressing). */
#include "strtab.h"
#include "../base/bigmem.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* Doubles the slot array, moving the occupied slots over (strings that were
 * appended without a hash are in no slot and stay out). */
static int grow_slots(lf_strtab *t)
{
    uint32_t size = t->slot_mask ? (t->slot_mask + 1) * 2 : 1024;
    uint32_t *slot = lf_big_calloc(size, sizeof *slot);
    if (!slot)
        return -1;
    for (uint32_t k = 0; t->slot && k <= t->slot_mask; k++) {
        if (!t->slot[k])
            continue;
        uint32_t pos = (uint32_t)t->hash[t->slot[k] - 1] & (size - 1);
        while (slot[pos])
            pos = (pos + 1) & (size - 1);
        slot[pos] = t->slot[k];
    }
    lf_big_free(t->slot);
    t->slot = slot;
    t->slot_mask = size - 1;
    return 0;
}

int lf_strtab_init(lf_strtab *t)
{
    memset(t, 0, sizeof *t);
    return lf_strtab_intern(t, "", 0) == 0 ? 0 : -1;
}

void lf_strtab_free(lf_strtab *t)
{
    lf_big_free(t->bytes);
    lf_big_free(t->offset);
    lf_big_free(t->hash);
    lf_big_free(t->slot);
    memset(t, 0, sizeof *t);
}

static int64_t lookup(const lf_strtab *t, const char *s, size_t len, uint64_t h, uint32_t *pos_out)
{
    if (!t->slot)
        return -1;
    uint32_t pos = (uint32_t)h & t->slot_mask;
    while (t->slot[pos]) {
        uint32_t i = t->slot[pos] - 1;
        if (t->hash[i] == h && t->offset[i + 1] - t->offset[i] == len &&
            memcmp(t->bytes + t->offset[i], s, len) == 0)
            return i;
        pos = (pos + 1) & t->slot_mask;
    }
    if (pos_out)
        *pos_out = pos;
    return -1;
}

int64_t lf_strtab_find(const lf_strtab *t, const char *s, size_t len)
{
    return lookup(t, s, len, XXH3_64bits(s, len), NULL);
}

/* Appends s as string t->count, its hash h; not yet in a slot. */
static int64_t append(lf_strtab *t, const char *s, size_t len, uint64_t h)
{
    if (t->count >= 0xfffffffeu)
        return -1;
    if (t->count + 1 >= t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 256;
        uint64_t *offset = lf_big_realloc(t->offset, ((size_t)cap + 1) * sizeof *offset);
        if (!offset)
            return -1;
        t->offset = offset;
        uint64_t *hash = lf_big_realloc(t->hash, (size_t)cap * sizeof *hash);
        if (!hash)
            return -1;
        t->hash = hash;
        t->cap = cap;
    }
    if (t->bytes_len + len + 1 > t->bytes_cap) {
        uint64_t cap = t->bytes_cap ? t->bytes_cap : 4096;
        while (cap < t->bytes_len + len + 1)
            cap *= 2;
        char *bytes = lf_big_realloc(t->bytes, cap);
        if (!bytes)
            return -1;
        t->bytes = bytes;
        t->bytes_cap = cap;
    }
    uint32_t i = t->count++;
    if (i == 0)
        t->offset[0] = 0;
    memcpy(t->bytes + t->bytes_len, s, len);
    t->bytes_len += len;
    t->offset[i + 1] = t->bytes_len;
    t->hash[i] = h;
    return i;
}

/* Puts string i (hash h) in the free slot pos that lookup found, or, when
 * the slots must grow first, in the one lookup finds after. */
static int enter(lf_strtab *t, uint32_t i, uint64_t h, const char *s, size_t len, uint32_t pos)
{
    if (((uint64_t)t->hashed + 1) * 2 > (uint64_t)t->slot_mask + 1) {
        if (grow_slots(t))
            return -1;
        lookup(t, s, len, h, &pos);
    }
    t->slot[pos] = i + 1;
    t->hashed++;
    return 0;
}

int64_t lf_strtab_intern(lf_strtab *t, const char *s, size_t len)
{
    uint64_t h = XXH3_64bits(s, len);
    uint32_t pos = 0;
    int64_t found = lookup(t, s, len, h, &pos);
    if (found >= 0)
        return found;
    int64_t i = append(t, s, len, h);
    if (i < 0 || enter(t, (uint32_t)i, h, t->bytes + t->offset[i], len, pos))
        return -1;
    return i;
}

int lf_strtab_reserve_bytes(lf_strtab *t, uint64_t bytes)
{
    if (bytes <= t->bytes_cap)
        return 0;
    char *b = lf_big_realloc(t->bytes, bytes);
    if (!b)
        return -1;
    t->bytes = b;
    t->bytes_cap = bytes;
    return 0;
}

int64_t lf_strtab_append(lf_strtab *t, const char *s, size_t len)
{
    return append(t, s, len, 0);
}

int64_t lf_strtab_canonical(lf_strtab *t, uint32_t i)
{
    const char *s = t->bytes + t->offset[i];
    size_t len = (size_t)(t->offset[i + 1] - t->offset[i]);
    uint64_t h = XXH3_64bits(s, len);
    uint32_t pos = 0;
    int64_t found = lookup(t, s, len, h, &pos);
    if (found >= 0)
        return found;
    t->hash[i] = h;
    if (enter(t, i, h, s, len, pos))
        return -1;
    return i;
}
