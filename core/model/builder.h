/* builder.h - builds a snapshot from records that name objects by id.
 *
 * Objects, edges and roots may come in any order; edges and roots that name an
 * id with no object are counted as dangling and dropped. Ids map to node
 * numbers (in order of first appearance) through a hash table (idmap.h). */
#ifndef LF_BUILDER_H
#define LF_BUILDER_H

#include "snapshot.h"

typedef struct lf_builder lf_builder;

enum {
    LF_BUILDER_OK = 0,
    LF_BUILDER_NOMEM = -1,
    LF_BUILDER_DUPLICATE = -2,   /* an object id given twice */
    LF_BUILDER_TOO_MANY = -3,    /* over LF_NODE_MAX objects, or too many strings */
    LF_BUILDER_BAD_INDEX = -4,   /* a class or string index that was never returned */
};

lf_builder *lf_builder_new(void);
void lf_builder_free(lf_builder *b);
/* Interned string index, or a negative LF_BUILDER_* code. */
int64_t lf_builder_string(lf_builder *b, const char *s, size_t len);
/* Class index of the class with this name (created on first use), or < 0. */
int64_t lf_builder_class(lf_builder *b, const char *name, size_t len);
int lf_builder_object(lf_builder *b, uint64_t id, uint32_t class_index, uint64_t shallow);
int lf_builder_edge(lf_builder *b, uint64_t from_id, uint64_t to_id, int weak,
                    lf_edge_kind kind, uint32_t label);
int lf_builder_root(lf_builder *b, uint64_t id, uint32_t kind_string, uint32_t name_string);
/* Allocation sites (DESIGN 10; site_table.h): frames name strings of this
 * builder; site 0 is "no site", caller 0 makes an outermost frame. */
int64_t lf_builder_frame(lf_builder *b, uint32_t function_string, uint32_t file_string,
                         uint32_t line, uint32_t column);
int64_t lf_builder_site(lf_builder *b, uint32_t caller_site, uint32_t frame);
/* Object `id` was allocated at `site`; samples: Memprof samples in it (sampled dumps). */
int lf_builder_object_site(lf_builder *b, uint64_t id, uint32_t site, uint32_t samples);
/* The dump samples allocations at this rate (samples per word); 0: records all. */
void lf_builder_set_sample_rate(lf_builder *b, double samples_per_word);
/* For a reader that numbers its objects itself (ids 0, 1, 2... in order,
 * the references and roots given by number) and reads their real ids (an
 * address) back from the dump it keeps mapped: the snapshot gets no id
 * array (8 bytes an object), and the reader sets lf_lazy_fields.object_id
 * after lf_builder_finish. */
void lf_builder_ids_elsewhere(lf_builder *b);
/* A hint: room for about this many objects and edges, so that big inputs
 * do not grow the arrays and the id map step by step (more may follow). */
int lf_builder_reserve(lf_builder *b, uint64_t objects, uint64_t edges);
void lf_builder_set_flags(lf_builder *b, uint32_t snapshot_flags);
/* Turns the records into a snapshot (format set by the caller afterwards).
 * Frees the builder whatever the outcome. */
int lf_builder_finish(lf_builder *b, lf_snapshot *out, lf_error *err);

#endif
