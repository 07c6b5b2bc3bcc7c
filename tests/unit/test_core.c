/* test_core.c - string table, text graph reader, leakfind format, writer API. */
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

/* Labels of the test graph's edges: element index 1000 + edge number, given
 * from a node's first edge on, as the lazy JVM reader gives them. */
static void fake_node_edges(const void *ctx, const lf_snapshot *s, uint32_t node, uint64_t end,
                            uint8_t *kind, uint32_t *label)
{
    (void)ctx;
    for (uint64_t e = lf_snapshot_edges_begin(s, node); e < end; e++) {
        kind[e - lf_snapshot_edges_begin(s, node)] = LF_EDGE_KIND_ELEMENT;
        label[e - lf_snapshot_edges_begin(s, node)] = (uint32_t)(1000 + e);
    }
}

void test_find_edge(void)
{
    /* Node 0 has 5003 edges (not a multiple of four): mostly to node 1; node
     * 2 weakly at 500, strongly at 700 and 900; node 3 only weakly at 3 and
     * 4999; node 4 last of all (the partial block); node 5 never. Node 1 has
     * one edge, to node 4. The scan and a batch (each question twice, in two
     * orders; labels in memory, then decoded from each node's first edge)
     * give the same, constructed answers. */
    const uint32_t deg = 5003;
    uint32_t *target = malloc((deg + 1) * sizeof *target);
    uint32_t *label = malloc((deg + 1) * sizeof *label);
    uint8_t *kind = malloc(deg + 1);
    for (uint32_t e = 0; e <= deg; e++) {
        target[e] = 1;
        label[e] = 1000 + e;
        kind[e] = LF_EDGE_KIND_ELEMENT;
    }
    target[500] = 2 | LF_EDGE_WEAK;
    target[700] = 2;
    target[900] = 2;
    target[3] = 3 | LF_EDGE_WEAK;
    target[4999] = 3 | LF_EDGE_WEAK;
    target[5002] = 4;
    target[deg] = 4;
    uint64_t offset[7] = {0, deg, deg + 1, deg + 1, deg + 1, deg + 1, deg + 1};
    lf_snapshot s;
    memset(&s, 0, sizeof s);
    s.object_count = 6;
    s.edge_count = deg + 1;
    s.edge_offset.wide = offset;
    s.edge_target = target;
    s.edge_kind = kind;
    s.edge_label = label;
    const struct {
        uint32_t from, to;
        uint64_t want;
    } ask[] = {
        {0, 2, 700},  /* strong beats an earlier weak */
        {0, 3, 3},    /* only weak: the first */
        {0, 4, 5002}, {0, 1, 0}, {0, 5, UINT64_MAX}, {1, 4, deg},
        {2, 4, UINT64_MAX}, /* no edges */
    };
    enum { N = sizeof ask / sizeof ask[0] };
    lf_edge_question q[2 * N];
    lf_edge_answer a[2 * N];
    uint64_t wrong = 0;
    for (size_t i = 0; i < N; i++) {
        wrong += lf_snapshot_find_edge(&s, ask[i].from, ask[i].to) != ask[i].want;
        q[i] = (lf_edge_question){ask[i].from, ask[i].to};
        q[2 * N - 1 - i] = q[i];
    }
    const lf_lazy_fields lazy = {NULL, NULL, fake_node_edges, NULL, NULL};
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            s.edge_kind = NULL, s.edge_label = NULL;
            s.lazy = &lazy;
        }
        CHECK(lf_edge_batch_answer(&s, q, 2 * N, a) == 0);
        for (size_t i = 0; i < 2 * N; i++) {
            uint64_t want = ask[i < N ? i : 2 * N - 1 - i].want;
            int weak = want != UINT64_MAX && lf_edge_is_weak(target[want]);
            uint8_t flags = want == UINT64_MAX ? 0 : LF_HOP_FOUND | (weak ? LF_HOP_WEAK : 0);
            wrong += a[i].flags != flags;
            if (want != UINT64_MAX)
                wrong += a[i].kind != LF_EDGE_KIND_ELEMENT || a[i].label != 1000 + want;
        }
    }
    CHECK_EQ_U64(wrong, 0);
    free(target);
    free(label);
    free(kind);
}

