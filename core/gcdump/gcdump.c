/* gcdump.c - the .gcdump reader (docs/DOTNET.md): the FastSerialization
 * header, the GCHeapDump object (versions 9 and 10, and newer ones a
 * version-10 reader may read), its MemoryGraph, the fields after it; then
 * the snapshot from the graph (gcdump_model.c, gcdump_roots.c). */
#include "gcdump.h"

#include <stdio.h>
#include <string.h>

#include "gcdump_internal.h"

#define GCHEAPDUMP_VERSION_READ 10 /* the newest version whose layout is known here */
#define GCDUMP_NODE_LIMIT 10000000u /* dotnet-gcdump stops there, saying nothing in the file */

int lf_gcdump_detect(const uint8_t *head, uint64_t len)
{
    return len >= FS_HEADER_LEN && memcmp(head, FS_HEADER, FS_HEADER_LEN) == 0;
}

static int expect_object(fs_cursor *c, fs_types *seen, const char *name, fs_type *type, lf_error *err)
{
    uint64_t at = c->pos;
    uint8_t tag;
    if (fs_u8(c, &tag, name, err))
        return -1;
    if (tag != FS_TAG_BEGIN_OBJECT)
        return lf_fail_at(err, at, "bad .gcdump", "%s: tag 0x%02x where an object begins", name, tag);
    if (fs_read_type(c, seen, type, err))
        return -1;
    if (strcmp(type->name, name) != 0)
        return lf_fail_at(err, at, "bad .gcdump", "a %s where the %s belongs", type->name, name);
    return 0;
}

static int check_version(const fs_type *t, uint64_t at, lf_error *err)
{
    if (t->version >= 9 && t->min_reader_version <= GCHEAPDUMP_VERSION_READ)
        return 0;
    if (t->version < 9)
        return lf_fail_at(err, at, "unsupported .gcdump",
                          "GCHeapDump version %d: versions 9 and 10 are read (what dotnet-gcdump, "
                          "dotnet-monitor and PerfView write)",
                          t->version);
    return lf_fail_at(err, at, "unsupported .gcdump",
                      "GCHeapDump version %d needs a reader of version %d; this one reads up to %d",
                      t->version, t->min_reader_version, GCHEAPDUMP_VERSION_READ);
}

/* An object reference among GCHeapDump's fields: null, a reference, or a
 * JSHeapInfo (empty), a DotNetHeapInfo (segments) written in place. */
static int skip_heap_info(fs_cursor *c, fs_types *seen, lf_error *err)
{
    uint64_t at = c->pos;
    uint8_t tag;
    fs_type t;
    if (fs_u8(c, &tag, "a heap info", err))
        return -1;
    if (tag == FS_TAG_NULL)
        return 0;
    if (tag == FS_TAG_OBJECT_REF)
        return fs_need(c, 4, "a heap info", err) ? -1 : (c->pos += 4, 0);
    if (tag != FS_TAG_BEGIN_OBJECT || fs_read_type(c, seen, &t, err))
        return tag != FS_TAG_BEGIN_OBJECT ? lf_fail_at(err, at, "bad .gcdump", "a heap info: tag 0x%02x", tag)
                                          : -1;
    if (!strcmp(t.name, "DotNetHeapInfo")) {
        int64_t all;
        uint32_t segments;
        if (fs_i64(c, &all, "the segments' size", err) || fs_count(c, 1, &segments, "the segments", err))
            return -1;
        for (uint32_t i = 0; i < segments; i++) {
            fs_type st;
            if (fs_u8(c, &tag, "a segment", err))
                return -1;
            if (tag == FS_TAG_NULL)
                continue;
            if (tag != FS_TAG_BEGIN_OBJECT || fs_read_type(c, seen, &st, err) ||
                fs_need(c, 48, "a segment", err))
                return tag != FS_TAG_BEGIN_OBJECT ? lf_fail_at(err, c->pos - 1, "bad .gcdump", "a segment")
                                                  : -1;
            c->pos += 48;
            if (fs_skip_tagged_to_end(c, err))
                return -1;
        }
    } else if (strcmp(t.name, "JSHeapInfo") != 0) {
        return lf_fail_at(err, at, "bad .gcdump", "a %s where a heap info belongs", t.name);
    }
    return fs_skip_tagged_to_end(c, err);
}

/* The GCHeapDump fields after the graph: none of them changes the graph;
 * they are checked for their size, and the tagged ones at the end skipped.
 * *sampled: the collector sampled the heap (multipliers other than 1). */
