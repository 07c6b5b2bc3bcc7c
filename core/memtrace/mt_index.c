/* mt_index.c - a 64-bit key -> 32-bit value table. */
#include "mt_index.h"

#include <stdlib.h>

void lf_mt_index_free(lf_mt_index *m)
{
    free(m->key);
    free(m->value);
    *m = (lf_mt_index){0};
}

static uint64_t home(const lf_mt_index *m, uint64_t key)
{
    return (key * 0x9e3779b97f4a7c15ull) >> m->shift;
}

static void place(lf_mt_index *m, uint64_t key, uint32_t value_plus_1)
{
    uint64_t pos = home(m, key);
    while (m->value[pos] && m->key[pos] != key)
        pos = (pos + 1) & m->mask;
    if (!m->value[pos])
        m->count++;
    m->key[pos] = key;
    m->value[pos] = value_plus_1;
}

static int grow(lf_mt_index *m)
{
    uint64_t slots = m->mask ? (m->mask + 1) * 2 : 64;
    unsigned shift = m->mask ? m->shift - 1 : 58;
    uint64_t *key = malloc(slots * sizeof *key);
    uint32_t *value = calloc(slots, sizeof *value);
    if (!key || !value) {
        free(key);
        free(value);
        return -1;
    }
    lf_mt_index old = *m;
    m->key = key;
    m->value = value;
    m->mask = slots - 1;
    m->shift = shift;
    m->count = 0;
    for (uint64_t i = 0; old.count && i <= old.mask; i++)
        if (old.value[i])
            place(m, old.key[i], old.value[i]);
    free(old.key);
    free(old.value);
    return 0;
}

int lf_mt_index_put(lf_mt_index *m, uint64_t key, uint32_t value)
{
    if ((m->count + 1) * 2 > (m->mask ? m->mask + 1 : 0) && grow(m))
        return -1;
    place(m, key, value + 1);
    return 0;
}
