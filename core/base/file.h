/* file.h - whole-file access for readers. An input is read through one file
 * descriptor, opened once: a regular file is memory-mapped; anything else (a
 * pipe, /dev/stdin, a FIFO, a device) is first spooled into an unlinked
 * temporary file in $TMPDIR, so its bytes are read once and readers still see
 * one mapped file, whatever its size. */
#ifndef LF_FILE_H
#define LF_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct lf_mapped_file {
    const uint8_t *data;
    uint64_t size;
    void *map;          /* munmap on close, or NULL */
} lf_mapped_file;

/* Maps the regular file open on fd (the whole file, whatever fd's offset). */
int lf_file_map_fd(int fd, lf_mapped_file *f, lf_error *err);
int lf_file_map(const char *path, lf_mapped_file *f, lf_error *err);
void lf_file_unmap(lf_mapped_file *f);
/* Lets go of the pages of the mapping this process has touched: they stay
 * in the page cache and come back on the next access. Once a reader is
 * done, the dump is only read here and there (ids, labels), and its pages
 * need not count in the process's resident memory. The mapping is a
 * read-only view of a file, so nothing is lost. */
void lf_file_release_pages(const lf_mapped_file *f);
/* Maps in [p, p + n) of a mapped file that the caller is about to read
 * whole, in one call instead of a page fault per 64 KiB (each fault costs
 * a few microseconds on a virtual machine: 3,400 fewer faults saved about
 * 0.1 s CPU on a 190 MB V8 snapshot). Only when the range takes at most a
 * quarter of the memory available: a bigger one would crowd out the rest. */
void lf_file_populate(const uint8_t *p, uint64_t n);
/* Reads up to `want` bytes from the start of the regular file open on fd;
 * returns the count or -1. */
int64_t lf_file_head_fd(int fd, uint8_t *buf, size_t want, lf_error *err);
/* path opened read-only when it is a regular file, else -1 without opening
 * it: a look ahead of the real read (the format, the clock, the size) must
 * not open a FIFO, whose writer then sees its reader come and go and its
 * bytes are lost to the read that follows, which then waits for ever. */
int lf_open_regular(const char *path);
/* An unlinked temporary file, read-write, in lf_temp_dir():
 * nothing is left behind whatever happens to the process. Returns the
 * descriptor or -1 (err names the directory). */
int lf_temp_file(lf_error *err);
/* The directory lf_temp_file creates in: $TMPDIR, else /tmp, else /var/tmp
 * when /tmp is in memory and /var/tmp is not. */
const char *lf_temp_dir(void);
/* Whether files in dir are held in memory (tmpfs, ramfs). */
int lf_dir_in_memory(const char *dir);
/* Copies everything readable from in_fd (to its end) into an lf_temp_file;
 * *out_fd is that file. A full disk is an error naming $TMPDIR. */
int lf_file_spool(int in_fd, int *out_fd, lf_error *err);

/* Writes all of data to fd, retrying short writes; -1 with errno set. */
int lf_write_all(int fd, const void *data, uint64_t size);

#endif
