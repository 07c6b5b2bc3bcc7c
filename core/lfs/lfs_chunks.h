/* lfs_chunks.h - the parts of writing a leakfind file that a writer other
 * than lf_lfs_write shares (core/writer/lfs_stream.c writes its chunks as
 * they come and the header last). */
#ifndef LF_LFS_CHUNKS_H
#define LF_LFS_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "lfs_format.h"
#include "../model/snapshot.h"

/* One entry of the chunk table: data is only read by lf_lfs_write. */
typedef struct chunk_out {
    uint32_t id;
    const void *data;
    uint64_t size;
    uint64_t offset;
    uint64_t hash;
} chunk_out;

/* A u64 per META field, in order (lfs_format.h), from s's counts. */
void lf_lfs_fill_meta(const lf_snapshot *s, int has_analysis, int has_sites,
                      uint64_t meta_field[LFS_META_FIELDS]);
/* The header and the chunk table into head; returns their length, or 0
 * when there is no memory for the checksum. */
size_t lf_lfs_fill_head(const chunk_out *chunk, unsigned count, uint64_t file_size,
                        uint8_t head[LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE]);

#endif
