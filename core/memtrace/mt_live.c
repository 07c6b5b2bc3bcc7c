/* mt_live.c - the live sampled blocks, by allocation id. */
#include "mt_live.h"

#include <stdlib.h>

void lf_mt_live_free(lf_mt_live *m)
{
    free(m->slot);
    *m = (lf_mt_live){0};
}

static uint64_t home(const lf_mt_live *m, uint64_t id)
{
    return (id * 0x9e3779b97f4a7c15ull) >> m->shift;
}

static void place(lf_mt_live *m, const lf_mt_block *b)
{
    uint64_t pos = home(m, b->id);
    while (m->slot[pos].samples && m->slot[pos].id != b->id)
        pos = (pos + 1) & m->mask;
    if (!m->slot[pos].samples)
        m->count++;
    m->slot[pos] = *b;
}

static int grow(lf_mt_live *m)
{
    uint64_t slots = m->mask ? (m->mask + 1) * 2 : 1024;
    unsigned shift = m->mask ? m->shift - 1 : 54;
    lf_mt_block *slot = calloc(slots, sizeof *slot);
    if (!slot)
        return -1;
    lf_mt_live old = *m;
    *m = (lf_mt_live){slot, slots - 1, shift, 0};
    for (uint64_t i = 0; old.slot && i <= old.mask; i++)
        if (old.slot[i].samples)
            place(m, &old.slot[i]);
    free(old.slot);
    return 0;
}

int lf_mt_live_add(lf_mt_live *m, const lf_mt_block *b)
{
    if ((m->count + 1) * 2 > (m->mask ? m->mask + 1 : 0) && grow(m))
        return -1;
    place(m, b);
    return 0;
}

int lf_mt_live_take(lf_mt_live *m, uint64_t id, lf_mt_block *b)
{
    if (!m->count)
        return 0;
    uint64_t pos = home(m, id);
    while (m->slot[pos].samples && m->slot[pos].id != id)
        pos = (pos + 1) & m->mask;
    if (!m->slot[pos].samples)
        return 0;
    *b = m->slot[pos];
    /* backward shift: move later entries of the run into the hole when
     * their home is not between the hole and them */
    uint64_t hole = pos;
    for (uint64_t next = (hole + 1) & m->mask; m->slot[next].samples; next = (next + 1) & m->mask) {
        uint64_t h = home(m, m->slot[next].id);
        int stays = hole <= next ? (h > hole && h <= next) : (h > hole || h <= next);
        if (!stays) {
            m->slot[hole] = m->slot[next];
            hole = next;
        }
    }
    m->slot[hole].samples = 0;
    m->count--;
    return 1;
}
