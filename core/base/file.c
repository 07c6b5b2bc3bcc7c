/* file.c - mapping input files, and spooling those that cannot be mapped. */
#include "file.h"
#include "available.h"
#include "resident.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

int lf_file_map_fd(int fd, lf_mapped_file *f, lf_error *err)
{
    memset(f, 0, sizeof *f);
    struct stat st;
    if (fstat(fd, &st) < 0)
        return lf_fail_errno(err, "cannot stat", errno);
    if (S_ISDIR(st.st_mode))
        return lf_fail(err, LF_ERR_INPUT, "is a directory");
    if (!S_ISREG(st.st_mode))
        return lf_fail(err, LF_ERR_INPUT, "not a regular file");
    f->size = (uint64_t)st.st_size;
    if (f->size == 0) {
        f->data = (const uint8_t *)"";
        return 0;
    }
    void *m = mmap(NULL, (size_t)f->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
        f->size = 0;
        return lf_fail_errno(err, "cannot map", errno);
    }
    f->map = m;
    f->data = m;
    /* readers walk the file front to back */
    madvise(m, (size_t)f->size, MADV_SEQUENTIAL);
    lf_resident_track(m, (size_t)f->size);
    return 0;
}

int lf_file_map(const char *path, lf_mapped_file *f, lf_error *err)
{
    memset(f, 0, sizeof *f);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return lf_fail_errno(err, "cannot open", errno);
    int spooled = -1;
    struct stat st;
    int rc = fstat(fd, &st) < 0 ? lf_fail_errno(err, "cannot stat", errno) : 0;
    if (rc == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        rc = lf_file_spool(fd, &spooled, err);
    if (rc == 0)
        rc = lf_file_map_fd(spooled >= 0 ? spooled : fd, f, err);
    if (spooled >= 0)
        close(spooled); /* the mapping keeps the unlinked file alive */
    close(fd);
    return rc;
}

void lf_file_unmap(lf_mapped_file *f)
{
    if (f->map) {
        lf_resident_untrack(f->map);
        munmap(f->map, (size_t)f->size);
    }
    memset(f, 0, sizeof *f);
}

void lf_file_release_pages(const lf_mapped_file *f)
{
    if (f->map)
        (void)madvise(f->map, (size_t)f->size, MADV_DONTNEED); /* only memory: may fail */
}

void lf_file_populate(const uint8_t *p, uint64_t n)
{
#ifdef MADV_POPULATE_READ
    const uintptr_t page = 4096;
    uintptr_t lo = (uintptr_t)p & ~(page - 1);
    if (!p || n == 0 || n > lf_available_memory() / 4)
        return;
    (void)madvise((void *)lo, (size_t)((uintptr_t)p + n - lo), MADV_POPULATE_READ); /* advice: failure costs time */
#else
    (void)p;
    (void)n;
#endif
}

int lf_open_regular(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    return open(path, O_RDONLY | O_CLOEXEC);
}

int64_t lf_file_head_fd(int fd, uint8_t *buf, size_t want, lf_error *err)
{
    size_t got = 0;
    while (got < want) {
        ssize_t r = pread(fd, buf + got, want - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return lf_fail_errno(err, "cannot read", errno);
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (int64_t)got;
}

/* statfs's f_type of the file systems that keep files in memory
 * (linux/magic.h) */
#define TMPFS_MAGIC_NUMBER 0x01021994u
#define RAMFS_MAGIC_NUMBER 0x858458f6u

int lf_dir_in_memory(const char *dir)
{
    struct statfs fs;
    return statfs(dir, &fs) == 0 &&
           ((uint64_t)fs.f_type == TMPFS_MAGIC_NUMBER || (uint64_t)fs.f_type == RAMFS_MAGIC_NUMBER);
}

/* $TMPDIR when set. Else /tmp, unless /tmp is a tmpfs (as on many systems)
 * and /var/tmp is on disk: files there would hold RAM, which is what the
 * inflated dump, the results and spilled arrays go to files to spare. */
const char *lf_temp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    if (dir && *dir)
        return dir;
    return lf_dir_in_memory("/tmp") && access("/var/tmp", W_OK) == 0 && !lf_dir_in_memory("/var/tmp")
               ? "/var/tmp"
               : "/tmp";
}

int lf_temp_file(lf_error *err)
{
    const char *dir = lf_temp_dir();
    int fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    int e = errno;
    if (e == EOPNOTSUPP || e == EISDIR || e == EINVAL) { /* no O_TMPFILE here: name, then unlink */
        size_t len = strlen(dir);
        char *name = malloc(len + sizeof "/leakfind-XXXXXX");
        if (!name)
            return lf_fail_nomem(err, "creating a temporary file");
        memcpy(name, dir, len);
        memcpy(name + len, "/leakfind-XXXXXX", sizeof "/leakfind-XXXXXX");
        fd = mkostemp(name, O_CLOEXEC);
        e = errno;
        if (fd >= 0)
            unlink(name);
        free(name);
        if (fd >= 0)
            return fd;
    }
    return lf_fail(err, LF_ERR_SYSTEM, "cannot create a temporary file in %s ($TMPDIR): %s", dir,
                   strerror(e));
}

int lf_write_all(int fd, const void *data, uint64_t size)
{
    const uint8_t *p = data;
    while (size > 0) {
        size_t step = size > (1u << 30) ? (1u << 30) : (size_t)size;
        ssize_t w = write(fd, p, step);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        if (w == 0) {
            errno = EIO;
            return -1;
        }
        p += w;
        size -= (uint64_t)w;
    }
    return 0;
}

int lf_file_spool(int in_fd, int *out_fd, lf_error *err)
{
    *out_fd = -1;
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    if (!buf)
        return lf_fail_nomem(err, "reading the input");
    int tmp = lf_temp_file(err);
    if (tmp < 0) {
        free(buf);
        return -1;
    }
    int rc = 0;
    for (;;) {
        ssize_t got = read(in_fd, buf, CHUNK);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            rc = lf_fail_errno(err, "cannot read", errno);
            break;
        }
        if (got == 0)
            break;
        if (lf_write_all(tmp, buf, (uint64_t)got)) {
            rc = lf_fail(err, LF_ERR_SYSTEM, "cannot copy the input to a temporary file in %s ($TMPDIR): %s",
                         lf_temp_dir(), strerror(errno));
            break;
        }
    }
    free(buf);
    if (rc) {
        close(tmp);
        return rc;
    }
    *out_fd = tmp;
    return 0;
}
