/* test_accumulation_memo.c - what accumulates where, remembered by point
 * and bound (core/analysis/accumulation_memo.h): every answer put is the
 * one got back, under its own bound only, through the table's growth. */
#include <string.h>

#include "../../core/analysis/accumulation_memo.h"
#include "../../core/analysis/suspects.h"
#include "test.h"
#include "tests.h"

/* The answer the test puts for (point, apart): every field from both. */
static lf_accumulation answer(uint32_t point, uint64_t apart)
{
    return (lf_accumulation){point, (uint32_t)(point * 7 + apart), point + apart * 3, apart * 11 + point,
                             (uint8_t)(apart & 1), (uint32_t)(point % 5)};
}

/* Field by field: the struct's padding is no answer. */
static int same(const lf_accumulation *a, const lf_accumulation *b)
{
    return a->point == b->point && a->cls == b->cls && a->count == b->count && a->bytes == b->bytes &&
           a->entries == b->entries && a->others == b->others;
}

void test_accumulation_memo(void)
{
    lf_accumulation got = {0};
    CHECK(!lf_accumulation_memo_get(NULL, 5, 1, &got)); /* no memo: nothing known */
    lf_accumulation_memo memo = {0};
    CHECK(!lf_accumulation_memo_get(&memo, 5, 1, &got));
    /* 3,000 points (the table grows from 64 slots past 4,096), three bounds
     * each, a chain head's bound among them; points that differ in high bits */
    enum { POINTS = 3000 };
    const uint64_t bounds[3] = {LF_MEMO_CHAIN, 4096, UINT64_MAX};
    for (uint32_t k = 0; k < POINTS; k++)
        for (int b = 0; b < 3; b++) {
            lf_accumulation a = answer(k * 65537u, bounds[b]);
            lf_accumulation_memo_put(&memo, bounds[b], &a);
        }
    CHECK_EQ_U64(memo.used, POINTS * 3);
    unsigned wrong = 0;
    for (uint32_t k = 0; k < POINTS; k++)
        for (int b = 0; b < 3; b++) {
            lf_accumulation want = answer(k * 65537u, bounds[b]);
            memset(&got, 0, sizeof got);
            wrong += !lf_accumulation_memo_get(&memo, k * 65537u, bounds[b], &got) ||
                     !same(&got, &want);
        }
    CHECK_EQ_U64(wrong, 0);
    /* another bound of a point put, or a point never put, is not known */
    unsigned known = 0;
    for (uint32_t k = 0; k < POINTS; k++)
        for (uint64_t other = 1; other < 64; other++)
            known += lf_accumulation_memo_get(&memo, k * 65537u, other, &got) +
                     lf_accumulation_memo_get(&memo, k * 65537u + 1, bounds[other % 3], &got);
    CHECK_EQ_U64(known, 0);
    /* a point put again keeps its newest answer and one entry */
    lf_accumulation again = {65537u, 9, 9, 9, 0, 0};
    lf_accumulation_memo_put(&memo, 4096, &again);
    CHECK_EQ_U64(memo.used, POINTS * 3);
    CHECK(lf_accumulation_memo_get(&memo, 65537u, 4096, &got) && got.cls == 9 && got.count == 9);
    /* no point: nothing kept */
    lf_accumulation none = {LF_NODE_NONE, 1, 1, 1, 0, 0};
    lf_accumulation_memo_put(&memo, 4096, &none);
    CHECK_EQ_U64(memo.used, POINTS * 3);
    lf_accumulation_memo_free(&memo);
    CHECK(memo.slot == NULL && memo.size == 0 && memo.used == 0);
    /* one answer in the smallest table: of 10,000 other bounds of its
     * point, many start their search at its slot, and none may take it */
    lf_accumulation one = answer(77, 500);
    lf_accumulation_memo_put(&memo, 500, &one);
    known = 0;
    for (uint64_t other = 1; other <= 10000; other++)
        known += other != 500 && lf_accumulation_memo_get(&memo, 77, other, &got);
    CHECK_EQ_U64(known, 0);
    CHECK(lf_accumulation_memo_get(&memo, 77, 500, &got) && got.count == one.count);
    lf_accumulation_memo_free(&memo);
}
