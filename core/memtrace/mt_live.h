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

/* 32-byte slots that say themselves whether they are used (samples > 0).
 * In front of the table, the young blocks: most die soon after they are
 * allocated, and ids come in allocation order, so a block first goes to
 * young[id mod LF_MT_YOUNG], where the next ids sit beside it (the cache
 * lines a reading walks in order), and moves to the table only when a later
 * id needs its slot while it still lives. */
enum { LF_MT_YOUNG = 1 << 15 };

typedef struct lf_mt_live {
    lf_mt_block *young;     /* LF_MT_YOUNG slots, or NULL before the first block */
    lf_mt_block *slot;      /* the table */
    uint64_t mask;          /* table slots - 1; 0 with no slots */
    unsigned shift;
    uint64_t count;         /* blocks, young and in the table */
    uint64_t in_table;      /* of them in the table */
} lf_mt_live;

void lf_mt_live_free(lf_mt_live *m);
/* 0, or -1 when out of memory. b->samples > 0. Ids are unique in a trace;
 * a damaged one that repeats an id may leave the older block behind. */
int lf_mt_live_add(lf_mt_live *m, const lf_mt_block *b);
/* Takes block id out into *b: 1 when it was there, 0 when not. */
int lf_mt_live_take(lf_mt_live *m, uint64_t id, lf_mt_block *b);
/* The blocks left, in no order (the same each time): from *cursor (0 at
 * first) on, the next one into *b; 0 when there is none left. */
int lf_mt_live_next(const lf_mt_live *m, uint64_t *cursor, lf_mt_block *b);

#endif
