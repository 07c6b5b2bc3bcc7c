/* lfs.h - reading and writing leakfind snapshot files (docs/FORMAT.md). */
#ifndef LF_LFS_H
#define LF_LFS_H

#include "../base/progress.h"
#include "../model/snapshot.h"

int lf_lfs_detect(const uint8_t *data, uint64_t size);
/* Maps the file; validates the header, every chunk's checksum and every index
 * before returning. The snapshot's arrays point into the mapping. */
int lf_lfs_open(const char *path, lf_snapshot *out, lf_error *err);

enum {
    /* Skip checksum comparison (structure is still checked): lets fuzzers reach
     * the structural checks, which are what stands between a hostile file
     * with recomputed checksums and the analysis code. */
    LF_LFS_SKIP_CHECKSUMS = 1u << 0,
};
int lf_lfs_open_flags(const char *path, unsigned flags, lf_snapshot *out, lf_error *err);
/* The same for the regular file open on fd (which stays open). */
int lf_lfs_open_fd(int fd, unsigned flags, lf_snapshot *out, lf_error *err);
/* The same, telling progress (NULL: nobody) the bytes checked (stage
 * "checking"), of the file's size. */
int lf_lfs_open_fd_reporting(int fd, unsigned flags, const lf_progress *progress, lf_snapshot *out,
                             lf_error *err);
/* When the snapshot in the regular file open on fd was taken, from its
 * header and META alone (checked as an open checks them); LF_CLOCK_NONE
 * when it does not say or cannot be read. *source: the format the graph
 * came from (LF_FORMAT_UNKNOWN when unreadable). */
lf_clock lf_lfs_clock_fd(int fd, lf_source_format *source);
/* Writes s (with its analysis when present) to fd, front to back with no
 * seek: fd may be a pipe. */
int lf_lfs_write_fd(const lf_snapshot *s, int fd, lf_error *err);
/* Writes s to path as outfile.h says (a temporary file renamed into place
 * when complete; a FIFO or device written into). */
int lf_lfs_write(const lf_snapshot *s, const char *path, lf_error *err);

#endif
