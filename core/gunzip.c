/* gunzip.c - inflating gzip dumps into a mapped temporary file. */
#include "gunzip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

int lf_gzip_detect(const uint8_t *data, uint64_t size)
{
    return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

int lf_gunzip_map(const char *path, int partial, uint64_t *cut_at, lf_mapped_file *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    *cut_at = 0;
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return lf_fail_errno(err, "cannot open", errno ? errno : EIO);
    gzbuffer(gz, 1 << 20);
    FILE *tmp = tmpfile();
    if (!tmp) {
        int e = errno;
        gzclose(gz);
        return lf_fail_errno(err, "cannot create a temporary file for the inflated dump", e);
    }
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    int rc = 0;
    uint64_t total = 0;
    if (!buf)
        rc = lf_fail_nomem(err, "inflating");
    while (rc == 0) {
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
        if (fwrite(buf, 1, (size_t)got, tmp) != (size_t)got) {
            rc = lf_fail_errno(err, "cannot write the inflated dump", errno);
            break;
        }
        total += (uint64_t)got;
    }
    if (rc == 0 && !gzeof(gz))
        rc = lf_fail_at(err, (uint64_t)gzoffset(gz), "corrupt gzip data", NULL);
    /* A cut-off member: zlib reports it as an end without error; say so. */
    if (rc == 0) {
        int zerr;
        gzerror(gz, &zerr);
        if (zerr == Z_BUF_ERROR && partial)
            *cut_at = (uint64_t)gzoffset(gz); /* keep what inflated; the reader sees the cut */
        else if (zerr == Z_BUF_ERROR) {
            rc = lf_fail_at(err, (uint64_t)gzoffset(gz), "truncated gzip data",
                            "the compressed stream ends early");
            err->truncated = 1;
        }
    }
    free(buf);
    gzclose(gz);
    if (rc == 0 && fflush(tmp) != 0)
        rc = lf_fail_errno(err, "cannot write the inflated dump", errno);
    if (rc == 0 && total > 0) {
        void *m = mmap(NULL, (size_t)total, PROT_READ, MAP_PRIVATE, fileno(tmp), 0);
        if (m == MAP_FAILED)
            rc = lf_fail_errno(err, "cannot map the inflated dump", errno);
        else {
            out->map = m;
            out->data = m;
            out->size = total;
        }
    } else if (rc == 0) {
        out->data = (const uint8_t *)"";
    }
    fclose(tmp); /* the mapping keeps the unlinked file alive */
    return rc;
}
