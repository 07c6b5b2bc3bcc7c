/* lfs_write.c - writes a snapshot as a leakfind file, front to back. */
#include "lfs.h"
#include "lfs_chunks.h"
#include "lfs_format.h"
#include "../base/file.h"
#include "../base/outfile.h"
#include "../base/bigmem.h"
#include "../model/edge_offsets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void lf_lfs_fill_meta(const lf_snapshot *s, int has_analysis, int has_sites,
                      uint64_t meta_field[LFS_META_FIELDS])
{
    memset(meta_field, 0, LFS_META_FIELDS * sizeof *meta_field);
    meta_field[LFS_META_OBJECT_COUNT] = s->object_count;
    meta_field[LFS_META_EDGE_COUNT] = s->edge_count;
    meta_field[LFS_META_CLASS_COUNT] = s->class_count;
    meta_field[LFS_META_ROOT_COUNT] = s->root_count;
    meta_field[LFS_META_STRING_COUNT] = s->string_count;
    meta_field[LFS_META_SOURCE_FORMAT] = (uint64_t)(s->source_format ? s->source_format : s->format);
    meta_field[LFS_META_SNAPSHOT_FLAGS] = s->flags;
    meta_field[LFS_META_DANGLING_EDGES] = s->stats.dangling_edges;
    meta_field[LFS_META_DANGLING_ROOTS] = s->stats.dangling_roots;
    meta_field[LFS_META_WARNINGS] = s->stats.warnings;
    meta_field[LFS_META_HAS_ANALYSIS] = (uint64_t)has_analysis;
    meta_field[LFS_META_NAMED_COUNT] = s->named_count;
    meta_field[LFS_META_CUT_AT] = s->stats.cut_at;
    meta_field[LFS_META_CUT_MISSING] = s->stats.cut_missing;
    meta_field[LFS_META_GZIP_CUT_AT] = s->stats.gzip_cut_at;
    meta_field[LFS_META_NON_OWNING_EDGES] = s->stats.non_owning_edges;
    meta_field[LFS_META_DANGLING_HOLDERS] = s->stats.dangling_holders;
    meta_field[LFS_META_DANGLING_TOP_HOLDER] = s->stats.dangling_top_holder;
    meta_field[LFS_META_DANGLING_TOP_COUNT] = s->stats.dangling_top_count;
    meta_field[LFS_META_DANGLING_EXPECTED] = s->stats.dangling_expected;
    meta_field[LFS_META_CLOCK_KIND] = s->clock.kind;
    meta_field[LFS_META_CLOCK_VALUE] = s->clock.value;
    meta_field[LFS_META_SOURCE_SIZE] = s->source_key.size;
    meta_field[LFS_META_SOURCE_MTIME_NS] = s->source_key.mtime_ns;
    meta_field[LFS_META_SOURCE_HASH] = s->source_key.hash;
    meta_field[LFS_META_SOURCE_OPTIONS] = s->source_key.options;
    if (has_sites) {
        meta_field[LFS_META_FRAME_COUNT] = s->frame_count;
        meta_field[LFS_META_SITE_COUNT] = s->site_count;
        if (s->object_samples && s->sample_rate > 0)
            memcpy(&meta_field[LFS_META_SAMPLE_RATE], &s->sample_rate, sizeof s->sample_rate);
    }
    if (has_analysis) {
        meta_field[LFS_META_REACHABLE_COUNT] = s->reachable_count;
        meta_field[LFS_META_REACHABLE_SHALLOW] = s->reachable_shallow;
        meta_field[LFS_META_ANALYSIS_FLAGS] = s->analysis_flags;
    }
}

/* Named objects: the two arrays interleaved into (node, string) pairs. */
static uint32_t *named_pairs(const lf_snapshot *s)
{
    uint32_t *named = malloc(((size_t)s->named_count + 1) * 2 * sizeof *named);
    for (uint32_t i = 0; named && i < s->named_count; i++) {
        named[2 * i] = s->named_node[i];
        named[2 * i + 1] = s->named_string[i];
    }
    return named;
}

/* The chunks in file order (the order docs/FORMAT.md lists them); returns
 * how many. object_id, edge_kind and edge_label are passed apart: a snapshot
 * may keep them lazily (see lf_lazy_fields). */
