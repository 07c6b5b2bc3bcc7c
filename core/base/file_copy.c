/* file_copy.c - parts of a file copied through pread() (file_copy.h). */
#include "file_copy.h"
#include "bigmem.h"

#include <errno.h>
#include <sys/types.h>
#include <unistd.h>

int lf_file_copy_open(lf_file_copy *c, int fd, size_t cap)
{
    /* from 256 KiB, one 2 MiB page from bigmem: a single fault, however many copies */
    c->fd = fd;
    c->cap = cap;
    c->buf = lf_big_malloc(cap ? cap : 1);
    return c->buf ? 0 : -1;
}

const uint8_t *lf_file_copy_read(lf_file_copy *c, uint64_t at, size_t n)
{
    if (!c->buf || n > c->cap || at > (uint64_t)INT64_MAX - n)
        return NULL;
    for (size_t got = 0; got < n;) {
        ssize_t r = pread(c->fd, c->buf + got, n - got, (off_t)(at + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return NULL;
        got += (size_t)r;
    }
    return c->buf;
}

void lf_file_copy_close(lf_file_copy *c)
{
    lf_big_free(c->buf);
    c->buf = NULL;
}
