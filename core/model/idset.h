/* idset.h - the object ids a reader meets, collected straight into bitmaps.
 *
 * A JVM dump names its objects by address: ids share one residue modulo 8
 * and fill a few gigabytes of address space densely. Kept as a list they
 * cost 8 bytes per object of fresh memory (about a third of a second per
 * 10M objects on this project's machines) and a second pass to build the
 * rank index from. Here each id sets one bit in a 64 KiB bitmap that covers
 * its 4 MiB of address space, and the bitmaps become the rank index of
 * idrank.h directly: 2 bits per object on a typical heap.
 *
 * Ids that do not fit (another residue, or so spread out that the bitmaps
 * would outgrow a list) turn the set into a plain list: the ids seen so far
 * are unpacked into it and the sort of idrank.h resolves them. One set per
 * thread; merge them when the threads are done. */
#ifndef LF_IDSET_H
#define LF_IDSET_H

#include <stddef.h>
#include <stdint.h>

#include "idrank.h"

#define LF_IDSET_CHUNK_SHIFT 22 /* address bits one bitmap covers */
#define LF_IDSET_CHUNK_WORDS (1u << (LF_IDSET_CHUNK_SHIFT - 3 - 6))

typedef struct lf_idset {
    uint64_t count;      /* ids added, repeats included */
    int listing;         /* list mode: ids in list[] */
    /* bitmap mode */
    uint64_t residue;    /* id mod 8 shared by every id */
    void *chunks;        /* JudyL: id >> LF_IDSET_CHUNK_SHIFT -> uint64_t[CHUNK_WORDS] */
    uint64_t chunk_count;
    uint64_t *hot_bits;  /* the chunk of the last id, and its key */
    uint64_t hot_key;
    /* list mode */
    uint64_t *list;
    size_t list_count, list_cap;
} lf_idset;

void lf_idset_init(lf_idset *s);
/* The general case of lf_idset_add. Returns 0 or -1 (memory). */
int lf_idset_add_slow(lf_idset *s, uint64_t id);

/* Returns 0 or -1 (memory). */
static inline int lf_idset_add(lf_idset *s, uint64_t id)
{
    if ((id >> LF_IDSET_CHUNK_SHIFT) == s->hot_key && (id & 7) == s->residue && !s->listing) {
        uint64_t slot = (id >> 3) & (LF_IDSET_CHUNK_WORDS * 64 - 1);
        s->hot_bits[slot >> 6] |= 1ull << (slot & 63);
        s->count++;
        return 0;
    }
    return lf_idset_add_slow(s, id);
}

/* Moves every id of from into into (from is left empty). Returns 0 or -1
 * (memory; into then holds a part of from's ids, free both). */
int lf_idset_merge(lf_idset *into, lf_idset *from);

/* The rank index over the unique ids (rank->count of them); the set is left
 * empty. When the index needs the ids sorted (too sparse for a bitmap),
 * *sorted receives them, for the caller to free after the index; else NULL.
 * Returns 0 or -1 (memory). */
int lf_idset_finish(lf_idset *s, lf_idrank *rank, uint64_t **sorted);
void lf_idset_free(lf_idset *s);

#endif
