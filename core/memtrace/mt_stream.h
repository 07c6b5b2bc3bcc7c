/* mt_stream.h - a Memtrace trace's bytes, read forward in windows (a plain
 * file or a gzip stream inflated as it goes), so that reading a trace of any
 * length holds one packet at a time. Offsets are the trace's own (for a
 * gzip file: in the inflated bytes). */
#ifndef LF_MT_STREAM_H
#define LF_MT_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "../base/error.h"

typedef struct lf_mt_stream {
    int fd;             /* the plain file, when gz is NULL */
    void *gz;           /* gzFile, or NULL */
    uint8_t *buf;
    size_t cap;         /* bytes buf holds room for */
    size_t start, end;  /* the unread bytes are buf[start..end) */
    uint64_t buf_offset;/* the trace offset of buf[0] */
    int eof;            /* nothing more to read */
} lf_mt_stream;

/* Reads fd from its start (fd stays the caller's); gzip is inflated when the
 * first bytes say so. */
int lf_mt_stream_open(lf_mt_stream *s, int fd, lf_error *err);
void lf_mt_stream_close(lf_mt_stream *s);
/* Makes at least `want` unread bytes available, or all that is left when
 * fewer remain. Returns the bytes available (>= 0) or -1 on an I/O error.
 * The buffer grows only as bytes arrive, so a length read from the trace
 * costs memory only when the bytes are there. */
int64_t lf_mt_stream_fill(lf_mt_stream *s, size_t want, lf_error *err);
static inline const uint8_t *lf_mt_stream_at(const lf_mt_stream *s)
{
    return s->buf + s->start;
}
static inline uint64_t lf_mt_stream_offset(const lf_mt_stream *s)
{
    return s->buf_offset + s->start;
}
static inline void lf_mt_stream_skip(lf_mt_stream *s, size_t n)
{
    s->start += n;
}

#endif
