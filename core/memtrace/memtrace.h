/* memtrace.h - Jane Street Memtrace traces (.ctf; issue 51, docs/MEMTRACE.md):
 * a sample of a program's allocations, each with its backtrace and the times
 * it was allocated, promoted and collected.
 *
 * The trace is read once, forward, in packets (mt_stream.h): each event is
 * handed to a visitor as it is decoded and nothing of it is kept, so memory
 * holds only what the trace names once each: its locations, the distinct
 * backtraces (as sites), and the backtrace codec's cache per domain.
 *
 *   lf_mt_trace t;
 *   lf_mt_visitor v = {ctx, on_alloc, on_promote, on_collect};
 *   if (lf_mt_read_fd(fd, &v, &t, &err)) ...   (t is filled even then: free it)
 *   lf_mt_trace_free(&t);
 *
 * Index spaces: "location" (a code's entry, lf_mt_location), "frame" (one
 * source position of a location: a location is several when inlined),
 * "site" (a backtrace, as a node of the call tree: site 0 is the empty
 * backtrace), "string" (lf_strtab). Times are microseconds since the trace
 * began (its trace-info event). */
#ifndef LF_MEMTRACE_H
#define LF_MEMTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/error.h"
#include "../model/strtab.h"

int lf_mt_detect(const uint8_t *head, size_t len);

typedef struct lf_mt_info {
    double sample_rate;        /* per word allocated */
    uint32_t word_size;        /* bytes: 8 on 64 bits */
    uint32_t version;          /* format: 1, 2 (0.2.x, OCaml 4), 3 (OCaml 5: domains) */
    uint64_t pid;
    uint64_t start_us;         /* microseconds since 1970 */
    uint32_t executable, host, runtime_params, context; /* strings */
} lf_mt_info;

typedef struct lf_mt_frame {
    uint32_t file, function;   /* strings; function as OCaml names it: "Mod.fn" */
    uint32_t line;             /* 1-based */
    uint16_t start_char, end_char;
} lf_mt_frame;

typedef struct lf_mt_location {
    uint64_t code;             /* the trace's opaque 64-bit code */
    uint32_t first_frame;      /* frames first_frame .. + frame_count, outermost first */
    uint32_t frame_count;
} lf_mt_location;

typedef struct lf_mt_site {
    uint32_t caller;           /* site: the backtrace without its last location */
    uint32_t location;         /* the allocating end of this backtrace */
    uint32_t depth;            /* locations in the backtrace */
} lf_mt_site;

enum { LF_MT_MINOR = 0, LF_MT_MAJOR = 1, LF_MT_EXTERNAL = 2 };

typedef struct lf_mt_alloc {
    uint64_t id;               /* the trace's allocation id (promote and collect name it) */
    uint64_t time_us;
    uint64_t length;           /* words, header excluded */
    uint64_t samples;          /* 1 .. length + 1 */
    uint32_t site;
    uint32_t domain;
    uint32_t source;           /* LF_MT_MINOR, MAJOR or EXTERNAL */
} lf_mt_alloc;

/* Each returns 0, or -1 with err set to stop the reading. */
typedef struct lf_mt_visitor {
    void *ctx;
    int (*alloc)(void *ctx, const lf_mt_alloc *a, lf_error *err);
    int (*promote)(void *ctx, uint64_t id, uint64_t time_us, lf_error *err);
    int (*collect)(void *ctx, uint64_t id, uint64_t time_us, lf_error *err);
} lf_mt_visitor;

typedef struct lf_mt_counts {
    uint64_t bytes;            /* of the trace (inflated) */
    uint64_t packets, events, allocs, promotes, collects, location_events;
    uint64_t samples;          /* the allocations' samples, summed */
    uint64_t skipped_packets;  /* written by another process (a fork): left out */
    uint64_t end_us;           /* the last event's time */
    uint32_t domains;
} lf_mt_counts;

typedef struct lf_mt_trace {
    lf_mt_info info;
    lf_mt_counts counts;
    lf_strtab strings;
    lf_mt_frame *frame;
    uint32_t frame_count;
    lf_mt_location *location;
    uint32_t location_count;
    lf_mt_site *site;          /* site 0: the empty backtrace */
    uint32_t site_count;
    struct lf_mt_tables *tables; /* the lookups behind them (private) */
} lf_mt_trace;

/* Reads the trace open on fd (a plain or gzip file, from its start). The
 * visitor may be NULL or have NULL members (only the counts are wanted). On
 * an error the trace holds what was read before it: free it all the same. */
int lf_mt_read_fd(int fd, const lf_mt_visitor *v, lf_mt_trace *t, lf_error *err);
void lf_mt_trace_free(lf_mt_trace *t);

/* Strings are interned with their NUL; string 0 (never read) is "". */
static inline const char *lf_mt_string(const lf_mt_trace *t, uint32_t s)
{
    return s ? t->strings.bytes + t->strings.offset[s] : "";
}

#endif
