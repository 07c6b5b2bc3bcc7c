/* mt_suspects.c - a trace's accumulating sites. */
#include "mt_suspects.h"

#include <stdio.h>
#include <stdlib.h>

#include "../base/vec.h"
#include "mt_index.h"
#include "../base/bigmem.h"

const lf_mt_frame *lf_mt_site_frame(const lf_mt_trace *t, uint32_t s)
{
    for (; s; s = t->site[s].caller) {
        const lf_mt_location *l = &t->location[t->site[s].location];
        if (l->frame_count)
            return &t->frame[l->first_frame + l->frame_count - 1];
    }
    return NULL;
}

size_t lf_mt_frame_label(const lf_mt_trace *t, const lf_mt_frame *f, char *buf, size_t size)
{
    int n = f ? snprintf(buf, size, "%s (%s:%u)", lf_mt_string(t, f->function),
                         lf_mt_string(t, f->file), f->line)
              : snprintf(buf, size, "(no site)");
    return n < 0 ? 0 : (size_t)n;
}

/* A block live at the end. */
typedef struct end_block {
    uint64_t time_us, samples;
    uint32_t site;
} end_block;

typedef struct end_blocks {
    end_block *b;
    size_t n, cap;
} end_blocks;

static int keep_end_block(void *ctx, const lf_mt_trace *t, const lf_mt_block *b,
                          uint64_t collect_us, lf_error *err)
{
    (void)t, (void)collect_us;
    end_blocks *e = ctx;
    if (lf_vec_reserve((void **)&e->b, &e->cap, e->n + 1, sizeof *e->b))
        return lf_fail_nomem(err, "judging a trace's sites");
    e->b[e->n++] = (end_block){b->time_us, b->samples, b->site};
    return 0;
}

/* R^2 of the cumulative samples per slice against the slice's number. */
static double line_fit(const uint64_t *per_slice)
{
    double y[LF_MT_SLICES], sum = 0, mx = (LF_MT_SLICES - 1) / 2.0, my = 0;
    for (int k = 0; k < LF_MT_SLICES; k++) {
        sum += (double)per_slice[k];
        y[k] = sum;
        my += sum / LF_MT_SLICES;
    }
    double sxy = 0, sxx = 0, syy = 0;
    for (int k = 0; k < LF_MT_SLICES; k++) {
        sxy += (k - mx) * (y[k] - my);
        sxx += (k - mx) * (k - mx);
        syy += (y[k] - my) * (y[k] - my);
    }
    return syy > 0 ? sxy * sxy / (sxx * syy) : 0;
}

static int by_rank(const void *pa, const void *pb)
{
    const lf_mt_suspect *a = pa, *b = pb;
    double ra = a->est_bytes * a->fit, rb = b->est_bytes * b->fit;
    if (ra != rb)
        return ra > rb ? -1 : 1;
    return a->site < b->site ? -1 : a->site > b->site;
}

/* One group per allocating frame (function and line). */
static int group_blocks(const lf_mt_trace *t, const end_blocks *e, uint64_t end_us,
                        lf_mt_suspects *out, lf_error *err)
{
    lf_mt_index group_of = {0};
    uint64_t *site_samples = calloc(t->site_count, sizeof *site_samples);
    size_t cap = 0;
    int rc = site_samples ? 0 : lf_fail_nomem(err, "judging a trace's sites");
    for (size_t i = 0; !rc && i < e->n; i++) {
        const lf_mt_frame *f = lf_mt_site_frame(t, e->b[i].site);
        uint64_t key = f ? (uint64_t)f->function << 32 | f->line : 0;
        uint32_t g = lf_mt_index_get(&group_of, key);
        if (g == LF_MT_INDEX_NONE) {
            if (lf_vec_reserve((void **)&out->item, &cap, out->count + 1, sizeof *out->item) ||
                lf_mt_index_put(&group_of, key, out->count)) {
                rc = lf_fail_nomem(err, "judging a trace's sites");
                break;
            }
            g = out->count++;
            out->item[g] = (lf_mt_suspect){.site = e->b[i].site};
        }
        lf_mt_suspect *s = &out->item[g];
        s->blocks++;
        s->samples += e->b[i].samples;
        uint64_t slice = end_us ? e->b[i].time_us * LF_MT_SLICES / (end_us + 1) : 0;
        s->per_slice[slice] += e->b[i].samples;
        site_samples[e->b[i].site] += e->b[i].samples;
        if (site_samples[e->b[i].site] > site_samples[s->site])
            s->site = e->b[i].site;
    }
    free(site_samples);
    lf_mt_index_free(&group_of);
    return rc;
}

int lf_mt_suspects_read(int fd, const lf_mt_rules *rules, lf_mt_trace *t, lf_mt_timeline *timeline,
                        lf_mt_suspects *out, lf_error *err)
{
    *out = (lf_mt_suspects){0};
    end_blocks e = {0};
    lf_mt_keeper keeper = {&e, keep_end_block};
    lf_mt_filter at_end = {.live_at = {1, LF_MT_END, LF_MT_END}};
    int rc = lf_mt_window_read(fd, &at_end, &keeper, t, timeline, err);
    if (!rc)
        rc = group_blocks(t, &e, t->counts.end_us, out, err);
    lf_big_free(e.b);
    if (rc)
        return rc;
    for (uint32_t g = 0; g < out->count; g++) {
        lf_mt_suspect *s = &out->item[g];
        int used = 0;
        for (int k = 0; k < LF_MT_SLICES; k++)
            used += s->per_slice[k] > 0;
        s->spread = (double)used / LF_MT_SLICES;
        s->fit = line_fit(s->per_slice);
        s->est_bytes = (double)s->samples / t->info.sample_rate * t->info.word_size;
    }
    /* the suspects to the front, each part ranked */
    uint32_t front = 0;
    for (uint32_t g = 0; g < out->count; g++) {
        const lf_mt_suspect *s = &out->item[g];
        if (s->samples >= rules->min_samples && s->spread >= rules->min_spread &&
            s->fit >= rules->min_fit) {
            lf_mt_suspect tmp = out->item[front];
            out->item[front++] = *s;
            out->item[g] = tmp;
        }
    }
    out->suspects = front;
    if (out->count) { /* item is NULL without groups */
        qsort(out->item, front, sizeof *out->item, by_rank);
        qsort(out->item + front, out->count - front, sizeof *out->item, by_rank);
    }
    return 0;
}

void lf_mt_suspects_free(lf_mt_suspects *s)
{
    lf_big_free(s->item);
    *s = (lf_mt_suspects){0};
}
