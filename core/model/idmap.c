/* idmap.c - open-addressing map from object ids to node numbers. */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"

enum { FIRST_SLOTS_LOG2 = 10 };

void lf_idmap_init(lf_idmap *m)
{
    memset(m, 0, sizeof *m);
}

void lf_idmap_free(lf_idmap *m)
{
    lf_big_free(m->slot);
    memset(m, 0, sizeof *m);
}

/* Writes id -> node + 1 into the first empty slot from id's home on. */
static void place(lf_idmap *m, uint64_t id, uint32_t node_plus_one)
{
    uint64_t pos = lf_idmap_home(m, id);
    while (m->slot[pos * 3 + 2])
        pos = (pos + 1) & m->mask;
    memcpy(&m->slot[pos * 3], &id, sizeof id);
    m->slot[pos * 3 + 2] = node_plus_one;
}

static int grow_to(lf_idmap *m, unsigned log2)
{
    if (log2 > 40)
        return -1;
    uint64_t size = 1ull << log2;
    lf_idmap old = *m;
    m->slot = lf_big_calloc(size * 3, sizeof *m->slot);
    if (!m->slot) {
        *m = old;
        return -1;
    }
    m->mask = size - 1;
    m->shift = 64 - log2;
    for (uint64_t i = 0; old.slot && i <= old.mask; i++) {
        if (old.slot[i * 3 + 2]) {
            uint64_t id;
            memcpy(&id, &old.slot[i * 3], sizeof id);
            place(m, id, old.slot[i * 3 + 2]);
        }
    }
    lf_big_free(old.slot);
    return 0;
}

static int grow(lf_idmap *m)
{
    return grow_to(m, m->slot ? 64 - m->shift + 1 : FIRST_SLOTS_LOG2);
}

int lf_idmap_reserve(lf_idmap *m, uint64_t count)
{
    unsigned log2 = FIRST_SLOTS_LOG2;
    while (log2 < 40 && count * 8 > (1ull << log2) * 5)
        log2++;
    if (m->slot && log2 <= 64 - m->shift)
        return 0;
    return grow_to(m, log2);
}

int lf_idmap_add(lf_idmap *m, uint64_t id, uint32_t node)
{
    if (!m->slot || (m->count + 1) * 8 > (m->mask + 1) * 5) {
        if (grow(m))
            return -1;
    }
    uint64_t pos = lf_idmap_home(m, id);
    for (;; pos = (pos + 1) & m->mask) {
        const uint32_t *s = &m->slot[pos * 3];
        if (!s[2])
            break;
        uint64_t slot_id;
        memcpy(&slot_id, s, sizeof slot_id);
        if (slot_id == id)
            return 1;
    }
    memcpy(&m->slot[pos * 3], &id, sizeof id);
    m->slot[pos * 3 + 2] = node + 1;
    m->count++;
    return 0;
}
