/* gunzip.h - a gzip-compressed dump, inflated once into an unlinked temporary
 * file (in $TMPDIR, see lf_temp_file) and mapped: readers then see plain
 * bytes. Memory stays bounded (the page cache holds the data, not the
 * process), and the readers' passes over the file cost one inflate instead of
 * one each. Every gzip member is read (HotSpot's -gz output is a series of
 * members). */
#ifndef LF_GUNZIP_H
#define LF_GUNZIP_H

#include "../base/file.h"
#include "../base/progress.h"

int lf_gzip_detect(const uint8_t *data, uint64_t size);
/* The first `want` inflated bytes of the gzip file open on fd (read with
 * pread-like care: fd's offset is left alone); how many there are, -1 when
 * they cannot be read. */
int64_t lf_gzip_head_fd(int fd, uint8_t *buf, size_t want);
/* Inflates the regular file open on fd, from its start (fd's offset moves;
 * fd stays open). A cut-off stream is an error, unless partial: then the
 * bytes inflated before the cut are mapped and *cut_at is the compressed
 * offset of the cut (0 when the stream is whole). */
/* progress (NULL: nobody) hears of the compressed bytes inflated, of the
 * file's size, as stage "inflating". */
int lf_gunzip_map_fd(int fd, int partial, const lf_progress *progress, uint64_t *cut_at,
                     lf_mapped_file *out, lf_error *err);

#endif
