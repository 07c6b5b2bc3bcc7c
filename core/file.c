/* file.c - mapping input files. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_all(int fd, lf_mapped_file *f, const char *path, lf_error *err)
{
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf)
        return lf_fail_nomem(err, "reading input");
    for (;;) {
        if (len == cap) {
            uint8_t *more = realloc(buf, cap * 2);
            if (!more) {
                free(buf);
                return lf_fail_nomem(err, "reading input");
            }
            buf = more;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            return lf_fail_errno(err, path, e);
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    f->data = buf;
    f->size = len;
    f->heap = buf;
    return 0;
}

int lf_file_map(const char *path, lf_mapped_file *f, lf_error *err)
{
    memset(f, 0, sizeof *f);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return lf_fail_errno(err, "cannot open", errno);
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return lf_fail_errno(err, "cannot stat", e);
    }
    int rc = 0;
    if (S_ISREG(st.st_mode)) {
        f->size = (uint64_t)st.st_size;
        if (f->size > 0) {
            void *m = mmap(NULL, (size_t)f->size, PROT_READ, MAP_PRIVATE, fd, 0);
            if (m == MAP_FAILED)
                rc = lf_fail_errno(err, "cannot map", errno);
            else {
                f->map = m;
                f->data = m;
                /* readers walk the file front to back */
                madvise(m, (size_t)f->size, MADV_SEQUENTIAL);
            }
        } else {
            f->data = (const uint8_t *)"";
        }
    } else if (S_ISDIR(st.st_mode)) {
        rc = lf_fail(err, LF_ERR_INPUT, "is a directory");
    } else {
        rc = read_all(fd, f, path, err);
    }
    close(fd);
    return rc;
}

void lf_file_unmap(lf_mapped_file *f)
{
    if (f->map)
        munmap(f->map, (size_t)f->size);
    free(f->heap);
    memset(f, 0, sizeof *f);
}

int64_t lf_file_head(const char *path, uint8_t *buf, size_t want, lf_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return lf_fail_errno(err, "cannot open", errno);
    size_t got = 0;
    while (got < want) {
        ssize_t r = read(fd, buf + got, want - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            return lf_fail_errno(err, "cannot read", e);
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    return (int64_t)got;
}
