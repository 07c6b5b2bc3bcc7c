/* mt_live.h - a trace's sampled blocks not collected yet, by allocation id:
 * what a reading of a trace holds besides its names (open addressing with
 * linear probing; a removal shifts the run back, so no tombstones pile up
 * however many blocks come and go). */
#ifndef LF_MT_LIVE_H
#define LF_MT_LIVE_H

#include <stdint.h>

typedef struct lf_mt_block {
    uint64_t id;            /* allocation id */
    uint64_t time_us;       /* allocated */
    uint64_t length;        /* words, header excluded */
    uint32_t samples;       /* 1 .. length + 1 (capped at 2^32 - 1); 0: an empty slot */
    uint32_t site;
} lf_mt_block;

/* 32-byte slots that say themselves whether they are used (samples > 0):
 * one cache line per probe, the most a reading of a big trace spends on. */
typedef struct lf_mt_live {
    lf_mt_block *slot;
    uint64_t mask;          /* slots - 1; 0 with no slots */
    unsigned shift;
    uint64_t count;
} lf_mt_live;

void lf_mt_live_free(lf_mt_live *m);
/* 0, or -1 when out of memory. An id already there is replaced. b->samples > 0. */
int lf_mt_live_add(lf_mt_live *m, const lf_mt_block *b);
/* Takes block id out into *b: 1 when it was there, 0 when not. */
int lf_mt_live_take(lf_mt_live *m, uint64_t id, lf_mt_block *b);
/* The blocks left, in no order: slot i (0 .. mask) holds one when its samples > 0. */

#endif
