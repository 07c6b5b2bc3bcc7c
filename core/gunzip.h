/* gunzip.h - a gzip-compressed dump, inflated once into an unlinked temporary
 * file (in $TMPDIR) and mapped: readers then see plain bytes. Memory stays
 * bounded (the page cache holds the data, not the process), and the readers'
 * passes over the file cost one inflate instead of one each. Every gzip member
 * is read (HotSpot's -gz output is a series of members). */
#ifndef LF_GUNZIP_H
#define LF_GUNZIP_H

#include "file.h"

int lf_gzip_detect(const uint8_t *data, uint64_t size);
int lf_gunzip_map(const char *path, lf_mapped_file *out, lf_error *err);

#endif
