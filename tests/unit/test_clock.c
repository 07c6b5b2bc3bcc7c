/* test_clock.c - when a dump says it was taken (lf_clock, DESIGN 15): the
 * HPROF header, V8's largest heap-object id (read whole and fed in pieces
 * of any size, plain and gzip), a .gcdump's time collected and an .lfs's
 * META, by the readers and by the probe that reads them before analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../core/gcdump/gcdump.h"
#include "../../core/hprof/hprof.h"
#include "../../core/input/clock_probe.h"
#include "../../core/input/open.h"
#include "../../core/lfs/lfs.h"
#include "../../core/v8/v8.h"
#include "../../core/writer/lfs_writer.h"
#include "gcdump_writer.h"
#include "hprof_writer.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, len, f) == len);
    if (f)
        fclose(f);
}

static void write_gzip(const char *path, const void *data, size_t len)
{
    gzFile gz = gzopen(path, "wb");
    CHECK(gz && gzwrite(gz, data, (unsigned)len) == (int)len);
    if (gz)
        gzclose(gz);
}

/* 2026-12-02 20:00:00.123 UTC, in milliseconds since 1970 */
#define TAKEN_MS 1796241600123ull

void test_clock_hprof_header(void)
{
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    for (int i = 0; i < 8; i++) /* the time hw_begin left 0 */
        b.data[strlen("JAVA PROFILE 1.0.2") + 1 + 4 + i] = (uint8_t)(TAKEN_MS >> (56 - 8 * i));
    lf_clock c = lf_hprof_header_clock(b.data, b.len);
    CHECK(c.kind == LF_CLOCK_WALL_MS);
    CHECK_EQ_U64(c.value, TAKEN_MS);
    /* cut inside the time, or no time at all: not known */
    CHECK(lf_hprof_header_clock(b.data, b.len - 1).kind == LF_CLOCK_NONE);
    CHECK(lf_hprof_header_clock((const uint8_t *)"JAVA PROFILE 1.0.2", 18).kind == LF_CLOCK_NONE);
    memset(b.data + b.len - 8, 0, 8);
    CHECK(lf_hprof_header_clock(b.data, b.len).kind == LF_CLOCK_NONE);
    free(b.data);
}

/* Six nodes: the root (synthetic, id 1), an object 9, a native node whose
 * id (900) is larger than every heap object's, a synthetic 777, a string
 * 41 (the largest heap object) and a closure 13. Their edges: root -> each. */
static const char v8_with_natives[] =
    "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],"
    "\"node_types\":[[\"hidden\",\"array\",\"string\",\"object\",\"code\",\"closure\",\"regexp\","
    "\"number\",\"native\",\"synthetic\"]],\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],"
    "\"edge_types\":[[\"context\",\"element\",\"property\",\"internal\",\"hidden\",\"shortcut\",\"weak\"]]},"
    "\"node_count\":6,\"edge_count\":5},\n"
    "\"nodes\":[9,1,1,0,5,\n3,2,9,16,0, 8,2,900,8,0,\n9,1,777,0,0,2,2,41,24,0,5,2,13,32,0],\n"
    "\"edges\":[1,0,5,1,1,10,1,2,15,1,3,20,1,4,25],\n\"strings\":[\"\",\"(root)\",\"N\"]}\n";

void test_clock_v8_ids(void)
{
    size_t len = sizeof v8_with_natives - 1;
    lf_snapshot s;
    lf_error err;
    CHECK(lf_v8_parse((const uint8_t *)v8_with_natives, len, 1, 0, &s, &err) == 0);
    CHECK(s.clock.kind == LF_CLOCK_V8_IDS);
    CHECK_EQ_U64(s.clock.value, 41);
    lf_snapshot_free(&s);
    /* fed in pieces of every size from 1 byte to the whole: the same */
    for (size_t piece = 1; piece <= len; piece += piece < 16 ? 1 : 37) {
        lf_v8_clock_scan *scan = lf_v8_clock_begin();
        int rc = 0;
        for (size_t at = 0; at < len && rc == 0; at += piece)
            rc = lf_v8_clock_feed(scan, (const uint8_t *)v8_with_natives + at, len - at < piece ? len - at : piece);
        if (rc == 0) /* the end of the file */
            rc = lf_v8_clock_feed(scan, NULL, 0);
        lf_clock c = lf_v8_clock_end(scan, rc == 1);
        CHECK(rc == 1 && c.kind == LF_CLOCK_V8_IDS && c.value == 41);
    }
    /* cut before the nodes end, or a value no nodes array has: not known */
    lf_v8_clock_scan *scan = lf_v8_clock_begin();
    int rc = lf_v8_clock_feed(scan, (const uint8_t *)v8_with_natives, 400);
    CHECK(rc == 0 && lf_v8_clock_feed(scan, NULL, 0) == -1 && lf_v8_clock_end(scan, 0).kind == LF_CLOCK_NONE);
    char *bad = strdup(v8_with_natives);
    char *at = strstr(bad, "2,2,41");
    at[4] = '-';
    scan = lf_v8_clock_begin();
    rc = lf_v8_clock_feed(scan, (const uint8_t *)bad, len);
    CHECK(rc == -1 && lf_v8_clock_end(scan, 0).kind == LF_CLOCK_NONE);
    free(bad);
}

