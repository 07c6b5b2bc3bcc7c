/* open.c - format detection and dispatch to the readers. */
#include "open.h"

#include <string.h>

#include "file.h"
#include "gunzip.h"
#include "hprof.h"
#include "lfs.h"
#include "textgraph.h"
#include "v8.h"

lf_source_format lf_detect_format(const uint8_t *head, size_t len)
{
    if (lf_lfs_detect(head, len))
        return LF_FORMAT_LFS;
    if (lf_hprof_detect(head, len))
        return LF_FORMAT_HPROF;
    if (lf_v8_detect(head, len))
        return LF_FORMAT_V8;
    if (lf_textgraph_detect(head, len))
        return LF_FORMAT_TEXT;
    return LF_FORMAT_UNKNOWN;
}

const char *lf_format_name(lf_source_format f)
{
    switch (f) {
    case LF_FORMAT_TEXT: return "text graph";
    case LF_FORMAT_LFS: return "leakfind";
    case LF_FORMAT_HPROF: return "hprof";
    case LF_FORMAT_V8: return "v8";
    default: return "unknown";
    }
}

/* Parses an in-memory dump of a known format. */
static int parse_mapped(lf_source_format fmt, const lf_mapped_file *f, const lf_open_options *opt,
                        lf_snapshot *out, lf_error *err)
{
    if (fmt == LF_FORMAT_TEXT)
        return lf_textgraph_parse(f->data, f->size, out, err);
    if (fmt == LF_FORMAT_V8)
        return lf_v8_parse(f->data, f->size, opt->threads, opt->partial, out, err);
    unsigned flags = opt->hprof_flags | (opt->partial ? LF_HPROF_PARTIAL : 0);
    return lf_hprof_parse(f->data, f->size, flags, opt->threads, out, err);
}

int lf_open(const char *path, const lf_open_options *options, lf_snapshot *out, lf_error *err)
{
    static const lf_open_options defaults = {0, 1, 0};
    const lf_open_options *opt = options ? options : &defaults;
    uint8_t head[4096];
    int64_t got = lf_file_head(path, head, sizeof head, err);
    if (got < 0)
        return -1;
    lf_mapped_file f;
    uint64_t gzip_cut_at = 0;
    lf_source_format fmt = lf_detect_format(head, (size_t)got);
    if (fmt == LF_FORMAT_LFS)
        return lf_lfs_open(path, out, err);
    if (fmt == LF_FORMAT_TEXT || fmt == LF_FORMAT_HPROF || fmt == LF_FORMAT_V8) {
        if (lf_file_map(path, &f, err))
            return -1;
    } else if (lf_gzip_detect(head, (uint64_t)got)) {
        if (lf_gunzip_map(path, opt->partial, &gzip_cut_at, &f, err))
            return -1;
        fmt = lf_detect_format(f.data, f.size < 4096 ? (size_t)f.size : 4096);
        if (fmt != LF_FORMAT_TEXT && fmt != LF_FORMAT_HPROF && fmt != LF_FORMAT_V8) {
            lf_file_unmap(&f);
            return lf_fail_at(err, 0, "not a heap dump", "a gzip file holding something else");
        }
    } else if (got == 0) {
        return lf_fail_at(err, 0, "not a heap dump", "the file is empty");
    } else {
        return lf_fail_at(err, 0, "not a heap dump", "unrecognised first bytes");
    }
    int rc = parse_mapped(fmt, &f, opt, out, err);
    if (rc == 0 && gzip_cut_at) {
        out->flags |= LF_SNAP_PARTIAL;
        out->stats.gzip_cut_at = gzip_cut_at;
        if (!out->stats.cut_at) /* the inflated part ended on a record boundary */
            out->stats.cut_at = f.size;
    }
    if (rc == 0 && (fmt == LF_FORMAT_HPROF || fmt == LF_FORMAT_V8)) {
        /* the snapshot reads labels (and JVM ids) from the dump (lf_lazy_fields) */
        if (f.heap && !lf_snapshot_own(out, f.heap)) {
            lf_snapshot_free(out);
            lf_file_unmap(&f);
            return lf_fail_nomem(err, "reading the dump");
        }
        out->map = f.map;
        out->map_size = (size_t)f.size;
        return 0;
    }
    lf_file_unmap(&f);
    return rc;
}
