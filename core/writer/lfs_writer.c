/* lfs_writer.c - the public writer API over the snapshot builder, or in
 * streaming mode over lfs_stream (written as it comes). */
#include "lfs_writer.h"

#include <stdlib.h>
#include <string.h>

#include "../analysis/analysis.h"
#include "../model/builder.h"
#include "../lfs/lfs.h"
#include "lfs_stream.h"

struct lfs_writer {
    lf_builder *b;            /* NULL in streaming mode */
    lfs_stream *stream;
    char *path;               /* streaming mode: where it writes */
    unsigned flags;
    uint64_t taken_at_ms;     /* 0: not said */
};

lfs_writer *lfs_writer_new(unsigned flags)
{
    lfs_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->b = lf_builder_new();
    if (!w->b) {
        free(w);
        return NULL;
    }
    w->flags = flags;
    lf_builder_set_flags(w->b, (flags & LFS_WRITER_STABLE_IDS) ? LF_SNAP_IDS_STABLE : 0);
    return w;
}

lfs_writer *lfs_writer_new_streaming(const char *path)
{
    lfs_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->stream = lfs_stream_new();
    w->path = strdup(path);
    if (!w->stream || !w->path) {
        lfs_stream_abandon(w->stream);
        free(w->path);
        free(w);
        return NULL;
    }
    w->flags = LFS_WRITER_NO_ANALYSIS;
    return w;
}

int lfs_writer_objects(lfs_writer *w, uint64_t count)
{
    return w->stream ? lfs_stream_open(w->stream, w->path, count) : LF_BUILDER_OK;
}

int lfs_writer_failure(const lfs_writer *w, char *errbuf, size_t errlen)
{
    lf_error err;
    if (!w->stream || !lfs_stream_error(w->stream, &err))
        return 0;
    lf_error_format(&err, errbuf, errlen);
    return 1;
}

int lfs_writer_expect(lfs_writer *w, uint64_t objects, uint64_t references)
{
    return w->b ? lf_builder_reserve(w->b, objects, references) : 0;
}

static int64_t intern(lfs_writer *w, const char *s, size_t len)
{
    return w->b ? lf_builder_string(w->b, s, len) : lfs_stream_string(w->stream, s, len);
}

int64_t lfs_writer_class(lfs_writer *w, const char *name)
{
    return w->b ? lf_builder_class(w->b, name, strlen(name))
                : lfs_stream_class(w->stream, name, strlen(name));
}

int lfs_writer_object(lfs_writer *w, uint64_t id, int64_t class_index, uint64_t shallow_bytes)
{
    if (class_index < 0 || class_index > UINT32_MAX)
        return LF_BUILDER_BAD_INDEX;
    return w->b ? lf_builder_object(w->b, id, (uint32_t)class_index, shallow_bytes)
                : lfs_stream_object(w->stream, id, (uint32_t)class_index, shallow_bytes);
}

static int edge(lfs_writer *w, uint64_t from, uint64_t to, int weak, lf_edge_kind kind,
                uint32_t label)
{
    return w->b ? lf_builder_edge(w->b, from, to, weak, kind, label)
                : lfs_stream_edge(w->stream, from, to, weak, kind, label);
}

static int named_edge(lfs_writer *w, uint64_t from, uint64_t to, const char *field, int weak)
{
    uint32_t label = 0;
    lf_edge_kind kind = LF_EDGE_KIND_NONE;
    if (field) {
        int64_t s = intern(w, field, strlen(field));
        if (s < 0)
            return (int)s;
        label = (uint32_t)s;
        kind = LF_EDGE_KIND_FIELD;
    }
    return edge(w, from, to, weak, kind, label);
}

int lfs_writer_reference(lfs_writer *w, uint64_t from, uint64_t to, const char *field)
{
    return named_edge(w, from, to, field, 0);
}

int lfs_writer_weak_reference(lfs_writer *w, uint64_t from, uint64_t to, const char *field)
{
    return named_edge(w, from, to, field, 1);
}

int lfs_writer_element(lfs_writer *w, uint64_t from, uint64_t to, uint32_t index)
{
    return edge(w, from, to, 0, LF_EDGE_KIND_ELEMENT, index);
}

