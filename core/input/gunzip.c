/* gunzip.c - inflating gzip dumps into a mapped temporary file. */
#include "gunzip.h"
#include "../base/resident.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

int lf_gzip_detect(const uint8_t *data, uint64_t size)
{
    return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

int64_t lf_gzip_head_fd(int fd, uint8_t *buf, size_t want)
{
    int gz_fd = dup(fd); /* gzclose closes it; the offset is shared, so put it back */
    if (gz_fd < 0)
        return -1;
    off_t at = lseek(gz_fd, 0, SEEK_CUR);
    gzFile gz = at >= 0 && lseek(gz_fd, 0, SEEK_SET) == 0 ? gzdopen(gz_fd, "rb") : NULL;
    if (!gz) {
        close(gz_fd);
        return -1;
    }
    int got = gzread(gz, buf, (unsigned)want);
    gzclose(gz); /* closes gz_fd; fd stays open */
    if (lseek(fd, at, SEEK_SET) < 0)
        return -1;
    return got;
}

/* A gzFile reading fd from its start; fd stays the caller's. */
static gzFile open_gz(int fd, lf_error *err)
{
    int gz_fd = dup(fd); /* gzclose closes it */
    if (gz_fd < 0) {
        lf_fail_errno(err, "cannot read", errno);
        return NULL;
    }
    gzFile gz = lseek(gz_fd, 0, SEEK_SET) == 0 ? gzdopen(gz_fd, "rb") : NULL;
    if (!gz) {
        int e = errno ? errno : EIO;
        close(gz_fd);
        lf_fail_errno(err, "cannot read", e);
        return NULL;
    }
    gzbuffer(gz, 1 << 20);
    return gz;
}

/* Everything gz inflates, appended to tmp; *total counts the bytes. */
static int inflate_into(gzFile gz, int tmp, lf_progress_counter *told, uint64_t *total, lf_error *err)
{
    enum { CHUNK = 1 << 20, CHUNKS_PER_REPORT = 64 }; /* a report per 64 MiB inflated */
    unsigned chunks = 0;
    uint8_t *buf = malloc(CHUNK);
    if (!buf)
        return lf_fail_nomem(err, "inflating");
    int rc = 0;
    for (;;) {
        int got = gzread(gz, buf, CHUNK);
        if (got < 0) {
            int zerr;
            const char *msg = gzerror(gz, &zerr);
            /* zlib's message starts with the path: keep what follows it */
            const char *colon = strstr(msg, ": ");
            rc = zerr == Z_ERRNO ? lf_fail_errno(err, "cannot read", errno)
                                 : lf_fail_at(err, (uint64_t)gzoffset(gz), "corrupt gzip data", "%s",
                                              colon ? colon + 2 : msg);
            break;
        }
        if (got == 0)
            break;
        if (lf_write_all(tmp, buf, (uint64_t)got)) {
            rc = lf_fail(err, LF_ERR_SYSTEM, "cannot write the inflated dump in %s ($TMPDIR): %s",
                         lf_temp_dir(), strerror(errno));
            break;
        }
        *total += (uint64_t)got;
        if (++chunks % CHUNKS_PER_REPORT == 0)
            lf_progress_reach(told, (uint64_t)gzoffset(gz));
    }
    free(buf);
    return rc;
}

/* After the last byte: trailing garbage is an error; a cut-off member (zlib
 * reports it as an end without error) is one too unless partial, when what
 * inflated is kept and *cut_at says where the cut is. */
static int check_gz_end(gzFile gz, int partial, uint64_t *cut_at, lf_error *err)
{
    if (!gzeof(gz))
        return lf_fail_at(err, (uint64_t)gzoffset(gz), "corrupt gzip data", NULL);
    int zerr;
    gzerror(gz, &zerr);
    if (zerr == Z_BUF_ERROR && partial) {
        *cut_at = (uint64_t)gzoffset(gz); /* the reader sees the cut */
    } else if (zerr == Z_BUF_ERROR) {
        lf_fail_at(err, (uint64_t)gzoffset(gz), "truncated gzip data", "the compressed stream ends early");
        err->truncated = 1;
        return -1;
    }
    return 0;
}

static int map_inflated(int tmp, uint64_t total, lf_mapped_file *out, lf_error *err)
{
    if (total == 0) {
        out->data = (const uint8_t *)"";
        return 0;
    }
    void *m = mmap(NULL, (size_t)total, PROT_READ, MAP_PRIVATE, tmp, 0);
    if (m == MAP_FAILED)
        return lf_fail_errno(err, "cannot map the inflated dump", errno);
    out->map = m;
    out->data = m;
    out->size = total;
    lf_resident_track(m, (size_t)total);
    return 0;
}

int lf_gunzip_map_fd(int fd, int partial, const lf_progress *progress, uint64_t *cut_at,
                     lf_mapped_file *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    *cut_at = 0;
    gzFile gz = open_gz(fd, err);
    if (!gz)
        return -1;
    int tmp = lf_temp_file(err);
    if (tmp < 0) {
        gzclose(gz);
        return -1;
    }
    struct stat st;
    lf_progress_counter told; /* compressed bytes consumed, of the file's */
    lf_progress_begin(&told, progress, "inflating", fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0);
    uint64_t total = 0;
    int rc = inflate_into(gz, tmp, &told, &total, err);
    if (rc == 0)
        lf_progress_reach(&told, told.total);
    if (rc == 0)
        rc = check_gz_end(gz, partial, cut_at, err);
    gzclose(gz);
    if (rc == 0)
        rc = map_inflated(tmp, total, out, err);
    close(tmp); /* the mapping keeps the unlinked file alive */
    return rc;
}
