/* estimate.c - the big arrays' peak from the file's size and format. */
#include "estimate.h"
#include "gunzip.h"
#include "../base/file.h"
#include "open.h"

#include <string.h>
#include <sys/stat.h>

/* Tenths of a byte of big arrays per byte of input, working arrays at
 * their peak and results, each rounded up from `info -v` on the benchmark
 * inputs (big_arrays_ram_peak_bytes with the result store off and on,
 * result_store_peak_bytes): HPROF, the 1.4 GB JVM dump; V8, the 1.1 GB
 * Node snapshot; .lfs, synth-30m.lfs without a stored analysis; .gcdump,
 * the benchmark's 10M-node file (a node takes 18 bytes of it, so the
 * arrays outweigh the file); text graphs are not measured (a line is
 * longer than its arrays). `written`, the files' peak with every array in
 * one: HPROF from the sampled peaks of docs/MEMORY.md, "On disk" (47.9
 * bytes per object, 49.35 had every page been written, on the 46-byte
 * objects of the 8-byte-id dump: 1.07 per byte; 47.0 on the 31.4-byte
 * objects of the 4-byte-id one, 1.0 per byte before its 1.5); the other
 * formats were not measured so: every array whole, work + results. */
typedef struct per_byte {
    uint64_t work, results, written;
} per_byte;
enum { PER_TENTHS = 10 };
/* gzip: what the dumps in fixtures/ and the benchmarks compress by, at most. */
enum { GZIP_RATIO = 8 };

static per_byte tenths_per_byte(lf_source_format f)
{
    switch (f) {
    case LF_FORMAT_HPROF: return (per_byte){7, 10, 11};
    case LF_FORMAT_V8: return (per_byte){6, 7, 13};
    case LF_FORMAT_LFS: return (per_byte){8, 5, 13};
    case LF_FORMAT_TEXT: return (per_byte){10, 10, 20};
    case LF_FORMAT_GCDUMP: return (per_byte){32, 15, 47};
    default: return (per_byte){0, 0, 0}; /* not a dump: the reader says so */
    }
}

/* A dump with 4-byte ids (ART, a 32-bit VM) packs the same objects in
 * fewer bytes: gen_hprof_big's heap takes 31.5 bytes per object with them
 * against 46 with 8-byte ids (issue 52), so its arrays weigh 1.46 times as
 * much per byte. The id size is the u4 after the version's NUL. */
static per_byte hprof_per_byte(const uint8_t *head, size_t len)
{
    per_byte per = tenths_per_byte(LF_FORMAT_HPROF);
    const uint8_t *nul = memchr(head, 0, len);
    if (nul && (size_t)(nul - head) + 5 <= len && nul[4] == 4 && !nul[1] && !nul[2] && !nul[3])
        per = (per_byte){per.work * 3 / 2, per.results * 3 / 2, per.written * 3 / 2};
    return per;
}

static lf_big_estimate scaled(uint64_t size, per_byte per)
{
    return (lf_big_estimate){size * per.work / PER_TENTHS, size * per.results / PER_TENTHS,
                             size * per.written / PER_TENTHS};
}

lf_big_estimate lf_estimate_big_bytes(int fd)
{
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode))
        return (lf_big_estimate){0, 0, 0};
    uint8_t head[64];
    lf_error err;
    int64_t got = lf_file_head_fd(fd, head, sizeof head, &err);
    if (got <= 0)
        return (lf_big_estimate){0, 0, 0};
    uint64_t size = (uint64_t)st.st_size;
    if (lf_gzip_detect(head, (uint64_t)got)) /* the format inside is not known yet: the most */
        return scaled(size * GZIP_RATIO, (per_byte){10, 10, 20});
    lf_source_format format = lf_detect_format(head, (size_t)got);
    if (format == LF_FORMAT_HPROF)
        return scaled(size, hprof_per_byte(head, (size_t)got));
    return scaled(size, tenths_per_byte(format));
}
