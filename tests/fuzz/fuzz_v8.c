/* fuzz_v8.c - the V8 heap snapshot reader (JSON) on arbitrary bytes, on one
 * or two threads, whole or partial (the first byte chooses). With bit 2 of
 * the first byte, the bytes are read a second time from a file, its number
 * arrays copied in chunks of 8 to 225 bytes (core/base/file_copy.h), and
 * the two reads must agree: the same error at the same offset, or the same
 * counts and edges. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/v8/v8.h"
#include "../../core/v8/v8_values.h"
#include "fuzz.h"

/* What `inspect` reads back: node names and types, edge types. */
static void exercise_values(const lf_snapshot *s)
{
    const struct v8_lazy *l = lf_v8_lazy(s);
    uint32_t node[16], name[16];
    uint8_t type[16];
    size_t n = 0;
    lf_error err;
    for (uint32_t v = s->object_count; l && v > 0 && n < 16; v -= 1 + v / 16)
        node[n++] = v - 1;
    if (!l)
        return;
    lf_v8_node_names(l, s, node, n, name, type, &err);
    uint64_t end = s->edge_count < 200 ? s->edge_count : 200;
    uint8_t edge_type[200];
    lf_v8_edge_types(l, 0, end, edge_type);
}

/* The clock scan (v8_clock.c) fed in pieces of 1 to 64 bytes, as a gzip
 * stream hands them over. */
static void exercise_clock(const uint8_t *data, size_t size, size_t piece)
{
    lf_v8_clock_scan *scan = lf_v8_clock_begin();
    int rc = scan ? 0 : -1;
    for (size_t at = 0; at < size && rc == 0; at += piece)
        rc = lf_v8_clock_feed(scan, data + at, size - at < piece ? size - at : piece);
    if (rc == 0)
        rc = lf_v8_clock_feed(scan, data, 0);
    lf_v8_clock_end(scan, rc == 1);
}

/* The bytes read from a file of their own, its arrays copied chunk bytes
 * at a time: the reader's rc, or 1 when there is no file to read. */
static int read_copied(const uint8_t *data, size_t size, unsigned threads, int partial, size_t chunk,
                       lf_snapshot *out, lf_error *err)
{
    char path[64];
    int fd = fuzz_memfd(data, size, path, sizeof path);
    if (fd < 0)
        return 1;
    lf_v8_copy_chunk_set(chunk);
    int rc = lf_v8_parse_reporting(data, size, fd, threads, partial, NULL, out, err);
    lf_v8_copy_chunk_set(0);
    close(fd);
    return rc;
}

/* The read from copies against the read of memory (rc, err, s). */
static void compare_copied(const uint8_t *data, size_t size, unsigned threads, int partial, size_t chunk, int rc,
                           const lf_error *err, const lf_snapshot *s)
{
    lf_snapshot c;
    lf_error cerr;
    int crc = read_copied(data, size, threads, partial, chunk, &c, &cerr);
    if (crc == 1)
        return;
    if (crc != rc)
        abort();
    if (rc != 0) {
        if (cerr.position != err->position || strcmp(cerr.reason, err->reason) != 0)
            abort();
        return;
    }
    if (c.object_count != s->object_count || c.edge_count != s->edge_count ||
        memcmp(c.edge_target, s->edge_target, s->edge_count * sizeof *s->edge_target) != 0)
        abort();
    lf_snapshot_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    exercise_clock(data + 1, size - 1, 1 + (data[0] >> 2));
    lf_snapshot s;
    lf_error err;
    const unsigned threads = 1 + (data[0] & 1);
    const int partial = (data[0] & 2) != 0;
    int rc = lf_v8_parse(data + 1, size - 1, threads, partial, &s, &err);
    if (data[0] & 4)
        compare_copied(data + 1, size - 1, threads, partial, 8 + (size_t)(data[0] >> 3) * 7, rc, &err, &s);
    if (rc == 0) {
        fuzz_exercise_snapshot(&s);
        exercise_values(&s);
        lf_snapshot_free(&s);
    }
    return 0;
}
