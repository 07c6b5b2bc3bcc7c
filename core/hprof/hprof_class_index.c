/* hprof_class_index.c - class object id -> class index, for the lookups
 * every object makes. */
#include "../base/bigmem.h"
#include "hprof_passes.h"

/* The slot hprof_class_hash_find starts at. */
static inline uint64_t class_hash_slot(const hprof_reader *r, uint64_t class_id)
{
    return (class_id * 0x9e3779b97f4a7c15ull) >> r->class_hash_shift;
}

int hprof_build_class_hash(hprof_reader *r)
{
    unsigned bits = 4;
    while ((1ull << bits) < 2 * (uint64_t)r->class_count + 2)
        bits++;
    r->class_hash_id = lf_big_calloc(1ull << bits, sizeof *r->class_hash_id);
    r->class_hash_index = lf_big_malloc((1ull << bits) * sizeof *r->class_hash_index);
    if (!r->class_hash_id || !r->class_hash_index)
        return lf_fail_nomem(r->err, "indexing classes");
    r->class_hash_shift = 64 - bits;
    const uint64_t mask = (1ull << bits) - 1;
    for (size_t i = 0; i < r->class_count; i++) {
        uint64_t id = r->classes[i].id, slot = class_hash_slot(r, id);
        if (id == 0)
            continue; /* 0 means "no class" in every reference */
        while (r->class_hash_id[slot] && r->class_hash_id[slot] != id)
            slot = (slot + 1) & mask;
        if (!r->class_hash_id[slot]) {
            r->class_hash_id[slot] = id;
            r->class_hash_index[slot] = (uint32_t)i;
        }
    }
    return 0;
}

uint32_t hprof_class_of_id(const hprof_reader *r, uint64_t class_id)
{
    if (!r->class_hash_id) {
        PWord_t slot;
        JLG(slot, r->class_index, (Word_t)class_id);
        return slot ? (uint32_t)(*slot - 1) : HPROF_NONE;
    }
    return hprof_class_hash_find(r->class_hash_id, r->class_hash_index, r->class_hash_shift, class_id);
}
