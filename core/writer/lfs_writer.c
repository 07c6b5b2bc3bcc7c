/* lfs_writer.c - the public writer API over the snapshot builder. */
#include "lfs_writer.h"

#include <stdlib.h>
#include <string.h>

#include "../analysis/analysis.h"
#include "../model/builder.h"
#include "../lfs/lfs.h"

struct lfs_writer {
    lf_builder *b;
    unsigned flags;
    uint64_t taken_at_ms;     /* 0: not said */
};

lfs_writer *lfs_writer_new(unsigned flags)
{
    lfs_writer *w = malloc(sizeof *w);
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

int lfs_writer_expect(lfs_writer *w, uint64_t objects, uint64_t references)
{
    return lf_builder_reserve(w->b, objects, references);
}

int64_t lfs_writer_class(lfs_writer *w, const char *name)
{
    return lf_builder_class(w->b, name, strlen(name));
}

int lfs_writer_object(lfs_writer *w, uint64_t id, int64_t class_index, uint64_t shallow_bytes)
{
    if (class_index < 0 || class_index > UINT32_MAX)
        return LF_BUILDER_BAD_INDEX;
    return lf_builder_object(w->b, id, (uint32_t)class_index, shallow_bytes);
}

static int named_edge(lfs_writer *w, uint64_t from, uint64_t to, const char *field, int weak)
{
    uint32_t label = 0;
    lf_edge_kind kind = LF_EDGE_KIND_NONE;
    if (field) {
        int64_t s = lf_builder_string(w->b, field, strlen(field));
        if (s < 0)
            return (int)s;
        label = (uint32_t)s;
        kind = LF_EDGE_KIND_FIELD;
    }
    return lf_builder_edge(w->b, from, to, weak, kind, label);
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
    return lf_builder_edge(w->b, from, to, 0, LF_EDGE_KIND_ELEMENT, index);
}

int lfs_writer_root(lfs_writer *w, uint64_t id, const char *kind, const char *name)
{
    int64_t k = lf_builder_string(w->b, kind, strlen(kind));
    int64_t n = lf_builder_string(w->b, name ? name : "", name ? strlen(name) : 0);
    if (k < 0 || n < 0)
        return LF_BUILDER_NOMEM;
    return lf_builder_root(w->b, id, (uint32_t)k, (uint32_t)n);
}

int64_t lfs_writer_frame(lfs_writer *w, const char *function, const char *file, uint32_t line,
                         uint32_t column)
{
    int64_t fn = lf_builder_string(w->b, function ? function : "", function ? strlen(function) : 0);
    int64_t fl = lf_builder_string(w->b, file ? file : "", file ? strlen(file) : 0);
    if (fn < 0 || fl < 0)
        return LF_BUILDER_NOMEM;
    return lf_builder_frame(w->b, (uint32_t)fn, (uint32_t)fl, line, column);
}

int64_t lfs_writer_site(lfs_writer *w, int64_t caller_site, int64_t frame)
{
    if (caller_site < 0 || caller_site > UINT32_MAX || frame < 0 || frame > UINT32_MAX)
        return LF_BUILDER_BAD_INDEX;
    return lf_builder_site(w->b, (uint32_t)caller_site, (uint32_t)frame);
}

int lfs_writer_allocated_at(lfs_writer *w, uint64_t id, int64_t site, uint32_t samples)
{
    if (site < 0 || site > UINT32_MAX)
        return LF_BUILDER_BAD_INDEX;
    return lf_builder_object_site(w->b, id, (uint32_t)site, samples);
}

void lfs_writer_taken_at(lfs_writer *w, uint64_t unix_ms)
{
    w->taken_at_ms = unix_ms;
}

void lfs_writer_sample_rate(lfs_writer *w, double samples_per_word)
{
    lf_builder_set_sample_rate(w->b, samples_per_word);
}

int lfs_writer_finish(lfs_writer *w, const char *path, char *errbuf, size_t errlen)
{
    lf_snapshot s;
    lf_error err;
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
    lf_builder_free(w->b);
    free(w);
}
