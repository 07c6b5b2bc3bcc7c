/* test_lfs.c - the leakfind format (.lfs): round trip, corruption, big sizes, the writer API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/analysis/analysis.h"
#include "../../core/base/bigmem.h"
#include "../../core/base/file.h"
#include "../../core/base/resident.h"
#include "../../core/model/edge_batch.h"
#include "../../core/model/idrank.h"
#include "../../core/model/idset.h"
#include "../../core/lfs/lfs.h"
#include "../../core/writer/lfs_writer.h"
#include "../../core/model/strtab.h"
#include "../../core/textgraph/textgraph.h"
#include "test.h"
#include <xxhash.h>
#include "test_support.h"
#include "tests.h"

static int parse(const char *text, lf_snapshot *s, lf_error *err)
{
    return lf_textgraph_parse((const uint8_t *)text, strlen(text), s, err);
}

static const char nested_list[] = "node\t1\t24\tNode\nnode\t2\t24\tNode\nnode\t3\t100\tItem\n"
                                  "node\t4\t100\tItem\nnode\t5\t9\tGarbage\n"
                                  "edge\t1\t2\tstrong\tnext\nedge\t1\t3\tstrong\titem\n"
                                  "edge\t2\t4\tstrong\titem\nedge\t2\t5\tweak\tcache\n"
                                  "root\t1\tstatic field\tQueue.head\n";

static void analyzed_nested_list(lf_snapshot *s)
{
    lf_error err;
    CHECK(parse(nested_list, s, &err) == 0);
    CHECK(lf_analyze(s, 0, 2, &err) == 0);
}

void test_lfs_roundtrip(void)
{
    lf_snapshot a, b;
    lf_error err;
    analyzed_nested_list(&a);
    char path[256];
    test_tmp_path(path, sizeof path, "roundtrip.lfs");
    CHECK(lf_lfs_write(&a, path, &err) == 0);
    CHECK(lf_lfs_open(path, &b, &err) == 0);
    CHECK_EQ_U64(b.format, LF_FORMAT_LFS);
    CHECK_EQ_U64(b.source_format, LF_FORMAT_TEXT);
    CHECK_EQ_U64(b.object_count, 5);
    CHECK_EQ_U64(b.edge_count, 4);
    CHECK(b.idom != NULL);
    /* values from the construction: 1 owns everything reachable (248 bytes) */
    CHECK_EQ_U64(lf_snapshot_retained(&b, 0), 248);
    CHECK_EQ_U64(lf_snapshot_retained(&b, 1), 124);
    CHECK_EQ_U64(b.idom[1], 0);
    CHECK_EQ_U64(b.idom[0], LF_NODE_SUPER);
    CHECK_EQ_U64(b.idom[4], LF_NODE_NONE);
    CHECK_EQ_U64(b.reachable_count, 4);
    CHECK_EQ_U64(b.reachable_shallow, 248);
    CHECK_EQ_U64(b.edge_target[3], 4 | LF_EDGE_WEAK);
    CHECK(test_str_is(lf_snapshot_string(&b, b.edge_label[3]), "cache"));
    CHECK(test_str_is(lf_snapshot_class_name(&b, b.object_class[4]), "Garbage"));
    CHECK(test_str_is(lf_snapshot_string(&b, b.root[0].name), "Queue.head"));
    CHECK_EQ_U64(b.domtree_offset[6] - b.domtree_offset[5], 1); /* one top owner */
    /* a stored analysis is used as is; one with other flags is recomputed */
    const uint32_t *stored = b.idom;
    CHECK(lf_analyze(&b, 0, 2, &err) == 0);
    CHECK(b.idom == stored);
    lf_snapshot_free(&b);
    lf_snapshot_free(&a);
    unlink(path);
}

/* Corrupting any byte of the file must give an input error, never a crash. */
/* A .lfs with valid checksums that holds both offset chunks (EOF4, and
 * another chunk renamed EOFF) is refused for that, at the chunk table. */
static void lfs_both_offset_chunks(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char data[8192];
    size_t size = f ? fread(data, 1, sizeof data, f) : 0;
    if (f)
        fclose(f);
    uint32_t chunks;
    memcpy(&chunks, data + 16, 4);
    CHECK(size > 64 && chunks > 0 && 64 + 32 * (size_t)chunks <= size);
    if (!(size > 64 && chunks > 0 && 64 + 32 * (size_t)chunks <= size))
        return;
    int renamed = 0, narrow = 0;
    for (uint32_t c = 0; c < chunks; c++) {
        unsigned char *id = data + 64 + 32 * (size_t)c;
        narrow |= memcmp(id, "EOF4", 4) == 0;
        if (!renamed && memcmp(id, "ONAM", 4) == 0) /* optional: its absence is no error */
            renamed = (memcpy(id, "EOFF", 4), 1);
    }
    CHECK(narrow && renamed); /* the nested list's 3 edges fit 32 bits; it names objects */
    /* the header's checksum covers bytes 0..55 and the chunk table */
    unsigned char covered[56 + 32 * 64];
    memcpy(covered, data, 56);
    memcpy(covered + 56, data + 64, 32 * (size_t)chunks);
    uint64_t sum = XXH3_64bits(covered, 56 + 32 * (size_t)chunks);
    memcpy(data + 56, &sum, 8);
    f = fopen(path, "wb");
    fwrite(data, 1, size, f);
    fclose(f);
    lf_snapshot b;
    lf_error err;
    CHECK(lf_lfs_open(path, &b, &err) == -1);
    CHECK(strcmp(err.reason, "corrupt leakfind snapshot") == 0);
    CHECK(strcmp(err.detail, "chunks EOFF and EOF4 both present") == 0);
    CHECK_EQ_U64(err.position, 64);
}

