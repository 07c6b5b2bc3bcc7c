/* clock_probe.c - see clock_probe.h. */
#include "clock_probe.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../base/file.h"
#include "../gcdump/gcdump.h"
#include "../hprof/hprof.h"
#include "../lfs/lfs.h"
#include "../v8/v8.h"
#include "gunzip.h"
#include "open.h"

#define HEAD 4096
#define PIECE (1u << 20)

static const lf_clock no_clock = {LF_CLOCK_NONE, 0};

/* The nodes array of a V8 snapshot read through gz (plain or gzip), after
 * the head already read. */
static lf_clock v8_clock(gzFile gz, const uint8_t *head, size_t head_len)
{
    lf_v8_clock_scan *scan = lf_v8_clock_begin();
    uint8_t *piece = malloc(PIECE);
    int rc = scan && piece ? lf_v8_clock_feed(scan, head, head_len) : -1;
    while (rc == 0) {
        int got = gzread(gz, piece, PIECE);
        rc = got >= 0 ? lf_v8_clock_feed(scan, piece, (size_t)got) : -1; /* 0 bytes: the end */
    }
    free(piece);
    return lf_v8_clock_end(scan, rc == 1);
}

/* A .gcdump's time comes after its graph: the whole file is read, mapped
 * (inflated into a temporary file when compressed). */
static lf_clock gcdump_clock(int fd, int compressed)
{
    lf_mapped_file f;
    lf_error err;
    uint64_t cut_at = 0;
    if (lseek(fd, 0, SEEK_SET) < 0 ||
        (compressed ? lf_gunzip_map_fd(fd, 0, NULL, &cut_at, &f, &err) : lf_file_map_fd(fd, &f, &err)))
        return no_clock;
    lf_clock clock = lf_gcdump_clock(f.data, f.size);
    lf_file_unmap(&f);
    return clock;
}

/* Reads through zlib, which passes plain bytes through as they are. */
static lf_clock clock_of_stream(int fd, int compressed, lf_source_format *format)
{
    int copy = dup(fd);
    gzFile gz = copy < 0 ? NULL : gzdopen(copy, "rb");
    if (!gz) {
        if (copy >= 0)
            close(copy);
        return no_clock;
    }
    uint8_t head[HEAD];
    int got = gzread(gz, head, sizeof head);
    lf_source_format fmt = got > 0 ? lf_detect_format(head, (size_t)got) : LF_FORMAT_UNKNOWN;
    lf_clock clock = no_clock;
    if (fmt == LF_FORMAT_HPROF)
        clock = lf_hprof_header_clock(head, (uint64_t)got);
    else if (fmt == LF_FORMAT_V8)
        clock = v8_clock(gz, head, (size_t)got);
    gzclose(gz);
    if (fmt == LF_FORMAT_GCDUMP)
        clock = gcdump_clock(fd, compressed);
    *format = fmt;
    return clock;
}

lf_clock lf_probe_clock(const char *path, lf_source_format *format)
{
    lf_source_format fmt = LF_FORMAT_UNKNOWN;
    lf_clock clock = no_clock;
    int fd = lf_open_regular(path);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        uint8_t head[HEAD];
        ssize_t got = pread(fd, head, sizeof head, 0);
        if (got > 0 && lf_detect_format(head, (size_t)got) == LF_FORMAT_LFS) {
            clock = lf_lfs_clock_fd(fd, &fmt);
        } else if (got > 0) {
            clock = clock_of_stream(fd, lf_gzip_detect(head, (uint64_t)got), &fmt);
        }
    }
    if (fd >= 0)
        close(fd);
    if (format)
        *format = fmt;
    return clock;
}

const char *lf_clock_source(lf_source_format format, lf_clock_kind kind)
{
    if (kind == LF_CLOCK_V8_IDS)
        return "their object ids (V8 numbers objects as it meets them)";
    if (kind != LF_CLOCK_WALL_MS)
        return "nothing";
    return format == LF_FORMAT_HPROF    ? "their HPROF header times"
           : format == LF_FORMAT_GCDUMP ? "the times dotnet-gcdump wrote in them"
                                        : "the times written in them";
}
