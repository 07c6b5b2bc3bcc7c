/* open.c - format detection and dispatch to the readers. */
#include "open.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/file.h"
#include "elf_core.h"
#include "../gcdump/gcdump.h"
#include "gunzip.h"
#include "../hprof/hprof.h"
#include "../lfs/lfs.h"
#include "../memtrace/memtrace.h"
#include "not_a_dump.h"
#include "../textgraph/textgraph.h"
#include "../v8/v8.h"

lf_source_format lf_detect_format(const uint8_t *head, size_t len)
{
    if (lf_lfs_detect(head, len))
        return LF_FORMAT_LFS;
    if (lf_hprof_detect(head, len))
        return LF_FORMAT_HPROF;
    if (lf_v8_detect(head, len))
        return LF_FORMAT_V8;
    if (lf_gcdump_detect(head, len))
        return LF_FORMAT_GCDUMP;
    if (lf_textgraph_detect(head, len))
        return LF_FORMAT_TEXT;
    if (lf_mt_detect(head, len))
        return LF_FORMAT_MEMTRACE;
    return LF_FORMAT_UNKNOWN;
}

const char *lf_format_name(lf_source_format f)
{
    switch (f) {
    case LF_FORMAT_TEXT: return "text graph";
    case LF_FORMAT_LFS: return "leakfind";
    case LF_FORMAT_HPROF: return "hprof";
    case LF_FORMAT_V8: return "v8";
    case LF_FORMAT_GCDUMP: return "gcdump";
    case LF_FORMAT_MEMTRACE: return "memtrace";
    default: return "unknown";
    }
}

/* Parses an in-memory dump of a known format. */
/* fd: the file f maps (-1: f holds other bytes, an inflated gzip). */
static int parse_mapped(lf_source_format fmt, const lf_mapped_file *f, int fd, const lf_open_options *opt,
                        lf_snapshot *out, lf_error *err)
{
    if (fmt == LF_FORMAT_TEXT)
        return lf_textgraph_parse(f->data, f->size, out, err);
    if (fmt == LF_FORMAT_V8)
        return lf_v8_parse_reporting(f->data, f->size, fd, opt->threads, opt->partial, opt->progress, out, err);
    if (fmt == LF_FORMAT_GCDUMP)
        return lf_gcdump_parse(f->data, f->size, opt->progress, out, err);
    unsigned flags = opt->hprof_flags | (opt->partial ? LF_HPROF_PARTIAL : 0);
    return lf_hprof_parse_reporting(f->data, f->size, flags, opt->threads, opt->progress, out, err);
}

/* A trace is no snapshot: the commands that read one ask lf_open_is_trace first. */
static int refuse_trace(lf_error *err)
{
    return lf_fail_at(err, 0, "a Memtrace trace, not a heap dump",
                      "info, sites, suspects and report read traces (docs/MEMTRACE.md)");
}

int lf_open_is_trace(int fd)
{
    uint8_t head[4];
    lf_error err;
    int64_t got = lf_file_head_fd(fd, head, sizeof head, &err);
    if (got < 0)
        return 0;
    if (lf_mt_detect(head, (size_t)got))
        return 1;
    if (!lf_gzip_detect(head, (uint64_t)got))
        return 0;
    return lf_gzip_head_fd(fd, head, sizeof head) == (int64_t)sizeof head &&
           lf_mt_detect(head, sizeof head);
}

