/* mt_window.h - a trace read through the viewer's filters (issue 51,
 * docs/MEMTRACE.md): which sampled blocks a time window keeps, and the live
 * memory over time. Each block is judged when it is collected (or at the
 * end, never collected), so the reading holds only the live blocks. */
#ifndef LF_MT_WINDOW_H
#define LF_MT_WINDOW_H

#include "memtrace.h"
#include "mt_live.h"

#define LF_MT_NEVER UINT64_MAX   /* the collection time of a block still live at the end */
#define LF_MT_END (UINT64_MAX - 1) /* a time after every event: "live at the end" */

typedef struct lf_mt_range {
    int set;
    uint64_t from_us, to_us;     /* inclusive; microseconds since the trace began */
} lf_mt_range;

/* The filters a block must all pass (those set). */
typedef struct lf_mt_filter {
    lf_mt_range live_at;         /* from == to: allocated at or before, collected after */
    lf_mt_range live_between;    /* live at some moment of the range */
    lf_mt_range allocated_between;
} lf_mt_filter;

int lf_mt_filter_keeps(const lf_mt_filter *f, uint64_t alloc_us, uint64_t collect_us);

enum { LF_MT_TIMELINE_MAX = 200 };

/* Live samples over time, as changes per bucket of width_us (the width
 * doubles, merging neighbours, as the trace goes on). */
typedef struct lf_mt_timeline {
    uint32_t count;              /* buckets in use */
    uint64_t width_us;
    int64_t all[LF_MT_TIMELINE_MAX];  /* every block's samples: + allocated, - collected */
    int64_t kept[LF_MT_TIMELINE_MAX]; /* the blocks the filters keep */
} lf_mt_timeline;

/* Told of each kept block, when it is judged (collect_us LF_MT_NEVER: live
 * at the end). t holds the names read so far, the block's site among them. */
typedef struct lf_mt_keeper {
    void *ctx;
    int (*kept)(void *ctx, const lf_mt_trace *t, const lf_mt_block *b, uint64_t collect_us,
                lf_error *err);
} lf_mt_keeper;

/* Reads the trace on fd (lf_mt_read_fd), judging each block by f; keeper
 * and timeline may be NULL. */
int lf_mt_window_read(int fd, const lf_mt_filter *f, const lf_mt_keeper *keeper, lf_mt_trace *t,
                      lf_mt_timeline *timeline, lf_error *err);

#endif
