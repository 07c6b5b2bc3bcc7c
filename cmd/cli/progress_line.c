/* progress_line.c - the progress line: at most ~10 redraws a second, whatever
 * the number of threads reporting; a stage's start and end are always drawn. */
#include "progress_line.h"

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "output.h"

#define REDRAW_NS 100000000 /* 0.1 s */

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A count in three significant figures or so: 950, 12.3K, 30.0M, 4.1G. */
static void format_count(char *buf, size_t size, uint64_t v)
{
    static const char suffix[] = "KMGT";
    if (v < 1000) {
        snprintf(buf, size, "%u", (unsigned)v);
        return;
    }
    double x = (double)v / 1000;
    unsigned k = 0;
    while (x >= 999.95 && k + 1 < sizeof suffix - 1)
        x /= 1000, k++;
    snprintf(buf, size, "%.1f%c", x, suffix[k]);
}

static void draw(void *arg, const char *stage, uint64_t done, uint64_t total)
{
    progress_line *p = arg;
    /* A stage's start and end wait for the thread drawing: skipped, the line
     * would stay at another thread's 98% whenever that thread held the line
     * (more often on a loaded machine). */
    bool must_draw = done == 0 || done >= total;
    while (atomic_flag_test_and_set_explicit(&p->drawing, memory_order_acquire)) {
        if (!must_draw)
            return;
        sched_yield();
    }
    int64_t now = now_ns();
    if (must_draw || now - p->last_ns >= REDRAW_NS) {
        p->last_ns = now;
        char have[32], all[32];
        if (p->unit) {
            format_count(have, sizeof have, done);
            format_count(all, sizeof all, total);
        } else {
            out_format_bytes(have, sizeof have, done);
            out_format_bytes(all, sizeof all, total);
        }
        unsigned pct = total ? (unsigned)(done * 100.0 / (double)total) : 100;
        fprintf(stderr, "\rleakfind: %s%s%s%s  %s of %s%s%s (%u%%)\033[K", p->what, *stage ? " (" : "",
                stage, *stage ? ")" : "", have, all, p->unit ? " " : "", p->unit ? p->unit : "", pct);
        fflush(stderr);
    }
    atomic_flag_clear_explicit(&p->drawing, memory_order_release);
}

void progress_line_init(progress_line *p, const char *what_fmt, const char *arg)
{
    p->progress.report = draw;
    p->progress.ctx = p;
    snprintf(p->what, sizeof p->what, what_fmt, arg);
    p->unit = NULL;
    atomic_flag_clear(&p->drawing);
    p->last_ns = 0;
}