static unsigned list_chunks(const lf_snapshot *s, const uint64_t *object_id, const uint8_t *edge_kind,
                            const uint32_t *edge_label, const uint8_t *edge_type, const void *edge_offset,
                            int offsets_narrow,
                            const uint8_t *meta, const uint32_t *named, int has_sites, int has_samples,
                            int has_analysis, chunk_out chunk[LFS_MAX_CHUNKS])
{
    const uint64_t n = s->object_count;
    unsigned count = 0;
#define ADD(ID, DATA, SIZE) \
    chunk[count++] = (chunk_out){.id = (ID), .data = (DATA), .size = (SIZE)}
    ADD(LFS_META, meta, LFS_META_FIELDS * 8);
    ADD(LFS_STRO, s->string_offset, ((uint64_t)s->string_count + 1) * 8);
    ADD(LFS_STRB, s->string_bytes, s->string_offset[s->string_count]);
    ADD(LFS_CLSN, s->class_name, (uint64_t)s->class_count * 4);
    ADD(LFS_OIDS, object_id, n * 8);
    ADD(LFS_OCLS, s->object_class, n * 4);
    ADD(LFS_OSH4, s->object_shallow.narrow, n * 4);
    if (s->object_shallow.big_count)
        ADD(LFS_OSHB, s->object_shallow.big, s->object_shallow.big_count * sizeof(lf_size_big));
    if (offsets_narrow)
        ADD(LFS_EOF4, edge_offset, (n + 1) * 4);
    else
        ADD(LFS_EOFF, edge_offset, (n + 1) * 8);
    ADD(LFS_ETGT, s->edge_target, s->edge_count * 4);
    ADD(LFS_ELBL, edge_label, s->edge_count * 4);
    ADD(LFS_EKND, edge_kind, s->edge_count);
    if (edge_type)
        ADD(LFS_ETYP, edge_type, s->edge_count);
    ADD(LFS_ROOT, s->root, (uint64_t)s->root_count * sizeof(lf_root));
    ADD(LFS_ONAM, named, (uint64_t)s->named_count * 8);
    if (s->place_count)
        ADD(LFS_PLAC, s->place, (uint64_t)s->place_count * sizeof(lf_place));
    if (s->text_count)
        ADD(LFS_STXT, s->text, (uint64_t)s->text_count * sizeof(lf_object_text));
    if (has_sites) {
        ADD(LFS_FRAM, s->frame, (uint64_t)s->frame_count * sizeof(lf_frame));
        ADD(LFS_SITE, s->site, (uint64_t)s->site_count * sizeof(lf_site));
        ADD(LFS_OSIT, s->object_site, n * 4);
        if (has_samples)
            ADD(LFS_OSMP, s->object_samples, n * 4);
    }
    if (s->class_loader)
        ADD(LFS_CLDR, s->class_loader, (uint64_t)s->class_count * 4);
    if (has_analysis) {
        ADD(LFS_IDOM, s->idom, n * 4);
        ADD(LFS_RET4, s->retained.narrow, n * 4);
        if (s->retained.big_count)
            ADD(LFS_RETB, s->retained.big, s->retained.big_count * sizeof(lf_size_big));
        ADD(LFS_DTOF, s->domtree_offset, (n + 2) * 4);
        ADD(LFS_DTCH, s->domtree_child, (uint64_t)s->domtree_offset[n + 1] * 4);
    }
#undef ADD
    return count;
}

/* Each chunk 8-aligned after the table, with its hash; returns the file's size. */
static uint64_t lay_out_chunks(chunk_out *chunk, unsigned count)
{
    uint64_t at = LFS_HEADER_SIZE + (uint64_t)count * LFS_CHUNK_ENTRY_SIZE;
    for (unsigned i = 0; i < count; i++) {
        at = (at + 7) & ~(uint64_t)7;
        chunk[i].offset = at;
        chunk[i].hash = XXH3_64bits(chunk[i].data, (size_t)chunk[i].size);
        at += chunk[i].size;
    }
    return (at + 7) & ~(uint64_t)7;
}

size_t lf_lfs_fill_head(const chunk_out *chunk, unsigned count, uint64_t file_size,
                        uint8_t head[LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE])
{
    memset(head, 0, LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE);
    memcpy(head, LFS_MAGIC, 8);
    head[8] = LFS_VERSION_MAJOR;
    head[10] = LFS_VERSION_MINOR;
    put_u32(head + 12, LFS_HEADER_SIZE);
    put_u32(head + 16, count);
    put_u64(head + 24, file_size);
    put_u64(head + 32, LFS_HEADER_SIZE);
    for (unsigned i = 0; i < count; i++) {
        uint8_t *e = head + LFS_HEADER_SIZE + i * LFS_CHUNK_ENTRY_SIZE;
        put_u32(e, chunk[i].id);
        put_u64(e + 8, chunk[i].offset);
        put_u64(e + 16, chunk[i].size);
        put_u64(e + 24, chunk[i].hash);
    }
    /* The header checksum covers bytes 0..55 and the chunk table. */
    const size_t head_len = LFS_HEADER_SIZE + count * LFS_CHUNK_ENTRY_SIZE;
    XXH3_state_t *st = XXH3_createState();
    if (!st)
        return 0;
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, head, 56);
    XXH3_64bits_update(st, head + LFS_HEADER_SIZE, head_len - LFS_HEADER_SIZE);
    put_u64(head + 56, XXH3_64bits_digest(st));
    XXH3_freeState(st);
    return head_len;
}

