/* mt_snapshot.c - a trace's kept blocks as a snapshot. */
#include "mt_snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "../base/vec.h"
#include "../model/builder.h"
#include "../base/bigmem.h"

typedef struct snapshot_state {
    lf_builder *b;
    uint32_t *site_of;      /* trace site -> builder site + 1 (0: not made yet) */
    size_t site_cap, site_zeroed;
    uint32_t *pending;      /* trace sites to make, innermost first */
    size_t pending_cap;
    int64_t class_index, root_kind;
} snapshot_state;

/* The builder's site for the location `loc` called from builder site `caller`:
 * one site per frame (a location is several when inlined), outermost first. */
static int64_t location_sites(snapshot_state *st, const lf_mt_trace *t, uint32_t loc,
                              int64_t caller)
{
    const lf_mt_location *l = &t->location[loc];
    for (uint32_t k = 0; k < l->frame_count && caller >= 0; k++) {
        const lf_mt_frame *f = &t->frame[l->first_frame + k];
        const char *fn = lf_mt_string(t, f->function), *file = lf_mt_string(t, f->file);
        int64_t fs = lf_builder_string(st->b, fn, strlen(fn));
        int64_t ff = lf_builder_string(st->b, file, strlen(file));
        int64_t frame = fs < 0 || ff < 0 ? -1
                                         : lf_builder_frame(st->b, (uint32_t)fs, (uint32_t)ff,
                                                            f->line, 0);
        caller = frame < 0 ? -1 : lf_builder_site(st->b, (uint32_t)caller, (uint32_t)frame);
    }
    return caller;
}

/* The builder site of trace site s, making it and its callers' (a loop up
 * the callers, never recursion: backtraces are as deep as the trace says). */
static int64_t builder_site(snapshot_state *st, const lf_mt_trace *t, uint32_t s)
{
    if (lf_vec_reserve((void **)&st->site_of, &st->site_cap, t->site_count, sizeof *st->site_of))
        return -1;
    if (st->site_zeroed < st->site_cap) { /* the sites the trace named since */
        memset(st->site_of + st->site_zeroed, 0, (st->site_cap - st->site_zeroed) * sizeof *st->site_of);
        st->site_zeroed = st->site_cap;
    }
    size_t n = 0;
    while (s && !st->site_of[s]) {
        if (lf_vec_reserve((void **)&st->pending, &st->pending_cap, n + 1, sizeof *st->pending))
            return -1;
        st->pending[n++] = s;
        s = t->site[s].caller;
    }
    int64_t site = s ? (int64_t)st->site_of[s] - 1 : 0;
    while (n--) {
        uint32_t p = st->pending[n];
        site = location_sites(st, t, t->site[p].location, site);
        if (site < 0)
            return -1;
        st->site_of[p] = (uint32_t)site + 1;
    }
    return site;
}

static int on_kept(void *ctx, const lf_mt_trace *t, const lf_mt_block *blk, uint64_t collect_us,
                   lf_error *err)
{
    (void)collect_us;
    snapshot_state *st = ctx;
    if (st->class_index < 0) {
        st->class_index = lf_builder_class(st->b, "(sampled block)", 15);
        st->root_kind = lf_builder_string(st->b, "sampled block", 13);
    }
    int64_t site = st->class_index < 0 || st->root_kind < 0 ? -1 : builder_site(st, t, blk->site);
    uint64_t bytes = (blk->length + 1) * t->info.word_size;
    if (site < 0 || lf_builder_object(st->b, blk->id, (uint32_t)st->class_index, bytes) ||
        lf_builder_object_site(st->b, blk->id, (uint32_t)site, blk->samples) ||
        lf_builder_root(st->b, blk->id, (uint32_t)st->root_kind, 0))
        return lf_fail_nomem(err, "building the trace's window");
    return 0;
}

int lf_mt_snapshot(int fd, const lf_mt_filter *f, lf_mt_trace *t, lf_mt_timeline *timeline,
                   lf_snapshot *out, lf_error *err)
{
    snapshot_state st = {.b = lf_builder_new(), .class_index = -1, .root_kind = -1};
    if (!st.b)
        return lf_fail_nomem(err, "building the trace's window");
    lf_mt_keeper keeper = {&st, on_kept};
    int rc = lf_mt_window_read(fd, f, &keeper, t, timeline, err);
    lf_big_free(st.site_of);
    lf_big_free(st.pending);
    if (rc) {
        lf_builder_free(st.b);
        return rc;
    }
    lf_builder_set_sample_rate(st.b, t->info.sample_rate);
    if (st.class_index < 0) /* nothing kept: still a snapshot with its names */
        st.class_index = lf_builder_class(st.b, "(sampled block)", 15);
    rc = lf_builder_finish(st.b, out, err);
    if (!rc)
        out->format = out->source_format = LF_FORMAT_MEMTRACE;
    return rc;
}
