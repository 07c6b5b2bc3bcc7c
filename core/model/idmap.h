/* idmap.h - object id -> node number, for readers that meet ids in any order
 * and must number them as they come (the builder).
 *
 * JudyL costs ~250 ns per random insert or lookup at 10M ids; this is an
 * open-addressing table (multiplicative hash, linear probing, 12-byte slots
 * holding the id and its node, grown by doubling at 5/8 load), so an insert or
 * lookup is mostly one cache line, and a loop over many ids can prefetch the
 * slot of an id a few iterations before it looks it up. 19-38 bytes per id
 * (fresh pages cost about 0.75 s per GB on this project's machines, so the
 * slot stays small rather than aligned). */
#ifndef LF_IDMAP_H
#define LF_IDMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LF_IDMAP_NONE 0xffffffffu /* lookups of an absent id */

typedef struct lf_idmap {
    uint32_t *slot;     /* slot k: words 3k, 3k+1 the id (memcpy order), 3k+2
                         * its node + 1 (0: empty) */
    uint64_t mask;      /* slot count - 1 */
    unsigned shift;     /* 64 - log2(slot count) */
    uint64_t count;
} lf_idmap;

void lf_idmap_init(lf_idmap *m);
void lf_idmap_free(lf_idmap *m);
/* Makes room for count ids without growing (one allocation instead of the
 * doublings and their fresh pages). 0, or -1 when out of memory. */
int lf_idmap_reserve(lf_idmap *m, uint64_t count);
/* Maps id to node (node < LF_IDMAP_NONE) unless id is mapped already.
 * Returns 0 when added, 1 when id was there (nothing changes), -1 when out
 * of memory. */
int lf_idmap_add(lf_idmap *m, uint64_t id, uint32_t node);

static inline uint64_t lf_idmap_home(const lf_idmap *m, uint64_t id)
{
    /* the high bits of the product depend on every bit of id, the 8-byte
     * alignment of addresses included */
    return (id * 0x9e3779b97f4a7c15ull) >> m->shift;
}

/* The node of id, or LF_IDMAP_NONE. */
static inline uint32_t lf_idmap_get(const lf_idmap *m, uint64_t id)
{
    if (!m->slot)
        return LF_IDMAP_NONE;
    for (uint64_t pos = lf_idmap_home(m, id);; pos = (pos + 1) & m->mask) {
        const uint32_t *s = &m->slot[pos * 3];
        if (!s[2])
            return LF_IDMAP_NONE;
        uint64_t slot_id;
        memcpy(&slot_id, s, sizeof slot_id);
        if (slot_id == id)
            return s[2] - 1;
    }
}

/* Starts loading the slot where a lookup of id begins. */
static inline void lf_idmap_prefetch(const lf_idmap *m, uint64_t id)
{
    if (m->slot)
        __builtin_prefetch(&m->slot[lf_idmap_home(m, id) * 3]);
}

#endif
