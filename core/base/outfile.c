/* outfile.c - opening, committing and abandoning the files leakfind writes. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static _Atomic(const char *) pending_temp;

const char *lf_outfile_pending_temp(void)
{
    return atomic_load(&pending_temp);
}

/* path with its trailing component replaced by link (a relative link target
 * is relative to the link's directory). */
static char *beside(const char *path, const char *link)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = link[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
    size_t link_len = strlen(link);
    char *p = malloc(dir_len + link_len + 1);
    if (p) {
        memcpy(p, path, dir_len);
        memcpy(p + dir_len, link, link_len + 1);
    }
    return p;
}

/* The file a write to path creates when path does not resolve to an
 * existing file: path itself, or the end of its chain of (dangling)
 * symlinks. NULL with errno set on failure. */
static char *dangling_target(const char *path)
{
    char *p = strdup(path);
    char link[PATH_MAX];
    for (int hops = 0; p && hops < 40; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
            return p;
        ssize_t n = readlink(p, link, sizeof link - 1);
        if (n < 0) {
            free(p);
            return NULL;
        }
        link[n] = '\0';
        char *next = beside(p, link);
        free(p);
        p = next;
    }
    if (p) {
        free(p);
        errno = ELOOP;
    }
    return NULL;
}

/* Creates target's temporary file next to it, with the usual 0666 less the
 * umask (mkstemp creates 0600). */
static int create_temp(lf_outfile *o, lf_error *err)
{
    size_t len = strlen(o->target);
    o->temp = malloc(len + sizeof ".tmp.XXXXXX");
    if (!o->temp)
        return lf_fail_nomem(err, "writing");
    memcpy(o->temp, o->target, len);
    memcpy(o->temp + len, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    o->fd = mkostemp(o->temp, O_CLOEXEC);
    if (o->fd < 0) {
        int e = errno;
        free(o->temp);
        o->temp = NULL;
        return lf_fail_errno(err, "cannot create output", e);
    }
    atomic_store(&pending_temp, o->temp);
    mode_t mask = umask(0);
    umask(mask);
    fchmod(o->fd, 0666 & ~mask);
    o->close_fd = 1;
    return 0;
}

int lf_outfile_open(const char *path, unsigned flags, lf_outfile *o, lf_error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return lf_fail_errno(err, "cannot write output", EISDIR);
        if (!S_ISREG(st.st_mode)) {
            if (flags & LF_OUTFILE_REGULAR_ONLY)
                return lf_fail(err, LF_ERR_SYSTEM, "cannot write output: not a regular file");
            /* a FIFO blocks here until its reader opens it */
            o->fd = open(path, O_WRONLY | O_CLOEXEC);
            if (o->fd < 0)
                return lf_fail_errno(err, "cannot write output", errno);
            o->close_fd = 1;
            return 0;
        }
        o->target = realpath(path, NULL);
    } else if (errno == ENOENT) {
        o->target = dangling_target(path);
    } else {
        return lf_fail_errno(err, "cannot write output", errno);
    }
    if (!o->target)
        return lf_fail_errno(err, "cannot write output", errno);
    if (create_temp(o, err)) {
        free(o->target);
        o->target = NULL;
        return -1;
    }
    return 0;
}

void lf_outfile_use_fd(int fd, lf_outfile *o)
{
    memset(o, 0, sizeof *o);
    o->fd = fd;
}

static void release(lf_outfile *o)
{
    atomic_store(&pending_temp, NULL);
    free(o->temp);
    free(o->target);
    memset(o, 0, sizeof *o);
    o->fd = -1;
}

int lf_outfile_commit(lf_outfile *o, lf_error *err)
{
    int e = 0;
    if (o->close_fd && close(o->fd) != 0)
        e = errno;
    if (!e && o->temp && rename(o->temp, o->target) != 0)
        e = errno;
    if (e && o->temp)
        unlink(o->temp);
    release(o);
    return e ? lf_fail_errno(err, "cannot write output", e) : 0;
}

void lf_outfile_abort(lf_outfile *o)
{
    if (o->close_fd)
        close(o->fd);
    if (o->temp)
        unlink(o->temp);
    release(o);
}