/* *clock: the time collected, a .NET DateTime's ticks (100 ns since the
 * year 1), as milliseconds since 1970. */
static int read_dump_fields(fs_cursor *c, fs_types *seen, int *sampled, lf_clock *clock, lf_error *err)
{
    uint8_t is64;
    int32_t i32, count_multiplier, size_multiplier;
    int64_t i64, ticks;
    const int64_t ticks_1970 = 621355968000000000;
    uint32_t multipliers;
    if (fs_u8(c, &is64, "Is64Bit", err) || fs_i32(c, &count_multiplier, "the count multiplier", err) ||
        fs_i32(c, &size_multiplier, "the size multiplier", err))
        return -1;
    if (skip_heap_info(c, seen, err) || skip_heap_info(c, seen, err) ||
        fs_skip_string(c, "the collection log", err) || fs_i64(c, &ticks, "the time collected", err) ||
        fs_skip_string(c, "the machine name", err) || fs_skip_string(c, "the process name", err) ||
        fs_i32(c, &i32, "the process id", err) || fs_i64(c, &i64, "the process commit", err) ||
        fs_i64(c, &i64, "the working set", err) ||
        fs_count(c, 4, &multipliers, "the count multipliers", err))
        return -1;
    c->pos += (uint64_t)multipliers * 4;
    if (ticks > ticks_1970)
        *clock = (lf_clock){LF_CLOCK_WALL_MS, (uint64_t)(ticks - ticks_1970) / 10000};
    const int32_t one = 0x3f800000; /* 1.0f: not sampled */
    *sampled = count_multiplier != one || size_multiplier != one || multipliers > 0;
    return fs_skip_tagged_to_end(c, err);
}

/* What info and every command say of the dump as a whole. */
static void note_limits(const gc_graph *g, int sampled, lf_snapshot *out)
{
    if (g->node_count == GCDUMP_NODE_LIMIT)
        snprintf(out->reader_note, sizeof out->reader_note,
                 "10,000,000 nodes, dotnet-gcdump's limit: the heap may have had more objects than the dump");
    else if (sampled)
        snprintf(out->reader_note, sizeof out->reader_note,
                 "a sampled dump (its collector scaled counts): the objects it holds are a sample of the heap");
}

/* The file as far as the fields after the graph: the graph, whether it is
 * sampled and when it was taken. */
static int read_dump(const uint8_t *data, uint64_t size, gc_graph *g, int *sampled, lf_clock *clock,
                     lf_error *err)
{
    fs_cursor c = {data, size, 0, NULL, 0, 0};
    fs_types seen = {0};
    fs_type dump, graph_type;
    if (!lf_gcdump_detect(data, size))
        return lf_fail_at(err, 0, "not a .gcdump", "no \"!FastSerialization.1\" header");
    c.pos = FS_HEADER_LEN;
    return expect_object(&c, &seen, "GCHeapDump", &dump, err) || check_version(&dump, FS_HEADER_LEN, err) ||
                   expect_object(&c, &seen, "Graphs.MemoryGraph", &graph_type, err) ||
                   gc_graph_read(&c, &graph_type, g, err) || read_dump_fields(&c, &seen, sampled, clock, err)
               ? -1
               : 0;
}

lf_clock lf_gcdump_clock(const uint8_t *data, uint64_t size)
{
    gc_graph g = {0};
    int sampled = 0;
    lf_clock clock = {LF_CLOCK_NONE, 0};
    lf_error err;
    if (read_dump(data, size, &g, &sampled, &clock, &err))
        clock = (lf_clock){LF_CLOCK_NONE, 0};
    gc_graph_free(&g);
    return clock;
}

int lf_gcdump_parse(const uint8_t *data, uint64_t size, const lf_progress *progress, lf_snapshot *out,
                    lf_error *err)
{
    gc_graph g = {0};
    int sampled = 0;
    lf_clock clock = {LF_CLOCK_NONE, 0};
    int rc = read_dump(data, size, &g, &sampled, &clock, err) || gc_model_build(&g, progress, out, err) ? -1 : 0;
    if (!rc)
        note_limits(&g, sampled, out);
    gc_graph_free(&g);
    if (rc)
        return -1;
    out->format = LF_FORMAT_GCDUMP;
    out->source_format = LF_FORMAT_GCDUMP;
    out->clock = clock;
    return 0;
}