void test_lfs_corruption(void)
{
    lf_snapshot a, b;
    lf_error err;
    analyzed_nested_list(&a);
    char path[256];
    test_tmp_path(path, sizeof path, "corrupt.lfs");
    CHECK(lf_lfs_write(&a, path, &err) == 0);
    lf_snapshot_free(&a);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    unsigned char data[8192];
    size_t size = fread(data, 1, sizeof data, f);
    fclose(f);
    CHECK(size > 64 && size < sizeof data);
    int accepted = 0;
    for (size_t i = 0; i < size; i++) {
        unsigned char saved = data[i];
        data[i] ^= 0x41;
        f = fopen(path, "wb");
        fwrite(data, 1, size, f);
        fclose(f);
        data[i] = saved;
        if (lf_lfs_open(path, &b, &err) == 0) {
            accepted++; /* only padding bytes may change unnoticed */
            lf_snapshot_free(&b);
        } else {
            CHECK(err.kind == LF_ERR_INPUT);
            CHECK(err.where == LF_WHERE_OFFSET);
        }
    }
    CHECK(accepted < 64);
    /* truncation at every length */
    for (size_t len = 0; len < size; len += 7) {
        f = fopen(path, "wb");
        fwrite(data, 1, len, f);
        fclose(f);
        CHECK(lf_lfs_open(path, &b, &err) == -1);
        CHECK(err.kind == LF_ERR_INPUT);
    }
    f = fopen(path, "wb");
    fwrite(data, 1, 100, f);
    fclose(f);
    CHECK(lf_lfs_open(path, &b, &err) == -1);
    CHECK(strcmp(err.reason, "truncated leakfind snapshot") == 0);
    CHECK_EQ_U64(err.position, 100);
    /* Values just out of range, written with valid checksums: the element
     * checks alone must refuse them (an edge to node object_count, an idom
     * of object_count). */
    for (int which = 0; which < 2; which++) {
        analyzed_nested_list(&a);
        if (which == 0)
            ((uint32_t *)a.edge_target)[1] = a.object_count;
        else
            ((uint32_t *)a.idom)[2] = a.object_count;
        CHECK(lf_lfs_write(&a, path, &err) == 0);
        CHECK(lf_lfs_open(path, &b, &err) == -1);
        CHECK(strcmp(err.reason, "corrupt leakfind snapshot") == 0);
        char want[64];
        snprintf(want, sizeof want, "entry %u has invalid value %u", which ? 2 : 1, a.object_count);
        CHECK(strstr(err.detail, want) != NULL);
        lf_snapshot_free(&a);
    }
    analyzed_nested_list(&a);
    CHECK(lf_lfs_write(&a, path, &err) == 0);
    lf_snapshot_free(&a);
    lfs_both_offset_chunks(path);
    unlink(path);
}

/* The offset of chunk `id` in the .lfs file at path (0: not there). */
static uint64_t lfs_chunk_at(const char *path, const char *id)
{
    uint8_t head[64 + 64 * 32];
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; 64 + 32 * (i + 1) <= got; i++) {
        const uint8_t *e = head + 64 + 32 * i;
        if (memcmp(e, id, 4) == 0) {
            uint64_t at = 0;
            for (int k = 7; k >= 0; k--)
                at = at << 8 | e[8 + k];
            return at;
        }
    }
    return 0;
}

/* Writes len bytes at offset `at` of the file at path. */
static void patch_file(const char *path, uint64_t at, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fseeko(f, (off_t)at, SEEK_SET) == 0);
    CHECK(fwrite(bytes, 1, len, f) == len);
    fclose(f);
}

/* Shallow sizes past 4 bytes through the writer API (whose sizes are u64):
 * a 5 GiB object holding a small one, a 6 GiB root, and a refused duplicate
 * of a big object that must leave nothing behind. The big table (OSHB) is
 * then damaged three ways, each refused at its entry even with checksums
 * not checked. */
