/* idmap.c - open-addressing map from object ids to node numbers. */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"

enum { FIRST_SLOTS_LOG2 = 10 };

void lf_idmap_init(lf_idmap *m)
{
    memset(m, 0, sizeof *m);
}

void lf_idmap_free(lf_idmap *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

/* Puts a slot known to be absent into the table, without a load check. */
static void place(lf_idmap *m, lf_idmap_slot s)
{
    uint64_t pos = lf_idmap_home(m, s.id);
    while (m->slot[pos].node_plus_one)
        pos = (pos + 1) & m->mask;
    m->slot[pos] = s;
}

static int grow(lf_idmap *m)
{
    unsigned log2 = m->slot ? 64 - m->shift + 1 : FIRST_SLOTS_LOG2;
    if (log2 > 40)
        return -1;
    uint64_t size = 1ull << log2;
    lf_idmap old = *m;
    m->slot = lf_big_calloc(size, sizeof *m->slot);
    if (!m->slot) {
        *m = old;
        return -1;
    }
    m->mask = size - 1;
    m->shift = 64 - log2;
    for (uint64_t i = 0; old.slot && i <= old.mask; i++)
        if (old.slot[i].node_plus_one)
            place(m, old.slot[i]);
    free(old.slot);
    return 0;
}

int lf_idmap_add(lf_idmap *m, uint64_t id, uint32_t node)
{
    if (!m->slot || (m->count + 1) * 8 > (m->mask + 1) * 5) {
        if (grow(m))
            return -1;
    }
    uint64_t pos = lf_idmap_home(m, id);
    for (;; pos = (pos + 1) & m->mask) {
        lf_idmap_slot *s = &m->slot[pos];
        if (!s->node_plus_one)
            break;
        if (s->id == id)
            return 1;
    }
    m->slot[pos].id = id;
    m->slot[pos].node_plus_one = node + 1;
    m->count++;
    return 0;
}