/* Front to back, zeros where alignment leaves a gap: fd may be a pipe. */
static int write_file(int fd, const uint8_t *head, size_t head_len, const chunk_out *chunk,
                      unsigned count, uint64_t file_size)
{
    static const uint8_t zeros[8];
    uint64_t written = head_len;
    int failed = lf_write_all(fd, head, head_len);
    for (unsigned i = 0; i < count && !failed; i++) {
        if (chunk[i].offset > written)
            failed = lf_write_all(fd, zeros, chunk[i].offset - written);
        if (!failed)
            failed = lf_write_all(fd, chunk[i].data, chunk[i].size);
        written = chunk[i].offset + chunk[i].size;
    }
    if (!failed && file_size > written)
        failed = lf_write_all(fd, zeros, file_size - written);
    return failed;
}

static int write_snapshot(const lf_snapshot *s, const uint64_t *object_id, const uint8_t *edge_kind,
                          const uint32_t *edge_label, const uint8_t *edge_type, const void *edge_offset,
                          int offsets_narrow, int fd, lf_error *err)
{
    const int has_analysis = s->idom && s->retained.narrow && s->domtree_offset && s->domtree_child;
    const int has_sites = s->object_site && s->site_count;
    uint64_t meta_field[LFS_META_FIELDS];
    lf_lfs_fill_meta(s, has_analysis, has_sites, meta_field);
    uint8_t meta[LFS_META_FIELDS * 8];
    for (int i = 0; i < LFS_META_FIELDS; i++)
        put_u64(meta + 8 * i, meta_field[i]);
    uint32_t *named = named_pairs(s);
    if (!named)
        return lf_fail_nomem(err, "writing");
    chunk_out chunk[LFS_MAX_CHUNKS];
    unsigned count = list_chunks(s, object_id, edge_kind, edge_label, edge_type, edge_offset, offsets_narrow, meta, named,
                                 has_sites, meta_field[LFS_META_SAMPLE_RATE] != 0, has_analysis, chunk);
    const uint64_t file_size = lay_out_chunks(chunk, count);
    uint8_t head[LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE];
    const size_t head_len = lf_lfs_fill_head(chunk, count, file_size, head);
    if (head_len == 0) {
        free(named);
        return lf_fail_nomem(err, "writing");
    }
    int failed = write_file(fd, head, head_len, chunk, count, file_size);
    int e = errno;
    free(named);
    if (failed)
        return lf_fail_errno(err, "cannot write output", e);
    return 0;
}

/* The source's edge types when it has them (V8), in one array: the
 * snapshot's own, or *decoded (freed by the caller). -1: no memory. */
static int edge_types_to_store(const lf_snapshot *s, const uint8_t **types, uint8_t **decoded)
{
    *types = s->edge_type;
    *decoded = NULL;
    if (s->edge_type || !s->lazy || !s->lazy->edge_types)
        return 0;
    if (!(*decoded = lf_big_malloc(s->edge_count + 1)))
        return -1;
    lf_snapshot_edge_types(s, 0, s->edge_count, *decoded);
    *types = *decoded;
    return 0;
}

int lf_lfs_write_fd(const lf_snapshot *s, int fd, lf_error *err)
{
    uint64_t *ids;
    uint8_t *kinds, *decoded_types;
    uint32_t *labels;
    const uint8_t *types;
    if (lf_snapshot_decode_lazy(s, &ids, &kinds, &labels))
        return lf_fail_nomem(err, "writing");
    if (edge_types_to_store(s, &types, &decoded_types)) {
        lf_big_free(ids), lf_big_free(kinds), lf_big_free(labels);
        return lf_fail_nomem(err, "writing");
    }
    /* the file's width follows the edge total, whatever the width in memory */
    int narrow;
    void *converted = lf_edge_offsets_as_stored(s->edge_offset, s->object_count, s->edge_count, &narrow);
    const void *offsets = converted ? converted
                          : narrow ? (const void *)s->edge_offset.narrow : (const void *)s->edge_offset.wide;
    int rc = narrow < 0 ? lf_fail_nomem(err, "writing")
                        : write_snapshot(s, ids ? ids : s->object_id, kinds ? kinds : s->edge_kind,
                                         labels ? labels : s->edge_label, types, offsets, narrow, fd, err);
    lf_big_free(converted);
    lf_big_free(decoded_types);
    lf_big_free(ids);
    lf_big_free(kinds);
    lf_big_free(labels);
    return rc;
}

int lf_lfs_write(const lf_snapshot *s, const char *path, lf_error *err)
{
    lf_outfile out;
    if (lf_outfile_open(path, 0, &out, err))
        return -1;
    if (lf_lfs_write_fd(s, out.fd, err)) {
        lf_outfile_abort(&out);
        return -1;
    }
    return lf_outfile_commit(&out, err);
}