void test_strtab_interning(void)
{
    lf_strtab t;
    CHECK(lf_strtab_init(&t) == 0);
    CHECK_EQ_U64(lf_strtab_intern(&t, "", 0), 0);
    int64_t a = lf_strtab_intern(&t, "alpha", 5);
    int64_t b = lf_strtab_intern(&t, "beta", 4);
    CHECK_EQ_U64(a, 1);
    CHECK_EQ_U64(b, 2);
    CHECK_EQ_U64(lf_strtab_intern(&t, "alpha", 5), 1);
    CHECK_EQ_U64(lf_strtab_intern(&t, "alph", 4), 3); /* a prefix is another string */
    /* enough strings to force the hash table to grow several times */
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "s%d", i);
        CHECK_EQ_U64(lf_strtab_intern(&t, buf, (size_t)n), 4 + (uint64_t)i);
    }
    for (int i = 0; i < 5000; i += 777) {
        int n = snprintf(buf, sizeof buf, "s%d", i);
        CHECK_EQ_U64(lf_strtab_find(&t, buf, (size_t)n), 4 + (uint64_t)i);
    }
    CHECK(lf_strtab_find(&t, "missing", 7) == -1);
    CHECK_EQ_U64(t.offset[2] - t.offset[1], 5);
    CHECK(memcmp(t.bytes + t.offset[2], "beta", 4) == 0);
    lf_strtab_free(&t);
}

/* Appended strings are found only once made canonical; equal bytes become
 * the first of them that was entered, whichever the order. */
void test_strtab_append_canonical(void)
{
    lf_strtab t;
    CHECK(lf_strtab_init(&t) == 0);
    CHECK_EQ_U64(lf_strtab_append(&t, "dup", 3), 1);
    CHECK_EQ_U64(lf_strtab_append(&t, "x", 1), 2);
    CHECK_EQ_U64(lf_strtab_append(&t, "dup", 3), 3);
    CHECK(lf_strtab_find(&t, "dup", 3) == -1); /* appended: not entered */
    CHECK_EQ_U64(lf_strtab_canonical(&t, 3), 3);
    CHECK_EQ_U64(lf_strtab_canonical(&t, 1), 3);
    CHECK_EQ_U64(lf_strtab_canonical(&t, 3), 3);
    CHECK_EQ_U64(lf_strtab_find(&t, "dup", 3), 3);
    CHECK_EQ_U64(lf_strtab_intern(&t, "dup", 3), 3);
    CHECK_EQ_U64(lf_strtab_intern(&t, "x", 1), 4); /* string 2 was never entered */
    CHECK_EQ_U64(lf_strtab_canonical(&t, 2), 4);
    /* 6000 appended, every third entered: the slots grow several times and
     * keep only the entered ones */
    char buf[32];
    for (int i = 0; i < 6000; i++) {
        int n = snprintf(buf, sizeof buf, "a%d", i);
        CHECK_EQ_U64(lf_strtab_append(&t, buf, (size_t)n), 5 + (uint64_t)i);
    }
    for (int i = 0; i < 6000; i += 3)
        CHECK_EQ_U64(lf_strtab_canonical(&t, 5 + (uint32_t)i), 5 + (uint64_t)i);
    uint64_t wrong = 0;
    for (int i = 0; i < 6000; i++) {
        int n = snprintf(buf, sizeof buf, "a%d", i);
        wrong += lf_strtab_find(&t, buf, (size_t)n) != (i % 3 == 0 ? 5 + (int64_t)i : -1);
    }
    CHECK_EQ_U64(wrong, 0);
    CHECK_EQ_U64(t.hashed, 2 + 2000 + 1); /* "", dup, x (as 4), 2000 of the a's */
    CHECK_EQ_U64(lf_strtab_find(&t, "x", 1), 4);
    CHECK_EQ_U64(lf_strtab_intern(&t, "a1", 2), 6005);
    CHECK_EQ_U64(t.count, 6006);
    lf_strtab_free(&t);
}

