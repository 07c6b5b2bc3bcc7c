/* file.h - whole-file access for readers: memory-mapped when the file is
 * regular, read into memory otherwise (pipes, /dev/stdin). */
#ifndef LF_FILE_H
#define LF_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct lf_mapped_file {
    const uint8_t *data;
    uint64_t size;
    void *map;          /* munmap on close, or NULL */
    void *heap;         /* free on close, or NULL */
} lf_mapped_file;

int lf_file_map(const char *path, lf_mapped_file *f, lf_error *err);
void lf_file_unmap(lf_mapped_file *f);
/* Reads up to `want` bytes from the start of the file into buf; returns count or -1. */
int64_t lf_file_head(const char *path, uint8_t *buf, size_t want, lf_error *err);

#endif
