/* accumulation_memo.c - what accumulates at points already examined (see
 * accumulation_memo.h). */
#include "accumulation_memo.h"

#include <stdlib.h>

#include "suspects.h"

struct lf_memo_slot {
    uint64_t apart;
    lf_accumulation acc; /* acc.point == LF_NODE_NONE: an empty slot */
};

static size_t slot_of(uint32_t point, uint64_t apart, size_t size)
{
    uint64_t h = ((uint64_t)point * 0x9e3779b97f4a7c15ull) ^ (apart * 0xc2b2ae3d27d4eb4full);
    return (size_t)(h >> 32) & (size - 1);
}

int lf_accumulation_memo_get(const lf_accumulation_memo *memo, uint32_t point, uint64_t apart,
                             lf_accumulation *acc)
{
    if (!memo || memo->size == 0)
        return 0;
    for (size_t i = slot_of(point, apart, memo->size);; i = (i + 1) & (memo->size - 1)) {
        const struct lf_memo_slot *m = &memo->slot[i];
        if (m->acc.point == LF_NODE_NONE)
            return 0;
        if (m->acc.point == point && m->apart == apart) {
            *acc = m->acc;
            return 1;
        }
    }
}

static void place(struct lf_memo_slot *slot, size_t size, uint64_t apart, const lf_accumulation *acc)
{
    size_t i = slot_of(acc->point, apart, size);
    while (slot[i].acc.point != LF_NODE_NONE && !(slot[i].acc.point == acc->point && slot[i].apart == apart))
        i = (i + 1) & (size - 1);
    slot[i] = (struct lf_memo_slot){apart, *acc};
}

/* Twice the slots, every entry placed again; 0 or -1 (memory). */
static int grow(lf_accumulation_memo *memo)
{
    size_t size = memo->size ? memo->size * 2 : 64;
    struct lf_memo_slot *slot = malloc(size * sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < size; i++)
        slot[i].acc.point = LF_NODE_NONE;
    for (size_t i = 0; i < memo->size; i++)
        if (memo->slot[i].acc.point != LF_NODE_NONE)
            place(slot, size, memo->slot[i].apart, &memo->slot[i].acc);
    free(memo->slot);
    memo->slot = slot;
    memo->size = size;
    return 0;
}

void lf_accumulation_memo_put(lf_accumulation_memo *memo, uint64_t apart, const lf_accumulation *acc)
{
    if (!memo || acc->point == LF_NODE_NONE)
        return;
    if ((memo->used + 1) * 2 > memo->size && grow(memo))
        return;
    lf_accumulation probe;
    if (!lf_accumulation_memo_get(memo, acc->point, apart, &probe))
        memo->used++;
    place(memo->slot, memo->size, apart, acc);
}

void lf_accumulation_memo_free(lf_accumulation_memo *memo)
{
    free(memo->slot);
    memo->slot = NULL;
    memo->used = memo->size = 0;
}
