/* trace_open.c - a .nettrace found by its magic, plain or inside gzip. */
#include "trace_open.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../base/file.h"
#include "gunzip.h"

/* 1: the open file is a trace (mapped into *f); 0: it is not; -1: error. */
static int map_trace(int fd, lf_mapped_file *f, lf_error *err)
{
    uint8_t head[64];
    int64_t got = lf_file_head_fd(fd, head, sizeof head, err);
    if (got < 0)
        return -1;
    if (lf_nettrace_detect(head, (size_t)got))
        return lf_file_map_fd(fd, f, err) ? -1 : 1;
    if (!lf_gzip_detect(head, (uint64_t)got))
        return 0;
    /* the first inflated bytes say what it holds: a gzip'd dump is not
     * inflated twice */
    int copy = dup(fd);
    gzFile g = copy < 0 ? NULL : gzdopen(copy, "rb");
    if (!g) {
        if (copy >= 0)
            close(copy);
        return 0;
    }
    int inflated = gzread(g, head, sizeof head);
    gzclose(g);
    if (inflated <= 0 || !lf_nettrace_detect(head, (size_t)inflated))
        return 0;
    uint64_t cut_at = 0;
    if (lseek(fd, 0, SEEK_SET) < 0)
        return lf_fail_errno(err, "cannot seek", errno);
    return lf_gunzip_map_fd(fd, 0, NULL, &cut_at, f, err) ? -1 : 1;
}

int lf_trace_open(const char *path, lf_nettrace *out, lf_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0; /* the dump reader says why */
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 0;
    }
    lf_mapped_file f;
    int rc = map_trace(fd, &f, err);
    close(fd);
    if (rc != 1)
        return rc;
    rc = lf_nettrace_parse(f.data, (size_t)f.size, out, err);
    lf_file_unmap(&f);
    return rc ? -1 : 1;
}