void test_clock_probe_files(void)
{
    char plain[512], gz[512], lfs[512], text[512];
    test_tmp_path(plain, sizeof plain, "clock.heapsnapshot");
    test_tmp_path(gz, sizeof gz, "clock.heapsnapshot.gz");
    test_tmp_path(lfs, sizeof lfs, "clock.lfs");
    test_tmp_path(text, sizeof text, "clock.txt");
    size_t len = sizeof v8_with_natives - 1;
    write_file(plain, v8_with_natives, len);
    write_gzip(gz, v8_with_natives, len);
    lf_source_format f;
    lf_clock c = lf_probe_clock(plain, &f);
    CHECK(f == LF_FORMAT_V8 && c.kind == LF_CLOCK_V8_IDS && c.value == 41);
    c = lf_probe_clock(gz, &f);
    CHECK(f == LF_FORMAT_V8 && c.kind == LF_CLOCK_V8_IDS && c.value == 41);
    /* converted, the clock stays */
    lf_snapshot s;
    lf_error err;
    CHECK(lf_open(gz, NULL, &s, &err) == 0 && lf_lfs_write(&s, lfs, &err) == 0);
    lf_snapshot_free(&s);
    c = lf_probe_clock(lfs, &f);
    CHECK(f == LF_FORMAT_V8 && c.kind == LF_CLOCK_V8_IDS && c.value == 41);
    /* a text graph has none */
    write_file(text, "node\t1\t8\tA\nroot\t1\tglobal\n", 24);
    c = lf_probe_clock(text, &f);
    CHECK(f == LF_FORMAT_TEXT && c.kind == LF_CLOCK_NONE);
    CHECK(lf_probe_clock("/nonexistent/leakfind", &f).kind == LF_CLOCK_NONE && f == LF_FORMAT_UNKNOWN);
    unlink(plain);
    unlink(gz);
    unlink(lfs);
    unlink(text);
}

/* The writer API's time, through the file and back. */
void test_clock_lfs_writer(void)
{
    char path[512];
    test_tmp_path(path, sizeof path, "clock-writer.lfs");
    lfs_writer *w = lfs_writer_new(0);
    int64_t cls = lfs_writer_class(w, "A");
    CHECK(lfs_writer_object(w, 0x10, cls, 16) == 0 && lfs_writer_root(w, 0x10, "global", "a") == 0);
    lfs_writer_taken_at(w, TAKEN_MS);
    char msg[256];
    CHECK(lfs_writer_finish(w, path, msg, sizeof msg) == 0);
    lf_source_format f;
    lf_clock c = lf_probe_clock(path, &f);
    CHECK(f == LF_FORMAT_LFS && c.kind == LF_CLOCK_WALL_MS && c.value == TAKEN_MS);
    lf_snapshot s;
    lf_error err;
    CHECK(lf_lfs_open(path, &s, &err) == 0);
    CHECK(s.clock.kind == LF_CLOCK_WALL_MS && s.clock.value == TAKEN_MS);
    lf_snapshot_free(&s);
    unlink(path);
}

/* A .gcdump's time collected is .NET ticks: 100 ns since 0001-01-01. */
void test_clock_gcdump(void)
{
    static const gw_type types[] = {{"[.NET Roots]", 0}, {"A", 24}};
    static const uint32_t kids[] = {1};
    static const gw_node nodes[] = {{0, -1, 0, 1, kids}, {1, -1, 0x1000, 0, NULL}};
    gw_buf b = {0};
    b.time_collected = 621355968000000000ll + (int64_t)TAKEN_MS * 10000;
    CHECK(gw_write_dump(&b, 10, types, 2, nodes, 2, -1) == 0);
    lf_clock c = lf_gcdump_clock(b.data, b.len);
    CHECK(c.kind == LF_CLOCK_WALL_MS);
    CHECK_EQ_U64(c.value, TAKEN_MS);
    lf_snapshot s;
    lf_error err;
    CHECK(lf_gcdump_parse(b.data, b.len, NULL, &s, &err) == 0);
    CHECK(s.clock.kind == LF_CLOCK_WALL_MS && s.clock.value == TAKEN_MS);
    lf_snapshot_free(&s);
    /* as dotnet-gcdump writes it: 0, no time */
    gw_buf zero = {0};
    CHECK(gw_write_dump(&zero, 10, types, 2, nodes, 2, -1) == 0);
    CHECK(lf_gcdump_clock(zero.data, zero.len).kind == LF_CLOCK_NONE);
    gw_free(&b);
    gw_free(&zero);
}
