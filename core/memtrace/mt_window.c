/* mt_window.c - a trace through the viewer's filters. */
#include "mt_window.h"

#include <string.h>

int lf_mt_filter_keeps(const lf_mt_filter *f, uint64_t alloc_us, uint64_t collect_us)
{
    if (f->live_at.set && !(alloc_us <= f->live_at.from_us && collect_us > f->live_at.from_us))
        return 0;
    if (f->live_between.set &&
        !(alloc_us <= f->live_between.to_us && collect_us > f->live_between.from_us))
        return 0;
    if (f->allocated_between.set &&
        !(alloc_us >= f->allocated_between.from_us && alloc_us <= f->allocated_between.to_us))
        return 0;
    return 1;
}

typedef struct window_state {
    const lf_mt_filter *filter;
    const lf_mt_keeper *keeper;
    lf_mt_trace *t;
    lf_mt_timeline *timeline;
    lf_mt_live live;
} window_state;

/* The bucket of time us, merging pairs of buckets until it fits. */
static uint32_t bucket_of(lf_mt_timeline *tl, uint64_t us)
{
    while (us / tl->width_us >= LF_MT_TIMELINE_MAX) {
        for (uint32_t i = 0; i < LF_MT_TIMELINE_MAX / 2; i++) {
            tl->all[i] = tl->all[2 * i] + tl->all[2 * i + 1];
            tl->kept[i] = tl->kept[2 * i] + tl->kept[2 * i + 1];
        }
        memset(tl->all + LF_MT_TIMELINE_MAX / 2, 0, sizeof tl->all / 2);
        memset(tl->kept + LF_MT_TIMELINE_MAX / 2, 0, sizeof tl->kept / 2);
        tl->width_us *= 2;
        tl->count = (tl->count + 1) / 2;
    }
    uint32_t b = (uint32_t)(us / tl->width_us);
    if (b + 1 > tl->count)
        tl->count = b + 1;
    return b;
}

/* A block's life is over (or the trace is): keep it or not. */
static int judge(window_state *w, const lf_mt_block *b, uint64_t collect_us, lf_error *err)
{
    if (!lf_mt_filter_keeps(w->filter, b->time_us, collect_us))
        return 0;
    if (w->timeline) {
        w->timeline->kept[bucket_of(w->timeline, b->time_us)] += b->samples;
        if (collect_us != LF_MT_NEVER)
            w->timeline->kept[bucket_of(w->timeline, collect_us)] -= b->samples;
    }
    return w->keeper && w->keeper->kept ? w->keeper->kept(w->keeper->ctx, w->t, b, collect_us, err)
                                        : 0;
}

static int on_alloc(void *ctx, const lf_mt_alloc *a, lf_error *err)
{
    window_state *w = ctx;
    lf_mt_block b = {a->id, a->time_us, a->length,
                     a->samples > UINT32_MAX ? UINT32_MAX : (uint32_t)a->samples, a->site};
    if (w->timeline)
        w->timeline->all[bucket_of(w->timeline, a->time_us)] += b.samples;
    return lf_mt_live_add(&w->live, &b) ? lf_fail_nomem(err, "following a trace's live blocks")
                                        : 0;
}

static int on_collect(void *ctx, uint64_t id, uint64_t time_us, lf_error *err)
{
    window_state *w = ctx;
    lf_mt_block b;
    if (!lf_mt_live_take(&w->live, id, &b))
        return 0; /* a block of a skipped packet; the library's reader does not object either */
    if (w->timeline)
        w->timeline->all[bucket_of(w->timeline, time_us)] -= b.samples;
    return judge(w, &b, time_us, err);
}

int lf_mt_window_read(int fd, const lf_mt_filter *f, const lf_mt_keeper *keeper, lf_mt_trace *t,
                      lf_mt_timeline *timeline, lf_error *err)
{
    window_state w = {f, keeper, t, timeline, {0}};
    if (timeline)
        *timeline = (lf_mt_timeline){.width_us = 1000};
    lf_mt_visitor v = {&w, on_alloc, NULL, on_collect};
    int rc = lf_mt_read_fd(fd, &v, t, err);
    /* the blocks never collected (in the table's order: it is the same each run) */
    uint64_t cursor = 0;
    lf_mt_block b;
    while (!rc && lf_mt_live_next(&w.live, &cursor, &b))
        rc = judge(&w, &b, LF_MT_NEVER, err);
    lf_mt_live_free(&w.live);
    return rc;
}
