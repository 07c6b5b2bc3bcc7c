/* lfs_stream.h - a leakfind file written while its objects are produced,
 * for a producer that numbers them itself: objects come in id order 0, 1,
 * 2... up to a count said before the first, each followed by its own
 * references. What is per object or per reference goes to the file (or a
 * temporary file beside it) through small buffers as it comes, so the
 * producer's memory does not grow with the graph; strings, classes, roots
 * and allocation sites stay in memory (few) and go last, the header and
 * chunk table at the front once every size is known.
 *
 * Used by lfs_writer in streaming mode (lfs_writer_new_streaming); the file
 * is the one lf_lfs_write would write for the same records but for the
 * chunks' order (docs/FORMAT.md: a reader finds chunks by the table). No
 * analysis, no stable ids. */
#ifndef LF_LFS_STREAM_H
#define LF_LFS_STREAM_H

#include <stdint.h>

#include "../base/error.h"
#include "../model/snapshot.h"

typedef struct lfs_stream lfs_stream;

/* Errors are LF_BUILDER_* codes (builder.h); lfs_stream_error says more. */
lfs_stream *lfs_stream_new(void);
int64_t lfs_stream_string(lfs_stream *s, const char *text, size_t len);
int64_t lfs_stream_class(lfs_stream *s, const char *name, size_t len);
/* Opens the temporary file beside path; objects: exactly how many will come. */
int lfs_stream_open(lfs_stream *s, const char *path, uint64_t objects);
/* The next object: its id must be the count given so far. */
int lfs_stream_object(lfs_stream *s, uint64_t id, uint32_t class_index, uint64_t shallow);
/* A reference of the object given last (from must be its id); a target id
 * at or past the object count is dangling, counted and dropped. */
int lfs_stream_edge(lfs_stream *s, uint64_t from, uint64_t to, int weak, lf_edge_kind kind,
                    uint32_t label);
int lfs_stream_root(lfs_stream *s, uint64_t id, uint32_t kind_string, uint32_t name_string);
int64_t lfs_stream_frame(lfs_stream *s, uint32_t function, uint32_t file, uint32_t line,
                         uint32_t column);
int64_t lfs_stream_site(lfs_stream *s, uint32_t caller, uint32_t frame);
/* Kept apart (16 bytes each: only sampled objects have a site) and made
 * into the per-object chunks at the end; ids past the count are dropped. */
int lfs_stream_object_site(lfs_stream *s, uint64_t id, uint32_t site, uint32_t samples);
void lfs_stream_set_sample_rate(lfs_stream *s, double samples_per_word);
void lfs_stream_set_clock(lfs_stream *s, lf_clock clock);
/* What failed first (an open, a write, objects out of order), if anything
 * did: 1 and err filled, else 0. */
int lfs_stream_error(const lfs_stream *s, lf_error *err);
/* Writes the rest and the header, renames the file into place; frees s. */
int lfs_stream_finish(lfs_stream *s, lf_error *err);
/* Removes the temporary files; frees s. */
void lfs_stream_abandon(lfs_stream *s);

#endif
