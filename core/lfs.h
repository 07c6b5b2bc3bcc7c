/* lfs.h - reading and writing leakfind snapshot files (docs/FORMAT.md). */
#ifndef LF_LFS_H
#define LF_LFS_H

#include "snapshot.h"

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
/* Writes s (with its analysis when present) to path through a temporary file
 * in the same directory, renamed into place only when complete. */
int lf_lfs_write(const lf_snapshot *s, const char *path, lf_error *err);
/* The temporary file a write has open, or NULL: a signal handler of the
 * program's may unlink it (async-signal-safe: one atomic load). */
const char *lf_lfs_pending_temp(void);

#endif
