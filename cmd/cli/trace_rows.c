/* trace_rows.c - a trace's backtraces and timeline as text and rows. */
#include "trace_rows.h"

#include "trace_callers.h"

#include <math.h>
#include <string.h>

void trace_backtrace_text(const lf_mt_trace *t, uint32_t s, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (; s && used + 1 < size; s = t->site[s].caller) {
        const lf_mt_location *l = &t->location[t->site[s].location];
        for (uint32_t k = l->frame_count; k-- > 0 && used + 1 < size;) {
            if (used) {
                size_t n = strlen(TRACE_FRAME_GAP);
                if (used + n >= size)
                    break;
                memcpy(buf + used, TRACE_FRAME_GAP, n + 1);
                used += n;
            }
            size_t n = lf_mt_frame_label(t, &t->frame[l->first_frame + k], buf + used, size - used);
            used = used + n >= size ? size - 1 : used + n;
        }
    }
    if (s && size > 4) /* cut: say so */
        memcpy(buf + (used > size - 4 ? size - 4 : used), "...", 4);
}

void trace_timeline_rows(const lf_mt_trace *t, const lf_mt_timeline *tl, out_format format)
{
    static const out_column cols[] = {
        {"time_s", OUT_STR, LF_CUT_END, OUT_KEY},
        {"live_bytes", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"kept_bytes", OUT_U64, LF_CUT_END, OUT_NORMAL},
    };
    out_writer *w = out_begin(stdout, format, cols, 3);
    const double per_sample = t->info.word_size / t->info.sample_rate;
    int64_t all = 0, kept = 0;
    for (uint32_t b = 0; b < tl->count; b++) {
        all += tl->all[b];
        kept += tl->kept[b];
        char when[32];
        /* the end of the bucket: what is live once its events are in */
        snprintf(when, sizeof when, "%.3f", (double)((b + 1) * tl->width_us) / 1e6);
        out_cstr(w, when);
        out_u64(w, (uint64_t)llround((double)(all > 0 ? all : 0) * per_sample));
        out_u64(w, (uint64_t)llround((double)(kept > 0 ? kept : 0) * per_sample));
        out_row_end(w);
    }
    out_end(w);
}
