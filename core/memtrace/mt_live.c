/* mt_live.c - the live sampled blocks, by allocation id: young slots in
 * front of an open-addressing table. */
#include "mt_live.h"

#include <stdlib.h>

void lf_mt_live_free(lf_mt_live *m)
{
    free(m->young);
    free(m->slot);
    *m = (lf_mt_live){0};
}

static uint64_t home(const lf_mt_live *m, uint64_t id)
{
    return (id * 0x9e3779b97f4a7c15ull) >> m->shift;
}

/* Into the table (room made); 1 when id was not there yet. */
static int place(lf_mt_live *m, const lf_mt_block *b)
{
    uint64_t pos = home(m, b->id);
    while (m->slot[pos].samples && m->slot[pos].id != b->id)
        pos = (pos + 1) & m->mask;
    int added = !m->slot[pos].samples;
    m->slot[pos] = *b;
    return added;
}

static int grow(lf_mt_live *m)
{
    uint64_t slots = m->mask ? (m->mask + 1) * 2 : 1024;
    unsigned shift = m->mask ? m->shift - 1 : 54;
    lf_mt_block *slot = calloc(slots, sizeof *slot);
    if (!slot)
        return -1;
    lf_mt_block *old = m->slot;
    uint64_t old_mask = m->mask;
    m->slot = slot;
    m->mask = slots - 1;
    m->shift = shift;
    for (uint64_t i = 0; old && i <= old_mask; i++)
        if (old[i].samples)
            place(m, &old[i]);
    free(old);
    return 0;
}

/* A block moves from its young slot to the table; 0 or -1 (memory). */
static int to_table(lf_mt_live *m, const lf_mt_block *b)
{
    if ((m->in_table + 1) * 2 > (m->mask ? m->mask + 1 : 0) && grow(m))
        return -1;
    if (place(m, b))
        m->in_table++;
    else
        m->count--; /* a repeated id (a damaged trace): one block of it stays */
    return 0;
}

int lf_mt_live_add(lf_mt_live *m, const lf_mt_block *b)
{
    if (!m->young && !(m->young = calloc(LF_MT_YOUNG, sizeof *m->young)))
        return -1;
    lf_mt_block *y = &m->young[b->id & (LF_MT_YOUNG - 1)];
    if (y->samples && y->id == b->id) {
        *y = *b;
        return 0;
    }
    if (y->samples && to_table(m, y)) /* an older block still lives there */
        return -1;
    *y = *b;
    m->count++;
    return 0;
}

int lf_mt_live_take(lf_mt_live *m, uint64_t id, lf_mt_block *b)
{
    if (!m->count)
        return 0;
    lf_mt_block *y = &m->young[id & (LF_MT_YOUNG - 1)];
    if (y->samples && y->id == id) {
        *b = *y;
        y->samples = 0;
        m->count--;
        return 1;
    }
    if (!m->in_table)
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
    m->in_table--;
    m->count--;
    return 1;
}

int lf_mt_live_next(const lf_mt_live *m, uint64_t *cursor, lf_mt_block *b)
{
    for (; m->young && *cursor < LF_MT_YOUNG; ++*cursor)
        if (m->young[*cursor].samples) {
            *b = m->young[(*cursor)++];
            return 1;
        }
    if (*cursor < LF_MT_YOUNG)
        *cursor = LF_MT_YOUNG;
    for (; m->slot && *cursor - LF_MT_YOUNG <= m->mask; ++*cursor)
        if (m->slot[*cursor - LF_MT_YOUNG].samples) {
            *b = m->slot[(*cursor)++ - LF_MT_YOUNG];
            return 1;
        }
    return 0;
}
