/* file_copy.h - parts of a file copied through pread() into one buffer.
 *
 * A reader that scans most of a big file once is faster copying it a MiB
 * at a time into a buffer that stays in the CPU's caches than touching it
 * through the file's mapping, on a virtual machine that shadows the
 * guest's page tables (this project's: a PVM guest). There the first touch
 * of each 4 KiB page of a mapping costs about 2 us in every process: the
 * 191 MB Express snapshot, just written (64 KiB folios in the page cache),
 * took 85-110 ms to scan through its mapping and 9 ms copied (BENCHMARKS.md
 * 1.3.3). A file read in with a large readahead sits in 2 MiB folios,
 * mapped a 2 MiB page at a time, and costs about the same either way; so
 * does a file on real hardware, where a copy and a page fault cost alike.
 * The mapping stays the reader's view of the rest (lookups here and there). */
#ifndef LF_FILE_COPY_H
#define LF_FILE_COPY_H

#include <stddef.h>
#include <stdint.h>

typedef struct lf_file_copy {
    int fd;
    uint8_t *buf;
    size_t cap;
} lf_file_copy;

/* A buffer of cap bytes for the regular file open on fd (which stays the
 * caller's); -1 when there is no memory for it. */
int lf_file_copy_open(lf_file_copy *c, int fd, size_t cap);
/* Bytes [at, at + n) of the file, n <= cap, in the buffer; NULL when read()
 * fails or the file ends before at + n (the caller then reads its mapping,
 * which says the same as the file did when it was mapped). */
const uint8_t *lf_file_copy_read(lf_file_copy *c, uint64_t at, size_t n);
void lf_file_copy_close(lf_file_copy *c);

#endif
