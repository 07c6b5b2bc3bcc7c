/* mt_stream.c - a trace's bytes in windows, from a plain or gzip file. */
#include "mt_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { MT_READ_CHUNK = 1 << 16 };

int lf_mt_stream_open(lf_mt_stream *s, int fd, lf_error *err)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    uint8_t head[2];
    if (lseek(fd, 0, SEEK_SET) != 0)
        return lf_fail_errno(err, "cannot read", errno);
    ssize_t got = read(fd, head, sizeof head);
    if (got < 0)
        return lf_fail_errno(err, "cannot read", errno);
    if (lseek(fd, 0, SEEK_SET) != 0)
        return lf_fail_errno(err, "cannot read", errno);
    if (got == 2 && head[0] == 0x1f && head[1] == 0x8b) {
        int gz_fd = dup(fd); /* gzclose closes it */
        if (gz_fd < 0)
            return lf_fail_errno(err, "cannot read", errno);
        gzFile gz = gzdopen(gz_fd, "rb");
        if (!gz) {
            close(gz_fd);
            return lf_fail_nomem(err, "opening a gzip stream");
        }
        gzbuffer(gz, 1 << 17);
        s->gz = gz;
    }
    return 0;
}

void lf_mt_stream_close(lf_mt_stream *s)
{
    if (s->gz)
        gzclose((gzFile)s->gz);
    free(s->buf);
    memset(s, 0, sizeof *s);
}

/* Moves the unread bytes to the buffer's start, growing it (doubling) when
 * they and `room` more do not fit. */
static int make_room(lf_mt_stream *s, size_t room, lf_error *err)
{
    size_t unread = s->end - s->start;
    if (s->start) {
        memmove(s->buf, s->buf + s->start, unread);
        s->buf_offset += s->start;
        s->start = 0;
        s->end = unread;
    }
    if (s->cap - s->end >= room)
        return 0;
    size_t cap = s->cap ? s->cap : MT_READ_CHUNK;
    while (cap - s->end < room)
        cap *= 2;
    uint8_t *b = realloc(s->buf, cap);
    if (!b)
        return lf_fail_nomem(err, "reading a trace");
    s->buf = b;
    s->cap = cap;
    return 0;
}

/* Appends up to `room` bytes; 0 at the end of the input. */
static int64_t read_more(lf_mt_stream *s, size_t room, lf_error *err)
{
    if (s->gz) {
        int n = gzread((gzFile)s->gz, s->buf + s->end, (unsigned)room);
        if (n < 0) {
            int code;
            const char *msg = gzerror((gzFile)s->gz, &code);
            return lf_fail_at(err, lf_mt_stream_offset(s) + (s->end - s->start),
                              "damaged gzip stream", "%s", msg ? msg : "inflate failed");
        }
        if (n == 0) {
            int code;
            gzerror((gzFile)s->gz, &code);
            if (code == Z_BUF_ERROR) /* the compressed stream stops mid-member */
                return lf_fail_at(err, s->buf_offset + s->end, "truncated gzip stream",
                                  "the compressed file ends inside a member");
        }
        return n;
    }
    for (;;) {
        ssize_t n = read(s->fd, s->buf + s->end, room);
        if (n >= 0)
            return n;
        if (errno != EINTR)
            return lf_fail_errno(err, "cannot read", errno);
    }
}

int64_t lf_mt_stream_fill(lf_mt_stream *s, size_t want, lf_error *err)
{
    while (s->end - s->start < want && !s->eof) {
        if (make_room(s, MT_READ_CHUNK, err))
            return -1;
        int64_t n = read_more(s, s->cap - s->end, err);
        if (n < 0)
            return -1;
        if (n == 0)
            s->eof = 1;
        s->end += (size_t)n;
    }
    return (int64_t)(s->end - s->start);
}