void test_lfs_big_sizes(void)
{
    char path[256];
    test_tmp_path(path, sizeof path, "big-sizes.lfs");
    const uint64_t five = 5ull << 30, six = 6ull << 30;
    lfs_writer *w = lfs_writer_new(LFS_WRITER_STABLE_IDS);
    int64_t big = lfs_writer_class(w, "Big");
    CHECK(lfs_writer_object(w, 1, big, five) == 0);
    CHECK(lfs_writer_object(w, 2, big, 24) == 0);
    CHECK(lfs_writer_object(w, 3, big, six) == 0);
    CHECK(lfs_writer_object(w, 1, big, six) < 0); /* duplicate id */
    CHECK(lfs_writer_reference(w, 1, 2, "small") == 0);
    CHECK(lfs_writer_root(w, 1, "global", "a") == 0);
    CHECK(lfs_writer_root(w, 3, "global", "b") == 0);
    char msg[256];
    CHECK(lfs_writer_finish(w, path, msg, sizeof msg) == 0);
    lf_snapshot s;
    lf_error err;
    CHECK(lf_lfs_open(path, &s, &err) == 0);
    if (s.object_count == 3) {
        uint32_t n1 = lf_snapshot_find_id(&s, 1), n2 = lf_snapshot_find_id(&s, 2);
        uint32_t n3 = lf_snapshot_find_id(&s, 3);
        CHECK_EQ_U64(lf_snapshot_shallow(&s, n1), five);
        CHECK_EQ_U64(lf_snapshot_shallow(&s, n2), 24);
        CHECK_EQ_U64(lf_snapshot_shallow(&s, n3), six);
        CHECK_EQ_U64(lf_snapshot_retained(&s, n1), five + 24);
        CHECK_EQ_U64(lf_snapshot_retained(&s, n3), six);
        CHECK_EQ_U64(s.reachable_shallow, five + 24 + six);
        CHECK_EQ_U64(s.object_shallow.big_count, 2);
        CHECK_EQ_U64(s.retained.big_count, 2);
    } else {
        CHECK_EQ_U64(s.object_count, 3);
    }
    lf_snapshot_free(&s);
    uint64_t oshb = lfs_chunk_at(path, "OSHB");
    CHECK(oshb != 0);
    /* entries (node, 0, bytes): 1's node after 0's, a reserved field set, a
     * size that fits 4 bytes */
    uint8_t entry[16];
    const struct {
        uint64_t at;
        uint8_t byte;
    } damage[] = {{16, 0}, {16 + 4, 1}, {16 + 8 + 4, 0}};
    for (size_t d = 0; d < sizeof damage / sizeof damage[0]; d++) {
        FILE *f = fopen(path, "rb");
        CHECK(f && fseeko(f, (off_t)(oshb + damage[d].at), SEEK_SET) == 0 && fread(entry, 1, 1, f) == 1);
        if (f)
            fclose(f);
        patch_file(path, oshb + damage[d].at, &damage[d].byte, 1);
        CHECK(lf_lfs_open_flags(path, LF_LFS_SKIP_CHECKSUMS, &s, &err) != 0);
        CHECK(strstr(err.detail, "chunk OSHB entry 1 has invalid value") != NULL);
        CHECK_EQ_U64(err.position, oshb + 16);
        patch_file(path, oshb + damage[d].at, entry, 1);
    }
    CHECK(lf_lfs_open_flags(path, LF_LFS_SKIP_CHECKSUMS, &s, &err) == 0); /* undone */
    lf_snapshot_free(&s);
    unlink(path);
}

void test_lfs_writer_api(void)
{
    char path[256];
    test_tmp_path(path, sizeof path, "writer.lfs");
    lfs_writer *w = lfs_writer_new(LFS_WRITER_STABLE_IDS);
    int64_t map = lfs_writer_class(w, "Map"), entry = lfs_writer_class(w, "Entry");
    CHECK(map == 0 && entry == 1);
    CHECK(lfs_writer_object(w, 100, map, 48) == 0);
    for (uint64_t i = 0; i < 10; i++) {
        CHECK(lfs_writer_object(w, 200 + i, entry, 32) == 0);
        CHECK(lfs_writer_element(w, 100, 200 + i, (uint32_t)i) == 0);
    }
    CHECK(lfs_writer_reference(w, 205, 206, "next") == 0);
    CHECK(lfs_writer_weak_reference(w, 209, 100, "owner") == 0);
    CHECK(lfs_writer_object(w, 100, map, 48) < 0);   /* duplicate id */
    CHECK(lfs_writer_object(w, 999, 7, 48) < 0);     /* unknown class */
    CHECK(lfs_writer_root(w, 100, "global", "the_map") == 0);
    char msg[256];
    CHECK(lfs_writer_finish(w, path, msg, sizeof msg) == 0);
    lf_snapshot s;
    lf_error err;
    CHECK(lf_lfs_open(path, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 11);
    CHECK(s.flags & LF_SNAP_IDS_STABLE);
    CHECK(s.idom != NULL);
    CHECK_EQ_U64(lf_snapshot_retained(&s, 0), 48 + 10 * 32);
    uint32_t e206 = lf_snapshot_find_id(&s, 206);
    CHECK_EQ_U64(s.idom[e206], 0); /* held by the map's element and by 205: the map owns it */
    lf_snapshot_free(&s);
    unlink(path);
}
