/* lfs_writer.h - public C API to emit a leakfind snapshot from any program
 * (an OCaml heap walker, a custom allocator, a test).
 *
 *   lfs_writer *w = lfs_writer_new(LFS_WRITER_STABLE_IDS);
 *   int64_t node = lfs_writer_class(w, "Node");
 *   lfs_writer_object(w, 0x10, node, 24);
 *   lfs_writer_object(w, 0x20, node, 24);
 *   lfs_writer_reference(w, 0x10, 0x20, "next");
 *   lfs_writer_root(w, 0x10, "global", "list_head");
 *   lfs_writer_finish(w, "heap.lfs", err, sizeof err);  // also frees w
 *
 * Objects, references and roots may come in any order. References and roots
 * naming ids that never become objects are counted and dropped. The file gets
 * the dominator tree and retained sizes so leakfind opens it without work.
 * Functions return 0 (or an index >= 0) on success and a negative value on
 * failure: out of memory, a duplicate object id, an unknown class index. */
#ifndef LFS_WRITER_H
#define LFS_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct lfs_writer lfs_writer;

enum {
    LFS_WRITER_STABLE_IDS = 1u << 0, /* ids identify objects across snapshots (enables diff by id) */
    LFS_WRITER_NO_ANALYSIS = 1u << 1 /* do not store dominators and retained sizes */
};

lfs_writer *lfs_writer_new(unsigned flags);
/* A writer that writes path while the objects come, for a producer that
 * numbers them itself (the OCaml agent): lfs_writer_objects says how many
 * before the first object; then objects come in id order 0, 1, 2..., each
 * followed by its own references (weak ones too), and the per-object and
 * per-reference records go to the file through small buffers instead of
 * being held until lfs_writer_finish (which then ignores its path). Roots,
 * classes, strings and sites may come at any time. No analysis, no stable
 * ids. */
lfs_writer *lfs_writer_new_streaming(const char *path);
int lfs_writer_objects(lfs_writer *w, uint64_t count);
/* Why the writer failed, when it did (a streaming writer's file could not
 * be written, say): 1 and the message in errbuf, else 0. */
int lfs_writer_failure(const lfs_writer *w, char *errbuf, size_t errlen);
/* Optional hint: about how many objects and references will come (an upper
 * bound is fine: unused room costs address space, not memory, except the id
 * table's). Saves the growing of big arrays; more may still follow. */
int lfs_writer_expect(lfs_writer *w, uint64_t objects, uint64_t references);
int64_t lfs_writer_class(lfs_writer *w, const char *name);
int lfs_writer_object(lfs_writer *w, uint64_t id, int64_t class_index, uint64_t shallow_bytes);
/* A strong reference held in a named field (field may be NULL). */
int lfs_writer_reference(lfs_writer *w, uint64_t from, uint64_t to, const char *field);
/* A strong reference held in array element `index`. */
int lfs_writer_element(lfs_writer *w, uint64_t from, uint64_t to, uint32_t index);
/* A weak reference: kept for paths and display, never ownership. */
int lfs_writer_weak_reference(lfs_writer *w, uint64_t from, uint64_t to, const char *field);
int lfs_writer_root(lfs_writer *w, uint64_t id, const char *kind, const char *name);
/* Allocation sites: a frame (function, source file, 1-based line and column,
 * 0 when unknown), a stack as a chain of frames (site = frame called from
 * caller_site; caller 0: outermost), and the site each object was allocated
 * at. A stack is built outermost first:
 *   int64_t s = 0;
 *   for (outermost .. innermost frame f) s = lfs_writer_site(w, s, f);
 * Equal frames and stacks get one index. */
int64_t lfs_writer_frame(lfs_writer *w, const char *function, const char *file, uint32_t line,
                         uint32_t column);
int64_t lfs_writer_site(lfs_writer *w, int64_t caller_site, int64_t frame);
/* samples: how many allocation samples fell in the object, for a sampled dump. */
int lfs_writer_allocated_at(lfs_writer *w, uint64_t id, int64_t site, uint32_t samples);
/* The allocations were sampled at this rate (samples per word, 0 < rate <= 1). */
void lfs_writer_sample_rate(lfs_writer *w, double samples_per_word);
/* When the heap was walked, in milliseconds since 1970: a series of
 * snapshots is then put in order by it, whatever order the files are named
 * in (not said: the order given on the command line). */
void lfs_writer_taken_at(lfs_writer *w, uint64_t unix_ms);
/* Writes the file atomically (temporary file, then rename) and frees w.
 * On failure, a message goes to errbuf. */
int lfs_writer_finish(lfs_writer *w, const char *path, char *errbuf, size_t errlen);
/* Frees w without writing. */
void lfs_writer_abandon(lfs_writer *w);

#endif
