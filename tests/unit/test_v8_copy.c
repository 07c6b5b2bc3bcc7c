/* test_v8_copy.c - the V8 reader's number arrays read from copies of the
 * file a chunk at a time (core/base/file_copy.h) give what a read of the
 * whole mapping gives: the same arrays, row notes (labels read back), errors
 * and error offsets, whatever the chunk size, on one thread and two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/base/file.h"
#include "../../core/v8/v8.h"
#include "test.h"
#include "tests.h"
#include "v8_fixture.h"

/* The snapshot json holds, written to a file of its own: its descriptor, or -1. */
static int file_of(const char *json, size_t len)
{
    lf_error err;
    int fd = lf_temp_file(&err);
    if (fd >= 0 && lf_write_all(fd, json, len) != 0) {
        close(fd);
        fd = -1;
    }
    CHECK(fd >= 0);
    return fd;
}

/* json (malloc'd; freed here when this fails) in a file of its own, and
 * its read from memory into whole: the file's descriptor, or -1. */
static int file_and_whole(char *json, size_t len, lf_snapshot *whole)
{
    int fd = json ? file_of(json, len) : -1;
    lf_error err;
    if (fd >= 0 && lf_v8_parse((const uint8_t *)json, len, 1, 0, whole, &err) != 0) {
        CHECK(0);
        close(fd);
        fd = -1;
    }
    if (fd < 0)
        free(json);
    return fd;
}

/* json read from fd (its copy), chunk bytes at a time, whole or partial. */
static int parse_copied_as(const char *json, size_t len, int fd, unsigned threads, size_t chunk, int partial,
                           lf_snapshot *out, lf_error *err)
{
    lf_v8_copy_chunk_set(chunk);
    int rc = lf_v8_parse_reporting((const uint8_t *)json, len, fd, threads, partial, NULL, out, err);
    lf_v8_copy_chunk_set(0);
    return rc;
}

static int parse_copied(const char *json, size_t len, int fd, unsigned threads, size_t chunk, lf_snapshot *out,
                        lf_error *err)
{
    return parse_copied_as(json, len, fd, threads, chunk, 0, out, err);
}

/* The chain of 300,000 nodes (6.7 MB: split between two threads), read
 * whole from memory and from copies of 256 KiB (the default), of an odd
 * 4,099 bytes and of 100,003 bytes: the same arrays, and the construction's
 * ids, sizes and edges. */
void test_v8_copy_same_arrays(void)
{
    const uint32_t k = 300000;
    size_t len = 0;
    char *json = v8_chain_snapshot(k, &len);
    CHECK(json != NULL && len > (4u << 20));
    lf_snapshot whole;
    lf_error err;
    int fd = file_and_whole(json, len, &whole);
    if (fd < 0)
        return;
    static const size_t chunks[] = {0, 4099, 100003};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            lf_snapshot s;
            CHECK(parse_copied(json, len, fd, threads, chunks[c], &s, &err) == 0);
            v8_check_same_arrays(&whole, &s);
            if (s.object_count == k + 1) {
                CHECK_EQ_U64(lf_snapshot_object_id(&s, k), 2ull * k + 1);
                CHECK_EQ_U64(lf_snapshot_shallow(&s, k), 16);
                CHECK_EQ_U64(lf_snapshot_edges_end(&s, k), 2ull * k);
                char label[16];
                lf_snapshot_edge_label(&s, 2ull * k - 2, label, sizeof label); /* node k-1's "back" */
                CHECK(strcmp(label, "back") == 0);
            }
            lf_snapshot_free(&s);
        }
    lf_snapshot_free(&whole);
    close(fd);
    free(json);
}

/* Every chunk size from 8 to 300 bytes on a chain whose first 40 node rows
 * start with 80 blanks: chunks cut every row, inside rows, and hold no comma
 * at all (the rest then comes from the mapping). */
void test_v8_copy_small_chunks(void)
{
    const uint32_t k = 400;
    size_t len = 0;
    char *json = v8_chain_snapshot_padded(k, 40, 0, &len);
    lf_snapshot whole;
    lf_error err;
    int fd = file_and_whole(json, len, &whole);
    if (fd < 0)
        return;
    uint64_t failed = 0, wrong_ids = 0;
    for (size_t chunk = 8; chunk <= 300; chunk++) {
        lf_snapshot s;
        if (parse_copied(json, len, fd, 1, chunk, &s, &err) != 0) {
            failed++;
            continue;
        }
        if (chunk % 37 == 0)
            v8_check_same_arrays(&whole, &s); /* a sample: each decodes every label */
        for (uint32_t v = 1; v <= k && s.object_count == k + 1; v += 13)
            wrong_ids += lf_snapshot_object_id(&s, v) != 2ull * v + 1;
        lf_snapshot_free(&s);
    }
    CHECK_EQ_U64(failed, 0);
    CHECK_EQ_U64(wrong_ids, 0);
    lf_snapshot_free(&whole);
    close(fd);
    free(json);
}

