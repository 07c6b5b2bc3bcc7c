/* cache.c - keys and lookup for the cache of an analysed dump. */
#include "cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "../lfs/lfs.h"

enum { KEY_SPAN = 1 << 20 }; /* bytes hashed at each end of the dump */

static int read_at(int fd, uint8_t *buf, size_t len, uint64_t at)
{
    size_t got = 0;
    while (got < len) {
        ssize_t r = pread(fd, buf + got, len - got, (off_t)(at + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

int lf_cache_key_fd(int fd, const lf_open_options *opt, lf_source_key *key, lf_error *err)
{
    memset(key, 0, sizeof *key);
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode))
        return lf_fail_at(err, 0, "cannot cache", "not a regular file");
    uint64_t size = (uint64_t)st.st_size;
    size_t head = size < KEY_SPAN ? (size_t)size : KEY_SPAN;
    size_t tail = size - head < KEY_SPAN ? (size_t)(size - head) : KEY_SPAN;
    uint8_t *buf = malloc(head + tail + 1);
    if (!buf)
        return lf_fail_nomem(err, "hashing the dump");
    int rc = read_at(fd, buf, head, 0) || read_at(fd, buf + head, tail, size - tail);
    if (rc) {
        free(buf);
        return lf_fail_at(err, 0, "cannot read", "the file changed while it was read");
    }
    key->size = size;
    key->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
    key->hash = XXH3_64bits(buf, head + tail);
    key->options = (uint64_t)(opt ? opt->hprof_flags : 0) | (uint64_t)(opt && opt->partial) << 16 |
                   (uint64_t)LF_CACHE_GENERATION << 32;
    free(buf);
    return 0;
}

char *lf_cache_path(const char *path)
{
    static const char suffix[] = ".leakfind-cache";
    size_t len = strlen(path);
    char *p = malloc(len + sizeof suffix);
    if (p) {
        memcpy(p, path, len);
        memcpy(p + len, suffix, sizeof suffix);
    }
    return p;
}

int lf_cache_open(const char *cache_path, const lf_source_key *key, lf_snapshot *out,
                  const char **why)
{
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(cache_path, &st) != 0) {
        *why = "none";
        return 1;
    }
    if (!S_ISREG(st.st_mode)) { /* opening a FIFO would wait for a writer */
        *why = "unreadable";
        return 1;
    }
    lf_error err;
    if (lf_lfs_open(cache_path, out, &err)) {
        *why = "unreadable";
        return 1;
    }
    if (memcmp(&out->source_key, key, sizeof *key) != 0) {
        lf_snapshot_free(out);
        memset(out, 0, sizeof *out);
        *why = "stale";
        return 1;
    }
    *why = "used";
    return 0;
}
