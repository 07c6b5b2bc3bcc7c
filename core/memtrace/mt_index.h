/* mt_index.h - a 64-bit key -> 32-bit value table (open addressing, linear
 * probing, grown by doubling at half load): location codes -> locations,
 * (caller site, location) -> site. Keys are never removed. */
#ifndef LF_MT_INDEX_H
#define LF_MT_INDEX_H

#include <stdint.h>

#define LF_MT_INDEX_NONE 0xffffffffu

typedef struct lf_mt_index {
    uint64_t *key;
    uint32_t *value;    /* value + 1; 0: empty slot */
    uint64_t mask;      /* slots - 1 (0 with no slots) */
    unsigned shift;     /* 64 - log2(slots) */
    uint64_t count;
} lf_mt_index;

void lf_mt_index_free(lf_mt_index *m);
/* value < LF_MT_INDEX_NONE. 0, or -1 when out of memory. Adding a key that
 * is there already replaces its value. */
int lf_mt_index_put(lf_mt_index *m, uint64_t key, uint32_t value);

static inline uint32_t lf_mt_index_get(const lf_mt_index *m, uint64_t key)
{
    if (!m->count)
        return LF_MT_INDEX_NONE;
    for (uint64_t pos = (key * 0x9e3779b97f4a7c15ull) >> m->shift;; pos = (pos + 1) & m->mask) {
        if (!m->value[pos])
            return LF_MT_INDEX_NONE;
        if (m->key[pos] == key)
            return m->value[pos] - 1;
    }
}

#endif