static int parse(const char *text, lf_snapshot *s, lf_error *err)
{
    return lf_textgraph_parse((const uint8_t *)text, strlen(text), s, err);
}

void test_textgraph_parse(void)
{
    const char *text = "# comment\n"
                       "node\t0x10\t24\tNode\n"
                       "edge\t0x10\t0x20\tstrong\tnext\n" /* forward reference */
                       "\n"
                       "node\t32\t16\tjava.lang.Object[]\r\n"
                       "edge\t0x20\t0x10\tweak\t7\n"
                       "edge\t0x20\t0x99\tstrong\n" /* dangling */
                       "root\t0x10\tstatic field\tQueue.head\n"
                       "root\t0x55\tJNI global\n"; /* dangling */
    lf_snapshot s;
    lf_error err;
    CHECK(parse(text, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 2);
    CHECK_EQ_U64(s.edge_count, 2);
    CHECK_EQ_U64(s.stats.dangling_edges, 1);
    CHECK_EQ_U64(s.stats.dangling_roots, 1);
    CHECK_EQ_U64(s.object_id[0], 0x10);
    CHECK_EQ_U64(s.object_id[1], 32);
    CHECK_EQ_U64(lf_snapshot_shallow(&s, 1), 16);
    CHECK(test_str_is(lf_snapshot_class_name(&s, s.object_class[1]), "java.lang.Object[]"));
    CHECK_EQ_U64(s.edge_target[0], 1);
    CHECK_EQ_U64(s.edge_kind[0], LF_EDGE_KIND_FIELD);
    CHECK(test_str_is(lf_snapshot_string(&s, s.edge_label[0]), "next"));
    CHECK_EQ_U64(s.edge_target[1], 0 | LF_EDGE_WEAK);
    CHECK_EQ_U64(s.edge_kind[1], LF_EDGE_KIND_ELEMENT);
    CHECK_EQ_U64(s.edge_label[1], 7);
    CHECK_EQ_U64(s.root_count, 1);
    CHECK(test_str_is(lf_snapshot_string(&s, s.root[0].kind), "static field"));
    CHECK(test_str_is(lf_snapshot_string(&s, s.root[0].name), "Queue.head"));
    lf_snapshot_free(&s);
}

void test_textgraph_errors(void)
{
    static const struct {
        const char *text;
        uint64_t line;
        const char *reason;
    } cases[] = {
        {"node\t1\t8\tA\nnode\t1\t8\tB\n", 2, "duplicate object id"},
        {"node\t1\t8\n", 1, "a node record has 4 fields, this one has 3"},
        {"node\tx1\t8\tA\n", 1, "bad object id 'x1'"},
        {"node\t1\t-8\tA\n", 1, "bad shallow size '-8'"},
        {"node\t1\t99999999999999999999\tA\n", 1, "bad shallow size '99999999999999999999'"},
        {"#\nedge\t1\t2\tsoft\n", 2, "edge strength must be 'strong' or 'weak'"},
        {"root\t1\n", 1, "a root record has 3 or 4 fields, this one has 2"},
        {"node\t1\t8\tA\nobject\t2\n", 2, "unknown record 'object' (expected node, edge, root or alloc)"},
        {"node\t1\t8\tA\nalloc\t1\n", 2, "an alloc record has an id and at least one frame"},
        {"alloc\tzz\tf (a.ml:1)\n", 1, "bad object id in alloc"},
        {"edge\t1\t2\tstrong\t4294967296\n", 1, "array index out of range"},
        {"node\t1\t8\t\n", 1, "empty class name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lf_snapshot s;
        lf_error err;
        CHECK(parse(cases[i].text, &s, &err) == -1);
        CHECK_EQ_U64(err.kind, LF_ERR_INPUT);
        CHECK_EQ_U64(err.where, LF_WHERE_LINE);
        CHECK_EQ_U64(err.position, cases[i].line);
        if (strcmp(err.reason, cases[i].reason) != 0) {
            test_failures++;
            fprintf(stderr, "  case %zu: reason '%s', expected '%s'\n", i, err.reason, cases[i].reason);
        }
    }
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

static void check_sorted(const uint64_t *ids, uint64_t n, uint64_t sum);

void test_sort_ids(void)
{
    /* few runs (merged) and many runs (radix), both against a simple check */
    static const unsigned run_counts[] = {1, 2, 3, 17, 64, 65, 5000};
    for (size_t k = 0; k < sizeof run_counts / sizeof run_counts[0]; k++) {
        const uint64_t n = 20000;
        uint64_t *ids = malloc(n * sizeof *ids);
        uint64_t sum = 0, x = 12345;
        for (uint64_t i = 0; i < n; i++) {
            /* runs of ascending values restarting at a random base */
            if (i % (n / run_counts[k] + 1) == 0)
                x = (x * 6364136223846793005ull + 1442695040888963407ull) >> 20;
            x += 8 + (i % 5) * 8;
            ids[i] = x;
            sum += x;
        }
        CHECK(lf_sort_u64(ids, n) == 0);
        check_sorted(ids, n, sum);
        free(ids);
    }
}

/* Sorted ascending, and the same values (their sum) as before. */
static void check_sorted(const uint64_t *ids, uint64_t n, uint64_t sum)
{
    uint64_t check = 0;
    int sorted = 1;
    for (uint64_t i = 0; i < n; i++) {
        check += ids[i];
        if (i)
            sorted &= ids[i - 1] <= ids[i];
    }
    CHECK(sorted);
    CHECK_EQ_U64(check, sum);
}

void test_sort_ids_dump_order(void)
{
    /* A dump's order: a few thousand classes in no order, then long runs of
     * objects in address order (one per heap space). */
    const uint64_t classes = 3000, run = 6000, n = classes + 3 * run;
    uint64_t *ids = malloc(n * sizeof *ids), x = 99, sum = 0;
    for (uint64_t i = 0; i < classes; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        ids[i] = (x >> 24) & ~7ull;
    }
    for (uint64_t r = 0; r < 3; r++)
        for (uint64_t i = 0; i < run; i++)
            ids[classes + r * run + i] = ((3 - r) << 40) + i * 16;
    for (uint64_t i = 0; i < n; i++)
        sum += ids[i];
    CHECK(lf_sort_u64(ids, n) == 0);
    check_sorted(ids, n, sum);
    free(ids);
}

void test_sort_ids_one_long_run(void)
{
    /* one long sorted run with short unsorted runs before and after it */
    const uint64_t before = 1000, run = 10000, after = 700, n = before + run + after;
    uint64_t *ids = malloc(n * sizeof *ids), x = 7, sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (i >= before && i < before + run) {
            ids[i] = 4096 + (i - before) * 24;
        } else {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            ids[i] = (x >> 30) & ~7ull;
        }
        sum += ids[i];
    }
    CHECK(lf_sort_u64(ids, n) == 0);
    check_sorted(ids, n, sum);
    free(ids);
}

void test_idrank(void)
{
    /* dense, 8-aligned addresses: the rank bitmap; then sparse ones: binary search */
    for (int sparse = 0; sparse < 2; sparse++) {
        const uint64_t n = 5000;
        uint64_t *ids = malloc(n * sizeof *ids);
        for (uint64_t i = 0; i < n; i++)
            ids[i] = 0xfc000000ull + i * (sparse ? (1ull << 40) : 24) + (i % 3) * 8;
        lf_idrank r;
        CHECK(lf_idrank_build(&r, ids, n) == 0);
        CHECK(sparse ? r.words == NULL : r.words != NULL);
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < n; i++) {
            wrong += lf_idrank_find(&r, ids[i]) != i;
            wrong += lf_idrank_find(&r, ids[i] + 4) != LF_IDRANK_NONE; /* misaligned */
            if (!sparse && i + 1 < n && ids[i] + 8 < ids[i + 1])
                wrong += lf_idrank_find(&r, ids[i] + 8) != LF_IDRANK_NONE; /* a gap */
        }
        CHECK_EQ_U64(wrong, 0);
        CHECK_EQ_U64(lf_idrank_find(&r, 0), LF_IDRANK_NONE);
        CHECK_EQ_U64(lf_idrank_find(&r, ids[n - 1] + 8), LF_IDRANK_NONE);
        lf_idrank_free(&r);
        free(ids);
    }
    /* ids spanning every 64-bit value (found by fuzz_hprof): the slot count
     * wraps to 0; this is sparse, not a zero-word bitmap written past its end */
    const uint64_t ends[2] = {0, UINT64_MAX};
    lf_idrank r;
    CHECK(lf_idrank_build(&r, ends, 2) == 0);
    CHECK(r.words == NULL);
    CHECK_EQ_U64(lf_idrank_find(&r, UINT64_MAX), 1);
    CHECK_EQ_U64(lf_idrank_find(&r, 1), LF_IDRANK_NONE);
    lf_idrank_free(&r);
}

/* Ids k * stride + offset (k < n, ascending by construction), added to two
 * sets in a scrambled order with every tenth one twice, the sets merged:
 * every id must rank k, ids between them none, and the repeats counted. */
static uint64_t idset_wrong_ranks(uint64_t offset, uint64_t stride, uint64_t n, uint64_t odd_at,
                                  int *listed)
{
    lf_idset a, b;
    lf_idset_init(&a);
    lf_idset_init(&b);
    uint64_t wrong = 0, added = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = i * 7919 % n; /* n is not a multiple of 7919: a permutation */
        lf_idset *to = k < n / 2 ? &a : &b;
        wrong += lf_idset_add(to, offset + k * stride) != 0;
        added++;
        if (k % 10 == 0) {
            wrong += lf_idset_add(to, offset + k * stride) != 0;
            added++;
        }
    }
    if (odd_at < n) { /* one id of another residue mod 8, between two others */
        wrong += lf_idset_add(&b, offset + odd_at * stride + 1) != 0;
        added++;
    }
    wrong += lf_idset_merge(&a, &b) != 0;
    wrong += a.count != added;
    lf_idrank r;
    uint64_t *sorted = NULL;
    wrong += lf_idset_finish(&a, &r, &sorted) != 0;
    uint64_t unique = n + (odd_at < n);
    wrong += r.count != unique;
    *listed = sorted != NULL; /* the ids came back as a list for the index to search */
    for (uint64_t k = 0; k < n; k++) {
        uint64_t want = k + (odd_at < k); /* the odd id ranks right after id odd_at */
        wrong += lf_idrank_find(&r, offset + k * stride) != want;
        if (stride > 8)
            wrong += lf_idrank_find(&r, offset + k * stride + 8) != LF_IDRANK_NONE;
    }
    if (odd_at < n)
        wrong += lf_idrank_find(&r, offset + odd_at * stride + 1) != odd_at + 1;
    wrong += lf_idrank_find(&r, offset + n * stride) != LF_IDRANK_NONE;
    lf_idrank_free(&r);
    free(sorted);
    lf_idset_free(&a);
    lf_idset_free(&b);
    return wrong;
}