int lfs_writer_root(lfs_writer *w, uint64_t id, const char *kind, const char *name)
{
    int64_t k = intern(w, kind, strlen(kind));
    int64_t n = intern(w, name ? name : "", name ? strlen(name) : 0);
    if (k < 0 || n < 0)
        return LF_BUILDER_NOMEM;
    return w->b ? lf_builder_root(w->b, id, (uint32_t)k, (uint32_t)n)
                : lfs_stream_root(w->stream, id, (uint32_t)k, (uint32_t)n);
}

int64_t lfs_writer_frame(lfs_writer *w, const char *function, const char *file, uint32_t line,
                         uint32_t column)
{
    int64_t fn = intern(w, function ? function : "", function ? strlen(function) : 0);
    int64_t fl = intern(w, file ? file : "", file ? strlen(file) : 0);
    if (fn < 0 || fl < 0)
        return LF_BUILDER_NOMEM;
    return w->b ? lf_builder_frame(w->b, (uint32_t)fn, (uint32_t)fl, line, column)
                : lfs_stream_frame(w->stream, (uint32_t)fn, (uint32_t)fl, line, column);
}

int64_t lfs_writer_site(lfs_writer *w, int64_t caller_site, int64_t frame)
{
    if (caller_site < 0 || caller_site > UINT32_MAX || frame < 0 || frame > UINT32_MAX)
        return LF_BUILDER_BAD_INDEX;
    return w->b ? lf_builder_site(w->b, (uint32_t)caller_site, (uint32_t)frame)
                : lfs_stream_site(w->stream, (uint32_t)caller_site, (uint32_t)frame);
}

int lfs_writer_allocated_at(lfs_writer *w, uint64_t id, int64_t site, uint32_t samples)
{
    if (site < 0 || site > UINT32_MAX)
        return LF_BUILDER_BAD_INDEX;
    return w->b ? lf_builder_object_site(w->b, id, (uint32_t)site, samples)
                : lfs_stream_object_site(w->stream, id, (uint32_t)site, samples);
}

void lfs_writer_taken_at(lfs_writer *w, uint64_t unix_ms)
{
    w->taken_at_ms = unix_ms;
}

void lfs_writer_sample_rate(lfs_writer *w, double samples_per_word)
{
    if (w->b)
        lf_builder_set_sample_rate(w->b, samples_per_word);
    else
        lfs_stream_set_sample_rate(w->stream, samples_per_word);
}

static int finish_streaming(lfs_writer *w, lf_error *err)
{
    if (w->taken_at_ms)
        lfs_stream_set_clock(w->stream, (lf_clock){LF_CLOCK_WALL_MS, w->taken_at_ms});
    int rc = lfs_stream_finish(w->stream, err);
    free(w->path);
    free(w);
    return rc;
}

int lfs_writer_finish(lfs_writer *w, const char *path, char *errbuf, size_t errlen)
{
    lf_snapshot s;
    lf_error err;
    if (w->stream) {
        int rc = finish_streaming(w, &err);
        if (rc && errbuf && errlen)
            lf_error_format(&err, errbuf, errlen);
        return rc;
    }
    unsigned flags = w->flags;
    uint64_t taken_at_ms = w->taken_at_ms;
    int rc = lf_builder_finish(w->b, &s, &err);
    free(w);
    if (rc == 0) {
        s.format = LF_FORMAT_LFS;
        s.source_format = LF_FORMAT_LFS;
        if (taken_at_ms)
            s.clock = (lf_clock){LF_CLOCK_WALL_MS, taken_at_ms};
        if (!(flags & LFS_WRITER_NO_ANALYSIS))
            rc = lf_analyze(&s, 0, 2, &err);
        if (rc == 0)
            rc = lf_lfs_write(&s, path, &err);
        lf_snapshot_free(&s);
    }
    if (rc && errbuf && errlen)
        lf_error_format(&err, errbuf, errlen);
    return rc;
}

void lfs_writer_abandon(lfs_writer *w)
{
    if (w->stream)
        lfs_stream_abandon(w->stream);
    else
        lf_builder_free(w->b);
    free(w->path);
    free(w);
}
