/* open.c - format detection and dispatch to the readers. */
#include "open.h"

#include <string.h>

#include "file.h"
#include "lfs.h"
#include "textgraph.h"

lf_source_format lf_detect_format(const uint8_t *head, size_t len)
{
    if (lf_lfs_detect(head, len))
        return LF_FORMAT_LFS;
    if (len >= 12 && memcmp(head, "JAVA PROFILE", 12) == 0)
        return LF_FORMAT_HPROF;
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

int lf_open(const char *path, lf_snapshot *out, lf_error *err)
{
    uint8_t head[4096];
    int64_t got = lf_file_head(path, head, sizeof head, err);
    if (got < 0)
        return -1;
    lf_source_format fmt = lf_detect_format(head, (size_t)got);
    if (fmt == LF_FORMAT_LFS)
        return lf_lfs_open(path, out, err);
    if (fmt == LF_FORMAT_TEXT) {
        lf_mapped_file f;
        if (lf_file_map(path, &f, err))
            return -1;
        int rc = lf_textgraph_parse(f.data, f.size, out, err);
        lf_file_unmap(&f);
        return rc;
    }
    if (fmt == LF_FORMAT_HPROF)
        return lf_fail_at(err, 0, "unsupported format", "HPROF is not supported yet");
    if (got == 0)
        return lf_fail_at(err, 0, "not a heap dump", "the file is empty");
    return lf_fail_at(err, 0, "not a heap dump", "unrecognised first bytes");
}