void test_idset(void)
{
    int listed = 0;
    /* a dense heap over several 4 MiB chunks, 8-aligned: the bitmaps become the index */
    CHECK_EQ_U64(idset_wrong_ranks(0x600123400ull, 24, 700001, UINT64_MAX, &listed), 0);
    CHECK_EQ_U64(listed, 0);
    /* the same with every id 5 past a multiple of 8 */
    CHECK_EQ_U64(idset_wrong_ranks(0x600654325ull, 40, 300007, UINT64_MAX, &listed), 0);
    CHECK_EQ_U64(listed, 0);
    /* one id of another residue: the set becomes a list, sorted at the end */
    CHECK_EQ_U64(idset_wrong_ranks(0x10000ull, 16, 200003, 150000, &listed), 0);
    CHECK_EQ_U64(listed, 1);
    /* ids 1 TiB apart: too spread out for bitmaps, a list */
    CHECK_EQ_U64(idset_wrong_ranks(0x1000ull, 1ull << 40, 5003, UINT64_MAX, &listed), 0);
    CHECK_EQ_U64(listed, 1);
    /* 60 ids 1 GiB apart fit in bitmaps, which are too spread out for one index */
    CHECK_EQ_U64(idset_wrong_ranks(0x1000ull, 1ull << 30, 60, UINT64_MAX, &listed), 0);
    CHECK_EQ_U64(listed, 1);
    /* nothing added */
    lf_idset e;
    lf_idset_init(&e);
    lf_idrank r;
    uint64_t *sorted = NULL;
    CHECK(lf_idset_finish(&e, &r, &sorted) == 0);
    CHECK_EQ_U64(r.count, 0);
    CHECK_EQ_U64(lf_idrank_find(&r, 8), LF_IDRANK_NONE);
    lf_idrank_free(&r);
    free(sorted);
}

