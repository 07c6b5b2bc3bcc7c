/* hprof.h - reads Java heap dumps: HPROF 1.0.1 and 1.0.2 (HotSpot) and 1.0.3
 * (Android ART), 4- and 8-byte ids, plain or gzip-compressed. */
#ifndef LF_HPROF_H
#define LF_HPROF_H

#include "../base/progress.h"
#include "../model/snapshot.h"

enum {
    LF_HPROF_SOFT_STRONG = 1u << 0, /* SoftReference.referent counts as ownership */
    LF_HPROF_ALL_STRONG = 1u << 1,  /* every Reference.referent does (Eclipse MAT's numbers) */
    /* A dump cut off mid-write is read up to its last complete record (or
     * heap sub-record) instead of being an error; see lf_snapshot_stats. */
    LF_HPROF_PARTIAL = 1u << 2,
};

int lf_hprof_detect(const uint8_t *data, uint64_t size);
/* When the dump was written, from its first bytes (the header's
 * milliseconds since 1970 after the version string and the id size);
 * LF_CLOCK_NONE when the bytes are not a whole header or the time is 0. */
lf_clock lf_hprof_header_clock(const uint8_t *head, uint64_t len);
/* threads: how many threads read the heap records (the result is the same
 * for any number). */
int lf_hprof_parse(const uint8_t *data, uint64_t size, unsigned flags, unsigned threads,
                   lf_snapshot *out, lf_error *err);
/* The same, telling progress (NULL: nobody) the heap bytes each of its three
 * passes has walked. */
int lf_hprof_parse_reporting(const uint8_t *data, uint64_t size, unsigned flags, unsigned threads,
                             const lf_progress *progress, lf_snapshot *out, lf_error *err);

#endif
