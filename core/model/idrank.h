/* idrank.h - resolves object ids (addresses) to dense ranks 0..n-1.
 *
 * Resolving every reference of a dump is the hottest loop of a reader. JudyL
 * costs ~250 ns per random lookup at 21M keys here; a rank bitmap over the
 * address range answers from one cache line: one bit per possible address
 * (ids share an alignment, found from the data), stored next to the rank of
 * the first id of each 64-bit word. When the ids are too sparse for that (the
 * index would outgrow 8 bytes per object), a binary search over the sorted
 * ids answers instead. */
#ifndef LF_IDRANK_H
#define LF_IDRANK_H

#include <stdint.h>

#include "../base/bits.h"
#include "../base/bsearch.h"

typedef struct lf_idrank {
    const uint64_t *sorted;   /* ascending, unique; not owned */
    uint64_t count;
    uint64_t base;            /* smallest id */
    unsigned shift;           /* every id - base is a multiple of 1 << shift */
    uint64_t word_count;
    /* NULL when the ids are too sparse; else per 64 slots the bits and the
     * rank of the first, side by side so a lookup reads one cache line */
    struct lf_idrank_word {
        uint64_t bits;
        uint64_t rank;
    } *words;
} lf_idrank;

#define LF_IDRANK_NONE 0xffffffffu

/* sorted must stay alive as long as the resolver. Returns 0 or -1 (memory). */
int lf_idrank_build(lf_idrank *r, const uint64_t *sorted, uint64_t count);
void lf_idrank_free(lf_idrank *r);

static inline uint32_t lf_idrank_find(const lf_idrank *r, uint64_t id)
{
    if (id < r->base)
        return LF_IDRANK_NONE;
    uint64_t slot = id - r->base;
    if (r->words) {
        if (slot & ((1ull << r->shift) - 1))
            return LF_IDRANK_NONE;
        slot >>= r->shift;
        uint64_t word = slot >> 6;
        if (word >= r->word_count)
            return LF_IDRANK_NONE;
        uint64_t w = r->words[word].bits, bit = 1ull << (slot & 63);
        if (!(w & bit))
            return LF_IDRANK_NONE;
        return (uint32_t)r->words[word].rank + lf_popcount64(w & (bit - 1));
    }
    uint64_t lo = lf_lower_bound_u64(r->sorted, r->count, id);
    return lo < r->count && r->sorted[lo] == id ? (uint32_t)lo : LF_IDRANK_NONE;
}

/* Sorts ids ascending in place (LSD radix, 16 bits a pass, passes whose digit
 * never varies skipped). Returns 0 or -1 (memory). */
int lf_sort_u64(uint64_t *ids, uint64_t count);

#endif