/* Whether the mapping holding p is flagged for huge pages ("hg" in smaps). */
static int mapping_has_huge_advice(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    int inside = 0, found = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        } else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            found = strstr(line, " hg") != NULL;
            break;
        }
    }
    fclose(f);
    return found;
}

/* Whether p lies in a mapping of a deleted file in dir (/proc/self/maps). */
static int in_deleted_file(const void *p, const char *dir)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)p >= lo && (uintptr_t)p < hi)
            found = strstr(line, dir) && strstr(line, "(deleted)") ? 1 : -1;
    }
    if (f)
        fclose(f);
    return found == 1;
}

void test_big_spill(void)
{
    char dir[] = "/tmp/lf-spill-test-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    lf_big_set_budget(1, dir); /* every array spills */
    uint32_t *a = lf_big_calloc(3000, sizeof *a);
    CHECK(a != NULL && in_deleted_file(a, dir));
    CHECK_EQ_U64(a[2999], 0); /* a fresh file reads as zeros */
    for (uint32_t i = 0; i < 3000; i++)
        a[i] = i * 7;
    uint32_t *b = lf_big_realloc(a, 300000 * sizeof *b); /* grows in its file */
    CHECK(b != NULL && in_deleted_file(b, dir));
    CHECK_EQ_U64(b[2999], 2999 * 7);
    b[299999] = 5;
    lf_big_usage u;
    lf_big_usage_get(&u);
    CHECK(u.spilling && u.spilled_blocks >= 1 && u.spilled_peak >= 300000 * sizeof *b);
    lf_big_free(b);
    CHECK(rmdir(dir) == 0); /* nothing was ever named in it */
    lf_big_set_budget(UINT64_MAX, NULL);
    void *ram = lf_big_malloc(100);
    CHECK(ram != NULL && !in_deleted_file(ram, dir));
    lf_big_free(ram);
}

