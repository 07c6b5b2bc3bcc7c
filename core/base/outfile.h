/* outfile.h - where and how a file leakfind writes (convert -o, a cache) is
 * written, decided and checked before the work that fills it starts:
 *
 * - a path that does not exist, or names a regular file: a temporary file
 *   next to it, renamed over it when complete (readers never see half);
 * - a symlink (even a dangling one): followed, its target replaced that way,
 *   the link kept;
 * - an existing file that is not regular (a FIFO, /dev/stdout, a device):
 *   written into directly, as `cat >` would; a rename would replace it;
 * - an open descriptor (standard output for `-o -`): written into.
 *
 * One output at a time has a temporary file (lf_outfile_pending_temp). */
#ifndef LF_OUTFILE_H
#define LF_OUTFILE_H

#include "error.h"

typedef struct lf_outfile {
    int fd;
    int close_fd;    /* fd is ours to close (not the caller's descriptor) */
    char *temp;      /* the temporary file renamed to target on commit, or NULL */
    char *target;    /* the path temp replaces (symlinks resolved) */
} lf_outfile;

enum {
    /* Refuse an existing file that is not regular (a cache is never written
     * into a FIFO or a device). */
    LF_OUTFILE_REGULAR_ONLY = 1u << 0,
};

/* Opens path for writing per the rules above: the temporary file is created
 * (or the FIFO or device opened) now, so a directory that cannot be written
 * fails here. Returns 0 or -1 (err: system). */
int lf_outfile_open(const char *path, unsigned flags, lf_outfile *o, lf_error *err);
/* Writes into fd, which stays the caller's. */
void lf_outfile_use_fd(int fd, lf_outfile *o);
/* Finishes: closes, and renames the temporary file into place. On failure
 * the temporary file is removed. Returns 0 or -1 (err: system). */
int lf_outfile_commit(lf_outfile *o, lf_error *err);
/* Gives up: closes and removes the temporary file. */
void lf_outfile_abort(lf_outfile *o);
/* The temporary file an output has open, or NULL: a signal handler of the
 * program's may unlink it (async-signal-safe: one atomic load). */
const char *lf_outfile_pending_temp(void);

#endif