/* One fault planted in the chain of 400 nodes: its reason and its offset
 * in the file, as built, from every chunk size from 8 to 300 bytes. */
typedef struct planted_fault {
    const char *row;     /* the row it is planted in (first match) */
    unsigned at;         /* byte of the row replaced... */
    const char *with;    /* ...by these bytes (as many) */
    unsigned fault_at;   /* the byte of the row the error names */
    const char *reason;
} planted_fault;

static void check_planted(const planted_fault *f)
{
    const uint32_t k = 400;
    size_t len = 0;
    char *json = v8_chain_snapshot(k, &len);
    char *row = json ? strstr(json, f->row) : NULL;
    CHECK(row != NULL);
    if (!row) {
        free(json);
        return;
    }
    memcpy(row + f->at, f->with, strlen(f->with));
    const uint64_t want_at = (uint64_t)(row - json) + f->fault_at;
    int fd = file_of(json, len);
    uint64_t wrong = 0;
    for (size_t chunk = 8; chunk <= 300 && fd >= 0; chunk++) {
        lf_snapshot s;
        lf_error err;
        if (parse_copied(json, len, fd, 1, chunk, &s, &err) == 0) {
            lf_snapshot_free(&s);
            wrong++;
        } else if (err.position != want_at || strcmp(err.reason, f->reason) != 0) {
            if (!wrong)
                fprintf(stderr, "  chunk %zu: '%s' at %llu, expected '%s' at %llu\n", chunk, err.reason,
                        (unsigned long long)err.position, f->reason, (unsigned long long)want_at);
            wrong++;
        }
    }
    CHECK_EQ_U64(wrong, 0);
    if (fd >= 0)
        close(fd);
    free(json);
}

void test_v8_copy_errors(void)
{
    /* node 200's edge rows: "\n,2,3,1005" (next) and "\n,6,4,0" (back) */
    static const planted_fault faults[] = {
        {"\n,2,3,1005\n", 4, "x", 4, "expected a non-negative integer"},
        {"\n,2,3,1005\n", 4, ",", 4, "expected a non-negative integer"}, /* "2,,,1005" */
        {"\n,2,3,1005\n", 2, "9", 2, "edge type out of range"},
        {"\n,2,3,1005\n", 6, "1006", 6, "edge target is not a node"},
        {"\n,2,3,1005\n", 7, "0x", 8, "expected ',' or ']'"},
        /* a bad type, then a bad separator in the same row: a read of the
         * whole part checks the row once it is whole, so the separator
         * is named, whatever chunk cuts the row */
        {"\n,2,3,1005\n", 2, "9,3,1005+", 10, "expected ',' or ']'"},
        /* node 300's row: "\n,3,2,601,16,2"; its size of 21 digits */
        {"\n,3,2,601,16,2", 10, "9999999999999999999992", 10, "number too large"},
    };
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        check_planted(&faults[i]);
}

/* --partial on the chain cut inside its edges (the file holds only the
 * bytes before the cut): the copies end where the file does, and the edges
 * up to the last whole row are kept, as from memory (test_v8_partial). */
void test_v8_copy_partial(void)
{
    const uint32_t k = 300000, m = 100000;
    size_t len = 0;
    char *json = v8_chain_snapshot(k, &len);
    const char *edges = json ? strstr(json, "\"edges\":[") : NULL;
    CHECK(edges != NULL);
    if (!edges) {
        free(json);
        return;
    }
    /* R = 2m + 1 edge rows kept; the cut one digit after the comma ending row R */
    const uint64_t rows = 2ull * m + 1;
    const char *p = edges + 9;
    for (uint64_t commas = 0; commas < 3 * rows; p++)
        commas += *p == ',';
    const size_t comma_at = (size_t)(p - 1 - json), cut = comma_at + 2;
    int fd = file_of(json, cut);
    static const size_t chunks[] = {0, 4099};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0] && fd >= 0; c++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            lf_snapshot s;
            lf_error err;
            CHECK(parse_copied_as(json, cut, fd, threads, chunks[c], 0, &s, &err) == -1);
            CHECK(err.truncated == 1);
            CHECK(parse_copied_as(json, cut, fd, threads, chunks[c], 1, &s, &err) == 0);
            CHECK(s.flags & LF_SNAP_PARTIAL);
            CHECK_EQ_U64(s.stats.cut_at, comma_at);
            CHECK_EQ_U64(s.object_count, k + 1);
            CHECK_EQ_U64(s.edge_count, rows);
            lf_snapshot_free(&s);
        }
    if (fd >= 0)
        close(fd);
    free(json);
}