static uint32_t pattern_at(size_t i)
{
    return (uint32_t)(i * 2654435761u) ^ 0x5a5a5a5au;
}

static size_t pattern_misses(const uint32_t *a, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += a[i] != pattern_at(i);
    return bad;
}

/* The length of the mapping p starts, from /proc/self/maps; 0 if none. */
static uint64_t mapping_bytes(const void *p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    uint64_t bytes = 0;
    while (f && !bytes && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)p == lo)
            bytes = hi - lo;
    }
    if (f)
        fclose(f);
    return bytes;
}

/* Results go to files in the directory once a plan finds it fit, working
 * arrays stay in RAM; a result that shrinks gives its file's tail back, one
 * that grows stays in its file, and a RAM result that grows big enough
 * moves there. Without the store, or with a directory in memory or without
 * room, results stay in RAM and the usage says why. */
void test_big_result_store(void)
{
    char dir[] = "/tmp/lf-store-test-XXXXXX";
    lf_error err;
    CHECK(mkdtemp(dir) != NULL);
    lf_big_set_budget(UINT64_MAX, dir); /* no budget: nothing spills */
    lf_big_set_result_store(1);
    CHECK(lf_big_plan(4u << 20, 4u << 20, &err) == 0);
    const size_t n = (2u << 20) / sizeof(uint32_t); /* 2 MiB: past the 1 MiB a result needs */
    uint32_t *result = lf_big_result_calloc(n, sizeof *result);
    uint32_t *work = lf_big_malloc(n * sizeof *work);
    CHECK(result != NULL && in_deleted_file(result, dir));
    CHECK(work != NULL && !in_deleted_file(work, dir));
    CHECK_EQ_U64(result[n - 1], 0);
    for (size_t i = 0; result && i < n; i++)
        result[i] = pattern_at(i);
    lf_big_usage u;
    lf_big_usage_get(&u);
    CHECK(u.store_on && u.store_off == NULL && !u.spilling);
    CHECK_EQ_U64(u.store_peak, 2u << 20);
    uint32_t *shrunk = lf_big_realloc(result, n / 2 * sizeof *shrunk);
    CHECK(shrunk == result && mapping_bytes(shrunk) == (1u << 20));
    CHECK_EQ_U64(pattern_misses(shrunk, n / 2), 0);
    uint32_t *grown = lf_big_realloc(shrunk, 2 * n * sizeof *grown);
    CHECK(grown != NULL && in_deleted_file(grown, dir));
    CHECK_EQ_U64(pattern_misses(grown, n / 2), 0);
    CHECK_EQ_U64(grown[2 * n - 1], 0); /* the file's regrown tail reads as zeros again */
    uint32_t *small = lf_big_result_malloc(64 * sizeof *small);
    CHECK(small != NULL && !in_deleted_file(small, dir));
    for (size_t i = 0; small && i < 64; i++)
        small[i] = pattern_at(i);
    uint32_t *moved = lf_big_result_realloc(small, n * sizeof *moved);
    CHECK(moved != NULL && in_deleted_file(moved, dir));
    CHECK_EQ_U64(pattern_misses(moved, 64), 0);
    lf_big_free(moved);
    lf_big_free(grown);
    lf_big_free(work);
    CHECK(rmdir(dir) == 0); /* nothing was ever named in it */

    const char *const shm = "/dev/shm";
    lf_big_set_budget(UINT64_MAX, shm);
    if (lf_dir_in_memory(shm)) {
        CHECK(lf_big_plan(0, 4u << 20, &err) == 0);
        lf_big_usage_get(&u);
        CHECK(!u.store_on && u.store_off && strstr(u.store_off, "in memory"));
    }
    lf_big_set_budget(UINT64_MAX, "/tmp");
    CHECK(lf_big_plan(0, UINT64_MAX / 2, &err) == 0); /* no disk holds that */
    lf_big_usage_get(&u);
    CHECK(!u.store_on && u.store_off && strstr(u.store_off, "room"));
    result = lf_big_result_malloc(n * sizeof *result);
    CHECK(result != NULL && !in_deleted_file(result, "/tmp"));
    lf_big_free(result);
    lf_big_set_result_store(0);
    CHECK(lf_big_plan(0, 4u << 20, &err) == 0);
    lf_big_usage_get(&u);
    CHECK(!u.store_on && u.store_off && strstr(u.store_off, "not asked"));
    lf_big_set_budget(UINT64_MAX, NULL);
}

