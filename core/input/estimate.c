/* estimate.c - the big arrays' peak from the file's size and format. */
#include "estimate.h"
#include "gunzip.h"
#include "../base/file.h"
#include "open.h"

#include <sys/stat.h>

/* Tenths of a byte of big arrays at the peak per byte of input. HPROF:
 * `info -v` on the 1.4 GB benchmark dump (big_arrays_ram_peak_bytes 1.88 GB,
 * 1.37x, with 4-byte sizes and edge offsets; 2.24 GB, 1.63x, before); V8: 1.9x as issue 23 measured (the 1.1 GB benchmark
 * snapshot: 1.09 GB, 1.0x, with 4-byte sizes, 1.16 GB before), kept high;
 * .lfs and text graphs not measured (the .lfs arrays are mostly mapped, a
 * text line is longer than its arrays). */
enum { PER_HPROF = 14, PER_V8 = 20, PER_LFS = 15, PER_TEXT = 20, PER_TENTHS = 10 };
/* gzip: what the dumps in fixtures/ and the benchmarks compress by, at most. */
enum { GZIP_RATIO = 8 };

static uint64_t tenths_per_byte(lf_source_format f)
{
    switch (f) {
    case LF_FORMAT_HPROF: return PER_HPROF;
    case LF_FORMAT_V8: return PER_V8;
    case LF_FORMAT_LFS: return PER_LFS;
    case LF_FORMAT_TEXT: return PER_TEXT;
    default: return 0; /* not a dump: the reader says so */
    }
}

uint64_t lf_estimate_big_bytes(int fd)
{
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode))
        return 0;
    uint8_t head[64];
    lf_error err;
    int64_t got = lf_file_head_fd(fd, head, sizeof head, &err);
    if (got <= 0)
        return 0;
    uint64_t size = (uint64_t)st.st_size;
    if (lf_gzip_detect(head, (uint64_t)got)) /* the format inside is not known yet: the most */
        return size * GZIP_RATIO * PER_V8 / PER_TENTHS;
    return size * tenths_per_byte(lf_detect_format(head, (size_t)got)) / PER_TENTHS;
}
