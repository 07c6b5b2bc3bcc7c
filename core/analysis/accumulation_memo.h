/* accumulation_memo.h - what accumulates at the points already examined.
 *
 * `suspects` asks the same point twice: a growing holder's (growth
 * findings) is most often a size finding's too, and on a big table the
 * answer walks every chain of it (0.55 s of a 14M-object OCaml series,
 * BENCHMARKS 1.21.2). Keyed by the point and the bound below which its
 * children count (`apart`); a chain head's answer holds for every bound. */
#ifndef LF_ACCUMULATION_MEMO_H
#define LF_ACCUMULATION_MEMO_H

#include <stddef.h>
#include <stdint.h>

struct lf_accumulation; /* accumulation.h */

/* The bound of a chain head's entry: no real bound is 0. */
#define LF_MEMO_CHAIN 0

typedef struct lf_accumulation_memo {
    struct lf_memo_slot *slot; /* open addressing, a power of two of them */
    size_t used, size;
} lf_accumulation_memo;

/* 1 and *acc (its point kept) when point's answer under bound apart is
 * known, else 0. memo may be NULL: nothing is known. */
int lf_accumulation_memo_get(const lf_accumulation_memo *memo, uint32_t point, uint64_t apart,
                             struct lf_accumulation *acc);

/* Keeps acc as acc->point's answer under apart. Out of memory it keeps
 * nothing: the memo only saves work. */
void lf_accumulation_memo_put(lf_accumulation_memo *memo, uint64_t apart, const struct lf_accumulation *acc);

void lf_accumulation_memo_free(lf_accumulation_memo *memo);

#endif