/* RssFile of /proc/self/status, in bytes. */
static uint64_t rss_file_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "RssFile: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (uint64_t)kb << 10;
}

/* Dropping the pages of spilled arrays and mapped files takes them out of
 * RSS and loses nothing; arrays in RAM are never dropped. */
void test_resident_release(void)
{
    const size_t n = (16u << 20) / sizeof(uint32_t);
    uint32_t *ram = lf_big_malloc(n * sizeof *ram); /* no budget yet: RAM */
    char dir[] = "/tmp/lf-resident-test-XXXXXX";
    CHECK(ram != NULL && mkdtemp(dir) != NULL);
    lf_big_set_budget(1, dir);
    /* the keeper would drop these pages on its own at any moment (RSS is
     * over a 1-byte budget): only the explicit release below may */
    lf_resident_set_cap(UINT64_MAX);
    uint32_t *spilled = lf_big_malloc(n * sizeof *spilled);
    CHECK(spilled != NULL && in_deleted_file(spilled, dir));
    char path[64];
    snprintf(path, sizeof path, "%s/mapped", dir);
    FILE *out = fopen(path, "wb");
    CHECK(out != NULL);
    for (size_t i = 0; ram && spilled && out && i < n; i++) {
        ram[i] = spilled[i] = pattern_at(i);
        fwrite(&ram[i], sizeof ram[i], 1, out);
    }
    if (out)
        fclose(out);
    lf_mapped_file mapped;
    lf_error err;
    CHECK(lf_file_map(path, &mapped, &err) == 0);
    CHECK_EQ_U64(pattern_misses((const uint32_t *)mapped.data, n), 0);
    uint64_t before = rss_file_bytes(), releases = lf_resident_releases();
    lf_resident_release();
    uint64_t after = rss_file_bytes();
    CHECK(lf_resident_releases() > releases);
    CHECK(after + (28u << 20) <= before); /* the spilled array's and the file's 32 MiB left */
    CHECK_EQ_U64(pattern_misses(spilled, n), 0);
    CHECK_EQ_U64(pattern_misses((const uint32_t *)mapped.data, n), 0);
    CHECK_EQ_U64(pattern_misses(ram, n), 0);
    lf_file_unmap(&mapped);
    unlink(path);
    lf_big_free(spilled);
    lf_big_set_budget(UINT64_MAX, NULL);
    lf_big_free(ram);
    CHECK(rmdir(dir) == 0);
}

