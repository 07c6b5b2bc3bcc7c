/* trace_text.c - see trace_text.h. */
#include "trace_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/count_text.h"
#include "../cli/output.h"
#include "../cli/trace_callers.h"
#include "../cli/trace_rows.h"
#include "paragraph.h"

#define BACKTRACE_TEXT 8192
/* callers shown before "< … N more": a deep backtrace would fill the
 * screen, and its whole is in --format tsv */
#define CALLERS_SHOWN 16

/* "Requests.Session.open_ (requests.ml:22) accumulates about 2.6 MiB" (of
 * blocks live at the end, estimated from their samples); its blocks, when
 * and how steadily they were allocated; its callers. */
static void finding(out_buf *b, const lf_mt_trace *t, const lf_mt_suspect *s, size_t headline_at, size_t width,
                    char *text)
{
    char site[512], bytes[32], blocks[32], samples[32], line[800];
    lf_mt_frame_label(t, lf_mt_site_frame(t, s->site), site, sizeof site);
    out_format_bytes(bytes, sizeof bytes, (uint64_t)llround(s->est_bytes));
    cli_count_text(blocks, sizeof blocks, s->blocks);
    cli_count_text(samples, sizeof samples, s->samples);
    int n = snprintf(line, sizeof line, "%s accumulates about %s", site, bytes);
    para_wrapped(b, line, n > 0 ? strlen(line) : 0, width, headline_at, headline_at, PARA_TEXT);
    out_buf_put(b, "\n", 1);
    unsigned tenths = (unsigned)lround(s->spread * LF_MT_SLICES);
    n = snprintf(line, sizeof line,
                 "%s sampled, live at the end (%s sample%s), allocated in %u of the run's %u tenths, in step "
                 "with time (fit %.3f)",
                 blocks, samples, s->samples == 1 ? "" : "s", tenths, (unsigned)LF_MT_SLICES, s->fit);
    para_labelled(b, "blocks", line, n > 0 ? strlen(line) : 0, width, PARA_TEXT);
    trace_backtrace_text(t, s->site, text, BACKTRACE_TEXT);
    size_t len = trace_callers_text(text, BACKTRACE_TEXT, site, CALLERS_SHOWN);
    if (len)
        para_labelled(b, "called by", text, len, width, PARA_FRAMES);
}

int suspects_write_trace_text(FILE *f, const lf_mt_trace *t, const lf_mt_suspects *found, uint64_t top,
                              size_t width)
{
    out_buf b = {0};
    char *text = malloc(BACKTRACE_TEXT);
    if (!text)
        return -1;
    for (uint32_t i = 0; i < found->suspects && (!top || i < top); i++)
        finding(&b, t, &found->item[i], para_number(&b, i), width, text);
    free(text);
    return para_write(&b, f);
}