/* Reads the regular file open on fd. */
static int open_regular(int fd, const lf_open_options *opt, lf_snapshot *out, lf_error *err)
{
    uint8_t head[4096];
    int64_t got = lf_file_head_fd(fd, head, sizeof head, err);
    if (got < 0)
        return -1;
    lf_mapped_file f;
    uint64_t gzip_cut_at = 0;
    int mapped_fd = -1;
    lf_source_format fmt = lf_detect_format(head, (size_t)got);
    if (fmt == LF_FORMAT_LFS)
        return lf_lfs_open_fd_reporting(fd, 0, opt->progress, out, err);
    if (fmt == LF_FORMAT_MEMTRACE || lf_open_is_trace(fd))
        return refuse_trace(err);
    if (fmt == LF_FORMAT_TEXT || fmt == LF_FORMAT_HPROF || fmt == LF_FORMAT_V8 || fmt == LF_FORMAT_GCDUMP) {
        if (lf_file_map_fd(fd, &f, err))
            return -1;
        mapped_fd = fd;
    } else if (lf_gzip_detect(head, (uint64_t)got)) {
        if (lf_gunzip_map_fd(fd, opt->partial, opt->progress, &gzip_cut_at, &f, err))
            return -1;
        fmt = lf_detect_format(f.data, f.size < 4096 ? (size_t)f.size : 4096);
        if (fmt != LF_FORMAT_TEXT && fmt != LF_FORMAT_HPROF && fmt != LF_FORMAT_V8 && fmt != LF_FORMAT_GCDUMP) {
            const char *what = lf_not_a_dump_describe(f.data, f.size < 4096 ? (size_t)f.size : 4096);
            lf_file_unmap(&f);
            return what ? lf_fail_at(err, 0, "not a heap dump", "a gzip file holding %s", what)
                        : lf_fail_at(err, 0, "not a heap dump", "a gzip file holding something else");
        }
    } else if (got == 0) {
        return lf_fail_at(err, 0, "not a heap dump", "the file is empty");
    } else if (lf_elf_core_runtime_fd(fd) == LF_CORE_DOTNET) {
        /* the leakfind command converts it first (cmd/cli/dotnet_core.c); the library runs nothing */
        return lf_fail_at(err, 0, "not a heap dump",
                          "a .NET core dump (it maps libcoreclr.so): the leakfind command reads one "
                          "from its path through its .NET agent (docs/DOTNET.md)");
    } else {
        const char *what = lf_not_a_dump_describe(head, (size_t)got);
        return what ? lf_fail_at(err, 0, "not a heap dump", "%s", what)
                    : lf_fail_at(err, 0, "not a heap dump", "unrecognised first bytes");
    }
    int rc = parse_mapped(fmt, &f, mapped_fd, opt, out, err);
    if (rc == 0 && gzip_cut_at) {
        out->flags |= LF_SNAP_PARTIAL;
        out->stats.gzip_cut_at = gzip_cut_at;
        if (!out->stats.cut_at) /* the inflated part ended on a record boundary */
            out->stats.cut_at = f.size;
    }
    if (rc == 0 && (fmt == LF_FORMAT_HPROF || fmt == LF_FORMAT_V8 || fmt == LF_FORMAT_GCDUMP)) {
        /* the snapshot reads labels (JVM ids, .NET addresses) from the dump (lf_lazy_fields) */
        lf_file_release_pages(&f);
        out->map = f.map;
        out->map_size = (size_t)f.size;
        return 0;
    }
    lf_file_unmap(&f);
    return rc;
}

int lf_open_fd(int fd, const lf_open_options *options, lf_snapshot *out, lf_error *err)
{
    static const lf_open_options defaults = {0, 1, 0, NULL};
    const lf_open_options *opt = options ? options : &defaults;
    struct stat st;
    if (fstat(fd, &st) < 0)
        return lf_fail_errno(err, "cannot stat", errno);
    if (S_ISDIR(st.st_mode))
        return lf_fail(err, LF_ERR_INPUT, "is a directory");
    if (S_ISREG(st.st_mode))
        return open_regular(fd, opt, out, err);
    /* A pipe's bytes can be read once: keep them, then read the copy. */
    int spooled;
    if (lf_file_spool(fd, &spooled, err))
        return -1;
    int rc = open_regular(spooled, opt, out, err);
    close(spooled); /* a mapping keeps the unlinked copy alive */
    return rc;
}

int lf_open(const char *path, const lf_open_options *options, lf_snapshot *out, lf_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return lf_fail_errno(err, "cannot open", errno);
    int rc = lf_open_fd(fd, options, out, err);
    close(fd);
    return rc;
}
