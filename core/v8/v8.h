/* v8.h - reads V8 heap snapshots (.heapsnapshot: Node.js, Chrome, Electron,
 * Deno) with Chrome DevTools' semantics (docs/V8.md). */
#ifndef LF_V8_H
#define LF_V8_H

#include "../base/progress.h"
#include "../model/snapshot.h"

/* Whether the first bytes look like a heap snapshot: {"snapshot": ... */
int lf_v8_detect(const uint8_t *head, size_t len);
/* threads: how many threads read the nodes and edges (same result for any). */
/* partial: a snapshot cut off after its nodes array is read up to the cut
 * (edges up to the last whole row, names past the strings read become
 * "(name cut off)") instead of being an error. */
int lf_v8_parse(const uint8_t *data, uint64_t size, unsigned threads, int partial, lf_snapshot *out,
                lf_error *err);
/* The same, telling progress (NULL: nobody) the bytes of the JSON parsed.
 * fd: the file that data maps, or -1. Its nodes and edges arrays are then
 * read from copies a chunk at a time rather than through the mapping
 * (core/base/file_copy.h says why). */
int lf_v8_parse_reporting(const uint8_t *data, uint64_t size, int fd, unsigned threads, int partial,
                          const lf_progress *progress, lf_snapshot *out, lf_error *err);
/* For tests: the bytes copied at a time (0: the default, 256 KiB). */
void lf_v8_copy_chunk_set(size_t bytes);

/* When a snapshot was taken, as far as V8 says: the largest id of a heap
 * object (LF_CLOCK_V8_IDS), which only grows between snapshots of one
 * process. Read from the file's start, fed in pieces of any size, then a
 * piece of length 0 at the end of the file: lf_v8_clock_feed returns 1
 * once the nodes array has been read, 0 for more, -1 when the bytes do not
 * give it; lf_v8_clock_end frees the scan
 * and gives the clock (none unless whole, i.e. feed returned 1). */
typedef struct lf_v8_clock_scan lf_v8_clock_scan;
lf_v8_clock_scan *lf_v8_clock_begin(void);
int lf_v8_clock_feed(lf_v8_clock_scan *c, const uint8_t *data, size_t len);
lf_clock lf_v8_clock_end(lf_v8_clock_scan *c, int whole);

#endif
