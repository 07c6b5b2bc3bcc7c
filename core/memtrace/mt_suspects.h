/* mt_suspects.h - a trace's accumulating sites (issue 51): the Memtrace
 * viewer's judgement without a person at the screen. A site (its innermost
 * frame) is a suspect when its sampled blocks still live at the end
 *   - are enough to mean something (rules.min_samples samples),
 *   - were allocated steadily: in at least rules.min_spread of the run's
 *     LF_MT_SLICES equal slices, and
 *   - grew in step with time: the cumulative samples per slice fit a straight
 *     line with R^2 of at least rules.min_fit,
 * ranked by the bytes they stand for times that fit. A phase that allocates
 * and keeps (a parser's tree) is one step, not a line; garbage is collected,
 * not live at the end. */
#ifndef LF_MT_SUSPECTS_H
#define LF_MT_SUSPECTS_H

#include "mt_window.h"

enum { LF_MT_SLICES = 10 };

typedef struct lf_mt_rules {
    uint64_t min_samples;     /* default 8 */
    double min_spread;        /* share of slices, default 0.6 */
    double min_fit;           /* R^2, default 0.9 */
} lf_mt_rules;

#define LF_MT_RULES_DEFAULT {8, 0.6, 0.9}

typedef struct lf_mt_suspect {
    uint32_t site;            /* the group's trace site with most samples: its backtrace */
    uint64_t blocks, samples; /* live at the end */
    double est_bytes;         /* samples / rate words */
    double spread, fit;
    uint64_t per_slice[LF_MT_SLICES]; /* samples live at the end, by when allocated */
} lf_mt_suspect;

typedef struct lf_mt_suspects {
    lf_mt_suspect *item;      /* suspects first (ranked), then the rest of the groups */
    uint32_t count, suspects;
} lf_mt_suspects;

/* Reads the trace on fd (t: see lf_mt_read_fd; timeline may be NULL). */
int lf_mt_suspects_read(int fd, const lf_mt_rules *rules, lf_mt_trace *t, lf_mt_timeline *timeline,
                        lf_mt_suspects *out, lf_error *err);
void lf_mt_suspects_free(lf_mt_suspects *s);

/* The frame at which site s allocated: its last location's last frame (a
 * caller's when a location has none); NULL for none at all. */
const lf_mt_frame *lf_mt_site_frame(const lf_mt_trace *t, uint32_t s);
/* "Module.fn (file.ml:LINE)", like snprintf. */
size_t lf_mt_frame_label(const lf_mt_trace *t, const lf_mt_frame *f, char *buf, size_t size);

#endif