void test_big_arrays(void)
{
    const size_t n = 48u << 20; /* above the threshold: advised */
    uint8_t *zeroed = lf_big_calloc(n / 8, 8);
    CHECK(zeroed != NULL);
    if (zeroed) {
        size_t nonzero = 0;
        for (size_t i = 0; i < n; i += 4096)
            nonzero += zeroed[i] != 0;
        CHECK_EQ_U64(nonzero, 0);
        /* where the kernel has transparent huge pages, the middle of the block carries the advice */
        if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
            CHECK_EQ_U64(mapping_has_huge_advice(zeroed + n / 2), 1);
        uint8_t *grown = lf_big_realloc(zeroed, 2 * n);
        CHECK(grown != NULL);
        if (grown) {
            grown[2 * n - 1] = 7;
            CHECK_EQ_U64(grown[n / 2], 0); /* contents kept */
            if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
                CHECK_EQ_U64(mapping_has_huge_advice(grown + n + n / 2), 1);
            lf_big_free(grown);
        } else {
            lf_big_free(zeroed);
        }
    }
    CHECK(lf_big_calloc(SIZE_MAX / 4, 8) == NULL); /* count * size overflows */
    void *small = lf_big_malloc(100);
    CHECK(small != NULL);
    lf_big_free(small);
}
